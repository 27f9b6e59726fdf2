"""A cheap re-import (issue 29): a model whose artifact is in the cache is
found from its trace, without the import's run on the CPU (which records
every value's shape and folds what the model computes from constants: 1-6 s
for a torchvision model).

After cudnn_mlir.compile imports and compiles a model, it writes a record
<cache>/reimport/<key>.json naming the artifact and holding the import's
metadata. The key is a SHA-256 of everything the IR is made from:
  - the traced graph's Python code (torch.fx or TorchDynamo: the ops, their
    constant arguments, the attribute and submodule names),
  - every submodule's class, training flag, plain attributes (numbers,
    strings, flags, functions: a conv's stride, an activation) and hooks,
  - every parameter's and buffer's name, shape, dtype, strides and device,
    and the buffers' values (parameters are bound at each call; a buffer of
    positions could be read as one),
  - the tensor constants the trace holds (shape, dtype, strides, device),
  - each input's shape, dtype, strides and device (a non-tensor input's
    value), whether autograd records, the pipeline options with PyTorch's
    precision flags, and the versions of torch and of this package (a hash
    of its sources, so a changed importer misses).
On a hit, the record's metadata is checked against the inputs at hand,
and binding the artifact checks the model's tensors (every argument's shape
and dtype) before it is used; anything
that does not match, a record that cannot be read, or an artifact that is
gone or stale is a miss, and the model is imported as before. Models
compiled in partitions or around graph breaks are always imported.
"""

import functools
import hashlib
import json
import os
import sys
import tempfile
import types

import torch

from ..artifact import ImportedModule, get_attribute

RECORDS = "reimport"  # the folder in the artifact cache
RECORD_VERSION = 1

_PACKAGE_HASH = []  # computed once per process


def package_hash() -> str:
    """SHA-256 of this package's Python sources (the importer's version)."""
    if not _PACKAGE_HASH:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        digest = hashlib.sha256()
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders
                                   if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    digest.update(os.path.relpath(path, root).encode())
                    with open(path, "rb") as f:
                        digest.update(f.read())
        _PACKAGE_HASH.append(digest.hexdigest())
    return _PACKAGE_HASH[0]


def _tensor_meta(tensor) -> str:
    return "%s %s %s %s %s" % (tuple(tensor.shape), tensor.dtype,
                               tuple(tensor.stride()), tensor.device.type,
                               tensor.requires_grad)


def _plain(value, depth=0):
    """A stable text for an attribute's value that decides the IR, or None
    for what is not plain data."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, (torch.dtype, torch.device, torch.memory_format,
                          torch.Size)):
        return str(value)
    if isinstance(value, (tuple, list)) and depth < 3:
        items = [_plain(v, depth + 1) for v in value]
        return None if None in items else "[%s]" % ",".join(items)
    if isinstance(value, functools.partial) and depth < 3:
        return "partial(%s,%s,%s)" % (
            _plain(value.func, depth + 1), _plain(list(value.args),
                                                  depth + 1),
            _plain(sorted(value.keywords.items()), depth + 1))
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType,
                          types.MethodType)):
        return "%s.%s" % (getattr(value, "__module__", ""),
                          getattr(value, "__qualname__", repr(value)))
    if hasattr(value, "__dict__") and depth < 2 and not isinstance(value,
                                                                   type):
        # A hook object (the legacy weight norm's WeightNorm: name, dim).
        fields = sorted((k, _plain(v, depth + 1))
                        for k, v in vars(value).items())
        return "%s(%s)" % (type(value).__qualname__, ",".join(
            "%s=%s" % (k, v) for k, v in fields if v is not None))
    return None


def _hooks(module) -> str:
    parts = []
    for name in ("_forward_hooks", "_forward_pre_hooks",
                 "_backward_hooks", "_state_dict_hooks"):
        hooks = getattr(module, name, None) or {}
        parts.append("%s=[%s]" % (name, ",".join(
            str(_plain(h)) for h in hooks.values())))
    return ";".join(parts)


def _named(method):
    """named_parameters/named_buffers with tied tensors under every name
    (torch 1.13's have no remove_duplicate)."""
    try:
        return list(method(remove_duplicate=False))
    except TypeError:
        return list(method())


def reimport_key(traced, inputs, options) -> str:
    """The key of the record for `traced` (trace()'s GraphModule) called
    with `inputs` and compiled with `options` (with PyTorch's precision
    flags already added)."""
    digest = hashlib.sha256()

    def add(*parts):
        for part in parts:
            digest.update(str(part).encode())
            digest.update(b"\0")

    add("record", RECORD_VERSION, torch.__version__, package_hash(),
        sys.version_info[:2], options, torch.is_grad_enabled(),
        traced.code)
    for name, module in traced.named_modules():
        add("module", name, type(module).__module__,
            type(module).__qualname__, module.training, _hooks(module))
        for key, value in sorted(vars(module).items()):
            if key.startswith("_") and key not in ("_qkv_same_embed_dim",):
                continue  # torch's own bookkeeping (parameters, hooks)
            if isinstance(value, torch.Tensor):
                add("tensor attribute", key, _tensor_meta(value))
            else:
                add("attribute", key, _plain(value))
    for name, parameter in _named(traced.named_parameters):
        add("parameter", name, _tensor_meta(parameter))
    for name, buffer in _named(traced.named_buffers):
        add("buffer", name, _tensor_meta(buffer))
        digest.update(buffer.detach().cpu().contiguous().reshape(-1)
                      .view(torch.uint8).numpy().tobytes())
    for node in traced.graph.nodes:
        if node.op == "get_attr":
            value = get_attribute(traced, node.target)
            if isinstance(value, torch.Tensor):
                add("get_attr", node.target, _tensor_meta(value))
    for i, value in enumerate(inputs):
        if isinstance(value, torch.Tensor):
            add("input", i, _tensor_meta(value))
        else:
            add("input value", i, repr(value))
    return digest.hexdigest()[:40]


def record_path(cache_dir, key) -> str:
    return os.path.join(cache_dir, RECORDS, key + ".json")


def _qualified_names(traced, imported):
    """{public name: qualified name in `traced`} of the tensor constants the
    import bound (ImportedModule.tensors), or None if one is not found."""
    by_id = {}
    for node in traced.graph.nodes:
        if node.op == "get_attr":
            by_id.setdefault(id(get_attribute(traced, node.target)),
                             node.target)
    for name, tensor in (_named(traced.named_parameters)
                         + _named(traced.named_buffers)):
        by_id.setdefault(id(tensor), name)
    for prefix, module in traced.named_modules():
        for key, value in vars(module).items():
            if isinstance(value, torch.Tensor):
                by_id.setdefault(id(value), prefix + "." + key if prefix
                                 else key)
    names = {}
    for public, tensor in imported.tensors.items():
        if id(tensor) not in by_id:
            return None
        names[public] = by_id[id(tensor)]
    return names


def store(cache_dir, key, traced, imported, folder):
    """Writes the record of `imported`, compiled into artifact `folder`
    (no record where the import bound a tensor the trace does not name)."""
    constants = _qualified_names(traced, imported)
    if constants is None:
        return None
    record = {"version": RECORD_VERSION, "artifact": os.path.basename(folder),
              "imported": imported.to_json(), "constants": constants}
    path = record_path(cache_dir, key)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # Written aside and renamed: a reader never sees half a record.
    handle, work = tempfile.mkstemp(prefix=key + ".", dir=os.path.dirname(
        path))
    with os.fdopen(handle, "w") as f:
        json.dump(record, f)
    os.replace(work, path)
    return path


def _matches(spec, tensor) -> bool:
    from ..runtime.loader import _torch_dtype
    return (isinstance(tensor, torch.Tensor)
            and tuple(tensor.shape) == tuple(spec.shape)
            and tensor.dtype == _torch_dtype(torch, spec.dtype))


def lookup(cache_dir, key, traced, inputs):
    """(artifact folder, ImportedModule) from the record of `key`, or None
    when there is none or its inputs are not those at hand. The model's
    own tensors are checked where the artifact is bound to them
    (runner.CompiledModel, a ValueError the caller takes as a miss)."""
    try:
        with open(record_path(cache_dir, key)) as f:
            record = json.load(f)
        if record.get("version") != RECORD_VERSION:
            return None
        imported = ImportedModule.from_json(record["imported"])
        imported.tensors = {
            public: get_attribute(traced, qualified)
            for public, qualified in record["constants"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
    specs = [a for a in imported.args if a.kind == "input"]
    if len(specs) != len(tensors) or not all(
            _matches(s, t) for s, t in zip(specs, tensors)):
        return None
    return os.path.join(cache_dir, record["artifact"]), imported
