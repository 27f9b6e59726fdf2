"""cudnn-mlir's Python package: for now, the loader that runs a compiled
module (model.so) on torch CUDA tensors.

    import cudnn_mlir
    m = cudnn_mlir.load_module("model.so")
    y = m(x, w)                 # a module with one entry
    y = m.run("forward", x, w)  # or by name
"""

from .loader import CompiledModule, load_module, load_runtime_before_torch
from .manifest import ArgSpec, Entry, Manifest, ManifestError, parse_manifest

__all__ = ["ArgSpec", "CompiledModule", "Entry", "Manifest", "ManifestError",
           "load_module", "load_runtime_before_torch", "parse_manifest"]
