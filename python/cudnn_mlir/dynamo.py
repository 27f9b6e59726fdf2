"""The TorchDynamo backend: `torch.compile(model, backend="cudnn_mlir")`.

    import cudnn_mlir.dynamo              # registers the backend
    fast = torch.compile(model, backend="cudnn_mlir")

TorchDynamo hands each FX subgraph it captured to `backend`; a subgraph the
importer and compiler take runs as a compiled module; one with ops the
importer does not take is split into the largest partitions it takes
(partition.py), each a compiled module, with those ops running in PyTorch
between them; one that fails for a reason that names no op runs in PyTorch
(the FX graph's own forward). Nothing is hidden: every subgraph is
reported once on the `cudnn_mlir.dynamo` logger (a warning when any of it
stays in PyTorch, with the ops and reasons, one line per reason) and
appended to `REPORT`, and TorchDynamo's own
graph breaks show as separate subgraphs there. A subgraph TorchDynamo
traced with symbolic sizes is compiled once per input signature it is
called with (driver/specialize.py).

Where the compiler is missing (the GPU machine has no LLVM), set
CUDNN_MLIR_EXPORT_DIR: each subgraph without an artifact is written there
(model.mlir, model.json) and runs in PyTorch; compile the folder elsewhere
with `python3 -m cudnn_mlir.compile_exported EXPORT_DIR --cache CACHE`, copy
the cache back, and the next run finds the artifacts by their hash.
"""

import logging
import os

from .driver.compiler import CompilerNotFoundError, compile_artifact
from .driver.runner import CompiledModel
from .driver.specialize import ShapeSpecialized, describe, signature
from .frontend import TorchImportError
from .frontend.attention_functions import decompose_attention_functions
from .partition import compile_partitioned, first_line
from .runtime.loader import load_module

log = logging.getLogger(__name__)

# One entry per subgraph TorchDynamo passed in, in order: {"index",
# "nodes", "status": "compiled" | "partitioned" | "eager" | "specialized",
# "reason", "artifact", "partitions"}. A subgraph with ops the importer does
# not take is compiled in partitions (partition.py), those ops running in
# PyTorch between them; "reason" then says which ops and why.
REPORT = []


def _count_ops(gm):
    return sum(1 for n in gm.graph.nodes
               if n.op in ("call_function", "call_method", "call_module"))


_FAILURES = (TorchImportError, CompilerNotFoundError, RuntimeError,
             ValueError, OSError)


def _compiled_runner(gm, inputs, options, cache_dir, specialized=False):
    """A callable running `gm` as a compiled module for inputs like
    `inputs` (raises one of _FAILURES when it cannot be). `specialized`:
    it runs only for inputs of `inputs`' signature, values included."""
    import torch
    from .frontend import import_graph
    from .frontend.recording import is_cpu_scalar
    imported = import_graph(gm, list(inputs), scalars_as_values=specialized)
    folder = compile_artifact(imported, options, cache_dir)
    compiled = CompiledModel(load_module(os.path.join(folder, "model.so")),
                             imported, gm)
    returns_list = _returns_list(gm)

    def run(*args):
        # Sizes TorchDynamo passes (symbolic shapes), and with `specialized`
        # its 0-d CPU tensors, are in the IR already.
        out = compiled(*[a for a in args if isinstance(a, torch.Tensor)
                         and not (specialized and is_cpu_scalar(a))])
        if returns_list and isinstance(out, tuple):
            return list(out)
        return out
    return run, folder


# What `torch.compile(..., backend="cudnn_mlir", options={...})` may set.
BACKEND_OPTIONS = ("pipeline_options", "cache_dir")


def _from_torch_compile(options, cache_dir):
    """(pipeline options, cache folder) from torch.compile's `options`
    dict: {"pipeline_options": "autotune=true", "cache_dir": "..."}."""
    unknown = sorted(set(options) - set(BACKEND_OPTIONS))
    if unknown:
        raise ValueError(
            "expects torch.compile options among %s for the cudnn_mlir "
            "backend, but got %s" % (", ".join(BACKEND_OPTIONS),
                                     ", ".join(repr(k) for k in unknown)))
    for key in BACKEND_OPTIONS:
        value = options.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError("expects option '%s' of the cudnn_mlir backend "
                             "to be a string, but got %s"
                             % (key, type(value).__name__))
    return options.get("pipeline_options"), options.get("cache_dir") \
        or cache_dir


def backend(gm, example_inputs, options=None, cache_dir=None):
    """The backend function TorchDynamo calls with each subgraph. `options`
    are the pipeline options (a string), or torch.compile's `options` dict
    (BACKEND_OPTIONS)."""
    if isinstance(options, dict):
        options, cache_dir = _from_torch_compile(options, cache_dir)
    # F.multi_head_attention_forward and the encoder layer's fast path as
    # the ops they compute (frontend/attention_functions.py).
    decompose_attention_functions(gm)
    entry = {"index": len(REPORT), "nodes": _count_ops(gm)}
    REPORT.append(entry)
    if _is_symbolic(example_inputs):
        return _specialized(gm, entry, options, cache_dir)
    run, report = compile_partitioned(
        gm, example_inputs,
        lambda g, inputs: _compiled_runner(g, inputs, options, cache_dir),
        _FAILURES)
    entry["partitions"] = report.partitions
    if report.whole:
        entry.update(status="compiled", reason="",
                     artifact=report.partitions[0]["artifact"])
        log.info("cudnn_mlir: subgraph %d (%d ops) compiled: %s",
                 entry["index"], entry["nodes"], entry["artifact"])
    elif report.compiled_ops:
        entry.update(status="partitioned", reason=report.summarize())
        log.warning("cudnn_mlir: subgraph %d (%d ops): %s", entry["index"],
                    entry["nodes"], entry["reason"])
    else:
        entry.update(status="eager", reason=(
            report.partitions[0]["reason"] if report.partitions and
            report.partitions[0]["name"] == "whole" else report.summarize()))
        log.warning("cudnn_mlir: subgraph %d (%d ops) runs in PyTorch: %s",
                    entry["index"], entry["nodes"], entry["reason"])
    return run


def _is_symbolic(example_inputs):
    """Whether TorchDynamo traced with symbolic sizes (dynamic=True, or the
    automatic dynamic shapes of a recompile after a shape change)."""
    import torch
    for value in example_inputs:
        if isinstance(value, torch.SymInt):
            return True
        if isinstance(value, torch.Tensor) and any(
                isinstance(d, torch.SymInt) for d in value.shape):
            return True
    return False


def _specialized(gm, entry, options, cache_dir):
    """A subgraph with symbolic sizes: compiled again for each input
    signature it is called with (driver/specialize.py), each reported in
    entry["signatures"]; one that does not compile, and any signature past
    TorchDynamo's recompile limit, runs in PyTorch with a warning."""
    import torch._dynamo
    entry.update(status="specialized", reason="", signatures=[])
    config = torch._dynamo.config  # cache_size_limit before torch 2.6
    limit = getattr(config, "recompile_limit", None) or getattr(
        config, "cache_size_limit", 8)

    def build(inputs):
        text = describe(signature(inputs, scalars_as_values=True))
        try:
            run, folder = _compiled_runner(gm, inputs, options, cache_dir,
                                           specialized=True)
        except _FAILURES as error:
            entry["signatures"].append(
                {"signature": text, "status": "eager",
                 "reason": first_line(error)})
            log.warning("cudnn_mlir: subgraph %d (%d ops) runs in PyTorch for "
                        "inputs %s: %s", entry["index"], entry["nodes"],
                        text, first_line(error))
            return gm.forward
        entry["signatures"].append({"signature": text, "status": "compiled",
                                    "reason": "", "artifact": folder})
        log.info("cudnn_mlir: subgraph %d (%d ops) compiled for inputs %s: "
                 "%s", entry["index"], entry["nodes"], text, folder)
        return run

    def past_limit(inputs):
        log.warning("cudnn_mlir: subgraph %d (%d ops) runs in PyTorch for "
                    "inputs %s: past TorchDynamo's recompile limit (%d "
                    "signatures)", entry["index"], entry["nodes"],
                    describe(signature(inputs, scalars_as_values=True)),
                    limit)
        return gm.forward
    return ShapeSpecialized(build, limit, "subgraph %d" % entry["index"],
                            past_limit, scalars_as_values=True)


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
