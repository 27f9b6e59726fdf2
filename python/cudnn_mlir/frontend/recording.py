"""Runs an FX graph once on example inputs and records, for every node, what
it produced: a `TensorMeta` (shape and MLIR element type) for a tensor, the
Python value itself for anything else (sizes, ints, tuples of either).

The importer reads shapes from this record instead of re-deriving them, so
reshapes with -1, pooling with ceil_mode or `x.size(1)` need no shape rules of
their own. The graph runs on a copy of the module: training-mode batch norm
must not move the caller's running statistics.
"""

import copy
from typing import Any, Dict

import torch
import torch.fx

_MLIR_TYPES = {
    torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32",
    torch.float64: "f64", torch.int64: "i64", torch.int32: "i32",
    torch.int16: "i16", torch.int8: "i8", torch.bool: "i1",
}

_TORCH_TYPES = {name: dtype for dtype, name in _MLIR_TYPES.items()}

_REDUCED_FLOATS = (torch.float16, torch.bfloat16)


def dtype_name(dtype: "torch.dtype") -> str:
    return str(dtype).replace("torch.", "")


# What the importer takes, for error messages.
SUPPORTED_DTYPES = ", ".join(dtype_name(d) for d in _MLIR_TYPES)


def torch_type(name: str) -> "torch.dtype":
    """mlir_type's inverse: the torch dtype of "f16", "i64", ..."""
    return _TORCH_TYPES[name]


def tensor_bytes(tensor: "torch.Tensor") -> bytes:
    """A tensor's elements in row-major order as little-endian bytes (what
    TcpWriter.literal takes)."""
    if not tensor.numel():
        return b""
    return tensor.contiguous().reshape(-1).view(torch.uint8).numpy() \
        .tobytes()


def mlir_type(dtype: "torch.dtype") -> str:
    try:
        return _MLIR_TYPES[dtype]
    except KeyError:
        raise TypeError("expects a tensor of %s, but got %s" % (
            SUPPORTED_DTYPES, dtype_name(dtype))) from None


def stored_channels_last(tensor) -> bool:
    """A 4-D tensor stored NHWC (torch.channels_last) or a 5-D one stored
    NDHWC (torch.channels_last_3d) whose packed strides differ."""
    formats = {4: torch.channels_last, 5: torch.channels_last_3d}
    return (tensor.dim() in formats
            and tensor.is_contiguous(memory_format=formats[tensor.dim()])
            and not tensor.is_contiguous())


class TensorMeta:
    """What the importer needs to know about a tensor the graph produced
    (`channels_last`: a 4-D or 5-D tensor the graph laid out NHWC or
    NDHWC, as eager
    PyTorch does for the outputs of ops that keep the memory format;
    `strides` and `storage_offset`: its layout when recorded, None where
    not known)."""

    __slots__ = ("shape", "dtype", "channels_last", "strides",
                 "storage_offset")

    def __init__(self, shape, dtype: str, channels_last: bool = False,
                 strides=None, storage_offset=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype
        self.channels_last = channels_last
        self.strides = None if strides is None else tuple(
            int(s) for s in strides)
        self.storage_offset = None if storage_offset is None else int(
            storage_offset)

    def with_dtype(self, dtype: str) -> "TensorMeta":
        """This tensor's record with another element type."""
        return TensorMeta(self.shape, dtype, self.channels_last, self.strides,
                          self.storage_offset)

    def __repr__(self):
        return "TensorMeta(%s, %s)" % (list(self.shape), self.dtype)


class DynamicShapeError(TypeError):
    """A tensor whose shape is symbolic (torch.compile's dynamic shapes)."""


def _static(d):
    if not isinstance(d, int) and type(d).__name__ == "SymInt":
        raise DynamicShapeError(
            "expects static shapes, but got a symbolic size %s (import the "
            "graph on real inputs, as the torch.compile backend does once "
            "per input signature)" % d)
    return int(d)


def summarize(value, float_type=None):
    """`value` with every tensor replaced by its TensorMeta; `float_type`
    renames f32 (used when the graph ran in f32 in place of f16/bf16)."""
    if isinstance(value, torch.Tensor):
        shape = [_static(d) for d in value.shape]
        # A dtype TCP lacks is an error only where the importer uses it.
        dtype = _MLIR_TYPES.get(value.dtype) or "unsupported %s" % (
            dtype_name(value.dtype))
        if float_type and dtype == "f32":
            dtype = float_type
        try:
            strides, offset = value.stride(), value.storage_offset()
        except (RuntimeError, NotImplementedError):  # no strides (sparse)
            strides = offset = None
        return TensorMeta(shape, dtype, stored_channels_last(value), strides,
                          offset)
    if isinstance(value, torch.Size):
        return tuple(_static(d) for d in value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        # A named tuple (PackedSequence) as a plain one: its constructor
        # may check its fields.
        return tuple(summarize(v, float_type) for v in value)
    if isinstance(value, (tuple, list)):
        return type(value)(summarize(v, float_type) for v in value)
    if isinstance(value, dict):
        return {k: summarize(v, float_type) for k, v in value.items()}
    return value


def is_cpu_scalar(value) -> bool:
    """A 0-d tensor on the CPU: how TorchDynamo passes a float attribute
    (a layer norm's eps) under dynamic shapes."""
    return isinstance(value, torch.Tensor) and value.dim() == 0 \
        and value.device.type == "cpu"


def contains_tensor(summary) -> bool:
    if isinstance(summary, TensorMeta):
        return True
    if isinstance(summary, (tuple, list)):
        return any(contains_tensor(v) for v in summary)
    if isinstance(summary, dict):
        return any(contains_tensor(v) for v in summary.values())
    return False


# Ops whose first argument gives only a dtype, a device or a shape: their
# result is a constant even when that argument is the model's input.
_METADATA_ONLY_METHODS = ("new_zeros", "new_ones", "new_full", "new_empty")
_METADATA_ONLY_FUNCTIONS = (torch.zeros_like, torch.ones_like,
                            torch.full_like, torch.empty_like) + tuple(
    getattr(getattr(torch.ops.aten, name), "default")  # torch.export's
    for name in ("zeros_like", "ones_like", "full_like", "empty_like",
                 "new_zeros", "new_ones", "new_full", "new_empty")
    if hasattr(torch.ops.aten, name))


# Ops whose result's values are undefined (uninitialised memory): the
# recorder zeroes it, so that a tensor the model fills in parts (torch's
# circular padding: new_empty, then copies) folds to the same literal in
# every run, and the module and its artifact key do not change with
# whatever the memory held.
_UNINITIALISED_METHODS = ("new_empty", "new_empty_strided")
_UNINITIALISED_FUNCTIONS = (torch.empty, torch.empty_like,
                            torch.empty_strided) + tuple(
    getattr(getattr(torch.ops.aten, name), overload)
    for name, overload in (("empty", "memory_format"),
                           ("empty_like", "default"),
                           ("new_empty", "default"),
                           ("empty_strided", "default"),
                           ("new_empty_strided", "default"),
                           ("empty_permuted", "default"))
    if hasattr(getattr(torch.ops.aten, name, None), overload))


def _aten_overloads(names):
    """Every overload of each aten op in `names` that this torch has."""
    found = []
    for name in names:
        packet = getattr(torch.ops.aten, name, None)
        try:
            overloads = packet.overloads() if packet is not None else []
        except AttributeError:  # an older torch: no overload list
            overloads = ["default"]
        found += [getattr(packet, o) for o in overloads if hasattr(packet, o)]
    return tuple(found)


# Ops that draw random numbers: a new draw at every call, so never a
# constant (folded, a compiled module would repeat the recording's one
# draw: ViTMAE's random masking would mask the same patches every call).
# None has a TCP lowering: the importer refuses them with that reason, and
# partitioned compilation leaves them to PyTorch.
_RANDOM_METHODS = ("uniform_", "normal_", "bernoulli", "bernoulli_",
                   "random_", "exponential_", "geometric_", "cauchy_",
                   "log_normal_", "multinomial")
_RANDOM_FUNCTIONS = (
    torch.rand, torch.randn, torch.randint, torch.rand_like,
    torch.randn_like, torch.randint_like, torch.randperm, torch.bernoulli,
    torch.multinomial, torch.normal, torch.poisson) + _aten_overloads(
    ("rand", "randn", "randint", "rand_like", "randn_like", "randint_like",
     "randperm", "bernoulli", "multinomial", "normal", "poisson", "uniform",
     "exponential", "geometric", "cauchy", "log_normal", "random"))


def _calls(n, methods, functions) -> bool:
    """Whether fx node `n` calls one of `methods` (by name) or `functions`."""
    return (n.op == "call_method" and n.target in methods) or (
        n.op == "call_function" and n.target in functions)


def draws_random(n) -> bool:
    """Whether fx node `n` draws random numbers (see _RANDOM_FUNCTIONS)."""
    return _calls(n, _RANDOM_METHODS, _RANDOM_FUNCTIONS)


def _uninitialised(n) -> bool:
    return _calls(n, _UNINITIALISED_METHODS, _UNINITIALISED_FUNCTIONS)


def _reads_metadata_only(n) -> bool:
    return _calls(n, _METADATA_ONLY_METHODS, _METADATA_ONLY_FUNCTIONS)


class ChangedAfterUse:
    """Stands in a constants table for a tensor made inside the model that
    an op changed in place after the graph had read it: no one literal is
    its value."""

    def __init__(self, node_name):
        self.node_name = node_name


class InF32(torch.fx.Interpreter):
    """Runs a graph, one in f16 or bf16 (`float_type`, else None) as its
    f32 copy: a tensor the graph makes in the reduced type (torch.export's
    aten.zeros(..., dtype=torch.float16) for an RNN's initial state) is
    made in f32 too, a cast to the reduced type (Hugging Face's
    `mask.to(dtype=self.dtype)`, Mamba's `.to(torch.float16)` before a
    matmul) is a cast to f32, and a submodule that is itself a graph (a
    partition) runs the same way."""

    def __init__(self, module, float_type):
        super().__init__(module)
        self.float_type = float_type

    def call_function(self, target, args, kwargs):
        # So is a positional dtype: torch.export's
        # aten._assert_tensor_metadata(x, None, None, torch.float16) before a
        # cast checks x's type, which is f32 in this run.
        if self.float_type:
            args, kwargs = _dtypes_to_f32(args, kwargs)
        return super().call_function(target, args, kwargs)

    def call_method(self, target, args, kwargs):
        if self.float_type:
            if target in ("half", "bfloat16"):
                target = "float"
            elif target in ("to", "type"):
                args, kwargs = _dtypes_to_f32(args, kwargs)
        return super().call_method(target, args, kwargs)

    def call_module(self, target, args, kwargs):
        submodule = self.fetch_attr(target)
        if self.float_type and isinstance(submodule, torch.fx.GraphModule):
            return InF32(submodule, self.float_type).run(*args, **kwargs)
        return super().call_module(target, args, kwargs)


class _Recorder(InF32):
    """Records every node's result, and folds: a node whose tensor
    arguments are all constants (none at all: torch.zeros(...); or only
    metadata: x.new_zeros(...)) is itself a constant, and so is an in-place
    op on a constant (`mask[0:3] = 1`). A constant's value is taken when a
    node that is not one first reads it (after the in-place ops before it),
    so torchvision's Swin attention mask, built from sizes with setitem and
    masked_fill, becomes one literal."""

    def __init__(self, module, float_type, buffers):
        super().__init__(module, float_type)
        self.record: Dict[str, Any] = {}
        # Folded node -> its value as the graph reads it (None when no
        # node that is not folded reads it).
        self.constants: Dict[str, Any] = {}
        self._live: Dict[str, torch.Tensor] = {}  # folded tensors
        self._taken: Dict[str, int] = {}  # folded -> version when read
        # Tensor attributes that are neither parameters nor buffers
        # (torch.export's lifted constants, torch.fx's _tensor_constantN)
        # fold too, but stay function arguments where read. `buffers`: the
        # qualified names of the caller's module's buffers (a deep copy
        # registers attributes as buffers).
        self._buffers = buffers
        self._attributes = set()
        # Folded tensors an op that is not folded changed in place
        # (BART's shift_tokens_right writes input ids into new_zeros):
        # from then on they are computed, not constants.
        self._unfolded = set()
        from .importer import is_in_place  # (importer imports this module)
        self._is_in_place = is_in_place

    def _folds(self, n) -> bool:
        if n.op not in ("call_function", "call_method") or draws_random(n):
            return False
        metadata_only = n.args[0] if _reads_metadata_only(n) and n.args \
            else None
        return all(i.name in self.constants and i.name not in self._unfolded
                   for i in n.all_input_nodes
                   if i is not metadata_only
                   and contains_tensor(self.record.get(i.name)))

    def _take(self, node_name):
        """The value of folded `node_name` as a node that is not folded
        reads it now."""
        live = self._live.get(node_name)
        if live is None or node_name in self._attributes or \
                node_name in self._unfolded:
            return
        if node_name not in self._taken:
            self.constants[node_name] = live.detach().cpu().clone()
            self._taken[node_name] = live._version
        elif self._taken[node_name] != live._version:
            self.constants[node_name] = ChangedAfterUse(node_name)

    def run_node(self, n):
        folds = self._folds(n)
        if not folds:
            for i in n.all_input_nodes:
                if i.name in self.constants:
                    self._take(i.name)
            target = n.args[0] if n.args else None
            if self._is_in_place(n) and isinstance(target, torch.fx.Node) and \
                    target.name in self._live:
                self._unfolded.add(target.name)
        result = super().run_node(n)
        if _uninitialised(n) and isinstance(result, torch.Tensor):
            with torch.no_grad():
                result.zero_()
        self.record[n.name] = summarize(result, self.float_type)
        if n.op == "get_attr" and isinstance(result, torch.Tensor) \
                and not isinstance(result, torch.nn.Parameter) \
                and n.target not in self._buffers:
            self._attributes.add(n.name)
            folds = True
        if folds:
            self.constants[n.name] = None
            if isinstance(result, torch.Tensor):
                self._live[n.name] = result
        return result


def _dtypes_to_f32(args, kwargs):
    """`args` and `kwargs` with each f16/bf16 dtype among them (positional,
    or the `dtype` keyword) made f32."""
    def f32(a):
        return torch.float32 if isinstance(a, torch.dtype) \
            and a in _REDUCED_FLOATS else a
    if "dtype" in kwargs:
        kwargs = dict(kwargs, dtype=f32(kwargs["dtype"]))
    return tuple(f32(a) for a in args), kwargs


def _reduced_float_type(module, inputs):
    """The one reduced float type (f16 or bf16) of the module's tensors and
    the inputs, or None."""
    found = set()
    for t in list(module.parameters()) + list(module.buffers()) + [
            i for i in inputs if isinstance(i, torch.Tensor)]:
        if t.dtype in _REDUCED_FLOATS:
            found.add(t.dtype)
    return found.pop() if len(found) == 1 else None


def _to_f32(value, reduced):
    if isinstance(value, torch.Tensor) and value.dtype == reduced:
        return value.float()
    return value


def copy_module(module):
    """copy.deepcopy(module), also when a module holds a tensor computed
    from its parameters as a plain attribute (nn.utils.weight_norm's hook
    sets `weight` so in each forward; deepcopy refuses non-leaf tensors):
    such tensors are copied detached. They are swapped for detached views
    during the copy rather than passed in a memo: torch 1.13's
    GraphModule.__deepcopy__ does not pass the memo on."""
    swapped = []
    for sub in module.modules():
        for name, value in list(vars(sub).items()):
            if isinstance(value, torch.Tensor) and not value.is_leaf:
                swapped.append((sub, name, value))
                sub.__dict__[name] = value.detach()
    try:
        return copy.deepcopy(module)
    finally:
        for sub, name, value in swapped:
            sub.__dict__[name] = value


def runnable_on_cpu(module, inputs):
    """(module, inputs, back, float_type) to run `module` on `inputs`
    eagerly, with InF32(module, float_type): as they are, except for a
    graph in f16 or bf16 on the CPU, which runs as an f32 copy (see
    record); `back` turns a tensor of that run into the type the real run
    would give."""
    reduced = _reduced_float_type(module, inputs)
    on_cpu = all(i.device.type == "cpu" for i in inputs
                 if isinstance(i, torch.Tensor))
    if reduced is None or not on_cpu:
        return module, list(inputs), lambda value: value, None

    def back(value):
        if isinstance(value, torch.Tensor) and value.dtype == torch.float32:
            return value.to(reduced)
        return value
    return (copy_module(module).float(),
            [_to_f32(i, reduced) for i in inputs], back, mlir_type(reduced))


def _is_fake(value) -> bool:
    return type(value).__name__ == "FakeTensor"


def record_from_meta(module: torch.fx.GraphModule):
    """node name -> summary from the example values TorchDynamo stores on
    every node (FakeTensors when its example inputs are fake)."""
    recorded = {}
    for n in module.graph.nodes:
        if n.op == "output":
            continue
        value = n.meta.get("example_value", n.meta.get("val"))
        if value is None and n.op != "get_attr":
            raise TypeError("expects every node of a graph with fake example "
                            "inputs to carry an example value, but '%s' has "
                            "none" % n.name)
        recorded[n.name] = summarize(value)
    return recorded, {}


def record(module: torch.fx.GraphModule, inputs):
    """Runs `module` on `inputs` and returns (node name -> summary, node
    name -> value of each node that folds to a constant (_Recorder)). A
    graph in f16 or bf16 runs in f32 instead, its f32 results recorded as
    the reduced type: shapes do not depend on the float type."""
    if any(_is_fake(i) for i in inputs):
        return record_from_meta(module)
    # Copies, because the graph may update its inputs in place (TorchDynamo
    # passes buffers as inputs: num_batches_tracked.add_(1), the running
    # statistics of F.batch_norm(training=True)).
    inputs = [i.clone() if isinstance(i, torch.Tensor) else i
              for i in inputs]
    reduced = _reduced_float_type(module, inputs)
    buffers = {name for name, _ in module.named_buffers()}
    if reduced is None:
        shadow = copy_module(module)
        with torch.no_grad():
            recorder = _Recorder(shadow, None, buffers)
            recorder.run(*inputs)
        return recorder.record, recorder.constants
    # f16/bf16: the graph runs in f32, on the CPU (torch 1.13 lacks most of
    # those kernels there, and some of its bf16 ones execute instructions
    # this CPU may not have: SIGILL, which no except clause catches) and on
    # a GPU alike, so that what folds into the IR (rotary tables, masks) has
    # the same values wherever the model is imported: run natively in bf16
    # on an H200, 19 of 21 Hugging Face models imported into other IR (so
    # another artifact key) than on the CPU.
    shadow = copy_module(module).float()
    with torch.no_grad():
        recorder = _Recorder(shadow, mlir_type(reduced), buffers)
        recorder.run(*[_to_f32(i, reduced) for i in inputs])
    # Renaming every f32 result as the reduced type is wrong for a tensor
    # that is f32 in the real run too (torch.where(c, 1.0, 2.0), a float
    # arange): the types of the real run, from fake tensors, win, except
    # for the items of a result of several tensors, whose meta functions
    # may disagree with the kernels (torch 2.11's
    # _native_batch_norm_legit_functional gives f32 new statistics for f16
    # ones, its CPU and CUDA kernels f16). Without fake tensors (a graph
    # they cannot run) the renaming stands.
    # A result of several tensors is renamed item by item where the node
    # reads an f32 tensor of the real run (torch.split of Hugging Face
    # CodeGen's f32 rotary table, which .half() leaves f32), and so are the
    # getitems of such a result; the batch norm above reads none.
    true_types = _fake_dtypes(module, inputs)
    renamed_tuples = set()

    def reads_f32(n):
        return any(isinstance(recorder.record.get(i.name), TensorMeta) and
                   recorder.record[i.name].dtype == "f32"
                   for i in n.all_input_nodes)

    for n in module.graph.nodes:
        meta, true = recorder.record.get(n.name), true_types.get(n.name)
        if isinstance(meta, TensorMeta) and meta.dtype in ("f16", "bf16") \
                and true == torch.float32 and all(
                    not isinstance(recorder.record.get(i.name),
                                   (tuple, list)) or i.name in renamed_tuples
                    for i in n.all_input_nodes):
            recorder.record[n.name] = meta.with_dtype("f32")
        elif isinstance(meta, (tuple, list)) and \
                isinstance(true, tuple) and len(true) == len(meta) and \
                reads_f32(n):
            recorder.record[n.name] = type(meta)(
                m.with_dtype("f32") if isinstance(m, TensorMeta) and
                m.dtype in ("f16", "bf16") and t == torch.float32 else m
                for m, t in zip(meta, true))
            renamed_tuples.add(n.name)

    def real_type(name, value):
        """A folded constant in the type its record now says."""
        meta = recorder.record.get(name)
        if not isinstance(value, torch.Tensor) or \
                value.dtype != torch.float32 or \
                (isinstance(meta, TensorMeta) and meta.dtype == "f32"):
            return value
        return value.to(reduced)
    constants = {n: real_type(n, t) for n, t in recorder.constants.items()}
    return recorder.record, constants


def _fake_dtypes(module, inputs):
    """node name -> dtype of each node whose result is one tensor (a tuple
    of them, None for items that are not tensors, for a result of several),
    when `module` runs on `inputs` in their own types, propagated with fake
    tensors (no kernel runs, so f16 and bf16 need none on the CPU); {}
    where fake tensors cannot run the graph."""
    try:
        from torch._subclasses.fake_tensor import FakeTensorMode
        from torch.fx.passes.fake_tensor_prop import FakeTensorProp
    except ImportError:  # torch 1.x
        return {}
    try:
        mode = FakeTensorMode(allow_non_fake_inputs=True)
        fakes = [mode.from_tensor(i) if isinstance(i, torch.Tensor) else i
                 for i in inputs]
        shadow = copy_module(module)
        with torch.no_grad():
            FakeTensorProp(shadow, mode).propagate(*fakes)
    except Exception:  # noqa: BLE001 (the f32 renaming stands)
        return {}
    types = {}
    for n in shadow.graph.nodes:
        value = n.meta.get("val")
        if isinstance(value, torch.Tensor):
            types[n.name] = value.dtype
        elif isinstance(value, (tuple, list)) and value:
            types[n.name] = tuple(v.dtype if isinstance(v, torch.Tensor)
                                  else None for v in value)
    return types
