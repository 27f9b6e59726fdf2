"""nn.LSTM, nn.GRU and nn.RNN as `tcp.custom_op("torch.aten.lstm" | "gru" |
"rnn_tanh" | "rnn_relu")` in PyTorch's `.input` form (docs/rnn.md): operands
input, h0, c0 (LSTM only) and the flat parameters in the module's own order
(`_flat_weights_names`), attributes as aten's arguments. Initial states the
caller leaves out are zero constants. The module returns (output, (h_n, c_n))
or (output, h_n), and so does the lowering.
"""

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
    attrs = ("has_biases = %s, num_layers = %d : i64, dropout = %s : f64, "
             "train = %s, bidirectional = %s, batch_first = %s"
             % (_bool(m.bias), m.num_layers, float_literal(m.dropout),
                _bool(m.training), _bool(m.bidirectional),
                _bool(m.batch_first)))
    if proj:
        attrs += ", proj_size = %d : i64" % proj
    if m.training and m.dropout > 0:
        raise UnsupportedOperation(
            "expects an RNN without dropout in training mode, but got "
            "dropout = %g (call model.eval() or set dropout = 0)" % m.dropout)
    result = ctx.result
    output, states = result[0], result[1]
    states = list(states) if is_lstm else [states]
    operands = [x, h0] + ([c0] if is_lstm else []) + params
    values = ctx.w.custom_op(
        _op_name(m), operands, attrs,
        [(t.shape, t.dtype) for t in [output] + states], ctx.loc)
    if is_lstm:
        return (values[0], (values[1], values[2]))
    return (values[0], values[1])


def _bool(flag):
    return "true" if flag else "false"


MODULES = {nn.LSTM: _rnn_module, nn.GRU: _rnn_module, nn.RNN: _rnn_module}
