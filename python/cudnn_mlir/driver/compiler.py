"""`cudnn_mlir.compile(model, example_inputs)`: import, compile (with
cudnn-compile), cache and load, as one callable (docs/frontend.md).

An artifact is a folder named by the SHA-256 of the imported IR (source
locations left out, so the same model imported on another machine gets the
same name) and the pipeline options, which always carry PyTorch's fp32
precision flags as they are at compile time (with_precision), holding what
artifact.py describes:

    <cache>/<key>/model.mlir   the TCP the importer wrote
    <cache>/<key>/model.json   how arguments and results map to the model
    <cache>/<key>/model.so     the compiled module
    <cache>/<key>/compiler.txt which cudnn-compile made it (a hash of the
                               executable; another one recompiles)

Loading one (`load`) imports neither torch.fx nor the frontend.

A machine without the compiler (the GPU machine has no LLVM) loads artifacts
compiled elsewhere: copy the folder into its cache, or call `load`.
"""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from ..artifact import (ARTIFACT_VERSION, COMPILER_FILE, IR_FILE,
                        MODULE_FILE, OPTIONS_FILE, read_imported,
                        write_imported)
from ..runtime.loader import load_module

CACHE_ENV = "CUDNN_MLIR_CACHE_DIR"
COMPILER_ENV = "CUDNN_MLIR_COMPILE"
# Where a machine without the compiler writes what it would have compiled
# (model.mlir, model.json, options.txt per key), for compile_exported.
EXPORT_ENV = "CUDNN_MLIR_EXPORT_DIR"
# Pipeline options every compile of this process gets where neither the
# caller nor PyTorch's precision flags set them (e.g. "kernel-binary=isa":
# kernels as PTX alone, no ptxas); they are part of the artifact key.
OPTIONS_ENV = "CUDNN_MLIR_PIPELINE_OPTIONS"
# The checkout this package runs from (python/cudnn_mlir/driver/../../..):
# find_compiler's last resort is its build/bin/cudnn-compile. That holds for
# PYTHONPATH=python and `pip install -e .`; a copy installed with
# `pip install .` needs $CUDNN_MLIR_COMPILE or cudnn-compile on PATH.
SOURCE_ROOT = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

_LOC = re.compile(r' loc\((?:[^()"]|"(?:[^"\\]|\\.)*"|\([^()]*\))*\)$',
                  re.MULTILINE)


class CompilerNotFoundError(RuntimeError):
    """No cudnn-compile on this machine and no artifact in the cache."""


def default_cache_dir():
    """$CUDNN_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/cudnn_mlir, else
    ~/.cache/cudnn_mlir: the runtime keeps its plans in the folder `plans`
    of the same folder (runtime/lib/graph/PlanFile.h, planCacheDirectory)."""
    if os.environ.get(CACHE_ENV):
        return os.environ[CACHE_ENV]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cudnn_mlir")


def artifact_key(ir_text: str, options: str = "") -> str:
    """The artifact's name: a hash of the IR without source locations and of
    the pipeline options."""
    digest = hashlib.sha256()
    digest.update(b"cudnn-mlir artifact %d\n" % ARTIFACT_VERSION)
    digest.update(options.encode() + b"\n")
    digest.update(_LOC.sub("", ir_text).encode())
    return digest.hexdigest()[:32]


def find_compiler():
    """cudnn-compile: $CUDNN_MLIR_COMPILE, then PATH, then this checkout's
    build/bin; None if none exists (or CUDNN_MLIR_COMPILE=none)."""
    explicit = os.environ.get(COMPILER_ENV)
    if explicit == "none":  # behave as a machine without the compiler
        return None
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise CompilerNotFoundError(
                "expects %s to name the cudnn-compile executable, but got "
                "'%s'" % (COMPILER_ENV, explicit))
        return explicit
    on_path = shutil.which("cudnn-compile")
    if on_path:
        return on_path
    in_tree = os.path.join(SOURCE_ROOT, "build", "bin", "cudnn-compile")
    return os.path.normpath(in_tree) if os.access(in_tree, os.X_OK) else None


# The pipeline options that mirror PyTorch's fp32 precision flags
# (docs/frontend.md, "Precision"): the pipelines default both to false
# (exact fp32); the front end always passes PyTorch's current flags.
PRECISION_OPTIONS = ("allow-tf32-conv", "allow-tf32-matmul")


def _legacy_or_new(legacy, new):
    """A TF32 flag of PyTorch: the legacy boolean, or, where a program set
    the newer fp32_precision API (torch >= 2.9 refuses to read the legacy
    flag after a mix of the two), whether that says "tf32"."""
    try:
        return bool(legacy())
    except RuntimeError:
        return new() == "tf32"


def torch_tf32_flags():
    """(conv, matmul): whether PyTorch lets fp32 convolutions
    (torch.backends.cudnn.allow_tf32) and fp32 matmuls
    (torch.backends.cuda.matmul.allow_tf32, i.e. float32 matmul precision
    "high" or "medium") compute in TF32. PyTorch's defaults, (True, False),
    where torch was never imported: nothing could have changed them."""
    import sys
    torch = sys.modules.get("torch")
    if torch is None:
        return True, False
    backends = torch.backends
    conv = _legacy_or_new(
        lambda: backends.cudnn.allow_tf32,
        lambda: backends.cudnn.conv.fp32_precision)
    matmul = _legacy_or_new(
        lambda: backends.cuda.matmul.allow_tf32,
        lambda: backends.cuda.matmul.fp32_precision
        if backends.cuda.matmul.fp32_precision != "none"
        else backends.fp32_precision)
    return conv, matmul


def with_precision(options: str) -> str:
    """`options` with PyTorch's current precision flags appended as the
    pipeline options that mirror them, for each one `options` does not set
    itself (the caller's value wins)."""
    given = _option_names(options)
    conv, matmul = torch_tf32_flags()
    words = [options] if options else []
    for name, allowed in zip(PRECISION_OPTIONS, (conv, matmul)):
        if name not in given:
            words.append("%s=%s" % (name, "true" if allowed else "false"))
    return " ".join(words)


def default_options(imported) -> str:
    """The pipeline options a model gets unless the caller passes its own:
    PyTorch's precision flags (with_precision). fp32 convolutions and
    matmuls go into cuDNN graphs like any other; where cuDNN has no engine
    for a fused fp32 graph (on the H100 with cuDNN 9.14, an exact-fp32 conv
    with a batch-norm epilogue), the module runs the graph's compiled split
    form: the conv alone in cuDNN, the epilogue as a generated kernel
    (docs/fusion.md). Exact fp32 matmuls run on cuBLAS."""
    del imported  # every model gets the same today
    return with_precision("")


_FINGERPRINTS = {}


def _fingerprint(compiler) -> str:
    """Which cudnn-compile made an artifact: the SHA-256 of its executable
    (computed once per process and path)."""
    stat = os.stat(compiler)
    cached = _FINGERPRINTS.get(compiler)
    if cached and cached[0] == (stat.st_mtime_ns, stat.st_size):
        return cached[1]
    digest = hashlib.sha256()
    with open(compiler, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    _FINGERPRINTS[compiler] = ((stat.st_mtime_ns, stat.st_size),
                               digest.hexdigest()[:32])
    return _FINGERPRINTS[compiler][1]


def _made_by(folder) -> str:
    try:
        with open(os.path.join(folder, COMPILER_FILE)) as f:
            return f.read().strip()
    except OSError:
        return ""


def _option_name(word: str) -> str:
    return word.split("=", 1)[0]


def _option_names(options: str) -> set:
    return {_option_name(word) for word in options.split()}


def with_environment_options(options: str) -> str:
    """`options` with the words of $CUDNN_MLIR_PIPELINE_OPTIONS appended
    for each option `options` does not set itself."""
    given = _option_names(options)
    extra = [word for word in os.environ.get(OPTIONS_ENV, "").split()
             if _option_name(word) not in given]
    return " ".join(([options] if options else []) + extra)


def resolved_options(options, imported=None) -> str:
    """The pipeline options an artifact is compiled with: default_options
    where `options` is None, else `options` with PyTorch's precision flags
    (with_precision); then $CUDNN_MLIR_PIPELINE_OPTIONS for what neither
    sets (with_environment_options)."""
    return with_environment_options(
        default_options(imported) if options is None
        else with_precision(options))


def is_current(folder, compiler) -> bool:
    """Whether artifact `folder` holds a module this machine may load:
    where the compiler is (`compiler`, find_compiler's), an artifact
    another build of it made is stale (same IR, other code); without a
    compiler (the GPU machine) any artifact of its key serves."""
    return os.path.isfile(os.path.join(folder, MODULE_FILE)) and (
        compiler is None or _made_by(folder) == _fingerprint(compiler))


def compile_artifact(imported, options=None, cache_dir=None) -> str:
    """The artifact folder for `imported` (an artifact.ImportedModule),
    compiling it when the cache has none. `options` are the pipeline's
    (`cudnn-compile --pipeline-options`); None means default_options.
    PyTorch's precision flags are added where `options` do not set them
    (with_precision), so the artifact's key changes with them."""
    options = resolved_options(options, imported)
    cache_dir = cache_dir or default_cache_dir()
    key = artifact_key(imported.text, options)
    folder = os.path.join(cache_dir, key)
    compiler = find_compiler()
    if is_current(folder, compiler):
        return folder
    if compiler is None:
        exported = os.environ.get(EXPORT_ENV)
        if exported:
            export(imported, options, exported)
        raise CompilerNotFoundError(
            "expects cudnn-compile (set %s or put it on PATH) or a compiled "
            "artifact '%s' in %s, but found neither; compile the model on a "
            "machine with the compiler and copy that folder here"
            % (COMPILER_ENV, key, cache_dir))
    os.makedirs(cache_dir, exist_ok=True)
    # Built in a private folder and renamed into place, so a reader never
    # sees half an artifact. A failed compile leaves its folder (and IR)
    # for the error message to point at.
    work = tempfile.mkdtemp(prefix=key + ".", dir=cache_dir)
    write_imported(work, imported)
    source = os.path.join(work, IR_FILE)
    with open(os.path.join(work, COMPILER_FILE), "w") as f:
        f.write(_fingerprint(compiler))
    command = [compiler, source, "-o", os.path.join(work, MODULE_FILE)]
    if options:
        command.append("--pipeline-options=" + options)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            "expects cudnn-compile to compile the imported model, but it "
            "failed (exit %d):\n%s\n(the IR is in %s)"
            % (done.returncode, done.stderr.strip(), source))
    if os.path.isdir(folder):  # a stale artifact: replace it
        shutil.rmtree(folder, ignore_errors=True)
    try:
        os.rename(work, folder)
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
        if not os.path.isfile(os.path.join(folder, MODULE_FILE)):
            raise  # not a concurrent compile of the same model
    return folder


def export(imported, options, export_dir) -> str:
    """Writes what compile_artifact needs (model.mlir, model.json,
    options.txt) to <export_dir>/<key>/, for a machine with the compiler.
    The options written carry PyTorch's precision flags of this process."""
    options = resolved_options(options, imported)
    folder = os.path.join(export_dir, artifact_key(imported.text, options))
    os.makedirs(folder, exist_ok=True)
    write_imported(folder, imported)
    with open(os.path.join(folder, OPTIONS_FILE), "w") as f:
        f.write(options)
    return folder


def compile_exported(export_dir, cache_dir=None):
    """Compiles every folder `export` wrote; returns the artifact folders."""
    folders = []
    for name in sorted(os.listdir(export_dir)):
        folder = os.path.join(export_dir, name)
        if not os.path.isfile(os.path.join(folder, IR_FILE)):
            continue
        imported = read_imported(folder, with_ir=True)
        with open(os.path.join(folder, OPTIONS_FILE)) as f:
            options = f.read()
        folders.append(compile_artifact(imported, options, cache_dir))
    return folders


def compile(model, example_inputs, options=None, cache_dir=None,
            dynamic=False, max_signatures=None, cuda_graph=False,
            strict=False):
    """Imports `model` (an nn.Module) for `example_inputs`, compiles it (or
    finds it in the cache) and returns a CompiledModel bound to the model's
    parameters and buffers. With `cuda_graph`, the compiled model is
    captured into a CUDA graph and replayed (a cuda_graph.CudaGraphModel).
    With `dynamic`, the result compiles (and captures) again for each new
    input signature (shapes, dtypes, layout) it is called with, up to
    `max_signatures` (default specialize.DEFAULT_LIMIT) of them: a
    specialize.ShapeSpecialized, whose first module is compiled now.

    A model with an op the importer does not take is compiled in
    partitions (partition.py): the ops it takes as modules, the others in
    PyTorch between them, with one warning naming the ops left to PyTorch
    (and no CUDA-graph replay). `strict=True` raises the import error
    instead."""
    from ..frontend import TorchImportError, import_graph, trace
    from .specialize import DEFAULT_LIMIT, ShapeSpecialized

    def build(inputs):
        try:
            # Traced once: partitioning splits this graph (a TorchDynamo
            # capture takes seconds).
            traced = trace(model, tuple(inputs))
        except TorchImportError as error:
            if strict or not _has_torch_compile():
                raise
            return _with_graph_breaks(model, inputs, options, cache_dir,
                                      error, cuda_graph)
        # Before the import, which runs the model (and may move its
        # buffers: a training-mode batch norm's statistics).
        key = _reimport_key(traced, inputs, options)
        compiled = _load_without_import(model, traced, inputs, cache_dir,
                                        key)
        if compiled is None:
            try:
                imported = import_graph(traced, tuple(inputs))
            except TorchImportError as error:
                if strict or error.node is None:
                    raise
                return _partitioned(model, traced, inputs, options,
                                    cache_dir, error, cuda_graph)
            # This import's metadata, not the artifact's model.json: the
            # output structure (a tensor or [tensor]) is not in the IR, so
            # an artifact of the same IR may have been written for another.
            folder = compile_artifact(imported, options, cache_dir)
            _store_reimport(traced, cache_dir, key, imported, folder)
            compiled = load(folder, model, imported)
        if not cuda_graph:
            return compiled
        from ..runtime.cuda_graph import CudaGraphModel
        return CudaGraphModel(compiled, inputs)
    if not isinstance(example_inputs, (list, tuple)):
        example_inputs = (example_inputs,)
    if not dynamic:
        if max_signatures is not None:
            raise ValueError("expects max_signatures only with dynamic=True, "
                             "but got max_signatures=%r" % (max_signatures,))
        return build(example_inputs)
    specialized = ShapeSpecialized(build, max_signatures or DEFAULT_LIMIT,
                                   "the model compiled with dynamic=True")
    specialized.get(example_inputs)
    return specialized


def _reimport_key(traced, inputs, options):
    """reimport.reimport_key, or None for a model it cannot describe (a
    tensor without strides or host copy): that model is always imported."""
    from . import reimport
    try:
        return reimport.reimport_key(traced, inputs,
                                     resolved_options(options))
    except Exception:  # noqa: BLE001 - the cheap path is only an addition
        return None


def _load_without_import(model, traced, inputs, cache_dir, key):
    """The compiled model from the cache's re-import record `key` of this
    trace (reimport.py), or None where there is none that fits."""
    from . import reimport
    if key is None:
        return None
    cache_dir = cache_dir or default_cache_dir()
    found = reimport.lookup(cache_dir, key, traced, inputs)
    if found is None or not is_current(found[0], find_compiler()):
        return None
    try:
        return load(found[0], model, found[1])
    except (OSError, ValueError):
        return None  # imported again, and the record written anew


def _store_reimport(traced, cache_dir, key, imported, folder):
    from . import reimport
    if key is None:
        return
    try:
        reimport.store(cache_dir or default_cache_dir(), key, traced,
                       imported, folder)
    except OSError:
        pass  # a read-only cache: the next process imports again


def _compile_in_partitions(model, example_inputs, options, cache_dir,
                           bind, first_failure=None):
    """partition.compile_partitioned over `model`'s traced graph (`model`
    itself when it is a traced GraphModule), each
    partition's artifact compiled into the cache and run as
    `bind(folder, partition graph module, its import)`."""
    from ..frontend import TorchImportError, import_graph, trace
    from ..partition import compile_partitioned

    def compile_fn(graph_module, sub_inputs):
        imported = import_graph(graph_module, sub_inputs)
        folder = compile_artifact(imported, options, cache_dir)
        return bind(folder, graph_module, imported), folder
    return compile_partitioned(
        trace(model, list(example_inputs)), list(example_inputs), compile_fn,
        (TorchImportError, CompilerNotFoundError, RuntimeError, ValueError),
        first_failure)


def compile_partition_artifacts(model, example_inputs, options=None,
                                cache_dir=None, first_failure=None):
    """The artifacts a partitioned cudnn_mlir.compile of `model` will look
    for, compiled into the cache with no GPU (each partition runs in
    PyTorch to give the next its inputs): for a machine without the
    compiler, as compile_artifact is for whole models. `first_failure`:
    the caller's own failed import of the whole model, if any. Returns the
    partition.PartitionReport."""
    _, report = _compile_in_partitions(
        model, example_inputs, options, cache_dir,
        lambda folder, graph_module, imported: graph_module.forward,
        first_failure)
    return report


class PartitionedModel:
    """A model compiled in partitions: `report` (partition.PartitionReport)
    says what runs compiled and what in PyTorch."""

    def __init__(self, run, report):
        self._run = run
        self.report = report

    def __call__(self, *args):
        return self._run(*args)


def _partitioned(model, traced, inputs, options, cache_dir, error,
                 cuda_graph):
    """`model` (traced as `traced`) compiled in partitions after the whole
    import failed with `error` (not imported again); warns once with what
    is left to PyTorch."""
    import warnings
    from ..partition import first_line
    run, report = _compile_in_partitions(traced, inputs, options, cache_dir,
                                         load, first_failure=error)
    warnings.warn(
        "cudnn_mlir.compile: %s is compiled in partitions, as %s (its first: "
        "%s); strict=True raises instead%s" % (
            type(model).__name__, report.summarize(), first_line(error),
            "; no CUDA-graph replay for a partitioned model" if cuda_graph
            else ""), stacklevel=3)
    return PartitionedModel(run, report)


def _has_torch_compile():
    import torch
    return hasattr(torch, "compile")


def _with_graph_breaks(model, inputs, options, cache_dir, error,
                       cuda_graph):
    """`model`, which neither torch.fx nor one TorchDynamo capture takes
    whole (data-dependent control flow: `if x.sum() > 0`), through
    torch.compile with the cudnn_mlir backend: TorchDynamo breaks the graph
    where it must and each subgraph is compiled (in partitions where it
    has to be). Runs the model once on `inputs`, so that the subgraphs are
    compiled now, and warns once with the report."""
    import warnings

    import torch

    from .. import dynamo
    from ..frontend import TorchImportError
    from ..partition import PartitionReport, first_line
    first = len(dynamo.REPORT)
    compiled = torch.compile(
        model, dynamic=False,
        backend=lambda gm, ins: dynamo.backend(gm, ins, options, cache_dir))
    try:
        with torch.no_grad():
            compiled(*inputs)
    except Exception as failure:  # noqa: BLE001 (named in the error)
        raise TorchImportError(
            "%s; and running it through torch.compile(backend=\"cudnn_mlir\") "
            "instead failed: %s: %s" % (error, type(failure).__name__,
                                        first_line(failure))) from failure
    report = PartitionReport()
    for entry in dynamo.REPORT[first:]:
        done = entry["status"] in ("compiled", "partitioned")
        report.partitions.append({
            "name": "subgraph %d" % entry["index"], "ops": entry["nodes"],
            "status": "compiled" if done else "eager",
            "reason": entry.get("reason", ""),
            "artifact": entry.get("artifact")})
    warnings.warn(
        "cudnn_mlir.compile: %s cannot be captured whole (%s); it runs "
        "through torch.compile(backend=\"cudnn_mlir\"), TorchDynamo "
        "breaking the graph where it must: %s; strict=True raises "
        "instead%s" % (
            type(model).__name__, first_line(error), report.summarize(),
            "; no CUDA-graph replay for it" if cuda_graph else ""),
        stacklevel=3)
    return PartitionedModel(compiled, report)


def load(artifact_dir, model, imported=None):
    """A CompiledModel from an artifact folder, bound to `model`'s tensors
    (its parameters and buffers must have the shapes and dtypes of the ones
    it was compiled with); `imported` (the import it was compiled for)
    instead of the folder's model.json, where the caller has it."""
    from .runner import CompiledModel
    return CompiledModel(load_module(os.path.join(artifact_dir, MODULE_FILE)),
                         imported or read_imported(artifact_dir), model)
