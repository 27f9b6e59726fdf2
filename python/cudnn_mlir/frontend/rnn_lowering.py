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
from .tcp_writer import Value, float_literal


def _op_name(m):
    if isinstance(m, nn.LSTM):
        return "torch.aten.lstm"
    if isinstance(m, nn.GRU):
        return "torch.aten.gru"
    return "torch.aten.rnn_relu" if m.nonlinearity == "relu" else \
        "torch.aten.rnn_tanh"


def _state_shape(m, x, size):
    layers = m.num_layers * (2 if m.bidirectional else 1)
    if x.rank == 2:  # unbatched
        return (layers, size)
    batch = x.shape[0] if m.batch_first else x.shape[1]
    return (layers, batch, size)


def _rnn_module(ctx, m, input, hx=None):
    if not isinstance(input, Value):
        raise UnsupportedOperation(
            "expects a padded tensor input, but got %s (pass the padded "
            "batch; packed sequences are not supported by the importer yet)"
            % type(input).__name__)
    x = input
    is_lstm = isinstance(m, nn.LSTM)
    proj = getattr(m, "proj_size", 0)
    h_size = proj if proj else m.hidden_size
    if hx is None:
        h0 = ctx.w.splat(0.0, _state_shape(m, x, h_size), x.dtype, ctx.loc)
        c0 = ctx.w.splat(0.0, _state_shape(m, x, m.hidden_size), x.dtype,
                         ctx.loc) if is_lstm else None
    elif is_lstm:
        h0, c0 = hx
    else:
        h0, c0 = hx, None
    params = [ctx.parameter(name) for name in m._flat_weights_names]
    output, states = ctx.result[0], ctx.result[1]
    values = _emit(ctx, _op_name(m), x, h0, c0, params, m.bias, m.num_layers,
                   m.dropout, m.training, m.bidirectional, m.batch_first,
                   proj, [output] + (list(states) if is_lstm else [states]))
    if is_lstm:
        return (values[0], (values[1], values[2]))
    return (values[0], values[1])


def _emit(ctx, op_name, x, h0, c0, params, has_biases, num_layers, dropout,
          train, bidirectional, batch_first, proj, results):
    """The custom op; `results` are the TensorMetas torch produced."""
    if train and dropout > 0:
        raise UnsupportedOperation(
            "expects an RNN without dropout in training mode, but got "
            "dropout = %g (call model.eval() or set dropout = 0)" % dropout)
    attrs = ("has_biases = %s, num_layers = %d : i64, dropout = %s : f64, "
             "train = %s, bidirectional = %s, batch_first = %s"
             % (_bool(has_biases), num_layers, float_literal(dropout),
                _bool(train), _bool(bidirectional), _bool(batch_first)))
    if proj:
        attrs += ", proj_size = %d : i64" % proj
    ctx.note_rnn_weights(params)
    operands = [x, h0] + ([c0] if c0 is not None else []) + list(params)
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
        packet = getattr(getattr(torch.ops, "aten"), name)
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
