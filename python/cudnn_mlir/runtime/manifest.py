"""The manifest of a compiled module, parsed.

A compiled model (model.so) exports ``const char cmrt_module_manifest[]``::

    cudnn-mlir-module 1
    entry forward
    arg 0 in f32 [1,64,56,56] [200704,3136,56,1]
    arg 1 out f32 [1,64,56,56] [200704,3136,56,1]
    end

docs/abi.md ("Calling a compiled module") is the specification. The parser
is the runtime's (cmrtManifestParse, runtime/lib/module/Manifest.cpp), the
one cudnn-run calls too: this module calls it through ctypes and turns what
it returns into the dataclasses below. It needs the runtime library
(library.find_runtime says where it looks), not torch.
"""

import ctypes
from dataclasses import dataclass
from typing import Dict, Tuple

from .library import find_runtime

MANIFEST_VERSION = 1
MAGIC = "cudnn-mlir-module"

#: dtype spelling -> bytes per element in device memory (i1: one byte).
DTYPE_SIZES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8,
               "i1": 1, "i8": 1, "i32": 4, "i64": 8}


class ManifestArg(ctypes.Structure):
    """cmrtManifestArg (Runtime.h); test/Python/abi-layout.test checks that
    this layout is the header's."""
    _fields_ = [("index", ctypes.c_int64), ("isOutput", ctypes.c_int32),
                ("dtype", ctypes.c_int32), ("dtypeName", ctypes.c_char_p),
                ("elementBytes", ctypes.c_int64), ("rank", ctypes.c_int64),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64))]


class ManifestError(ValueError):
    """A malformed manifest: "expects ..., but got ..."."""


@dataclass(frozen=True)
class ArgSpec:
    index: int
    is_output: bool
    dtype: str
    dims: Tuple[int, ...]
    strides: Tuple[int, ...]  # in elements, one per dim

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n

    @property
    def storage_elements(self) -> int:
        """Elements the buffer spans: the largest offset + 1 (0 if empty)."""
        if any(d == 0 for d in self.dims):
            return 0
        return 1 + sum((d - 1) * s for d, s in zip(self.dims, self.strides))

    @property
    def storage_bytes(self) -> int:
        return self.storage_elements * DTYPE_SIZES[self.dtype]

    def signature(self) -> str:
        """``in f32 [1,64,56,56] [200704,3136,56,1]``"""
        return "%s %s %s %s" % ("out" if self.is_output else "in", self.dtype,
                                _format_list(self.dims),
                                _format_list(self.strides))


@dataclass(frozen=True)
class Entry:
    name: str
    args: Tuple[ArgSpec, ...]  # ins first, then outs, in call order

    @property
    def inputs(self) -> Tuple[ArgSpec, ...]:
        return tuple(a for a in self.args if not a.is_output)

    @property
    def outputs(self) -> Tuple[ArgSpec, ...]:
        return tuple(a for a in self.args if a.is_output)


@dataclass(frozen=True)
class Manifest:
    version: int
    entries: Dict[str, Entry]  # in manifest order


def _format_list(values) -> str:
    return "[" + ",".join(str(v) for v in values) + "]"


def _bind(lib):
    """Declares the manifest entry points' signatures on `lib`, once."""
    if getattr(lib, "_cmrt_manifest_bound", False):
        return lib
    handle = ctypes.c_void_p
    i64 = ctypes.c_int64
    signatures = {
        "cmrtManifestParse": [ctypes.c_char_p, i64, ctypes.POINTER(handle)],
        "cmrtManifestDestroy": [handle],
        "cmrtManifestGetVersion": [handle, ctypes.POINTER(i64)],
        "cmrtManifestGetEntryCount": [handle, ctypes.POINTER(i64)],
        "cmrtManifestGetEntryName": [handle, i64,
                                     ctypes.POINTER(ctypes.c_char_p)],
        "cmrtManifestGetArgCount": [handle, i64, ctypes.POINTER(i64)],
        "cmrtManifestGetArg": [handle, i64, i64, ctypes.POINTER(ManifestArg)],
    }
    for name, args in signatures.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_int
    lib.cmrtGetLastErrorMessage.argtypes = []
    lib.cmrtGetLastErrorMessage.restype = ctypes.c_char_p
    lib._cmrt_manifest_bound = True
    return lib


def _last_error(lib) -> str:
    return (lib.cmrtGetLastErrorMessage() or b"").decode("utf-8", "replace")


class _Reader:
    """Reads a parsed cmrtManifest through its accessors."""

    def __init__(self, lib, handle):
        self.lib = lib
        self.handle = handle

    def call(self, name, *args):
        if getattr(self.lib, name)(self.handle, *args) != 0:
            # Only a runtime bug gets here: the handle and indices are valid.
            raise ManifestError("%s failed: %s" % (name, _last_error(self.lib)))

    def count(self, name, *args) -> int:
        value = ctypes.c_int64()
        self.call(name, *args, ctypes.byref(value))
        return value.value

    def arg(self, entry, index) -> ArgSpec:
        raw = ManifestArg()
        self.call("cmrtManifestGetArg", entry, index, ctypes.byref(raw))
        return ArgSpec(raw.index, bool(raw.isOutput),
                       raw.dtypeName.decode("ascii"),
                       tuple(raw.dims[:raw.rank]),
                       tuple(raw.strides[:raw.rank]))

    def entry(self, index) -> Entry:
        name = ctypes.c_char_p()
        self.call("cmrtManifestGetEntryName", index, ctypes.byref(name))
        args = self.count("cmrtManifestGetArgCount", index)
        return Entry(name.value.decode("ascii"),
                     tuple(self.arg(index, i) for i in range(args)))

    def manifest(self) -> Manifest:
        entries = (self.entry(i) for i in
                   range(self.count("cmrtManifestGetEntryCount")))
        return Manifest(self.count("cmrtManifestGetVersion"),
                        {e.name: e for e in entries})


def parse_manifest(text, runtime=None) -> Manifest:
    """Parses manifest text (str or bytes) with the runtime's parser;
    raises ManifestError with its message. `runtime` is the runtime library
    (a ctypes.CDLL) to use; None finds it (library.find_runtime)."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    lib = _bind(runtime if runtime is not None else find_runtime())
    handle = ctypes.c_void_p()
    if lib.cmrtManifestParse(text, len(text), ctypes.byref(handle)) != 0:
        raise ManifestError(_last_error(lib))
    try:
        return _Reader(lib, handle).manifest()
    finally:
        lib.cmrtManifestDestroy(handle)
