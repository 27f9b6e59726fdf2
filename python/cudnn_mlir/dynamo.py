"""The TorchDynamo backend: `torch.compile(model, backend="cudnn_mlir")`.

    import cudnn_mlir.dynamo              # registers the backend
    fast = torch.compile(model, backend="cudnn_mlir", dynamic=False)

TorchDynamo hands each FX subgraph it captured to `backend`; a subgraph the
importer and compiler take runs as a compiled module, any other runs in
PyTorch (the FX graph's own forward). Nothing is hidden: every subgraph is
reported once on the `cudnn_mlir.dynamo` logger (a warning when it stays in
PyTorch, with the reason) and appended to `REPORT`, and TorchDynamo's own
graph breaks show as separate subgraphs there.

Where the compiler is missing (the GPU machine has no LLVM), set
CUDNN_MLIR_EXPORT_DIR: each subgraph without an artifact is written there
(model.mlir, model.json) and runs in PyTorch; compile the folder elsewhere
with `python3 -m cudnn_mlir.compile_exported EXPORT_DIR --cache CACHE`, copy
the cache back, and the next run finds the artifacts by their hash.
"""

import logging
import os

from .compiler import CompilerNotFoundError, compile_artifact
from .loader import load_module
from .runner import CompiledModel

log = logging.getLogger(__name__)

# One entry per subgraph TorchDynamo passed in, in order:
# {"index", "nodes", "status": "compiled" | "eager", "reason", "artifact"}.
REPORT = []


def _count_ops(gm):
    return sum(1 for n in gm.graph.nodes
               if n.op in ("call_function", "call_method", "call_module"))


def backend(gm, example_inputs, options=None, cache_dir=None):
    """The backend function TorchDynamo calls with each subgraph."""
    from .frontend import TorchImportError, import_graph
    entry = {"index": len(REPORT), "nodes": _count_ops(gm)}
    REPORT.append(entry)
    try:
        imported = import_graph(gm, list(example_inputs))
        folder = compile_artifact(imported, options, cache_dir)
        compiled = CompiledModel(load_module(os.path.join(folder,
                                                          "model.so")),
                                 imported, gm)
    except (TorchImportError, CompilerNotFoundError, RuntimeError,
            ValueError, OSError) as error:
        entry.update(status="eager", reason=str(error).splitlines()[0])
        log.warning("cudnn_mlir: subgraph %d (%d ops) runs in PyTorch: %s",
                    entry["index"], entry["nodes"], entry["reason"])
        return gm.forward
    entry.update(status="compiled", reason="", artifact=folder)
    log.info("cudnn_mlir: subgraph %d (%d ops) compiled: %s", entry["index"],
             entry["nodes"], folder)
    returns_list = _returns_list(gm)

    def run(*args):
        out = compiled(*args)
        if returns_list and isinstance(out, tuple):
            return list(out)
        return out
    return run


def _returns_list(gm):
    for n in gm.graph.nodes:
        if n.op == "output":
            return isinstance(n.args[0], list)
    return False


def _register():
    try:
        import torch._dynamo
        from torch._dynamo import list_backends, register_backend
    except ImportError:  # torch 1.x: no TorchDynamo
        return False
    # TorchDynamo leaves nn.LSTM/GRU/RNN out of its graphs unless told
    # otherwise; with this they arrive as torch.lstm(...) calls, which the
    # importer maps to cuDNN's RNN API.
    torch._dynamo.config.allow_rnn = True
    if "cudnn_mlir" not in list_backends(exclude_tags=()):
        register_backend(compiler_fn=backend, name="cudnn_mlir")
    return True


REGISTERED = _register()
