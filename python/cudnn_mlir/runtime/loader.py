"""Runs a compiled module (model.so) on torch CUDA tensors.

The module's ABI is in docs/abi.md ("Calling a compiled module"): a manifest
(``cmrt_module_manifest``) and one ``int32_t cmrt_entry_<NAME>(void *stream,
void *const *buffers)`` per entry, which enqueues its work on ``stream`` and
writes the outputs into the caller's buffers.

The module links the cudnn-mlir runtime (libcudnn-mlir-runtime.so). It is
loaded first, with RTLD_GLOBAL, from (in order) the environment variable
CUDNN_MLIR_RUNTIME_LIB, the model's folder, or the model's own rpath; its
``cmrtGetLastErrorMessage()`` explains a failed call, and its parser reads
the manifest.

torch is imported only when an entry is called, so loading a module and
reading its manifest need no torch.
"""

import ctypes
import os
from typing import Dict

from .library import (RUNTIME_ENV, RUNTIME_LIBRARY, explicit_runtime,
                      loaded_runtime, open_runtime)
from .manifest import Entry, parse_manifest

# Buffers the runtime accepts without a copy are at least this aligned.
_ALIGNMENT = 16


def _torch_dtype(torch, dtype):
    return {"f16": torch.float16, "bf16": torch.bfloat16,
            "f32": torch.float32, "f64": torch.float64, "i1": torch.bool,
            "i8": torch.int8, "i32": torch.int32, "i64": torch.int64}[dtype]


def load_runtime_before_torch():
    """Loads the runtime named by CUDNN_MLIR_RUNTIME_LIB (if set) with
    RTLD_GLOBAL, to be called before ``import torch``: the process then uses
    the cuDNN the runtime was built against, and torch shares it (its version
    check is skipped, as torch's wheel carries a newer cuDNN). Loading the
    runtime after torch's own cuDNN crashed plan building on the GPU machine
    (docs/abi.md, "Loading"). Returns the library, or None if unset."""
    path = os.environ.get(RUNTIME_ENV)
    if not path:
        return None
    library = open_runtime(path)
    os.environ.setdefault("PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK", "1")
    return library


def _load_runtime_before(model_path):
    """The runtime, loaded RTLD_GLOBAL before the model, or None when it is
    left to the model's rpath (then promoted to global after the model)."""
    explicit = explicit_runtime()
    if explicit is not None:
        return explicit
    beside = os.path.join(os.path.dirname(model_path), RUNTIME_LIBRARY)
    if os.path.isfile(beside):
        return open_runtime(beside)
    return None


class CompiledModule:
    """A loaded model.so: ``.entries`` (name -> Entry), ``run(entry,
    *inputs)``, ``__call__(*inputs)`` for a module with one entry, and each
    entry as a method (``module.forward(x, w)``)."""

    def __init__(self, path):
        self.path = os.path.abspath(os.fspath(path))
        if not os.path.isfile(self.path):
            raise FileNotFoundError(
                "expects a compiled model file, but got '%s', which does not "
                "exist" % path)
        self._runtime = _load_runtime_before(self.path)
        try:
            self._lib = ctypes.CDLL(self.path,
                                    mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as e:
            raise OSError(
                "expects a loadable shared library, but loading '%s' failed: "
                "%s (if the runtime is missing, set %s to "
                "libcudnn-mlir-runtime.so)" % (path, e, RUNTIME_ENV)) from None
        if self._runtime is None:
            # Found through the model's rpath: already loaded, so this finds
            # it by its soname and makes its symbols global.
            self._runtime = loaded_runtime()
            if self._runtime is None:
                raise OSError(
                    "expects '%s' to link the cudnn-mlir runtime (%s), but it "
                    "was not loaded with it; set %s"
                    % (path, RUNTIME_LIBRARY, RUNTIME_ENV))
        self._runtime.cmrtGetLastErrorMessage.restype = ctypes.c_char_p
        self._runtime.cmrtGetLastErrorMessage.argtypes = []
        self._runtime.cmrtSetParameterVersion.restype = ctypes.c_int
        self._runtime.cmrtSetParameterVersion.argtypes = [ctypes.c_uint64]

        try:
            start = ctypes.c_char.in_dll(self._lib, "cmrt_module_manifest")
        except ValueError:
            raise ValueError(
                "expects a cudnn-mlir compiled module exporting "
                "'cmrt_module_manifest', but got '%s', which has none"
                % path) from None
        text = ctypes.string_at(ctypes.addressof(start))
        self.manifest = parse_manifest(text, runtime=self._runtime)
        self._functions = {}
        self._plans = {}

    @property
    def entries(self) -> Dict[str, Entry]:
        return self.manifest.entries

    def __repr__(self):
        return "CompiledModule(%r, entries=%s)" % (self.path,
                                                   list(self.entries))

    def __getattr__(self, name):
        entries = self.__dict__.get("manifest")
        if entries is not None and name in entries.entries:
            return lambda *inputs: self.run(name, *inputs)
        raise AttributeError(name)

    def __call__(self, *inputs):
        if len(self.entries) != 1:
            raise TypeError(
                "expects a module with one entry to be called directly, but "
                "'%s' has %d (%s); use run(name, ...)"
                % (self.path, len(self.entries), ", ".join(self.entries)))
        return self.run(next(iter(self.entries)), *inputs)

    def _function(self, name):
        fn = self._functions.get(name)
        if fn is None:
            symbol = "cmrt_entry_" + name
            try:
                fn = getattr(self._lib, symbol)
            except AttributeError:
                raise ValueError(
                    "expects '%s' to export '%s' (its manifest lists entry "
                    "'%s'), but got none" % (self.path, symbol, name)) from None
            fn.restype = ctypes.c_int32
            fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
            self._functions[name] = fn
        return fn

    def _plan(self, name):
        """What calling entry `name` needs, worked out once: the function,
        each input's (dtype, shape, strides) and each output's."""
        plan = self._plans.get(name)
        if plan is None:
            import torch
            spec = self.entries[name]
            plan = (self._function(name),
                    [(_torch_dtype(torch, a.dtype), a.dims, a.strides, a)
                     for a in spec.inputs],
                    [(_torch_dtype(torch, a.dtype), a.dims, a.strides)
                     for a in spec.outputs],
                    ctypes.c_void_p * max(len(spec.args), 1))
            self._plans[name] = plan
        return plan

    def _check_input(self, torch, entry, arg, dtype, tensor, device):
        """Raises the error that says what is wrong with one input."""
        what = "arg %d of entry '%s' (%s)" % (arg.index, entry,
                                              arg.signature())
        if not isinstance(tensor, torch.Tensor):
            raise TypeError("expects %s to be a torch.Tensor, but got %s"
                            % (what, type(tensor).__name__))
        if tensor.device.type != "cuda":
            raise ValueError("expects %s on a CUDA device, but got %s"
                             % (what, tensor.device))
        if device is not None and tensor.device != device:
            raise ValueError("expects %s on %s like the inputs before it, "
                             "but got %s" % (what, device, tensor.device))
        if tensor.dtype != dtype:
            raise TypeError("expects %s to have dtype %s, but got %s"
                            % (what, dtype, tensor.dtype))
        if tuple(tensor.shape) != arg.dims:
            raise ValueError("expects %s to have shape %s, but got %s"
                             % (what, list(arg.dims), list(tensor.shape)))

    def run(self, entry, *inputs):
        """Runs `entry` on the inputs (torch CUDA tensors in the manifest's
        dtypes and logical shapes) on torch's current stream and returns
        the output tensor (a tuple when there are several, None if none).
        Nothing is synchronised: the outputs are ready in stream order."""
        return self.run_with_bound(entry, inputs, (), ())

    def set_parameter_version(self, version):
        """Declares the parameters of the calls this thread makes from now
        on to be at `version` (cmrtSetParameterVersion): RNNs whose weight
        space the runtime keeps repack only when it or their parameter
        pointers change. 0 declares nothing (every call packs)."""
        self._runtime.cmrtSetParameterVersion(version)

    def check_bound(self, entry, first, tensors):
        """Checks `tensors` as the inputs `first`, `first + 1`, ... of
        `entry` (what run would check) and returns the pointers to pass for
        them, each tensor already in the manifest's layout (else an error:
        a copy would not outlive this call)."""
        import torch
        _, ins, _, _ = self._plan(entry)
        device = None
        pointers = []
        for (dtype, dims, strides, arg), tensor in zip(ins[first:], tensors):
            self._check_input(torch, entry, arg, dtype, tensor, device)
            device = tensor.device
            if _with_strides(torch, tensor, arg) is not tensor:
                raise ValueError(
                    "expects arg %d of entry '%s' (%s) with strides %s and "
                    "16-byte alignment, but got strides %s"
                    % (arg.index, entry, arg.signature(), list(arg.strides),
                       list(tensor.stride())))
            pointers.append(tensor.data_ptr())
        return pointers

    def run_with_bound(self, entry, inputs, bound, bound_pointers):
        """run(entry, *inputs, *bound), where `bound` (the trailing inputs)
        were checked by check_bound and `bound_pointers` is what it
        returned: only `inputs` are checked on each call."""
        if entry not in self.entries:
            raise ValueError(
                "expects an entry of '%s' (%s), but got '%s'"
                % (self.path, ", ".join(self.entries), entry))
        expected = len(self.entries[entry].inputs)
        if len(inputs) + len(bound) != expected:
            raise TypeError(
                "expects %d input%s for entry '%s', but got %d"
                % (expected, "" if expected == 1 else "s", entry,
                   len(inputs) + len(bound)))
        self._function(entry)  # a missing symbol is reported before torch
        import torch

        function, ins, outs, array_type = self._plan(entry)

        # The common case costs one comparison per property; the message
        # is only built when something is wrong.
        device_index = bound[0].get_device() if bound else None
        buffers = []
        for (dtype, dims, strides, arg), tensor in zip(ins, inputs):
            if not (isinstance(tensor, torch.Tensor) and tensor.is_cuda
                    and tensor.dtype == dtype and tensor.shape == dims
                    and (device_index is None
                         or tensor.get_device() == device_index)):
                self._check_input(
                    torch, entry, arg, dtype, tensor,
                    None if device_index is None
                    else torch.device("cuda", device_index))
            if device_index is None:
                device_index = tensor.get_device()
            buffers.append(_with_strides(torch, tensor, arg))
        current = torch._C._cuda_getDevice()
        if device_index is None:
            device_index = current

        outputs = [torch.empty_strided(dims, strides, dtype=dtype,
                                       device=device_index)
                   for dtype, dims, strides in outs]
        pointers = array_type(*([t.data_ptr() for t in buffers]
                                + list(bound_pointers)
                                + [t.data_ptr() for t in outputs]))
        if device_index == current:
            status = function(_current_raw_stream(torch, device_index),
                              pointers)
        else:
            with torch.cuda.device(device_index):
                status = function(_current_raw_stream(torch, device_index),
                                  pointers)
        if status != 0:
            message = self._runtime.cmrtGetLastErrorMessage() or b""
            raise RuntimeError(
                "expects entry '%s' to succeed, but it returned status %d: %s"
                % (entry, status,
                   message.decode("utf-8", "replace") or "(no message)"))
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _current_raw_stream(torch, device_index):
    """torch's current stream on the device, as a cudaStream_t value: the
    C binding torch's own compiled code uses (a few hundred ns), else the
    public API."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(device_index)
    return torch.cuda.current_stream(device_index).cuda_stream


def _with_strides(torch, tensor, arg):
    """`tensor`, or a copy of it, laid out with the manifest's strides."""
    if tensor.stride() == arg.strides and tensor.data_ptr() % _ALIGNMENT == 0:
        return tensor
    same = all(size == 1 or have == want for size, have, want
               in zip(arg.dims, tensor.stride(), arg.strides))
    if same and tensor.data_ptr() % _ALIGNMENT == 0:
        return tensor
    out = torch.empty_strided(arg.dims, arg.strides, dtype=tensor.dtype,
                              device=tensor.device)
    out.copy_(tensor)
    return out


def load_module(path) -> CompiledModule:
    """Loads a compiled model (model.so) and reads its manifest."""
    return CompiledModule(path)
