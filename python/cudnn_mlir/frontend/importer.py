"""Imports a torch.fx graph as one TCP function (see docs/frontend.md).

    imported = import_model(model, (x,))
    print(imported.text)          # MLIR: func.func @forward(...)
    imported.args                 # ArgSpec per function argument

The function's arguments are the graph's tensor inputs, then every
parameter, buffer and tensor constant the graph reads, in first-use order,
each marked with its qualified name (`{cudnn_mlir.parameter =
"layer1.0.conv1.weight"}`). Its results are the graph's tensor outputs, then
one new value per buffer a training-mode batch norm updates
(`{cudnn_mlir.updates = "bn1.running_mean"}`).
"""

import inspect
import operator
import os
import re
import traceback
from typing import Any, Dict, List, Optional

import torch
import torch.fx

from ..artifact import ArgSpec, ImportedModule, get_attribute
from ..partition import describe_node, first_line
from . import (aten_lowerings, attention_functions, attention_modules,
               lowerings, packed_sequence, rnn_lowering, view_writes)
from .lowerings import UnsupportedOperation
from .recording import (SUPPORTED_DTYPES, ChangedAfterUse, TensorMeta,
                        contains_tensor, draws_random, is_cpu_scalar,
                        mlir_type, record, stored_channels_last,
                        tensor_bytes)
from .tcp_writer import TcpWriter, Value, string_literal, tensor_type

MODULES = dict(lowerings.MODULES)
MODULES.update(rnn_lowering.MODULES)
FUNCTIONS = dict(lowerings.FUNCTIONS)
FUNCTIONS.update(rnn_lowering.FUNCTIONS)
FUNCTIONS.update(aten_lowerings.FUNCTIONS)
FUNCTIONS.update(packed_sequence.FUNCTIONS)

# Largest tensor the graph makes from constants alone (torch.zeros(...), a
# tensor constant, Swin's [1, 64, 1, 49, 49] window mask) that is written
# into the IR as a literal.
_MAX_LITERAL_ELEMENTS = 1 << 18


class TorchImportError(Exception):
    """The model uses something the importer cannot express; the message
    names the operation and where the model calls it, and `node` the FX
    node's name where one node is the cause (else None)."""

    node = None


class _Tracer(torch.fx.Tracer):
    """torch.fx's tracer, except that a call of an RNN module returns its
    output structure, (output, (h_n, c_n)) or (output, h_n), so the model can
    unpack it (`output, (h, c) = self.lstm(x)`), which a plain Proxy
    refuses, and that nn.MultiheadAttention is traced as the ops it computes
    (attention_modules.py)."""

    def call_module(self, m, forward, args, kwargs):
        decomposition = _decomposition_of(m)
        if decomposition is not None:
            try:
                return decomposition(m, *args, **kwargs)
            except attention_modules.UnsupportedAttention as error:
                raise TorchImportError("%s (module '%s')" % (
                    error, self.path_of_module(m))) from error
        out = super().call_module(m, forward, args, kwargs)
        if not isinstance(out, torch.fx.Proxy):
            return out
        if isinstance(m, torch.nn.LSTM):
            return (out[0], (out[1][0], out[1][1]))
        if isinstance(m, (torch.nn.GRU, torch.nn.RNN)):
            return (out[0], out[1])
        return out

    def _filter_traceback_frames(self, user_stack_summary):
        """torch 2.x's filter of a node's recorded stack (from the first
        `forward` frame on), without its set of uninteresting torch files:
        building that set imports TorchDynamo, Inductor and torch.export,
        half a second of a fresh process's first trace (0.9 s of ResNet-50's
        trace on the GPU machine). _source skips torch's frames itself."""
        for i, frame in enumerate(user_stack_summary):
            if frame.name == "forward":
                return traceback.StackSummary.from_list(
                    list(user_stack_summary)[i:])
        return traceback.StackSummary.from_list([])


# A model that is itself a module the importer lowers whole (nn.LSTM,
# nn.BatchNorm2d, ...) is one call_module of a wrapper's child of this name;
# its tensors' names drop the prefix again.
_LEAF_ROOT = "leaf_root"


def _decomposition_of(module):
    """The function the tracer calls instead of `module`, or None."""
    for cls in type(module).__mro__:
        if cls in attention_modules.DECOMPOSED_MODULES:
            return attention_modules.DECOMPOSED_MODULES[cls]
    return None


def _lowered_whole(model) -> bool:
    return any(cls in MODULES for cls in type(model).__mro__)


def _input_names(model) -> List[str]:
    """The model's inputs: its forward's positional parameters without a
    default."""
    return [name for name, p in
            inspect.signature(model.forward).parameters.items()
            if p.default is inspect.Parameter.empty
            and p.kind == p.POSITIONAL_OR_KEYWORD]


def _trace_leaf(model) -> torch.fx.GraphModule:
    wrapper = torch.nn.Module()
    wrapper.add_module(_LEAF_ROOT, model)
    graph = torch.fx.Graph()
    inputs = [graph.placeholder(name) for name in _input_names(model)]
    graph.output(graph.call_module(_LEAF_ROOT, tuple(inputs)))
    return torch.fx.GraphModule(wrapper, graph, type(model).__name__)


def _decomposed_root(model) -> torch.nn.Module:
    """A module whose forward calls `model` (one the tracer decomposes, such
    as an nn.TransformerEncoder given as the whole model) with its inputs,
    so that the call goes through the tracer. torch.fx reads a forward's
    parameters from its code, so the forward is written for these names."""
    names = _input_names(model)
    if not all(name.isidentifier() for name in names):
        raise TorchImportError("expects identifier input names, but %s's "
                               "forward takes %s" % (type(model).__name__,
                                                     names))
    source = "def forward(self, %s):\n    return self.%s(%s)\n" % (
        ", ".join(names), _LEAF_ROOT, ", ".join(names))
    scope = {}
    exec(source, scope)  # noqa: S102 (the names are checked identifiers)
    root = type(type(model).__name__, (torch.nn.Module,),
                {"forward": scope["forward"]})()
    root.add_module(_LEAF_ROOT, model)
    return root


def trace(model: torch.nn.Module, example_inputs=None) -> torch.fx.GraphModule:
    """`model` as an FX graph (standard leaf modules kept as calls), with
    each node's source location recorded. Given `example_inputs`, a model
    torch.fx cannot trace symbolically (Python control flow on sizes), or
    whose trace keeps calls of functions wrapped with torch.fx.wrap that
    the importer has no lowering for (torchvision's Swin attention), is
    captured by TorchDynamo instead, which runs those functions on the
    inputs' static sizes (`_capture_with_dynamo`)."""
    if isinstance(model, torch.fx.GraphModule):
        return model
    if example_inputs is None:
        return _trace_symbolically(model)
    try:
        traced = _trace_symbolically(model)
    except TorchImportError as error:
        if isinstance(error.__cause__, attention_modules.UnsupportedAttention):
            raise  # the model's own use the importer refuses
        return _capture_with_dynamo(
            model, example_inputs, "tracing it symbolically failed: %s"
            % first_line(error.__cause__))
    wrapped = sorted({_target_name(n, traced) for n in traced.graph.nodes
                      if _is_wrapped_function(n)})
    if not wrapped:
        return traced
    return _capture_with_dynamo(
        model, example_inputs, "torch.fx kept calls of %s, which it does "
        "not trace into" % ", ".join(wrapped), traced)


def _is_wrapped_function(node) -> bool:
    """A call of a Python function torch.fx did not trace into (one the
    model wrapped with torch.fx.wrap) that has no lowering."""
    target = node.target
    module = getattr(target, "__module__", None) or ""
    return (node.op == "call_function" and inspect.isfunction(target)
            and target not in FUNCTIONS
            and module != "torch" and not module.startswith("torch."))


def _capture_with_dynamo(model, example_inputs, why, traced=None):
    """`model` captured whole by TorchDynamo on `example_inputs` (static
    sizes, real tensors), with its parameters and buffers as get_attr nodes
    of their qualified names, as a symbolic trace gives them. Raises
    TorchImportError naming `why` the symbolic trace was not used when
    TorchDynamo breaks the graph; returns `traced` (the symbolic trace,
    partitioned later) instead when there is one."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    try:
        from torch import _dynamo  # torch 2.x
        with torch.no_grad():
            captured, _ = _dynamo.export(
                model, aten_graph=False, assume_static_by_default=True,
                tracing_mode="real")(*example_inputs)
    except Exception as error:  # noqa: BLE001 (TorchDynamo's many kinds)
        if traced is not None:
            return traced
        dynamo = "TorchDynamo needs torch 2, but this is torch %s" % (
            torch.__version__) if isinstance(error, ImportError) else \
            "TorchDynamo failed: %s" % first_line(error)
        raise TorchImportError(
            "expects a model torch.fx or TorchDynamo can trace, but %s; and "
            "%s" % (why, dynamo)) from error
    _unflatten_outputs(captured.graph)
    names = {}
    for name, tensor in list(model.named_parameters(remove_duplicate=False)) \
            + list(model.named_buffers(remove_duplicate=False)):
        names.setdefault(id(tensor), name)
    attributes = {}
    for node in captured.graph.nodes:
        if node.op == "get_attr":
            tensor = _get_qualified(captured, node.target)
            node.target = names.get(id(tensor), node.target)
            attributes[node.target] = tensor
    module = torch.fx.GraphModule(attributes, captured.graph,
                                  type(model).__name__)
    module.training = model.training
    module.meta["captured_by"] = "TorchDynamo: %s" % why
    attention_functions.decompose_attention_functions(module)
    return module


def _unflatten_outputs(graph):
    """TorchDynamo's export returns its outputs flat and restores the
    model's structure (a tensor, not [tensor]) in generated code; the graph
    gets that structure in its output node instead, and plain code."""
    import torch.utils._pytree as pytree
    info = getattr(graph._codegen, "pytree_info", None)
    if info is None or info.out_spec is None:
        return
    output = next(n for n in graph.nodes if n.op == "output")
    output.args = (pytree.tree_unflatten(list(output.args[0]),
                                         info.out_spec),)
    graph._codegen = torch.fx.graph.CodeGen()


def _trace_symbolically(model) -> torch.fx.GraphModule:
    if _lowered_whole(model):
        return _trace_leaf(model)
    if _decomposition_of(model) is not None:
        model = _decomposed_root(model)
    tracer = _Tracer()
    tracer.record_stack_traces = True
    attributes_before = set(vars(model))
    try:
        with packed_sequence.traceable(model):
            graph = tracer.trace(model)
    except TorchImportError:
        raise
    except Exception as error:
        raise TorchImportError(
            "expects a model torch.fx can trace symbolically, but tracing "
            "%s failed: %s" % (type(model).__name__, error)) from error
    finally:
        added = [name for name in vars(model)
                 if name not in attributes_before]
    return _graph_module_of_trace(tracer.root, graph, type(model).__name__,
                                  model, added)


def _graph_module_of_trace(root, graph, class_name, model, added):
    """The GraphModule of a trace, without the tensor constants torch.fx
    stored on the user's `model` as it traced (`_tensor_constantN`, the
    names in `added`): they are taken off it again and renamed in the order
    the graph reads them, so that tracing the same model twice gives the
    same graph (torch.fx would number the second trace's constants after
    the first's, and the artifact's key would change)."""
    if not added:
        return torch.fx.GraphModule(root, graph, class_name)
    renamed = {}
    for node in graph.nodes:
        if node.op == "get_attr" and node.target in added:
            if node.target not in renamed:
                renamed[node.target] = "_tensor_constant%d" % len(renamed)
            node.target = renamed[node.target]
    attributes = {new: getattr(model, old) for old, new in renamed.items()}
    for name in added:
        delattr(model, name)
    for node in graph.nodes:
        if node.op in ("get_attr", "call_module") and \
                node.target not in attributes:
            attributes[node.target] = _get_qualified(root, node.target)
    module = torch.fx.GraphModule(attributes, graph, class_name)
    # Not train(): that would recurse into the user's modules.
    module.training = root.training
    return module


def _get_qualified(module, qualified_name):
    value = module
    for part in qualified_name.split("."):
        value = getattr(value, part)
    return value


def import_model(model: torch.nn.Module, example_inputs,
                 func_name: str = "forward") -> ImportedModule:
    """Traces `model` and imports it; `example_inputs` fix the shapes and
    dtypes (and the values of non-tensor inputs)."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    return import_graph(trace(model, tuple(example_inputs)),
                        tuple(example_inputs), func_name)


def import_exported(exported, func_name: str = "forward") -> ImportedModule:
    """Imports a torch.export ExportedProgram (torch 2.x): decomposed to core
    ATen, with its parameters and buffers back as named attributes
    (`ExportedProgram.module()`), on the example inputs it was exported
    with."""
    import torch.utils._pytree as pytree
    exported = decompose_exported(exported)
    args, kwargs = exported.example_inputs
    flat = pytree.tree_leaves((args, kwargs))
    return import_graph(exported.module(), flat, func_name)


def decompose_exported(exported):
    """`exported` decomposed to core ATen, except for the RNNs
    (aten.lstm/gru/rnn_tanh/rnn_relu), which stay whole: decomposed, they
    are per-step matmuls and gates instead of one cuDNN RNN; nearest,
    bilinear and bicubic upsampling (antialiased too), which would become gathers at
    computed indices instead of a repeat or two matrix products;
    scaled_dot_product_attention, whose decomposition guards fully masked
    rows with selects TCP lacks; roll, which would become
    a gather at indices computed with fmod instead of two slices; and
    im2col (F.unfold) and col2im (F.fold), which would become an index (an
    accumulating index_put) by computed tensors instead of strided slices
    (a transposed convolution)."""
    table = torch.export.default_decompositions()
    kept = list(rnn_lowering.ATEN_OVERLOADS) + [
        getattr(packet, overload)
        for packet in (torch.ops.aten.upsample_nearest2d,
                       torch.ops.aten._upsample_nearest_exact2d,
                       torch.ops.aten.upsample_bilinear2d,
                       torch.ops.aten.upsample_bicubic2d,
                       torch.ops.aten._upsample_bilinear2d_aa,
                       torch.ops.aten._upsample_bicubic2d_aa,
                       torch.ops.aten.im2col, torch.ops.aten.col2im,
                       torch.ops.aten.scaled_dot_product_attention,
                       torch.ops.aten.roll)
        for overload in ("vec", "default") if hasattr(packet, overload)]
    for op in kept:
        table.pop(op, None)
    return exported.run_decompositions(table)


def import_graph(graph_module: torch.fx.GraphModule, example_inputs,
                 func_name: str = "forward",
                 scalars_as_values: bool = False) -> ImportedModule:
    """Imports an FX graph (from tracing, TorchDynamo or by hand). With
    `scalars_as_values`, an input that is a 0-d CPU tensor (TorchDynamo's
    form of a float attribute under dynamic shapes, such as a layer norm's
    eps) is its value, written into the IR, not an argument: for callers
    that compile again when the value changes (driver/specialize.py)."""
    try:
        recorded, constants = record(graph_module, example_inputs)
    except TorchImportError:
        raise
    except Exception as error:
        raise TorchImportError(
            "expects the model to run on its example inputs, but it raised "
            "%s: %s" % (type(error).__name__, error)) from error
    return _Importer(graph_module, recorded, constants, func_name,
                     example_inputs, scalars_as_values).run()


def import_failures(graph_module: torch.fx.GraphModule, example_inputs,
                    recording=None) -> List[TorchImportError]:
    """Every node of the graph the importer does not take, as the error
    each gives (`.node` names it), found in one import that goes on past
    each failure: partitioning (partition.py) leaves them all to PyTorch at
    once instead of learning them one import at a time. `recording`: the
    graph's record() on these inputs, where the caller has it. Raises where
    the graph cannot be recorded at all."""
    recorded, constants = recording or record(graph_module, example_inputs)
    importer = _Importer(graph_module, recorded, constants, "forward",
                         example_inputs)
    importer.failures = []
    importer.run()
    return importer.failures


_FRAME = re.compile(r'^\s*File "(.+)", line (\d+), in (.+)$')
_TORCH_DIR = os.path.dirname(os.path.realpath(torch.__file__)) + os.sep
_OUR_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) \
    + os.sep


def _frames(trace_text):
    """[(file, line, function, code)] of a formatted stack."""
    frames = []
    for line in trace_text.splitlines():
        match = _FRAME.match(line)
        if match:
            path = match.group(1)
            if os.path.isabs(path):
                path = os.path.normpath(path)
            frames.append([path, int(match.group(2)),
                           match.group(3), ""])
        elif frames and not frames[-1][3]:
            frames[-1][3] = line.strip()
    return frames


def _source(node: torch.fx.Node):
    """(file, line, function, code) of the innermost model line that made
    `node`, from its recorded stack trace, or None. torch 1.13 lists the
    innermost frame first and keeps its own frames; torch 2.x lists it last:
    the model's frames are those on the far side of torch's tracer from the
    importer's."""
    trace_text = getattr(node, "stack_trace", None) or node.meta.get(
        "stack_trace")
    if not trace_text:
        return None
    frames = _frames(trace_text)

    def is_user(f):
        return not f[0].startswith(_TORCH_DIR) and not f[0].startswith(
            _OUR_DIR)

    tracer = [i for i, f in enumerate(frames)
              if f[0].startswith(_TORCH_DIR) and f[2] == "trace"]
    caller = [i for i, f in enumerate(frames)
              if f[0].startswith(_OUR_DIR) and f[2] == "trace"]
    if tracer and caller and caller[0] > tracer[0]:  # innermost first
        inner = [i for i in range(tracer[0]) if is_user(frames[i])]
        return tuple(frames[inner[0]]) if inner else None
    start = tracer[-1] + 1 if tracer else 0
    inner = [i for i in range(start, len(frames)) if is_user(frames[i])]
    return tuple(frames[inner[-1]]) if inner else None


def _target_name(node: torch.fx.Node, graph_module) -> str:
    if node.op == "call_module":
        module = graph_module.get_submodule(node.target)
        return "%s (module '%s')" % (type(module).__name__, node.target)
    if node.op == "call_method":
        return "Tensor.%s" % node.target
    target = node.target
    name = getattr(target, "__name__", str(target))
    module = getattr(target, "__module__", None) or ""
    if module in ("_operator", "operator"):
        module = "operator"
    elif module.startswith("torch._C._nn") or module == "torch._C":
        module = "torch.nn.functional"
    return "%s.%s" % (module, name) if module else name


class NodeContext:
    """What a lowering sees of the node it lowers."""

    def __init__(self, importer, node, result, loc, module_name=None):
        self.w: TcpWriter = importer.writer
        self.node, self.result, self.loc = node, result, loc
        self._importer, self._module_name = importer, module_name

    def parameter(self, name: str) -> Value:
        """The argument for the module's tensor attribute `name`; for a
        weight the legacy nn.utils.weight_norm hook computes before each
        call, that computation, from the parameters `name`_g and `name`_v
        (the attribute itself is the hook's last result: stale, and left
        in f32 by .half(), which converts only parameters and buffers)."""
        qualified = "%s.%s" % (self._module_name, name) \
            if self._module_name else name
        hook = self._weight_norm_hook(name)
        if hook is not None:
            from . import lowerings  # (lowerings imports this module)
            return lowerings.weight_norm(self, self.parameter(name + "_v"),
                                         self.parameter(name + "_g"),
                                         hook.dim)
        return self._importer.attribute(qualified)

    def _weight_norm_hook(self, name: str):
        if self._module_name is None:
            return None
        module = self._importer.gm.get_submodule(self._module_name)
        from torch.nn.utils.weight_norm import WeightNorm
        return next((h for h in module._forward_pre_hooks.values()
                     if isinstance(h, WeightNorm) and h.name == name), None)

    def recorded(self, node):
        """What the recording says of `node`'s result (a TensorMeta for a
        tensor), or None."""
        return self._importer.recorded.get(node.name)

    def update_buffer(self, buffer: Value, new_value: Value):
        """`new_value` replaces `buffer` after the call, when `buffer` is a
        function argument (a module buffer, or a graph input as TorchDynamo
        passes them)."""
        self._importer.update_argument(buffer, new_value)

    def note_rnn_weights(self, params):
        """The RNN packs its weights from `params` (docs/rnn.md)."""
        self._importer.note_rnn_weights(params)

    def increment_counter(self, name: str):
        self._importer.counters.append(
            _public_name("%s.%s" % (self._module_name, name)))


class _Importer:
    def __init__(self, graph_module, recorded, constants, func_name,
                 example_inputs, scalars_as_values=False):
        self.gm, self.recorded, self.constants = graph_module, recorded, \
            constants
        self.func_name = func_name
        self.writer = TcpWriter()
        self.args: List[Value] = []
        self.arg_specs: List[ArgSpec] = []
        self.attribute_args: Dict[str, Value] = {}
        self.tensors: Dict[str, torch.Tensor] = {}  # ImportedModule.tensors
        self._order = None  # node -> position, where a check needs it
        self.updates: List[tuple] = []
        self.channels_last_results = set()  # result value names
        self.counters: List[str] = []
        # Argument indices RNN weights come from; None once one does not
        # come straight from an argument.
        self.rnn_weight_args: Optional[List[int]] = []
        self.has_rnn = False
        self.env: Dict[torch.fx.Node, Any] = {}
        self.example_inputs = list(example_inputs)
        self.scalars_as_values = scalars_as_values
        # Per argument: whether its tensor is stored channels-last.
        self.channels_last: List[bool] = []
        # import_failures(): every node's error, the import going on past
        # each failed node with a stand-in for its result.
        self.failures: Optional[List[TorchImportError]] = None

    # -- arguments -----------------------------------------------------------

    def _new_arg(self, kind, name, meta, tensor=None) -> Value:
        if meta.dtype.startswith("unsupported"):
            raise TorchImportError(
                "expects %s '%s' to have a dtype TCP has (%s), but got %s"
                % (kind, name, SUPPORTED_DTYPES, meta.dtype.split()[-1]))
        value = Value("%%arg%d" % len(self.args), meta.shape, meta.dtype)
        self.args.append(value)
        self.arg_specs.append(ArgSpec(kind, name, meta.shape, meta.dtype))
        self.channels_last.append(is_channels_last(tensor))
        return value

    def attribute(self, qualified: str) -> Value:
        value = self.attribute_args.get(qualified)
        if value is not None:
            return value
        tensor = get_attribute(self.gm, qualified)
        if not isinstance(tensor, torch.Tensor):
            raise UnsupportedOperation("expects '%s' to be a tensor, but got "
                                       "%s" % (qualified,
                                               type(tensor).__name__))
        kind = "parameter" if isinstance(tensor, torch.nn.Parameter) else (
            "buffer" if _is_buffer(self.gm, qualified) else "constant")
        value = self._new_arg(kind, _public_name(qualified),
                              TensorMeta(tensor.shape, mlir_type(tensor.dtype)),
                              tensor)
        self.attribute_args[qualified] = value
        self.tensors[_public_name(qualified)] = tensor
        return value

    def note_rnn_weights(self, params):
        self.has_rnn = True
        for param in params:
            index = next((i for i, a in enumerate(self.args)
                          if isinstance(param, Value)
                          and a.name == param.name), None)
            if index is None:
                self.rnn_weight_args = None
            elif self.rnn_weight_args is not None \
                    and index not in self.rnn_weight_args:
                self.rnn_weight_args.append(index)

    def update_argument(self, arg: Value, new_value: Value):
        index = next((i for i, a in enumerate(self.args)
                      if a.name == arg.name), None)
        if index is None:
            return  # statistics of a computed tensor: nothing to write back
        self.updates.append((index, new_value))

    # -- nodes ---------------------------------------------------------------

    def _describe(self, node) -> str:
        where = _source(node)
        text = "node '%s' (%s %s)" % (node.name, node.op,
                                      _target_name(node, self.gm))
        if where:
            text += " at %s:%d in %s" % where[:3]
            if where[3]:
                text += ": `%s`" % where[3]
        return text

    def _loc(self, node) -> Optional[str]:
        where = _source(node)
        if not where:
            return "%s" % string_literal(node.name)
        return "%s(%s:%d:0)" % (string_literal(node.name),
                                string_literal(where[0]), where[1])

    def _lookup(self, node):
        handler = None
        module_name = None
        if node.op == "call_function":
            handler = FUNCTIONS.get(node.target)
        elif node.op == "call_method":
            handler = lowerings.METHODS.get(node.target)
        elif node.op == "call_module":
            module = self.gm.get_submodule(node.target)
            for cls in type(module).__mro__:
                if cls in MODULES:
                    lower_module = MODULES[cls]
                    handler = (lambda ctx, *a, _m=module, _f=lower_module,
                               **k: _f(ctx, _m, *a, **k))
                    break
            module_name = node.target
        return handler, module_name

    def _lower(self, node):
        if not node.users and not is_in_place(node):
            self.env[node] = None  # dead code (make_fx keeps some)
            return
        result = self.recorded.get(node.name)
        if node.name in self.constants and result is None:
            self.env[node] = None  # an in-place op on a constant: folded
            return
        if not contains_tensor(result) and not is_in_place(node):
            self.env[node] = result  # sizes and other Python values
            return
        if node.name in self.constants:  # folded (recording._Recorder)
            self.env[node] = self._folded(node, self.constants[node.name])
            return
        if draws_random(node):
            raise TorchImportError(
                "cudnn_mlir cannot import %s: it draws random numbers, anew "
                "at every call, which a compiled module would not (it runs "
                "in PyTorch when compilation is partitioned)"
                % self._describe(node))
        chain = self._view_chain(node) if is_in_place(node) else []
        handler, module_name = self._lookup(node)
        if handler is None:
            raise TorchImportError(
                "cudnn_mlir cannot import %s: no TCP lowering for this "
                "operation" % self._describe(node))
        args = torch.fx.node.map_arg(node.args, lambda n: self.env[n])
        kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: self.env[n])
        ctx = NodeContext(self, node, result, self._loc(node), module_name)
        try:
            # Picking a part of a multi-result (its [0], its .values)
            # checks nothing: the part is checked where it is used.
            if handler not in (lowerings.getitem,
                               lowerings.tensor_attribute):
                aten_lowerings.check_available(
                    list(args) + list(kwargs.values()))
            value = handler(ctx, *args, **kwargs)
        except (UnsupportedOperation, ValueError, TypeError) as error:
            raise TorchImportError("cudnn_mlir cannot import %s: %s"
                                   % (self._describe(node), error)) from error
        _check_matches(value, result, lambda: self._describe(node))
        self.env[node] = value
        target = node.args[0] if node.args else None
        if is_in_place(node) and isinstance(target, torch.fx.Node) \
                and isinstance(self.env.get(target), Value):
            # Later uses of the mutated tensor see the new value, and a
            # mutated argument is written back after the call.
            self.update_argument(self.env[target], value)
            self.env[target] = value
            self._write_back(node, chain, value)

    def _stand_in(self, node, recorded):
        """What the graph's later nodes read of a node that failed to
        import: a fresh argument per tensor of its recorded result, its
        Python values as they are."""
        if isinstance(recorded, TensorMeta):
            return self._new_arg("input", "stand-in for %s" % node.name,
                                 recorded)
        if isinstance(recorded, (tuple, list)):
            return type(recorded)(self._stand_in(node, r) for r in recorded)
        return recorded

    def _view_chain(self, node):
        """The views an in-place op on `node.args[0]` changes: [(view,
        parent)], the target first, up to the tensor no view is taken of.
        Empty when the target is no view, or when nothing reads the views'
        bases afterwards. Raises when a later read would see a stale value
        the importer cannot update."""
        target = node.args[0] if node.args else None
        if not isinstance(target, torch.fx.Node):
            return []
        views, base = views_to_root(self.gm, target)
        chain = list(zip(views, views[1:] + [base]))  # (view, its parent)
        if self._order is None:  # computed once, for the first such op
            self._order = {n: i for i, n in enumerate(self.gm.graph.nodes)}
        after = self._order[node]
        links = {base} | {view for view, _ in chain}
        stale = self._stale_alias(base, links, after)
        if stale is not None:
            raise TorchImportError(
                "cudnn_mlir cannot import %s: expects the tensor an in-place "
                "op changes to have no other view read afterwards, but '%s' "
                "is another view of '%s' (write the op out of place)"
                % (self._describe(node), stale.name, base.name))
        if not chain:
            return []
        if base.op in ("placeholder", "get_attr"):
            raise TorchImportError(
                "cudnn_mlir cannot import %s: expects an in-place op on a "
                "tensor the model computes, but '%s' is a view of '%s', "
                "which is the model's own tensor (write the op out of place)"
                % (self._describe(node), target.name, base.name))
        if not any(self._order[u] > after
                   for _, parent in chain for u in parent.users):
            return []  # only the view itself is read afterwards
        for view, parent in chain:
            if self._box_index(view) is None:
                raise TorchImportError(
                    "cudnn_mlir cannot import %s: expects an in-place op on "
                    "a tensor or on a box of one (x[1:3], x[:, 0], narrow, "
                    "select), but '%s' is a %s view of '%s', which the graph "
                    "reads afterwards (write the op out of place)"
                    % (self._describe(node), view.name,
                       describe_node(self.gm, view), parent.name))
        return chain

    def _stale_alias(self, base, links, after):
        """A view of `base`, not one of `links` (the tensors the in-place op
        at position `after` updates), taken before the op and read after it,
        or None: it would keep the old value."""
        pending = [base]
        while pending:
            for user in pending.pop().users:
                if self._order[user] > after or \
                        view_source(self.gm, user) is None:
                    continue
                if user not in links and any(self._order[u] > after
                                             for u in user.users):
                    return user
                pending.append(user)
        return None

    def _box_index(self, view):
        """The basic index a view node selects (x[index]), or None when the
        view is not a box (a transpose, a reshape)."""
        name = describe_node(self.gm, view)
        args = torch.fx.node.map_arg(view.args, lambda n: self.env[n])
        kwargs = torch.fx.node.map_arg(view.kwargs, lambda n: self.env[n])
        if name == "getitem" and len(args) == 2:
            index = args[1] if isinstance(args[1], tuple) else (args[1],)
            if all(i is None or i is Ellipsis or isinstance(i, (int, slice))
                   for i in index):
                return index
            return None
        if name in ("narrow", "select"):
            shape = self.env[view.args[0]].shape
            bound = inspect.signature(getattr(lowerings, name)).bind(
                None, *args, **kwargs).arguments
            bound.pop("ctx"), bound.pop("input")
            make = lowerings.narrow_index if name == "narrow" else \
                lowerings.select_index
            return make(shape, **bound)
        return None

    def _write_back(self, node, chain, value):
        """Gives each view in `chain`'s parents the value with the view's
        box replaced by the in-place op's result."""
        loc = self._loc(node)
        for view, parent in chain:
            try:
                value = view_writes.write_box(
                    self.writer, self.env[parent], self._box_index(view),
                    value, loc)
            except view_writes.ViewWriteError as error:
                raise TorchImportError("cudnn_mlir cannot import %s: %s"
                                       % (self._describe(node), error)) \
                    from error
            self.env[parent] = value

    def _folded(self, node, value):
        """The IR value of a node folded to a constant: its literal, or
        None where only other folded nodes read it."""
        if value is None:
            return None
        if isinstance(value, ChangedAfterUse):
            raise TorchImportError(
                "cudnn_mlir cannot import %s: expects a tensor made inside "
                "the model to keep its value once the model has read it, "
                "but an op changes it in place afterwards"
                % self._describe(node))
        return self._literal(node, value)

    def _literal(self, node, tensor):
        flat = tensor.reshape(-1)
        if flat.numel() and bool((flat == flat[0]).all()):
            # torch.zeros(...), torch.ones(..., dtype=torch.bool) and the like
            return self.writer.splat(flat[0].item(), tensor.shape,
                                     mlir_type(tensor.dtype), self._loc(node))
        # Dims along which every slice repeats the first (a mask expanded
        # over the batch: GPT-2's [8, 1, 512, 512] causal mask) are written
        # once and broadcast.
        core = tensor
        for dim in range(tensor.dim()):
            if core.shape[dim] > 1:
                first = core.narrow(dim, 0, 1)
                if bool((core == first).all()):
                    core = first
        if core.numel() > _MAX_LITERAL_ELEMENTS:
            raise TorchImportError(
                "cudnn_mlir cannot import %s: expects a tensor created inside "
                "the model to have at most %d elements once its repeated "
                "dims are taken out, but got %d of shape %s (make it a "
                "buffer)" % (self._describe(node), _MAX_LITERAL_ELEMENTS,
                             core.numel(), list(core.shape)))
        loc = self._loc(node)
        literal = self.writer.literal(tensor_bytes(core.contiguous()),
                                      core.shape, mlir_type(tensor.dtype), loc)
        return self.writer.broadcast_to(literal, tensor.shape, loc)

    def run(self) -> ImportedModule:
        outputs = None
        # The caller's inputs come first in the signature, wherever the
        # graph puts its get_attr nodes (ExportedProgram.module() puts them
        # before the placeholders).
        placeholders = [n for n in self.gm.graph.nodes
                        if n.op == "placeholder"]
        for index, node in enumerate(placeholders):
            meta = self.recorded.get(node.name)
            example = self.example_inputs[index] \
                if index < len(self.example_inputs) else None
            if self.scalars_as_values and is_cpu_scalar(example):
                self.env[node] = example.item()
            elif isinstance(meta, TensorMeta):
                self.env[node] = self._new_arg("input", node.target, meta,
                                               example)
            else:
                self.env[node] = meta
        for node in self.gm.graph.nodes:
            if node.op == "placeholder":
                continue
            if node.op == "get_attr":
                if node.name in self.constants and all(
                        u.name in self.constants for u in node.users):
                    self.env[node] = None  # only folded nodes read it
                    continue
                try:
                    self.env[node] = self.attribute(node.target)
                except UnsupportedOperation:
                    self.env[node] = get_attribute(self.gm, node.target)
            elif node.op == "output":
                outputs = torch.fx.node.map_arg(node.args[0],
                                                self._output_value)
            else:
                try:
                    self._lower(node)
                except TorchImportError as error:
                    # The node it stopped at, for partitioning
                    # (partition.py): that node is left to PyTorch.
                    if getattr(error, "node", None) is None:
                        error.node = node.name
                    if self.failures is None:
                        raise
                    self.failures.append(error)
                    self.env[node] = self._stand_in(node, self.recorded.get(
                        node.name))
        results: List[Value] = []
        structure = _flatten_outputs(outputs, results)
        result_specs = [ArgSpec("output", "output %d" % i, v.shape, v.dtype)
                        for i, v in enumerate(results)]
        for index, value in self.updates:
            results.append(value)
            result_specs.append(ArgSpec("update", self.arg_specs[index].name,
                                        value.shape, value.dtype, index))
        text = self._print(results, result_specs)
        imported = ImportedModule(text, self.func_name, self.arg_specs,
                                  result_specs, structure, self.counters,
                                  self.rnn_weight_args if self.has_rnn
                                  else None)
        imported.tensors = self.tensors
        return imported

    def _output_value(self, node):
        """What the graph returns for `node`; a result the graph laid out
        channels-last is marked so (eager's layout for the outputs of ops
        that keep the memory format), and the compiled module writes it
        so."""
        value = self.env[node]
        meta = self.recorded.get(node.name)
        if (isinstance(value, Value) and isinstance(meta, TensorMeta)
                and meta.channels_last and len(value.shape) in (4, 5)):
            self.channels_last_results.add(value.name)
        return value

    def _print(self, results, result_specs) -> str:
        attr_key = {"input": "cudnn_mlir.input",
                    "parameter": "cudnn_mlir.parameter",
                    "buffer": "cudnn_mlir.buffer",
                    "constant": "cudnn_mlir.constant"}
        params = ", ".join(
            "%s: %s {%s%s = %s}" % (
                v.name, v.type,
                'cudnn.layout = "channels_last", ' if last else "",
                attr_key[s.kind], string_literal(s.name))
            for v, s, last in zip(self.args, self.arg_specs,
                                  self.channels_last))
        result_types = ", ".join(
            v.type + (" {cudnn_mlir.updates = %s}" % string_literal(s.name)
                      if s.kind == "update" else
                      ' {cudnn.layout = "channels_last"}'
                      if v.name in self.channels_last_results else "")
            for v, s in zip(results, result_specs))
        lines = ["module {",
                 "  func.func @%s(%s) -> (%s) {" % (self.func_name, params,
                                                    result_types)]
        lines += self.writer.body()
        if results:
            lines.append("    return %s : %s" % (
                ", ".join(v.name for v in results),
                ", ".join(v.type for v in results)))
        else:
            lines.append("    return")
        lines += ["  }", "}", ""]
        return "\n".join(lines)


_IN_PLACE_FUNCTIONS = (operator.iadd, operator.isub, operator.imul,
                       operator.itruediv, operator.setitem)


def is_in_place(node) -> bool:
    if node.op == "call_method":
        return node.target.endswith("_") and not node.target.startswith("_")
    if node.op == "call_function":
        if node.target in _IN_PLACE_FUNCTIONS:
            return True
        schema = getattr(node.target, "_schema", None)  # an ATen overload
        if schema is not None:
            first = schema.arguments[0] if schema.arguments else None
            return bool(first is not None and first.alias_info is not None
                        and first.alias_info.is_write)
        return getattr(node.target, "__name__", "").endswith("_")
    return False


# Ops whose result shares its first argument's storage (a view), by the
# name partition.describe_node gives.
_VIEW_OPS = frozenset([
    "getitem", "view", "view_as", "narrow", "select", "slice", "transpose",
    "permute", "t", "expand", "expand_as", "squeeze", "unsqueeze",
    "unflatten", "as_strided", "diagonal", "chunk", "split", "unbind",
    "detach", "alias"])


def view_source(gm, node):
    """The tensor `node` (a node of `gm`, or anything else) is a view of, or
    None."""
    if not isinstance(node, torch.fx.Node) \
            or node.op not in ("call_method", "call_function") \
            or not node.args or not isinstance(node.args[0], torch.fx.Node):
        return None
    return node.args[0] if describe_node(gm, node) in _VIEW_OPS else None


def views_to_root(gm, node):
    """([node, its source, ...] while each is a view, the tensor none of them
    is a view of): the chain an in-place op on `node` writes through."""
    views = []
    while (source := view_source(gm, node)) is not None:
        views.append(node)
        node = source
    return views, node


def is_channels_last(tensor) -> bool:
    """A 4-D or 5-D tensor stored channels-last (NHWC, NDHWC) whose packed
    strides differ: its argument is marked so the compiled module takes it
    as it is instead of copying it (docs/abi.md)."""
    return (isinstance(tensor, torch.Tensor)
            and type(tensor).__name__ != "FakeTensor"
            and stored_channels_last(tensor))


def _public_name(qualified: str) -> str:
    """A tensor's name in the model the caller gave (see _LEAF_ROOT)."""
    if qualified == _LEAF_ROOT or qualified.startswith(_LEAF_ROOT + "."):
        return qualified[len(_LEAF_ROOT) + 1:]
    return qualified


def _is_buffer(module, qualified):
    owner, _, name = qualified.rpartition(".")
    owner_module = module.get_submodule(owner) if owner else module
    return name in dict(owner_module.named_buffers(recurse=False))


def _flatten_outputs(obj, values: List[Value]):
    if isinstance(obj, Value):
        values.append(obj)
        return {"value": len(values) - 1}
    if isinstance(obj, (tuple, list)):
        key = "tuple" if isinstance(obj, tuple) else "list"
        return {key: [_flatten_outputs(o, values) for o in obj]}
    if isinstance(obj, dict) and all(isinstance(k, str) for k in obj):
        # torchvision's segmentation models return {"out": ..., "aux": ...}
        # (an OrderedDict; torch.fx's immutable_dict once traced).
        return {"dict": [[k, _flatten_outputs(v, values)]
                         for k, v in obj.items()]}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return {"const": obj}
    raise TorchImportError("expects the model to return tensors, numbers, "
                           "and tuples, lists and string-keyed dicts of "
                           "them, but it returns %s" % type(obj).__name__)


def _check_matches(value, summary, describe):
    """The lowering's values have the shapes and types the graph produced;
    `describe()` names the node when they do not."""
    if isinstance(value, (aten_lowerings.Unavailable,
                          packed_sequence.PackedSequenceValue)):
        return  # a packed sequence's parts are checked where it is unpacked
    if isinstance(summary, TensorMeta):
        if not isinstance(value, Value) or value.shape != summary.shape \
                or value.dtype != summary.dtype:
            got = value.type if isinstance(value, Value) else \
                type(value).__name__
            raise TorchImportError(
                "cudnn_mlir imported %s as %s, but torch produced %s (an "
                "importer bug; please report it)"
                % (describe(), got, tensor_type(summary.shape,
                                                summary.dtype)))
    elif isinstance(summary, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(value) != len(summary):
            raise TorchImportError("cudnn_mlir imported %s as %r, but torch "
                                   "produced %d values" % (describe(), value,
                                                           len(summary)))
        for v, s in zip(value, summary):
            _check_matches(v, s, describe)
