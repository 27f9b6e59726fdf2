"""cudnn-mlir's Python package.

    import cudnn_mlir
    fast = cudnn_mlir.compile(model, (x,))   # import, compile, cache, load
    y = fast(x)
    # one module per input shape; replayed from a CUDA graph
    fast = cudnn_mlir.compile(model, (x,), dynamic=True, cuda_graph=True)

    m = cudnn_mlir.load_module("model.so")   # a compiled module by itself
    y = m(x, w)                 # a module with one entry
    y = m.run("forward", x, w)  # or by name

The importer is `cudnn_mlir.frontend` (torch.fx graphs to TCP); loading and
running compiled modules needs no torch until an entry is called.

Layout: frontend/ (the importer), driver/ (cudnn-compile, the artifact
cache, a compiled module bound to its model), runtime/ (running compiled
modules), artifact.py (what a cached artifact holds), partition.py (ops
the importer does not take run in PyTorch between compiled partitions);
dynamo.py is the torch.compile backend and compile_exported.py a command
(python/README.md).
"""

from .driver.compiler import (CompilerNotFoundError, artifact_key, compile,
                              compile_artifact, load)
from .runtime.loader import (CompiledModule, load_module,
                             load_runtime_before_torch)
from .runtime.manifest import (ArgSpec, Entry, Manifest, ManifestError,
                               parse_manifest)

__all__ = ["ArgSpec", "CompiledModule", "CompilerNotFoundError", "Entry",
           "Manifest", "ManifestError", "artifact_key", "compile",
           "compile_artifact", "load", "load_module",
           "load_runtime_before_torch", "parse_manifest"]
