"""nn.LSTM, nn.GRU and nn.RNN as `tcp.custom_op("torch.aten.lstm" | "gru" |
"rnn_tanh" | "rnn_relu")` in PyTorch's `.input` form (docs/rnn.md): operands
input, h0, c0 (LSTM only) and the flat parameters in the module's own order
(`_flat_weights_names`), attributes as aten's arguments. Initial states the
caller leaves out are zero constants. The module returns (output, (h_n, c_n))
or (output, h_n), and so does the lowering.
"""

import torch
import torch.nn as nn

from .lowerings import UnsupportedOperation
from .packed_sequence import PackedSequenceValue
from .recording import TensorMeta
from .tcp_writer import Value, float_literal


def _op_name(m):
    if isinstance(m, nn.LSTM):
        return "torch.aten.lstm"
    if isinstance(m, nn.GRU):
        return "torch.aten.gru"
    return "torch.aten.rnn_relu" if m.nonlinearity == "relu" else \
        "torch.aten.rnn_tanh"


def _state_shape(m, x, batch_first, size):
    layers = m.num_layers * (2 if m.bidirectional else 1)
    if x.rank == 2:  # unbatched
        return (layers, size)
    batch = x.shape[0] if batch_first else x.shape[1]
    return (layers, batch, size)


def _rnn_module(ctx, m, input, hx=None):
    """The module on a padded tensor, or on a packed sequence (the padded
    tensor and lengths it was packed from; its output is packed too)."""
    packed = input if isinstance(input, PackedSequenceValue) else None
    if packed is not None:
        x, lengths, batch_first = packed.padded, packed.lengths, \
            packed.batch_first
    elif isinstance(input, Value):
        x, lengths, batch_first = input, None, m.batch_first
    else:
        raise UnsupportedOperation(
            "expects a padded tensor or a packed sequence as input, but got "
            "%s" % type(input).__name__)
    is_lstm = isinstance(m, nn.LSTM)
    proj = getattr(m, "proj_size", 0)
    h_size = proj if proj else m.hidden_size
    if hx is None:
        h0 = ctx.w.splat(0.0, _state_shape(m, x, batch_first, h_size),
                         x.dtype, ctx.loc)
        c0 = ctx.w.splat(0.0, _state_shape(m, x, batch_first, m.hidden_size),
                         x.dtype, ctx.loc) if is_lstm else None
    elif is_lstm:
        h0, c0 = hx
    else:
        h0, c0 = hx, None
    params = [ctx.parameter(name) for name in m._flat_weights_names]
    output, states = ctx.result[0], ctx.result[1]
    if packed is not None:  # torch's is packed; ours is x's padded form
        features = h_size * (2 if m.bidirectional else 1)
        output = TensorMeta(x.shape[:-1] + (features,), x.dtype)
    values = _emit(ctx, _op_name(m), x, h0, c0, params, m.bias, m.num_layers,
                   m.dropout, m.training, m.bidirectional, batch_first,
                   proj, [output] + (list(states) if is_lstm else [states]),
                   lengths)
    out = values[0] if packed is None else PackedSequenceValue(
        values[0], lengths, batch_first, from_rnn=True)
    if is_lstm:
        return (out, (values[1], values[2]))
    return (out, values[1])


def _emit(ctx, op_name, x, h0, c0, params, has_biases, num_layers, dropout,
          train, bidirectional, batch_first, proj, results, lengths=None):
    """The custom op; `results` are the TensorMetas torch produced; with
    `lengths`, the trailing operand that makes it a variable-length RNN."""
    attrs = ("has_biases = %s, num_layers = %d : i64, dropout = %s : f64, "
             "train = %s, bidirectional = %s, batch_first = %s"
             % (_bool(has_biases), num_layers, float_literal(dropout),
                _bool(train), _bool(bidirectional), _bool(batch_first)))
    if proj:
        attrs += ", proj_size = %d : i64" % proj
    ctx.note_rnn_weights(params)
    operands = [x, h0] + ([c0] if c0 is not None else []) + list(params) \
        + ([lengths] if lengths is not None else [])
    return ctx.w.custom_op(op_name, operands, attrs,
                           [(t.shape, t.dtype) for t in results], ctx.loc)


def _aten_rnn(op_name):
    """torch.lstm / gru / rnn_tanh / rnn_relu in the `.input` form, as
    TorchDynamo's graphs call them (nn.LSTM's forward inlined)."""
    is_lstm = op_name == "torch.aten.lstm"

    def lower(ctx, input, hx, params, has_biases, num_layers, dropout, train,
              bidirectional, batch_first=False):
        if not isinstance(params, (list, tuple)):
            raise UnsupportedOperation(
                "expects the padded form of %s (input, hx, params, ...), but "
                "got the packed one (data, batch_sizes, ...)" % op_name)
        h0, c0 = (hx[0], hx[1]) if is_lstm else (hx, None)
        proj = h0.shape[-1] if is_lstm and h0.shape[-1] != c0.shape[-1] \
            else 0
        return tuple(_emit(ctx, op_name, input, h0, c0, params, has_biases,
                           num_layers, dropout, train, bidirectional,
                           batch_first, proj, list(ctx.result)))
    return lower


def _bool(flag):
    return "true" if flag else "false"


def _functions():
    """torch.lstm & co. (TorchDynamo's graphs) and their ATen overloads
    (torch.export's graphs, where `import_exported` keeps them whole)."""
    functions = {}
    for name in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
        lower = _aten_rnn("torch.aten." + name)
        functions[getattr(torch, name)] = lower
        packet = getattr(torch.ops.aten, name)
        for overload in ("input", "data"):
            op = getattr(packet, overload, None)
            if op is not None:
                functions[op] = lower
    return functions


MODULES = {nn.LSTM: _rnn_module, nn.GRU: _rnn_module, nn.RNN: _rnn_module}
FUNCTIONS = _functions()
# The ATen overloads a decomposition to core ATen must leave whole.
ATEN_OVERLOADS = [op for op in FUNCTIONS
                  if isinstance(op, torch._ops.OpOverload)]
