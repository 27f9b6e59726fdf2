"""Packed sequences: `pack_padded_sequence` -> RNN -> `pad_packed_sequence`
as one RNN over the padded tensor with a `lengths` operand (docs/rnn.md,
"Variable-length sequences"; docs/frontend.md, "Packed sequences").

PyTorch packs the time steps of sorted sequences together; cuDNN's padded
IO runs the padded tensor as it is, given each sequence's length, zeroes
the output past it and returns each sequence's last valid state, which is
what `pad_packed_sequence(..., total_length=T)` and the RNN's h_n/c_n give
in PyTorch (in the caller's batch order whether or not it was sorted). So
the importer keeps the padded tensor and the lengths of the pack, and
emits nothing for the pack and pad calls themselves.

torch.fx cannot trace the two functions (the pack sorts by data and makes
a PackedSequence): while tracing, `traceable()` makes them graph nodes.
"""

import contextlib

import torch
from torch.nn.utils import rnn as rnn_utils

from .lowerings import UnsupportedOperation
from .tcp_writer import Value

_PACK = rnn_utils.pack_padded_sequence
_PAD = rnn_utils.pad_packed_sequence


class PackedSequenceValue:
    """A packed sequence the importer keeps as its padded tensor (time or
    batch first, as packed) and the lengths; `from_rnn` for an RNN's
    output."""

    def __init__(self, padded: Value, lengths: Value, batch_first: bool,
                 from_rnn: bool = False):
        self.padded, self.lengths = padded, lengths
        self.batch_first, self.from_rnn = batch_first, from_rnn

    def __getitem__(self, index):
        raise UnsupportedOperation(
            "expects a packed sequence only to go into an RNN or "
            "pad_packed_sequence, but it is indexed")


def pack_padded_sequence(ctx, input, lengths, batch_first=False,
                         enforce_sorted=True):
    if not isinstance(input, Value):
        raise UnsupportedOperation("expects a padded tensor to pack, but got "
                                   "%s" % type(input).__name__)
    if not isinstance(lengths, Value):
        raise UnsupportedOperation(
            "expects the lengths as a tensor input of the model (they may "
            "change from call to call), but got %s" % type(lengths).__name__)
    if input.rank != 3:
        raise UnsupportedOperation("expects a padded [T, B, *] or [B, T, *] "
                                   "tensor of rank 3, but got rank %d"
                                   % input.rank)
    batch = input.shape[0] if batch_first else input.shape[1]
    if lengths.shape != (batch,) or lengths.dtype not in ("i64", "i32"):
        raise UnsupportedOperation(
            "expects lengths of shape [%d] (one per sequence) and type i64 "
            "or i32, but got %s" % (batch, lengths.type))
    return PackedSequenceValue(input, lengths, bool(batch_first))


def pad_packed_sequence(ctx, sequence, batch_first=False, padding_value=0.0,
                        total_length=None):
    if not isinstance(sequence, PackedSequenceValue) or \
            not sequence.from_rnn:
        raise UnsupportedOperation(
            "expects the packed output of an RNN, but got %s"
            % ("a packed sequence straight from pack_padded_sequence"
               if isinstance(sequence, PackedSequenceValue)
               else type(sequence).__name__))
    padded = sequence.padded
    steps = padded.shape[1] if sequence.batch_first else padded.shape[0]
    if total_length is None:
        raise UnsupportedOperation(
            "expects pad_packed_sequence(..., total_length=%d): without it "
            "the output has max(lengths) steps, which depends on the data, "
            "and compiled shapes are static" % steps)
    if int(total_length) != steps:
        raise UnsupportedOperation(
            "expects total_length to be the padded input's length %d, but "
            "got %d" % (steps, int(total_length)))
    if float(padding_value) != 0.0:
        raise UnsupportedOperation(
            "expects padding_value 0 (cuDNN zeroes the output past each "
            "length), but got %g" % float(padding_value))
    if bool(batch_first) != sequence.batch_first:
        raise UnsupportedOperation(
            "expects pad_packed_sequence's batch_first (%s) to match "
            "pack_padded_sequence's (%s)" % (bool(batch_first),
                                             sequence.batch_first))
    from .aten_lowerings import Unavailable
    return (padded, Unavailable(
        "the lengths pad_packed_sequence returns (use the lengths passed "
        "in)"))


def _graph_node(fn, results):
    """`fn` as a call_function node when an argument is a Proxy; with
    `results`, the node's value unpacked into that many items."""
    def traced(*args, **kwargs):
        proxy = next((a for a in list(args) + list(kwargs.values())
                      if isinstance(a, torch.fx.Proxy)), None)
        if proxy is None:
            return fn(*args, **kwargs)
        node = proxy.tracer.create_proxy("call_function", fn, args, kwargs)
        return tuple(node[i] for i in range(results)) if results else node
    return traced


@contextlib.contextmanager
def traceable(model: torch.nn.Module):
    """While tracing `model`: pack_padded_sequence and pad_packed_sequence
    are graph nodes, whether the model calls them through
    torch.nn.utils.rnn or imported them by name."""
    replacements = {_PACK: _graph_node(_PACK, 0), _PAD: _graph_node(_PAD, 2)}
    patched = []  # (namespace dict, name, original)
    namespaces = [vars(rnn_utils), vars(torch.nn.utils)]
    for m in model.modules():
        forward = getattr(type(m), "forward", None)
        namespace = getattr(forward, "__globals__", None)
        if namespace is not None and all(namespace is not n
                                         for n in namespaces):
            namespaces.append(namespace)
    for namespace in namespaces:
        for name, value in list(namespace.items()):
            if any(value is original for original in replacements):
                patched.append((namespace, name, value))
                namespace[name] = replacements[value]
    try:
        yield
    finally:
        for namespace, name, value in patched:
            namespace[name] = value


FUNCTIONS = {_PACK: pack_padded_sequence, _PAD: pad_packed_sequence}
