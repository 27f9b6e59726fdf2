"""The manifest of a compiled module, parsed.

A compiled model (model.so) exports ``const char cmrt_module_manifest[]``::

    cudnn-mlir-module 1
    entry forward
    arg 0 in f32 [1,64,56,56] [200704,3136,56,1]
    arg 1 out f32 [1,64,56,56] [200704,3136,56,1]
    end

docs/abi.md ("Calling a compiled module") is the specification. This is the
twin of the runtime's parser (runtime/lib/module/Manifest.cpp, which
cudnn-run calls): the same input is accepted or refused with the same
message; change both together.
"""

import re
from dataclasses import dataclass
from typing import Dict, Tuple

MANIFEST_VERSION = 1
MAGIC = "cudnn-mlir-module"

#: dtype spelling -> bytes per element in device memory (i1: one byte).
DTYPE_SIZES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8,
               "i1": 1, "i8": 1, "i32": 4, "i64": 8}

_MAX_VALUE = 1 << 62  # each number in the manifest
_MAX_ELEMENTS = 1 << 59  # a tensor's elements and its buffer's span
_COUNT = re.compile(r"[0-9]+", re.ASCII)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_WORDS = re.compile(r"[^ \t]+")


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


def _parse_count(text):
    if not _COUNT.fullmatch(text):
        return None
    value = int(text)
    return value if value < _MAX_VALUE else None


def _parse_list(text):
    if len(text) < 2 or text[0] != "[" or text[-1] != "]":
        return None
    body = text[1:-1]
    if not body:
        return ()
    values = tuple(_parse_count(part) for part in body.split(","))
    return None if None in values else values


def _size_fits(dims, strides) -> bool:
    if 0 in dims:
        return True
    elements = 1
    last = 0
    for d, s in zip(dims, strides):
        elements *= d
        last += (d - 1) * s
    return elements < _MAX_ELEMENTS and last + 1 < _MAX_ELEMENTS


class _Parser:
    def __init__(self, text):
        self.lines = text.split("\n")
        self.pos = 0
        self.line_number = 0

    def next_line(self):
        """The next non-blank line, trimmed; None at the end."""
        while self.pos < len(self.lines):
            line = self.lines[self.pos].strip(" \t\r\n")
            self.pos += 1
            self.line_number += 1
            if line:
                return line
        return None

    def at(self):
        return "line %d of the manifest" % self.line_number

    def parse(self) -> Manifest:
        line = self.next_line()
        if line is None:
            raise ManifestError(
                "expects the manifest to start with '%s %d', but got an "
                "empty manifest" % (MAGIC, MANIFEST_VERSION))
        words = _WORDS.findall(line)
        version = _parse_count(words[1]) if len(words) == 2 else None
        if self.line_number != 1 or len(words) != 2 or words[0] != MAGIC \
                or version is None:
            raise ManifestError("expects %s to be '%s <version>', but got "
                                "'%s'" % (self.at(), MAGIC, line))
        if version != MANIFEST_VERSION:
            raise ManifestError(
                "expects manifest format version %d, but got version %d (the "
                "module was compiled by another cudnn-mlir; recompile it or "
                "use a matching loader)" % (MANIFEST_VERSION, version))
        entries = {}
        while True:
            line = self.next_line()
            if line is None:
                break
            entry = self.parse_entry(line, entries)
            entries[entry.name] = entry
        if not entries:
            raise ManifestError(
                "expects at least one entry in the manifest, but got none")
        return Manifest(version, entries)

    def parse_entry(self, header, entries) -> Entry:
        words = _WORDS.findall(header)
        if len(words) != 2 or words[0] != "entry":
            raise ManifestError("expects %s to be 'entry <name>', but got "
                                "'%s'" % (self.at(), header))
        name = words[1]
        if not _NAME.fullmatch(name):
            raise ManifestError(
                "expects %s to name the entry with letters, digits and '_' "
                "(not starting with a digit), but got '%s'" % (self.at(), name))
        if name in entries:
            raise ManifestError("expects entry names to be unique, but got "
                                "'%s' twice (%s)" % (name, self.at()))
        entry_line = self.line_number
        args = []
        seen_output = False
        while True:
            line = self.next_line()
            if line is None:
                raise ManifestError(
                    "expects 'end' to close entry '%s' (line %d), but got the "
                    "end of the manifest" % (name, entry_line))
            words = _WORDS.findall(line)
            if words == ["end"]:
                return Entry(name, tuple(args))
            if len(words) != 6 or words[0] != "arg":
                raise ManifestError(
                    "expects %s to be 'arg <index> in|out <dtype> [dims] "
                    "[strides]' or 'end', but got '%s'" % (self.at(), line))
            arg = self.parse_arg(words, name, len(args), seen_output)
            seen_output = seen_output or arg.is_output
            args.append(arg)

    def parse_arg(self, words, entry, expected, seen_output) -> ArgSpec:
        index = _parse_count(words[1])
        if index != expected:
            raise ManifestError("expects %s to have arg index %d, but got "
                                "'%s'" % (self.at(), expected, words[1]))
        if words[2] not in ("in", "out"):
            raise ManifestError("expects %s to say 'in' or 'out', but got "
                                "'%s'" % (self.at(), words[2]))
        is_output = words[2] == "out"
        if not is_output and seen_output:
            raise ManifestError(
                "expects the ins of entry '%s' before its outs, but got an in "
                "after an out (%s)" % (entry, self.at()))
        if words[3] not in DTYPE_SIZES:
            raise ManifestError(
                "expects %s to have a dtype of f16, bf16, f32, f64, i1, i8, "
                "i32 or i64, but got '%s'" % (self.at(), words[3]))
        dims = _parse_list(words[4])
        if dims is None:
            raise ManifestError(
                "expects %s to have dims as [d0,d1,...] of non-negative "
                "integers, but got '%s'" % (self.at(), words[4]))
        strides = _parse_list(words[5])
        if strides is None:
            raise ManifestError(
                "expects %s to have strides as [s0,s1,...] of non-negative "
                "integers, but got '%s'" % (self.at(), words[5]))
        if len(strides) != len(dims):
            raise ManifestError(
                "expects %s to have one stride per dim (%d), but got %d"
                % (self.at(), len(dims), len(strides)))
        if not _size_fits(dims, strides):
            raise ManifestError(
                "expects %s to describe a buffer of fewer than 2^59 elements, "
                "but got %s %s" % (self.at(), _format_list(dims),
                                   _format_list(strides)))
        return ArgSpec(index, is_output, words[3], dims, strides)


def parse_manifest(text) -> Manifest:
    """Parses manifest text (str or bytes); raises ManifestError."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return _Parser(text).parse()
