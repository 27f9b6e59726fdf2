"""Elementwise math beyond TCP's own unary ops, as compositions of them:
reciprocal, exp2/log2/log10, tan, the hyperbolic and inverse trig
functions, trunc/frac, fmod/remainder and rounded division, lerp, hypot,
atan2, erf/erfc, nan_to_num, clamp_min/clamp_max, general powers and
softmin/logsumexp. Lowerings here follow lowerings.py's conventions (a
leading `ctx`, torch's own parameter names); lowerings.py registers them.
"""

import math
import operator

import torch
import torch.nn.functional as F

from .elementwise_ops import Elementwise
from .lowering_arguments import UnsupportedOperation
from .tcp_writer import FLOAT_TYPES, Value


def _unary(compute):
    def lower(ctx, input, *args, **kwargs):
        o = Elementwise(ctx)
        return compute(o, o.operand(input), *args, **kwargs)
    return lower


def _binary(compute):
    def lower(ctx, input, other, *args, **kwargs):
        o = Elementwise(ctx)
        return compute(o, o.operand(input), o.operand(other), *args,
                       **kwargs)
    return lower


reciprocal = _unary(lambda o, x: o.div(o.const(1.0, x), x))
exp2 = _unary(lambda o, x: o.exp(o.scale(x, math.log(2.0))))
log2 = _unary(lambda o, x: o.scale(o.log(x), 1.0 / math.log(2.0)))
log10 = _unary(lambda o, x: o.scale(o.log(x), 1.0 / math.log(10.0)))
tan = _unary(lambda o, x: o.div(o.sin(x), o.cos(x)))
sinh = _unary(lambda o, x: o.scale(o.sub(o.exp(x), o.exp(o.neg(x))), 0.5))
cosh = _unary(lambda o, x: o.scale(o.add(o.exp(x), o.exp(o.neg(x))), 0.5))


def _asinh(o, x):
    """sign(x) log(|x| + sqrt(x^2 + 1)) (odd, so exact for negative x)."""
    y = o.log(o.add(o.abs(x), o.sqrt(o.add(o.mul(x, x), o.const(1.0, x)))))
    return o.select("lt", x, o.const(0.0, x), o.neg(y), y)


asinh = _unary(_asinh)
acosh = _unary(lambda o, x: o.log(o.add(x, o.sqrt(o.sub(o.mul(x, x),
                                                        o.const(1.0, x))))))
atanh = _unary(lambda o, x: o.scale(o.log(o.div(
    o.add(o.const(1.0, x), x), o.sub(o.const(1.0, x), x))), 0.5))


def _root_one_minus_square(o, x):
    return o.sqrt(o.sub(o.const(1.0, x), o.mul(x, x)))


asin = _unary(lambda o, x: o.atan2(x, _root_one_minus_square(o, x)))
acos = _unary(lambda o, x: o.atan2(_root_one_minus_square(o, x), x))
trunc = _unary(lambda o, x: o.trunc(x))
frac = _unary(lambda o, x: o.sub(x, o.trunc(x)))
atan2 = _binary(lambda o, y, x: o.atan2(y, x))
hypot = _binary(lambda o, a, b: o.sqrt(o.add(o.mul(a, a), o.mul(b, b))))
def _division(float_quotient, rounding, keep, python_op=None):
    """A rounded division (keep="quotient") or its remainder
    (keep="remainder", a - q b): floats by `float_quotient` of a / b,
    signed integers by tcp.divsi rounded as `rounding` says (CANINE's
    hash buckets, `ids % n`)."""
    def lower(ctx, input, other):
        if python_op and not isinstance(input, Value) and \
                not isinstance(other, Value):
            return python_op(input, other)  # sizes in a TorchDynamo graph
        o, dtype = Elementwise(ctx), ctx.result.dtype
        if dtype in FLOAT_TYPES:
            a, b = o.operand(input), o.operand(other)
            q = float_quotient(o, o.div(a, b))
        elif dtype.startswith("i") and dtype != "i1":
            from .logic_lowerings import as_operand
            shape = ctx.result.shape
            a, b = (as_operand(ctx, v, shape, dtype) for v in (input, other))
            q = ctx.w.divide_integers(a, b, rounding, ctx.loc)
        else:
            raise UnsupportedOperation("expects a float or signed integer "
                                       "result, but got %s" % dtype)
        return q if keep == "quotient" else o.sub(a, o.mul(q, b))
    return lower


fmod = _division(lambda o, q: o.trunc(q), "Trunc", "remainder", math.fmod)
remainder = _division(lambda o, q: o.floor(q), "Floor", "remainder",
                      operator.mod)
floor_divide = _division(lambda o, q: o.floor(q), "Floor", "quotient",
                         operator.floordiv)
trunc_divide = _division(lambda o, q: o.trunc(q), "Trunc", "quotient")


def lerp(ctx, input, end, weight):
    """input + weight * (end - input)."""
    o = Elementwise(ctx)
    a, b, t = o.operand(input), o.operand(end), o.operand(weight)
    return o.add(a, o.mul(t, o.sub(b, a)))


# Abramowitz and Stegun 7.1.26: |error| <= 1.5e-7 (f32's resolution).
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _erf(o, x):
    """sign(x) (1 - poly(t) exp(-x^2)), t = 1 / (1 + p |x|)."""
    ax = o.abs(x)
    t = o.div(o.const(1.0, x), o.add(o.const(1.0, x), o.scale(ax, _ERF_P)))
    poly = o.const(_ERF_A[-1], x)
    for a in reversed(_ERF_A[:-1]):
        poly = o.add(o.mul(poly, t), o.const(a, x))
    poly = o.mul(poly, t)
    tail = o.mul(poly, o.exp(o.neg(o.mul(x, x))))
    magnitude = o.sub(o.const(1.0, x), tail)
    return o.select("lt", x, o.const(0.0, x), o.neg(magnitude), magnitude)


erf = _unary(_erf)
erfc = _unary(lambda o, x: o.sub(o.const(1.0, x), _erf(o, x)))


def nan_to_num(ctx, input, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (the type's largest), -inf -> neginf."""
    o = Elementwise(ctx)
    x = o.operand(input)
    largest = float(torch.finfo(_torch_type(x.dtype)).max)
    posinf = largest if posinf is None else float(posinf)
    neginf = -largest if neginf is None else float(neginf)
    y = o.select("ne", x, x, o.const(float(nan), x), x)
    y = o.select("eq", x, o.const(math.inf, x), o.const(posinf, x), y)
    return o.select("eq", x, o.const(-math.inf, x), o.const(neginf, x), y)


def _torch_type(dtype):
    from .recording import torch_type
    return torch_type(dtype)


def clamp_min(ctx, input, min):
    from .lowerings import clamp
    return clamp(ctx, input, min=min)


def clamp_max(ctx, input, max):
    from .lowerings import clamp
    return clamp(ctx, input, max=max)


def pow_any(ctx, input, exponent):
    """x ** p beyond lowerings.pow_'s small whole powers: any whole power
    by squaring (|p| <= 64; negative: a reciprocal), another float power
    as exp(p log x) (NaN for negative x, as PyTorch gives), and a positive
    number raised to a tensor as exp(x log b)."""
    from .lowerings import pow_
    o = Elementwise(ctx)
    if not isinstance(input, Value):
        base = float(input)
        if base <= 0 or not isinstance(exponent, Value):
            raise UnsupportedOperation("expects a positive number raised to a "
                                       "tensor, but got %s ** %s"
                                       % (input, type(exponent).__name__))
        e = o.operand(exponent)
        return o.exp(o.scale(e, math.log(base)))
    if isinstance(exponent, Value):
        raise UnsupportedOperation("expects a tensor raised to a number, but "
                                   "got a tensor exponent")
    p = float(exponent)
    if p in (1, 2, 3, 4, 0.5, -0.5, -1, 0):
        if p == 0:
            return o.const(1.0, o.operand(input))
        return pow_(ctx, input, exponent)
    x = o.operand(input)
    if p.is_integer() and abs(p) <= 64:
        result, square, n = None, x, int(abs(p))
        while n:
            if n & 1:
                result = square if result is None else o.mul(result, square)
            n >>= 1
            if n:
                square = o.mul(square, square)
        return o.div(o.const(1.0, x), result) if p < 0 else result
    return o.exp(o.scale(o.log(x), p))


def softmin(ctx, input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x)."""
    from .lowerings import softmax
    if dim is None:
        raise UnsupportedOperation("expects softmin with a dim")
    o = Elementwise(ctx)
    return softmax(ctx, o.neg(o.operand(input, dtype=input.dtype)), dim)


def logsumexp(ctx, input, dim, keepdim=False):
    """m + log(sum(exp(x - m))), m the max over `dim` (0 where it is
    infinite, so all -inf rows give -inf)."""
    from .lowerings import _axes
    x = input
    if x.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects a float tensor, but got %s"
                                   % x.type)
    axes = _axes(dim, x.rank)
    w, loc = ctx.w, ctx.loc
    m = w.reduce("tcp.reduce_max", x, axes, True, loc)
    finite = w.compare("lt", w.unary("tcp.abs", m, loc=loc),
                       w.scalar_like(math.inf, m, loc), loc)
    m = w.select(finite, m, w.scalar_like(0.0, m, loc), loc)
    shifted = w.binary("tcp.sub", x, w.broadcast_to(m, x.shape, loc), loc)
    total = w.reduce("tcp.reduce_sum", w.unary("tcp.exp", shifted, loc=loc),
                     axes, True, loc)
    y = w.binary("tcp.add", w.unary("tcp.log", total, loc=loc), m, loc)
    return y if keepdim else w.reshape(y, ctx.result.shape, loc)


FUNCTIONS = {
    torch.reciprocal: reciprocal, torch.exp2: exp2, torch.log2: log2,
    torch.log10: log10, torch.tan: tan, torch.sinh: sinh, torch.cosh: cosh,
    torch.asinh: asinh, torch.acosh: acosh, torch.atanh: atanh,
    torch.asin: asin, torch.acos: acos, torch.arcsin: asin,
    torch.arccos: acos, torch.trunc: trunc, torch.fix: trunc,
    torch.frac: frac, torch.atan2: atan2, torch.arctan2: atan2,
    torch.hypot: hypot, torch.fmod: fmod, torch.remainder: remainder,
    torch.floor_divide: floor_divide, operator.floordiv: floor_divide,
    operator.mod: remainder, torch.lerp: lerp, torch.erf: erf,
    torch.special.erf: erf, torch.erfc: erfc, torch.nan_to_num: nan_to_num,
    torch.clamp_min: clamp_min, torch.clamp_max: clamp_max,
    F.softmin: softmin, torch.logsumexp: logsumexp,
}

METHODS = {
    "reciprocal": reciprocal, "exp2": exp2, "log2": log2, "log10": log10,
    "tan": tan, "sinh": sinh, "cosh": cosh, "asinh": asinh, "acosh": acosh,
    "atanh": atanh, "asin": asin, "acos": acos, "trunc": trunc,
    "frac": frac, "atan2": atan2, "hypot": hypot, "fmod": fmod,
    "remainder": remainder, "floor_divide": floor_divide, "lerp": lerp,
    "erf": erf, "erfc": erfc, "nan_to_num": nan_to_num,
    "clamp_min": clamp_min, "clamp_max": clamp_max,
    "logsumexp": logsumexp,
}

# torch.export's forms (aten_lowerings registers them).
ATEN = {
    "reciprocal.default": reciprocal, "exp2.default": exp2,
    "log2.default": log2, "log10.default": log10, "tan.default": tan,
    "sinh.default": sinh, "cosh.default": cosh, "asinh.default": asinh,
    "acosh.default": acosh, "atanh.default": atanh, "asin.default": asin,
    "acos.default": acos, "trunc.default": trunc, "frac.default": frac,
    "atan2.default": atan2, "hypot.default": hypot,
    "fmod.Scalar": fmod, "fmod.Tensor": fmod,
    "remainder.Scalar": remainder, "remainder.Tensor": remainder,
    "floor_divide.default": floor_divide, "lerp.Scalar": lerp,
    "lerp.Tensor": lerp, "erf.default": erf, "erfc.default": erfc,
    "nan_to_num.default": nan_to_num, "clamp_min.default": clamp_min,
    "clamp_max.default": clamp_max, "logsumexp.default": logsumexp,
    "pow.Tensor_Scalar": pow_any, "pow.Scalar": pow_any,
}
