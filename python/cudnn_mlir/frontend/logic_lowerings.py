"""Comparisons, selection and boolean logic: how `x < y`, `torch.where`,
`masked_fill`, `&`, `~`, `torch.isnan` and their kin become tcp.compare,
tcp.select and the bitwise ops, with PyTorch's type promotion and
broadcasting. Lowerings here follow lowerings.py's conventions (a leading
`ctx`, torch's own parameter names); lowerings.py registers them.

An operator applied to plain Python values (a size compared with a
number, in a graph TorchDynamo captured) is computed here, not lowered.
"""

import operator

import torch

from .lowering_arguments import UnsupportedOperation
from .recording import mlir_type, torch_type
from .tcp_writer import FLOAT_TYPES, Value


def _example(v):
    """What torch.result_type sees of an operand: a tensor of the Value's
    type and rank (a 0-dim tensor ranks below a dimensioned one), or the
    Python number itself."""
    if isinstance(v, Value):
        return torch.empty((1,) * v.rank, dtype=torch_type(v.dtype))
    return v


def promoted_type(a, b) -> str:
    """The MLIR element type PyTorch computes a binary op of `a` and `b`
    in (torch.result_type)."""
    return mlir_type(torch.result_type(_example(a), _example(b)))


def as_operand(ctx, v, shape, dtype):
    """An elementwise operand `v` as a Value of `shape` and `dtype`: a tensor
    is cast and broadcast, a number becomes a broadcast constant."""
    if isinstance(v, Value):
        return ctx.w.broadcast_to(ctx.w.cast(v, dtype, ctx.loc), shape,
                                  ctx.loc)
    if isinstance(v, (bool, int, float)):
        return ctx.w.scalar_like(v, Value("", tuple(shape), dtype), ctx.loc)
    raise UnsupportedOperation("expects a tensor or a number operand, but got "
                               "%s" % type(v).__name__)


def _invert(ctx, x):
    """~x of a boolean or integer Value: an xor with all one bits (true
    for i1, -1 for signed integers)."""
    ones = ctx.w.scalar_like(True if x.dtype == "i1" else -1, x, ctx.loc)
    return ctx.w.binary("tcp.bitwise_xor", x, ones, ctx.loc)


def _comparison(predicate, python_op):
    def lower(ctx, input, other):
        if not isinstance(input, Value) and not isinstance(other, Value):
            return python_op(input, other)
        shape, dtype = ctx.result.shape, promoted_type(input, other)
        return ctx.w.compare(predicate, as_operand(ctx, input, shape, dtype),
                             as_operand(ctx, other, shape, dtype), ctx.loc)
    return lower


eq = _comparison("eq", operator.eq)
ne = _comparison("ne", operator.ne)
lt = _comparison("lt", operator.lt)
le = _comparison("le", operator.le)
gt = _comparison("gt", operator.gt)
ge = _comparison("ge", operator.ge)


def where(ctx, condition, input=None, other=None):
    """torch.where(condition, input, other); the one-argument form
    (nonzero indices, a data-dependent shape) is refused."""
    if input is None or other is None:
        raise UnsupportedOperation(
            "expects torch.where(condition, input, other), but got the "
            "one-argument form (indices of nonzero elements: a shape known "
            "only at run time)")
    out = ctx.result
    return ctx.w.select(as_operand(ctx, condition, out.shape, "i1"),
                        as_operand(ctx, input, out.shape, out.dtype),
                        as_operand(ctx, other, out.shape, out.dtype),
                        ctx.loc)


def masked_fill(ctx, input, mask, value):
    """input where mask is false, value where it is true."""
    return where(ctx, mask, value, input)


def _bitwise(op, python_op):
    def lower(ctx, input, other):
        if not isinstance(input, Value) and not isinstance(other, Value):
            return python_op(input, other)
        out = ctx.result
        _integer(out.dtype)
        return ctx.w.binary(op, as_operand(ctx, input, out.shape, out.dtype),
                            as_operand(ctx, other, out.shape, out.dtype),
                            ctx.loc)
    return lower


def _integer(dtype):
    if dtype in FLOAT_TYPES:
        raise UnsupportedOperation("expects boolean or integer tensors for a "
                                   "bitwise op, but got %s" % dtype)


bitwise_and = _bitwise("tcp.bitwise_and", operator.and_)
bitwise_or = _bitwise("tcp.bitwise_or", operator.or_)
bitwise_xor = _bitwise("tcp.bitwise_xor", operator.xor)


def bitwise_not(ctx, input):
    if not isinstance(input, Value):
        return operator.invert(input)
    _integer(input.dtype)
    return _invert(ctx, input)


def _logical(op):
    """torch.logical_*: both operands read as booleans (nonzero is true)."""
    def lower(ctx, input, other):
        shape = ctx.result.shape
        return ctx.w.binary(op, as_operand(ctx, input, shape, "i1"),
                            as_operand(ctx, other, shape, "i1"), ctx.loc)
    return lower


logical_and = _logical("tcp.bitwise_and")
logical_or = _logical("tcp.bitwise_or")
logical_xor = _logical("tcp.bitwise_xor")


def logical_not(ctx, input):
    return _invert(ctx, ctx.w.cast(input, "i1", ctx.loc))


def isnan(ctx, input):
    if input.dtype not in FLOAT_TYPES:
        return ctx.w.scalar_like(False, Value("", input.shape, "i1"), ctx.loc)
    return ctx.w.compare("ne", input, input, ctx.loc)


def _abs_against_infinity(ctx, input, predicate):
    if input.dtype not in FLOAT_TYPES:  # integers are finite
        return ctx.w.scalar_like(predicate == "lt",
                                 Value("", input.shape, "i1"), ctx.loc)
    magnitude = ctx.w.unary("tcp.abs", input, loc=ctx.loc)
    return ctx.w.compare(predicate, magnitude,
                         ctx.w.scalar_like(float("inf"), input, ctx.loc),
                         ctx.loc)


def isinf(ctx, input):
    return _abs_against_infinity(ctx, input, "eq")


def isfinite(ctx, input):
    return _abs_against_infinity(ctx, input, "lt")  # NaN < inf is false


def clamp_by_tensors(ctx, input, min=None, max=None):
    """torch.clamp with a tensor bound: a select per bound, NaN in `input`
    kept (a comparison with NaN is false, so NaN is never replaced)."""
    out = ctx.result
    x = as_operand(ctx, input, out.shape, out.dtype)
    for bound, predicate in ((min, "lt"), (max, "gt")):
        if bound is None:
            continue
        b = as_operand(ctx, bound, out.shape, out.dtype)
        x = ctx.w.select(ctx.w.compare(predicate, x, b, ctx.loc), b, x,
                         ctx.loc)
    return x


def _elementwise_extreme(predicate, nan_wins):
    """torch.maximum / minimum (NaN in either operand gives NaN) and
    fmax / fmin (NaN loses to a number): a select by `a <predicate> b`,
    then a select for the NaN case the comparison gets wrong (a
    comparison with NaN is false, so the first select picks b when
    either is NaN)."""
    def lower(ctx, input, other):
        out = ctx.result
        a = as_operand(ctx, input, out.shape, out.dtype)
        b = as_operand(ctx, other, out.shape, out.dtype)
        picked = ctx.w.select(ctx.w.compare(predicate, a, b, ctx.loc), a, b,
                              ctx.loc)
        if out.dtype not in FLOAT_TYPES:
            return picked
        # maximum: NaN a must win (b was picked); fmax: NaN b must lose.
        nan = isnan(ctx, a if nan_wins else b)
        return ctx.w.select(nan, a, picked, ctx.loc)
    return lower


maximum = _elementwise_extreme("gt", nan_wins=True)
minimum = _elementwise_extreme("lt", nan_wins=True)
fmax = _elementwise_extreme("gt", nan_wins=False)
fmin = _elementwise_extreme("lt", nan_wins=False)


def _any_or_all(reduce_op):
    """torch.any / torch.all: the booleans as 0/1 integers, their max
    (any) or min (all) over the dims, compared with 0."""
    def lower(ctx, input, dim=None, keepdim=False):
        from .lowerings import _axes
        ones = ctx.w.cast(ctx.w.cast(input, "i1", ctx.loc), "i32", ctx.loc)
        if input.rank:
            ones = ctx.w.reduce(reduce_op, ones, _axes(dim, input.rank),
                                keepdim, ctx.loc)
        return ctx.w.compare("ne", ones,
                             ctx.w.scalar_like(0, ones, ctx.loc), ctx.loc)
    return lower


any_ = _any_or_all("tcp.reduce_max")
all_ = _any_or_all("tcp.reduce_min")


FUNCTIONS = {
    operator.eq: eq, operator.ne: ne, operator.lt: lt, operator.le: le,
    operator.gt: gt, operator.ge: ge,
    torch.eq: eq, torch.ne: ne, torch.lt: lt, torch.le: le, torch.gt: gt,
    torch.ge: ge, torch.not_equal: ne, torch.less: lt, torch.less_equal: le,
    torch.greater: gt, torch.greater_equal: ge,
    torch.where: where, torch.masked_fill: masked_fill,
    operator.and_: bitwise_and, operator.or_: bitwise_or,
    operator.xor: bitwise_xor, operator.invert: bitwise_not,
    operator.iand: bitwise_and, operator.ior: bitwise_or,
    operator.ixor: bitwise_xor,
    torch.bitwise_and: bitwise_and, torch.bitwise_or: bitwise_or,
    torch.bitwise_xor: bitwise_xor, torch.bitwise_not: bitwise_not,
    torch.logical_and: logical_and, torch.logical_or: logical_or,
    torch.logical_xor: logical_xor, torch.logical_not: logical_not,
    torch.isnan: isnan, torch.isinf: isinf, torch.isfinite: isfinite,
    torch.any: any_, torch.all: all_,
    torch.maximum: maximum, torch.minimum: minimum, torch.fmax: fmax,
    torch.fmin: fmin,
}

METHODS = {
    "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge,
    # TorchDynamo records `x == v` on a tensor changed in place as these.
    "__eq__": eq, "__ne__": ne, "__lt__": lt, "__le__": le, "__gt__": gt,
    "__ge__": ge,
    "not_equal": ne, "less": lt, "less_equal": le, "greater": gt,
    "greater_equal": ge,
    "where": lambda ctx, input, condition, other: where(
        ctx, condition, input, other),
    "masked_fill": masked_fill, "masked_fill_": masked_fill,
    "bitwise_and": bitwise_and, "bitwise_or": bitwise_or,
    "bitwise_xor": bitwise_xor, "bitwise_not": bitwise_not,
    "__and__": bitwise_and, "__or__": bitwise_or, "__xor__": bitwise_xor,
    "__invert__": bitwise_not,
    "logical_and": logical_and, "logical_or": logical_or,
    "logical_xor": logical_xor, "logical_not": logical_not,
    "isnan": isnan, "isinf": isinf, "isfinite": isfinite,
    "any": any_, "all": all_,
    "maximum": maximum, "minimum": minimum, "fmax": fmax, "fmin": fmin,
}
