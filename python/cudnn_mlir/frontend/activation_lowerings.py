"""The activations beyond ReLU, GELU and SiLU, as compositions of TCP's
elementwise ops: softplus and its kin (Mish, log-sigmoid), the
exponential units (ELU, CELU, SELU), PReLU, GLU, the shrinks, softsign,
threshold and RReLU in eval mode. Lowerings here follow lowerings.py's
conventions (a leading `ctx`, torch's own parameter names); lowerings.py
registers them.

Each is written the way that cannot overflow in f16 or bf16 where the
textbook form would (softplus as max(z, 0) + log(1 + exp(-|z|)), the
exponential units' exp of min(x, 0)), so that no intermediate becomes
inf where PyTorch's (f32-internal) kernels stay finite.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

from .elementwise_ops import Elementwise
from .lowering_arguments import UnsupportedOperation
from .lowering_arguments import number as _number
from .lowering_arguments import dim as _dim
from .lowering_arguments import float_tensor
from .tcp_writer import Value


def _log1p_exp_of_minus_abs(o, z):
    """log(1 + exp(-|z|)): in (0, log 2], never overflows."""
    return o.log(o.add(o.const(1.0, z), o.exp(o.neg(o.abs(z)))))


def _expm1_of_negative_part(o, a):
    """exp(min(a, 0)) - 1: ELU's negative branch, finite for any a."""
    return o.sub(o.exp(o.negative_part(a)), o.const(1.0, a))


def _above(o, a, bound, on_true, on_false):
    """on_true where a > bound (a number), else on_false."""
    return o.select("gt", a, o.const(bound, a), on_true, on_false)


def softplus(ctx, input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold
    (PyTorch's switch to the linear function)."""
    x, o = float_tensor(input), Elementwise(ctx)
    beta = _number("softplus's beta", beta)
    threshold = _number("softplus's threshold", threshold)
    z = o.scale(x, beta)
    soft = o.add(o.positive_part(z), _log1p_exp_of_minus_abs(o, z))
    if beta != 1:
        soft = o.div(soft, o.const(beta, x))
    return _above(o, z, threshold, x, soft)


def mish(ctx, input, inplace=False):
    """x * tanh(softplus(x)) (CSPDarkNet, YOLOv4-style backbones)."""
    x, o = float_tensor(input), Elementwise(ctx)
    return o.mul(x, o.tanh(softplus(ctx, x)))


def logsigmoid(ctx, input):
    """log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))."""
    x, o = float_tensor(input), Elementwise(ctx)
    return o.sub(o.negative_part(x), _log1p_exp_of_minus_abs(o, x))


def elu(ctx, input, alpha=1.0, inplace=False):
    """x where x > 0, alpha (exp(x) - 1) elsewhere."""
    x, o = float_tensor(input), Elementwise(ctx)
    alpha = _number("elu's alpha", alpha)
    return _above(o, x, 0.0, x,
                  o.scale(_expm1_of_negative_part(o, x), alpha))


def celu(ctx, input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1))."""
    x, o = float_tensor(input), Elementwise(ctx)
    alpha = _number("celu's alpha", alpha)
    if alpha == 0:
        raise UnsupportedOperation("expects celu's alpha to be nonzero, but "
                                   "got 0")
    negative = o.scale(_expm1_of_negative_part(o, o.scale(x, 1.0 / alpha)),
                       alpha)
    return o.add(o.positive_part(x), negative)


# SELU's constants, as PyTorch defines them.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(ctx, input, inplace=False):
    """scale (max(0, x) + min(0, alpha (exp(x) - 1)))."""
    x, o = float_tensor(input), Elementwise(ctx)
    negative = o.scale(_expm1_of_negative_part(o, x), _SELU_ALPHA)
    return o.scale(o.add(o.positive_part(x), negative), _SELU_SCALE)


def prelu(ctx, input, weight):
    """max(x, 0) + weight * min(x, 0), one weight per channel (dim 1) or
    one for every element."""
    x, o = float_tensor(input), Elementwise(ctx)
    if not isinstance(weight, Value):
        raise UnsupportedOperation("expects prelu's weight to be a tensor, "
                                   "but got %s" % type(weight).__name__)
    count = 1
    for size in weight.shape:
        count *= size
    channels = x.shape[1] if x.rank >= 2 else 1
    if count not in (1, channels):
        raise UnsupportedOperation("expects prelu's weight to hold 1 or %d "
                                   "(the channels) values, but got shape %s"
                                   % (channels, list(weight.shape)))
    shape = [1] * x.rank
    if count > 1:
        shape[1] = count
    w = ctx.w.cast(ctx.w.reshape(weight, shape, ctx.loc), x.dtype, ctx.loc)
    w = ctx.w.broadcast_to(w, x.shape, ctx.loc)
    return o.add(o.positive_part(x), o.mul(w, o.negative_part(x)))


def rrelu(ctx, input, lower=1.0 / 8, upper=1.0 / 3, training=False,
          inplace=False):
    """In eval mode a leaky ReLU of slope (lower + upper) / 2; training
    mode draws random slopes and is refused."""
    if training:
        raise UnsupportedOperation("expects rrelu in eval mode, but got "
                                   "training mode (random slopes; call "
                                   "model.eval())")
    from .lowerings import leaky_relu
    return leaky_relu(ctx, input, (_number("rrelu's lower", lower) +
                                   _number("rrelu's upper", upper)) / 2)


def glu(ctx, input, dim=-1):
    """a * sigmoid(b), a and b the halves of the input along `dim`."""
    x, o = float_tensor(input), Elementwise(ctx)
    axis = _dim(dim, x.rank)
    if x.shape[axis] % 2:
        raise UnsupportedOperation("expects glu's dim %d to have an even "
                                   "size, but got %d"
                                   % (axis, x.shape[axis]))
    half = list(x.shape)
    half[axis] //= 2
    starts = [0] * x.rank
    a = ctx.w.slice(x, starts, half, [1] * x.rank, ctx.loc)
    starts[axis] = half[axis]
    b = ctx.w.slice(x, starts, half, [1] * x.rank, ctx.loc)
    return o.mul(a, o.sigmoid(b))


def softsign(ctx, input):
    """x / (1 + |x|)."""
    x, o = float_tensor(input), Elementwise(ctx)
    return o.div(x, o.add(o.const(1.0, x), o.abs(x)))


def tanhshrink(ctx, input):
    """x - tanh(x)."""
    x, o = float_tensor(input), Elementwise(ctx)
    return o.sub(x, o.tanh(x))


def hardshrink(ctx, input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    x, o = float_tensor(input), Elementwise(ctx)
    lambd = _number("hardshrink's lambd", lambd)
    return _above(o, o.abs(x), lambd, x, o.const(0.0, x))


def softshrink(ctx, input, lambd=0.5):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0:
    x - clamp(x, -lambd, lambd)."""
    x, o = float_tensor(input), Elementwise(ctx)
    lambd = _number("softshrink's lambd", lambd)
    if lambd < 0:
        raise UnsupportedOperation("expects softshrink's lambd >= 0, but got "
                                   "%g" % lambd)
    return o.sub(x, ctx.w.clamp(x, -lambd, lambd, ctx.loc))


def threshold(ctx, input, threshold, value, inplace=False):
    """x where x > threshold, else value."""
    x, o = float_tensor(input), Elementwise(ctx)
    return _above(o, x, _number("threshold", threshold), x,
                  o.const(_number("threshold's value", value), x))


FUNCTIONS = {
    F.softplus: softplus, F.mish: mish, F.logsigmoid: logsigmoid,
    F.elu: elu, F.celu: celu, F.selu: selu, torch.selu: selu,
    torch.celu: celu, F.prelu: prelu, torch.prelu: prelu,
    F.rrelu: rrelu, torch.rrelu: rrelu, F.glu: glu, F.softsign: softsign,
    F.tanhshrink: tanhshrink, F.hardshrink: hardshrink,
    torch.hardshrink: hardshrink, F.softshrink: softshrink,
    F.threshold: threshold, torch.threshold: threshold,
}
# The builtins the functional forms call (TorchDynamo may record these).
for _name, _lowering in (("elu", elu), ("glu", glu), ("mish", mish),
                         ("log_sigmoid", logsigmoid),
                         ("softshrink", softshrink), ("softplus", softplus)):
    if hasattr(torch._C._nn, _name):
        FUNCTIONS.setdefault(getattr(torch._C._nn, _name), _lowering)

METHODS = {
    "prelu": prelu, "hardshrink": hardshrink, "elu": elu, "selu": selu,
    "celu": celu,
}

MODULES = {
    nn.Softplus: lambda ctx, m, x: softplus(ctx, x, m.beta, m.threshold),
    nn.Mish: lambda ctx, m, x: mish(ctx, x),
    nn.LogSigmoid: lambda ctx, m, x: logsigmoid(ctx, x),
    nn.ELU: lambda ctx, m, x: elu(ctx, x, m.alpha),
    nn.CELU: lambda ctx, m, x: celu(ctx, x, m.alpha),
    nn.SELU: lambda ctx, m, x: selu(ctx, x),
    nn.PReLU: lambda ctx, m, x: prelu(ctx, x, ctx.parameter("weight")),
    nn.RReLU: lambda ctx, m, x: rrelu(ctx, x, m.lower, m.upper, m.training),
    nn.GLU: lambda ctx, m, x: glu(ctx, x, m.dim),
    nn.Softsign: lambda ctx, m, x: softsign(ctx, x),
    nn.Tanhshrink: lambda ctx, m, x: tanhshrink(ctx, x),
    nn.Hardshrink: lambda ctx, m, x: hardshrink(ctx, x, m.lambd),
    nn.Softshrink: lambda ctx, m, x: softshrink(ctx, x, m.lambd),
    nn.Threshold: lambda ctx, m, x: threshold(ctx, x, m.threshold, m.value),
}

# torch.export's forms (aten_lowerings registers them).
ATEN = {
    "softplus.default": softplus, "mish.default": mish,
    "elu.default": lambda ctx, input, alpha=1.0, scale=1.0, input_scale=1.0:
        _elu_with_scales(ctx, input, alpha, scale, input_scale),
    "celu.default": celu, "selu.default": selu,
    "prelu.default": prelu, "_prelu_kernel.default": prelu,
    "glu.default": glu, "log_sigmoid_forward.default":
        lambda ctx, input: (logsigmoid(_first(ctx), input),
                            _unavailable("log_sigmoid_forward's buffer")),
    "hardshrink.default": hardshrink, "softshrink.default": softshrink,
    "threshold.default": threshold,
    "rrelu_with_noise.default": lambda ctx, input, noise, lower=1.0 / 8,
    upper=1.0 / 3, training=False, generator=None: rrelu(
        ctx, input, lower, upper, training),
    "rrelu_with_noise_functional.default": lambda ctx, input, noise,
    lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None: (
        rrelu(_first(ctx), input, lower, upper, training),
        _unavailable("rrelu's noise")),
}


def _elu_with_scales(ctx, input, alpha, scale, input_scale):
    """aten.elu's general form (SELU and CELU decompose to it)."""
    o = Elementwise(ctx)
    x = o.scale(float_tensor(input), _number("elu's input_scale", input_scale))
    y = elu(ctx, x, alpha)
    if input_scale != 1:  # the positive branch is x itself, unscaled
        y = _above(o, input, 0.0, input, y)
    return o.scale(y, _number("elu's scale", scale))


def _first(ctx):
    from .aten_lowerings import _FirstResult
    return _FirstResult(ctx)


def _unavailable(what):
    from .aten_lowerings import Unavailable
    return Unavailable(what)
