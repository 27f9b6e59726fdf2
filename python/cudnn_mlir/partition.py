"""Partitioned compilation (issue 28): an FX graph the importer takes whole
compiles whole; otherwise it is split into the largest partitions of nodes
the importer takes (torch.fx's CapabilityBasedPartitioner, as
Torch-TensorRT and ONNX Runtime's backends split), each compiled as a
module of its own, and the nodes it does not take run in PyTorch between
them.

Which nodes the importer takes is learnt by trying: once the whole graph
fails, one import that goes on past each failure
(frontend.import_failures) names every node the importer does not take,
and they are all left out; then the graph is partitioned and each
partition compiled, and a failure there (the compiler's, or a node that
only fails inside a partition) leaves its node out and partitions again,
until every partition imports and compiles. A
partition of only view and shape ops (a lone reshape) is not worth a
module and stays in PyTorch, and so does a partition whose compile fails
for a reason that names no node.

    run, report = compile_partitioned(gm, example_inputs, compile_fn,
                                      failures)

`compile_fn(graph_module, inputs)` returns `(callable, artifact folder)` or
raises one of `failures`; a caller whose own import of the whole graph
already failed passes that error as `first_failure`, so that the whole
graph is not imported again. `report` says what was compiled and what was left
to PyTorch, and why (summarize() makes it one line per reason).
"""

import collections
import re

# Ops that move no data worth a kernel: a partition of only these stays in
# PyTorch. Names as describe_node() gives them.
VIEW_OPS = frozenset([
    "view", "reshape", "flatten", "unflatten", "permute", "transpose", "t",
    "squeeze", "unsqueeze", "expand", "expand_as", "contiguous", "getitem",
    "size", "dim", "chunk", "split", "unbind", "narrow", "select", "to",
    "type", "float", "half", "detach", "clone", "identity", "dropout",
    "getattr",
])


# The end of the importer's reason when it has no lowering for an op at
# all (not one that refuses these arguments).
NO_LOWERING = "no TCP lowering for this operation"


def first_line(error):
    """The first line of an error's message, or its type's name."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def describe_node(gm, node):
    """A node's op as a user reads it: 'conv2d', 'view', 'Linear'."""
    if node.op == "call_module":
        return type(gm.get_submodule(node.target)).__name__
    if node.op == "call_method":
        return node.target
    target = node.target
    name = getattr(target, "__name__", None) or str(target)
    return name.split(".")[-1]


def _is_compute(gm, node):
    return describe_node(gm, node).lower().rstrip("_") not in VIEW_OPS


# A node name an error quotes: 'convs_0', 'transpose_12'.
_QUOTED_NAME = re.compile(r"'[A-Za-z_][A-Za-z0-9_.]*'")


class PartitionReport:
    """What a partitioned compile did: `whole` (compiled in one piece),
    `partitions` [{"name", "ops", "status": "compiled" | "eager",
    "reason", "artifact"}] and `left` [(op, reason)] for each node left to
    PyTorch."""

    def __init__(self):
        self.whole = False
        self.partitions = []
        self.left = []

    @property
    def compiled_ops(self):
        return sum(p["ops"] for p in self.partitions
                   if p["status"] == "compiled")

    def summarize(self):
        """'2 partitions compiled (41 ops); left to PyTorch: roll x2
        (no TCP lowering for this operation)': grouped by op and reason."""
        if self.whole:
            return "compiled whole"
        compiled = [p for p in self.partitions if p["status"] == "compiled"]
        text = "%d partition%s compiled (%d ops)" % (
            len(compiled), "" if len(compiled) == 1 else "s",
            self.compiled_ops) if compiled else "nothing compiled"
        remarks = list(self.left) + [
            ("a partition of %d ops" % p["ops"], p["reason"])
            for p in self.partitions if p["status"] != "compiled"]
        # One line per op and reason; reasons that differ only in the node
        # names they quote ('transpose_3' is a view of 'conv_3') are one
        # reason, shown by its first example.
        counts = collections.Counter()
        example = {}
        for op, reason in remarks:
            key = (op, _QUOTED_NAME.sub("'...'", reason))
            counts[key] += 1
            example.setdefault(key, reason)
        if counts:
            text += "; left to PyTorch: " + "; ".join(
                "%s x%d (%s)" % (key[0], n, example[key])
                for key, n in counts.most_common())
        return text


class _CompiledPartition:
    """Stands in for a fused partition's submodule: calls its compiled
    module. A plain callable, not an nn.Module, so that no parameters are
    registered twice."""

    def __init__(self, run):
        self.run = run

    def __call__(self, *args):
        return self.run(*args)


def _submodule_inputs(fused, names, example_inputs):
    """The arguments each named submodule of `fused` is called with when
    `fused` runs on `example_inputs` (eager, once; f16 and bf16 on the CPU
    as an f32 copy, recording.runnable_on_cpu)."""
    import torch
    from .frontend.recording import InF32, runnable_on_cpu
    seen = {}
    module, inputs, back, float_type = runnable_on_cpu(
        fused, list(example_inputs))

    class Recorder(InF32):
        def call_module(self, target, args, kwargs):
            if target in names and target not in seen:
                seen[target] = [back(a) for a in args]
            return super().call_module(target, args, kwargs)

    with torch.no_grad():
        Recorder(module, float_type).run(*inputs)
    return seen


def _partition(gm, left_out):
    """A copy of gm with its supported nodes (call nodes not in `left_out`)
    fused into submodules, and the names of those worth compiling. The copy
    shares gm's modules and tensors; fusing rewrites a graph in place."""
    import copy

    import torch
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupportBase

    class Supported(OperatorSupportBase):
        def is_node_supported(self, submodules, node):
            return node.op in ("call_function", "call_method",
                               "call_module") and node.name not in left_out

    gm = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))
    left_out = set(left_out) | _order_writes(gm, left_out)
    _copy_before_getitems(gm)
    partitioner = CapabilityBasedPartitioner(
        gm, Supported(), allows_single_node_partition=True)
    partitions = [p for p in partitioner.propose_partitions()
                  if any(_is_compute(gm, n) for n in p.nodes)]
    fused = partitioner.fuse_partitions(partitions)
    names = [n.target for n in fused.graph.nodes
             if n.op == "call_module" and n.target.startswith("fused_")]
    return fused, names


def _copy_before_getitems(gm):
    """Puts a `contiguous()` (an identity to the importer) between each
    placeholder or attribute and its users when all of them are getitems.
    torch 2.11's partitioner looped forever on Hugging Face Swin's graph,
    where a parameter is read only so (`relative_position_bias_table[
    index]`), in the pass that moves getitems into their producer's
    partition; with the copy between them it does not. Which graphs loop
    exactly was not pinned down (a small one of that shape did not):
    test_partition.py checks Swin itself."""
    import operator
    for node in list(gm.graph.nodes):
        if node.op not in ("placeholder", "get_attr") or not node.users or \
                not all(u.op == "call_function" and
                        u.target is operator.getitem for u in node.users):
            continue
        with gm.graph.inserting_after(node):
            copied = gm.graph.call_method("contiguous", (node,))
        node.replace_all_uses_with(
            copied, delete_user_cb=lambda user: user is not copied)
    gm.recompile()


def _leave_out_written_views(gm, left_out):
    """Leaves out, with each in-place op left to PyTorch, the views it
    writes through: a view computed in a compiled partition is a copy, not
    an alias, and the write would not reach the tensor."""
    from .frontend.importer import is_in_place, views_to_root
    by_name = {n.name: n for n in gm.graph.nodes}
    for name in list(left_out):
        node = by_name.get(name)
        if node is None or not is_in_place(node) or not node.args:
            continue
        for view in views_to_root(gm, node.args[0])[0]:
            left_out.setdefault(view.name, "a view that an op left to "
                                "PyTorch writes through")


def written(tensor, write):
    """`tensor`, once `write` (an in-place op on it or on a view of it) has
    run: a node of this makes the write a data dependence of what reads
    the tensor afterwards, so that fusing partitions, which reorders nodes
    by their data alone, keeps the read after the write."""
    return tensor


def _order_writes(gm, left_out):
    """Rewrites `gm`'s graph so that each read, after an in-place op left to
    PyTorch, of the tensor it writes (or of a view of it) goes through a
    `written` node; returns those nodes' names (they run in PyTorch)."""
    from .frontend.importer import is_in_place, view_source, views_to_root
    graph = gm.graph
    order = {n: i for i, n in enumerate(graph.nodes)}
    added = set()
    for node in list(graph.nodes):
        if node.name not in left_out or not is_in_place(node) \
                or not node.args or not hasattr(node.args[0], "users"):
            continue
        root = views_to_root(gm, node.args[0])[1]
        family, pending = [], [root]
        while pending:
            tensor = pending.pop()
            family.append(tensor)
            pending.extend(u for u in tensor.users
                           if view_source(gm, u) is tensor)
        for tensor in family:
            readers = [u for u in tensor.users
                       if u in order and order[u] > order[node]]
            if not readers:
                continue
            with graph.inserting_after(node):
                after = graph.call_function(written, (tensor, node))
            added.add(after.name)
            for reader in readers:
                reader.replace_input_with(tensor, after)
    if added:
        gm.recompile()
    return added


def _recording(gm, example_inputs):
    """frontend.recording.record of the graph on its example inputs (one
    eager run, which the failure probe and the constants below share), or
    None where it cannot run."""
    from .frontend.recording import record
    try:
        return record(gm, list(example_inputs))
    except Exception:  # noqa: BLE001 (then each round finds its failure)
        return None


def _materialize_constants(gm, example_inputs, recording):
    """A copy of `gm` in which each tensor the importer folds (made from
    constants alone: frontend/recording.py) and a node that does not fold
    reads is one get_attr of its value, and the folded nodes are gone.
    Partitioning the graph as written would split such regions, which may
    hold global state (Hugging Face builds its causal masks under
    torch.vmap: `_vmap_increment_nesting` ... `_vmap_decrement_nesting`),
    across partitions and PyTorch, and reorder them. `gm` itself where
    there is nothing to fold or the graph was not recorded (`recording`:
    _recording's, on `example_inputs`)."""
    import copy
    import warnings

    import torch

    from .frontend.recording import TensorMeta, torch_type
    if recording is None or not recording[1]:
        return gm
    recorded, constants = recording
    original = gm
    # The recording keeps constants on the CPU; the graph's own device.
    device = next((t.device for t in list(example_inputs) + list(
        gm.parameters()) + list(gm.buffers())
        if isinstance(t, torch.Tensor)), torch.device("cpu"))
    gm = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))
    graph = gm.graph
    for node in list(graph.nodes):
        if node.name not in constants or node.op == "get_attr":
            continue
        readers = [u for u in node.users if u.name not in constants]
        if not readers:
            continue
        value, meta = constants[node.name], recorded.get(node.name)
        if not isinstance(value, torch.Tensor) or \
                not isinstance(meta, TensorMeta):
            return original  # changed after a read: the importer refuses
        name = "_folded_%s" % node.name
        setattr(gm, name, value.to(device, torch_type(meta.dtype)))
        with graph.inserting_before(node), warnings.catch_warnings():
            # A plain tensor attribute, as torch.fx's own _tensor_constantN.
            warnings.simplefilter("ignore", UserWarning)
            literal = graph.get_attr(name)
        for reader in readers:
            reader.replace_input_with(node, literal)
    for node in reversed(list(graph.nodes)):
        if node.name in constants and node.op != "get_attr" \
                and not node.users:
            graph.erase_node(node)
    graph.lint()
    gm.recompile()
    return gm


def _every_import_failure(gm, example_inputs, recording):
    """The errors of every node the importer does not take, from one import
    (frontend.import_failures) over `recording` (_recording's); none where
    that import cannot run, and the rounds below find them one by one."""
    from .frontend import TorchImportError, import_failures
    if recording is None:
        return []
    try:
        return import_failures(gm, list(example_inputs), recording)
    except (TorchImportError, ValueError, TypeError, RuntimeError):
        return []


def compile_partitioned(gm, example_inputs, compile_fn, failures,
                        first_failure=None):
    """(a callable running `gm`, a PartitionReport); see the module
    docstring. A failure that names no node leaves the whole graph to
    PyTorch: then the callable is gm's own forward and the report's one
    partition is "eager" with the reason."""
    from .frontend import TorchImportError
    report = PartitionReport()
    left_out = {}  # node name -> reason
    calls = [n for n in gm.graph.nodes
             if n.op in ("call_function", "call_method", "call_module")]
    ops = {n.name: describe_node(gm, n) for n in calls}
    # Nodes of one target: when the importer has no lowering for it at all,
    # every such node is left out in one round.
    same_target = {}
    for n in calls:
        key = (n.op, n.target if n.op != "call_module"
               else type(gm.get_submodule(n.target)))
        same_target.setdefault(key, []).append(n.name)
    target_of = {name: key for key, names in same_target.items()
                 for name in names}

    def leave(error):
        node = getattr(error, "node", None)
        if not isinstance(error, TorchImportError) or node not in ops \
                or node in left_out:
            return False
        # "cannot import <node> at <file:line> in f: `code`: <reason>"
        reason = first_line(error).rsplit("`: ", 1)[-1]
        left_out[node] = reason
        if reason.endswith(NO_LOWERING):
            for other in same_target[target_of[node]]:
                left_out.setdefault(other, reason)
        return True

    def whole():
        run, folder = compile_fn(gm, list(example_inputs))
        report.whole = True
        report.partitions.append({"name": "whole", "ops": len(ops),
                                  "status": "compiled", "reason": "",
                                  "artifact": folder})
        return run

    try:
        if first_failure is not None:
            raise first_failure
        return whole(), report
    except failures as error:
        if not leave(error):
            report.partitions.append({
                "name": "whole", "ops": len(ops), "status": "eager",
                "reason": first_line(error), "artifact": None})
            return gm.forward, report
    recording = _recording(gm, example_inputs)
    for error in _every_import_failure(gm, example_inputs, recording):
        leave(error)

    gm = _materialize_constants(gm, example_inputs, recording)
    # Each round leaves one more node out; at most one round per node.
    for _ in range(len(ops) + 1):
        _leave_out_written_views(gm, left_out)
        fused, names = _partition(gm, left_out)
        inputs = _submodule_inputs(fused, set(names), example_inputs)
        report.partitions = []
        retry = False
        for name in names:
            sub = fused.get_submodule(name)
            count = sum(1 for n in sub.graph.nodes if n.op.startswith("call"))
            entry = {"name": name, "ops": count, "status": "compiled",
                     "reason": "", "artifact": None}
            try:
                run, entry["artifact"] = compile_fn(sub, inputs[name])
                # The graph calls getattr(self, name): a plain attribute
                # serves, once the submodule is gone.
                delattr(fused, name)
                setattr(fused, name, _CompiledPartition(run))
            except failures as error:
                if leave(error):
                    retry = True
                    break
                entry.update(status="eager", reason=first_line(error))
            report.partitions.append(entry)
        if not retry:
            report.left = [(ops[n], reason) for n, reason in left_out.items()]
            return fused.forward, report
    raise RuntimeError("cudnn_mlir: partitioning did not settle")
