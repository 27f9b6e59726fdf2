"""How each torch operation becomes TCP.

Every lowering is a function with the torch operation's own signature
(same parameter names and defaults) after a leading `ctx` (importer.NodeContext):
tensors arrive as `tcp_writer.Value`s, everything else as the Python values
the graph computed. `FUNCTIONS` maps call_function targets and
`METHODS` call_method names to lowerings; `MODULES` maps leaf nn.Module types
to functions that restate the module as a call of a functional lowering.

A lowering that meets a form it cannot express raises
`UnsupportedOperation` with what was expected and what it got; the importer
adds the node and its source location.
"""

import collections
import math
import operator

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import activation_lowerings, attention_modules, bilinear, \
    distance_lowerings, grid_sample, logic_lowerings, math_lowerings, \
    rearrangement_lowerings, transposed_convolution
from .lowering_arguments import UnsupportedOperation, float_tensor
from .lowering_arguments import dim as _dim
from .lowering_arguments import pair as _pair
from .lowering_arguments import single as _single
from .lowering_arguments import triple as _triple
from .recording import TensorMeta, tensor_bytes, torch_type
from .tcp_writer import FLOAT_TYPES, Value
from .view_writes import basic_box, write_box


def _result_shape(ctx):
    return ctx.result.shape


# -- elementwise ---------------------------------------------------------------


_operand = logic_lowerings.as_operand


def _binary(op):
    def lower(ctx, input, other, *, alpha=1):
        out = ctx.result
        a = _operand(ctx, input, out.shape, out.dtype)
        b = _operand(ctx, other, out.shape, out.dtype)
        if alpha != 1:
            b = ctx.w.binary("tcp.mul", b, _operand(ctx, alpha, out.shape,
                                                    out.dtype), ctx.loc)
        return ctx.w.binary(op, a, b, ctx.loc)
    return lower


add = _binary("tcp.add")
sub = _binary("tcp.sub")
mul = _binary("tcp.mul")


def addcmul(ctx, input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2 (ResMLP's affine layers)."""
    out = ctx.result
    a, b, c = (_operand(ctx, v, out.shape, out.dtype)
               for v in (input, tensor1, tensor2))
    product = ctx.w.binary("tcp.mul", b, c, ctx.loc)
    if value != 1:
        product = ctx.w.binary("tcp.mul", product, _operand(
            ctx, value, out.shape, out.dtype), ctx.loc)
    return ctx.w.binary("tcp.add", a, product, ctx.loc)


def div(ctx, input, other, *, rounding_mode=None):
    if rounding_mode == "floor":
        return math_lowerings.floor_divide(ctx, input, other)
    if rounding_mode == "trunc":
        return math_lowerings.trunc_divide(ctx, input, other)
    if rounding_mode is not None:
        raise UnsupportedOperation("expects rounding_mode None, 'floor' or "
                                   "'trunc', but got '%s'" % rounding_mode)
    if ctx.result.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects a float division, but got a "
                                   "result of %s" % ctx.result.dtype)
    return _binary("tcp.divf")(ctx, input, other)


def rsub(ctx, input, other, alpha=1):
    return sub(ctx, other, input, alpha=alpha)


def _unary(op):
    def lower(ctx, input):
        return ctx.w.unary(op, _float(ctx, input), loc=ctx.loc)
    return lower


def _float(ctx, x):
    return float_tensor(x)


sigmoid = _unary("tcp.sigmoid")
tanh = _unary("tcp.tanh")
exp = _unary("tcp.exp")
log = _unary("tcp.log")
sqrt = _unary("tcp.sqrt")
neg = _unary("tcp.neg")
abs_ = _unary("tcp.abs")
sin = _unary("tcp.sin")
cos = _unary("tcp.cos")
atan = _unary("tcp.atan")
floor = _unary("tcp.floor")
ceil = _unary("tcp.ceil")


def log1p(ctx, input):
    """log(1 + x) (torch.export's softplus and log-sigmoid)."""
    x = _float(ctx, input)
    return log(ctx, ctx.w.binary("tcp.add", ctx.w.scalar_like(1.0, x, ctx.loc),
                                 x, ctx.loc))


def expm1(ctx, input):
    """exp(x) - 1 (torch.export's ELU)."""
    x = _float(ctx, input)
    return ctx.w.binary("tcp.sub", exp(ctx, x),
                        ctx.w.scalar_like(1.0, x, ctx.loc), ctx.loc)


def sign(ctx, input):
    """1, -1 or 0 by the sign of x; NaN stays NaN (torch.export's
    softshrink)."""
    x = _float(ctx, input)
    zero = ctx.w.scalar_like(0.0, x, ctx.loc)
    y = ctx.w.select(ctx.w.compare("gt", x, zero, ctx.loc),
                     ctx.w.scalar_like(1.0, x, ctx.loc),
                     ctx.w.select(ctx.w.compare("lt", x, zero, ctx.loc),
                                  ctx.w.scalar_like(-1.0, x, ctx.loc), zero,
                                  ctx.loc), ctx.loc)
    return ctx.w.select(logic_lowerings.isnan(ctx, x), x, y, ctx.loc)


def pow_(ctx, input, exponent):
    """x ** p for the exponents models use: small whole powers as
    multiplications (x * x for 2), 0.5 as sqrt, -0.5 as rsqrt, -1 as a
    reciprocal, 1 as x; others are refused (a general power would need
    exp(p * log x), wrong for negative x)."""
    if not isinstance(input, Value) or isinstance(exponent, Value):
        raise UnsupportedOperation("expects a tensor raised to a number, but "
                                   "got %s ** %s" % (type(input).__name__,
                                                     type(exponent).__name__))
    x = _float(ctx, input)
    if exponent == 1:
        return x
    if exponent in (2, 3, 4):
        y = x
        for _ in range(int(exponent) - 1):
            y = ctx.w.binary("tcp.mul", y, x, ctx.loc)
        return y
    if exponent == 0.5:
        return sqrt(ctx, x)
    if exponent == -0.5:
        return rsqrt(ctx, x)
    if exponent == -1:
        return _reciprocal(ctx, x)
    raise UnsupportedOperation("expects an exponent of 1, 2, 3, 4, 0.5, -0.5 "
                               "or -1, but got %s" % exponent)


def round_(ctx, input, *, decimals=0):
    # torch.round rounds half to even.
    if decimals != 0:
        raise UnsupportedOperation("expects round without decimals, but got "
                                   "decimals=%s" % decimals)
    return ctx.w.unary("tcp.round_even", _float(ctx, input), loc=ctx.loc)


def _reciprocal(ctx, x):
    return ctx.w.binary("tcp.divf", ctx.w.scalar_like(1.0, x, ctx.loc), x,
                        ctx.loc)


def rsqrt(ctx, input):
    return _reciprocal(ctx, sqrt(ctx, input))


def relu(ctx, input, inplace=False):
    return ctx.w.clamp(_float(ctx, input), 0.0, None, ctx.loc)


def relu6(ctx, input, inplace=False):
    return ctx.w.clamp(_float(ctx, input), 0.0, 6.0, ctx.loc)


def hardtanh(ctx, input, min_val=-1.0, max_val=1.0, inplace=False):
    return ctx.w.clamp(_float(ctx, input), min_val, max_val, ctx.loc)


def _relu6_of_shifted(ctx, x):
    """clamp(x + 3, 0, 6): the part hardsigmoid and hardswish share."""
    shifted = ctx.w.binary("tcp.add", x, ctx.w.scalar_like(3.0, x, ctx.loc),
                           ctx.loc)
    return ctx.w.clamp(shifted, 0.0, 6.0, ctx.loc)


def hardsigmoid(ctx, input, inplace=False):
    # PyTorch's kernels: min(max(x + 3, 0), 6) / 6.
    x = _float(ctx, input)
    gate = _relu6_of_shifted(ctx, x)
    return ctx.w.binary("tcp.divf", gate, ctx.w.scalar_like(6.0, x, ctx.loc),
                        ctx.loc)


def hardswish(ctx, input, inplace=False):
    # PyTorch's kernels: x * min(max(x + 3, 0), 6) / 6.
    x = _float(ctx, input)
    scaled = ctx.w.binary("tcp.mul", x, _relu6_of_shifted(ctx, x), ctx.loc)
    return ctx.w.binary("tcp.divf", scaled,
                        ctx.w.scalar_like(6.0, x, ctx.loc), ctx.loc)


def leaky_relu(ctx, input, negative_slope=0.01, inplace=False):
    # x where x > 0, else x * slope: max(x, 0) + slope * min(x, 0), exact
    # on either side (one of the two terms is 0), for any slope.
    if isinstance(negative_slope, Value):
        raise UnsupportedOperation("expects leaky_relu's negative_slope to "
                                   "be a number, but got a tensor")
    x = _float(ctx, input)
    positive = ctx.w.clamp(x, 0.0, None, ctx.loc)
    negative = ctx.w.binary(
        "tcp.mul", ctx.w.clamp(x, None, 0.0, ctx.loc),
        ctx.w.scalar_like(float(negative_slope), x, ctx.loc), ctx.loc)
    return ctx.w.binary("tcp.add", positive, negative, ctx.loc)


def clamp(ctx, input, min=None, max=None):
    if min is None and max is None:
        raise UnsupportedOperation("expects clamp to have a min or a max")
    if isinstance(min, Value) or isinstance(max, Value) or \
            input.dtype not in FLOAT_TYPES:  # integer indices clamped too
        return logic_lowerings.clamp_by_tensors(ctx, input, min, max)
    return ctx.w.clamp(_float(ctx, input), min, max, ctx.loc)


def gelu(ctx, input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise UnsupportedOperation("expects approximate='none' or 'tanh', but "
                                   "got '%s'" % approximate)
    return ctx.w.unary("tcp.gelu", _float(ctx, input),
                       'approximate = "%s"' % approximate, ctx.loc)


def silu(ctx, input, inplace=False):
    return ctx.w.binary("tcp.mul", input, sigmoid(ctx, input), ctx.loc)


def identity(ctx, input, *args, **kwargs):
    return input


def dropout(ctx, input, p=0.5, training=True, inplace=False):
    if training and p > 0:
        raise UnsupportedOperation(
            "expects dropout in eval mode or with p = 0, but got training "
            "mode with p = %g (no random numbers in compiled code; call "
            "model.eval())" % p)
    return input


def square(ctx, input):
    """torch.square: x * x (MetaFormer's StarReLU, FilterResponseNorm)."""
    return pow_(ctx, input, 2)


def stochastic_depth(ctx, input, p, mode, training=True):
    """torchvision.ops.stochastic_depth: the identity in eval mode (or with
    p = 0), as dropout."""
    if training and p > 0:
        raise UnsupportedOperation(
            "expects stochastic_depth in eval mode or with p = 0, but got "
            "training mode with p = %g (no random numbers in compiled code; "
            "call model.eval())" % p)
    return input


def cast_to(ctx, input, *args, **kwargs):
    """Tensor.to / type / half / float / bfloat16 / type_as: a cast to the
    recorded result type (device moves are no-ops)."""
    return ctx.w.cast(input, ctx.result.dtype, ctx.loc)


# -- shapes --------------------------------------------------------------------


def reshape_like_result(ctx, input, *args, **kwargs):
    """view, reshape, flatten, squeeze, unsqueeze: the recorded shape."""
    return ctx.w.reshape(input, _result_shape(ctx), ctx.loc)


def split_along(ctx, input, *args, **kwargs):
    """chunk, split, split_with_sizes, tensor_split, unbind: consecutive
    tcp.slices along the dimension, one per recorded result, each as long
    as torch made it (unbind's reshaped to drop the dimension). The pieces'
    sizes come from the recording, so only the dimension is read from the
    arguments, whatever torch calls the others (`chunks`, `split_size`,
    `split_size_or_sections`, `indices_or_sections`)."""
    unbind = not any(isinstance(meta, TensorMeta)
                     and len(meta.shape) == input.rank for meta in ctx.result)
    dim = kwargs.get("dim", args[0] if unbind and args else
                     args[1] if len(args) > 1 else 0)
    dim = _dim(dim, input.rank)
    pieces, start = [], 0
    for meta in ctx.result:
        length = 1 if unbind else meta.shape[dim]
        starts = [0] * input.rank
        starts[dim] = start
        sizes = list(input.shape)
        sizes[dim] = length
        piece = ctx.w.slice(input, starts, sizes, [1] * input.rank,
                            ctx.loc) if sizes != list(input.shape) else input
        pieces.append(ctx.w.reshape(piece, meta.shape, ctx.loc)
                      if unbind else piece)
        start += length
    return tuple(pieces)


_NEAREST_MODES = ("nearest", "nearest-exact")


def _nearest_positions(have, want, scale, mode):
    """The source position of each of `want` outputs along a dim of `have`
    under nearest interpolation, as PyTorch computes them: its own
    F.interpolate run on the positions 0..have-1 (exact in f32), with the
    scale factor the call gave (PyTorch indexes with 1 / scale then) or
    else the sizes."""
    ramp = torch.arange(have, dtype=torch.float32).view(1, 1, have)
    picked = F.interpolate(ramp, mode=mode, **(
        {"size": want} if scale is None else
        {"scale_factor": float(scale), "recompute_scale_factor": False}))
    positions = [int(p) for p in picked.view(-1).tolist()]
    if len(positions) != want:  # unreachable: the recorded call gave want
        raise UnsupportedOperation(
            "expects %d positions from the scale factor %s, but got %d"
            % (want, scale, len(positions)))
    return positions


def upsample_nearest(ctx, input, mode="nearest", scales=None,
                     recompute_scale_factor=None):
    """Nearest-neighbour upsampling to the recorded result shape (dims 2
    and up). By a power-of-two factor per spatial dimension: every element
    repeated, as an expand_shape to [N, C, H, 1, W, 1], a broadcast to
    [N, C, H, fh, W, fw] and a collapse (PyTorch's source index
    floor(dst * (1 / f)) is exact there, so "nearest" and "nearest-exact"
    both repeat; given `scales` must then equal the factors). Other sizes
    (shrinking included): each spatial dim read at the source positions
    PyTorch computes (_nearest_positions), one tcp.gather per dim."""
    if mode not in _NEAREST_MODES:
        raise UnsupportedOperation(
            "expects interpolation mode 'nearest', 'nearest-exact', "
            "'bilinear', 'bicubic' or 'area', but got '%s'" % mode)
    out = _result_shape(ctx)
    if input.rank < 3 or len(out) != input.rank or \
            tuple(out[:2]) != tuple(input.shape[:2]):
        raise UnsupportedOperation(
            "expects [N, C, spatial...] in and out, but got %s -> %s"
            % (list(input.shape), list(out)))
    spatial = input.rank - 2
    if scales is None or recompute_scale_factor:
        scales = [None] * spatial
    elif not isinstance(scales, (tuple, list)):
        scales = [scales] * spatial
    factors = [want // have if have and want % have == 0 else 0
               for have, want in zip(input.shape[2:], out[2:])]
    if all(f and not f & (f - 1) and (s is None or float(s) == f)
           for f, s in zip(factors, scales)):
        spread = list(input.shape[:2])
        repeated = list(input.shape[:2])
        for size, factor in zip(input.shape[2:], factors):
            spread += [size, 1]
            repeated += [size, factor]
        x = ctx.w.reshape(input, spread, ctx.loc)
        x = ctx.w.broadcast_to(x, repeated, ctx.loc)
        return ctx.w.reshape(x, out, ctx.loc)
    if any(have == 0 for have in input.shape[2:]):
        raise UnsupportedOperation(
            "expects non-empty spatial dims, but got %s" % list(input.shape))
    x = input
    for d, (have, want, scale) in enumerate(zip(input.shape[2:], out[2:],
                                                scales)):
        positions = _nearest_positions(have, want, scale, mode)
        if positions != list(range(have)):
            x = _gather_along(ctx, x, positions, d + 2)
    return x


def interpolate(ctx, input, size=None, scale_factor=None, mode="nearest",
                align_corners=None, recompute_scale_factor=None,
                antialias=False):
    if antialias and mode not in ("bilinear", "bicubic"):
        raise UnsupportedOperation("expects antialias only with bilinear or "
                                   "bicubic interpolation, but got mode "
                                   "'%s'" % mode)
    if mode in ("bilinear", "bicubic"):
        scales = bilinear.scale_factors(scale_factor, recompute_scale_factor,
                                        2)
        return _resize_by_matrices(ctx, input, bool(align_corners), scales,
                                   mode + (" antialiased" if antialias
                                           else ""))
    if mode == "area":  # PyTorch's own: adaptive_avg_pool to the size
        return adaptive_avg_pool2d(ctx, input, _result_shape(ctx)[-2:])
    return upsample_nearest(ctx, input, mode, scale_factor,
                            recompute_scale_factor)


# The most elements of the two interpolation matrices of a bilinear resize
# (constants in the IR).
_MAX_BILINEAR_WEIGHTS = 1 << 20


def _resize_by_matrices(ctx, x, align_corners, scales, mode="bilinear"):
    """F.interpolate(mode="bilinear" or "bicubic", either "antialiased"),
    or adaptive average pooling ("adaptive average"), of [N, C, H, W] as
    y = A_h x A_w^T
    (frontend/bilinear.py): x @ A_w^T over rows of W, a
    transpose, @ A_h^T over rows of H, a transpose back; the matrices are
    constants of x's type."""
    out = _result_shape(ctx)
    if x.rank != 4 or len(out) != 4 or tuple(out[:2]) != tuple(x.shape[:2]):
        what = ("adaptive average pooling to a size that does not divide "
                "the input" if mode == "adaptive average"
                else mode + " interpolation")
        raise UnsupportedOperation(
            "expects %s of [N, C, H, W], but got %s -> %s"
            % (what, list(x.shape), list(out)))
    matrix = {"bicubic": bilinear.bicubic_matrix,
              "bilinear antialiased": bilinear.antialiased_matrix("bilinear"),
              "bicubic antialiased": bilinear.antialiased_matrix("bicubic"),
              "adaptive average": bilinear.adaptive_average_matrix}.get(
                  mode, bilinear.interpolation_matrix)
    x = _float(ctx, x)
    n, c, h, w = x.shape
    oh, ow = out[2], out[3]
    if oh * h + ow * w > _MAX_BILINEAR_WEIGHTS:
        raise UnsupportedOperation(
            "expects a %s resize with at most %d interpolation "
            "weights, but %s -> %s needs %d" % (
                mode, _MAX_BILINEAR_WEIGHTS, [h, w], [oh, ow],
                oh * h + ow * w))
    def constant(matrix):
        t = matrix.t().contiguous().to(torch_type(x.dtype))
        return ctx.w.literal(tensor_bytes(t), t.shape, x.dtype, ctx.loc)
    a_w = constant(matrix(w, ow, align_corners, scales[1]))  # [w, ow]
    a_h = constant(matrix(h, oh, align_corners, scales[0]))  # [h, oh]
    rows = ctx.w.reshape(x, (n * c * h, w), ctx.loc)
    t = ctx.w.contraction("tcp.matmul", rows, a_w, ctx.loc)  # [nch, ow]
    t = ctx.w.reshape(t, (n * c, h, ow), ctx.loc)
    t = ctx.w.transpose(t, [0, 2, 1], ctx.loc)  # [nc, ow, h]
    t = ctx.w.reshape(t, (n * c * ow, h), ctx.loc)
    t = ctx.w.contraction("tcp.matmul", t, a_h, ctx.loc)  # [nc*ow, oh]
    t = ctx.w.reshape(t, (n * c, ow, oh), ctx.loc)
    t = ctx.w.transpose(t, [0, 2, 1], ctx.loc)  # [nc, oh, ow]
    return ctx.w.reshape(t, out, ctx.loc)


def permute(ctx, input, *dims):
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = dims[0]
    return ctx.w.transpose(input, [_dim(d, input.rank) for d in dims],
                           ctx.loc)


def transpose(ctx, input, dim0, dim1):
    perm = list(range(input.rank))
    a, b = _dim(dim0, input.rank), _dim(dim1, input.rank)
    perm[a], perm[b] = perm[b], perm[a]
    return ctx.w.transpose(input, perm, ctx.loc)


def tensor_attribute(ctx, obj, name, *default):
    """getattr(tensor, name) as TorchDynamo records `w.T` (Falcon's
    matmuls) and `x.mT`: the transposes; other attributes of a tensor
    (shape, dtype) are Python values the recording already holds."""
    if not isinstance(obj, Value):
        return getattr(obj, name, *default)
    if name in ("T", "H"):
        return ctx.w.transpose(obj, list(range(obj.rank))[::-1], ctx.loc)
    if name in ("mT", "mH") and obj.rank >= 2:
        order = list(range(obj.rank))
        order[-2:] = order[:-3:-1]
        return ctx.w.transpose(obj, order, ctx.loc)
    raise UnsupportedOperation("expects a tensor attribute T, H, mT or mH, "
                               "but got '%s'" % name)


def t(ctx, input):
    return transpose(ctx, input, 0, 1) if input.rank == 2 else input


def _einsum_parts(equation, ranks):
    """(input subscripts, output subscripts) of an explicit einsum
    equation ("bhid,bhjd->bhij"), checked against the operands' ranks."""
    equation = equation.replace(" ", "")
    if "->" not in equation or "." in equation:
        raise UnsupportedOperation(
            "expects an einsum equation with '->' and no '...', but got "
            "'%s'" % equation)
    left, out = equation.split("->")
    inputs = left.split(",")
    if len(inputs) != len(ranks) or any(
            len(sub) != rank for sub, rank in zip(inputs, ranks)):
        raise UnsupportedOperation(
            "expects one subscript per dim of each operand, but got '%s' "
            "for operands of rank %s" % (equation, list(ranks)))
    for sub in inputs + [out]:
        if len(set(sub)) != len(sub):
            raise UnsupportedOperation(
                "expects no repeated subscript within an operand (a "
                "diagonal), but got '%s'" % equation)
    return inputs, out


def tensordot(ctx, a, b, dims=2, out=None):
    """torch.tensordot as the einsum it is: a's last `dims` dims (or the
    listed ones) contracted with b's first (or listed) ones, the output a's
    free dims then b's."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    if isinstance(dims, int):
        da = list(range(a.rank - dims, a.rank))
        db = list(range(dims))
    else:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
    da = [_dim(d, a.rank) for d in da]
    db = [_dim(d, b.rank) for d in db]
    if len(da) != len(db) or a.rank + b.rank > len(letters):
        raise UnsupportedOperation("expects tensordot dims of equal count")
    sub_a = letters[:a.rank]
    sub_b = [None] * b.rank
    for i, j in zip(da, db):
        sub_b[j] = sub_a[i]
    fresh = iter(letters[a.rank:])
    sub_b = "".join(s or next(fresh) for s in sub_b)
    output = "".join(sub_a[i] for i in range(a.rank) if i not in da) + \
        "".join(sub_b[j] for j in range(b.rank) if j not in db)
    return einsum(ctx, "%s,%s->%s" % (sub_a, sub_b, output), a, b)


def einsum(ctx, equation, *operands):
    """torch.einsum of one or two operands with an explicit output: a
    permute for one; for two, each operand permuted to [batch, free,
    contracted] (A) and [batch, contracted, free] (B), reshaped to one
    batched matmul, and the product reshaped and permuted to the output's
    subscripts. Subscripts in one operand alone must be in the output (no
    sums over them), and sizes must match (no broadcasting)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    operands = [_float(ctx, x) for x in operands]
    inputs, out = _einsum_parts(equation, [x.rank for x in operands])
    if len(operands) == 1:
        (sub,), (x,) = inputs, operands
        if sorted(sub) != sorted(out):
            raise UnsupportedOperation(
                "expects a one-operand einsum to permute its dims, but got "
                "'%s'" % equation)
        return ctx.w.transpose(x, [sub.index(c) for c in out], ctx.loc)
    if len(operands) != 2:
        raise UnsupportedOperation("expects an einsum of one or two "
                                   "operands, but got %d" % len(operands))
    (sa, sb), (a, b) = inputs, operands
    size = {}
    for sub, x in ((sa, a), (sb, b)):
        for c, n in zip(sub, x.shape):
            if size.setdefault(c, n) != n:
                raise UnsupportedOperation(
                    "expects subscript '%s' to have one size, but got %d "
                    "and %d (no broadcasting)" % (c, size[c], n))
    for c in set(sa) ^ set(sb):
        if c not in out:
            raise UnsupportedOperation(
                "expects every subscript of one operand alone in the output "
                "(no sum over it), but '%s' is not in '%s'" % (c, out))
    batch = [c for c in out if c in sa and c in sb]
    left = [c for c in out if c in sa and c not in sb]
    right = [c for c in out if c in sb and c not in sa]
    summed = [c for c in sa if c in sb and c not in out]
    if len(batch) + len(left) + len(right) != len(out):
        raise UnsupportedOperation("expects every output subscript in an "
                                   "operand, but got '%s'" % equation)

    def count(cs):
        return math.prod(size[c] for c in cs)

    def arrange(x, sub, order, shape):
        if list(sub) != order:
            x = ctx.w.transpose(x, [sub.index(c) for c in order], ctx.loc)
        return ctx.w.reshape(x, shape, ctx.loc)
    a3 = arrange(a, sa, batch + left + summed,
                 (count(batch), count(left), count(summed)))
    b3 = arrange(b, sb, batch + summed + right,
                 (count(batch), count(summed), count(right)))
    product = ctx.w.contraction("tcp.batch_matmul", a3, b3, ctx.loc)
    natural = batch + left + right
    product = ctx.w.reshape(product, [size[c] for c in natural], ctx.loc)
    if natural != list(out):
        product = ctx.w.transpose(product, [natural.index(c) for c in out],
                                  ctx.loc)
    return product


def expand(ctx, input, *sizes, **kwargs):
    return ctx.w.broadcast_to(input, _result_shape(ctx), ctx.loc)


def cat(ctx, tensors, dim=0):
    out = ctx.result
    values = [ctx.w.cast(v, out.dtype, ctx.loc) for v in tensors
              if v.shape != (0,)]
    if len(values) == 1:
        return values[0]
    return ctx.w.concat(values, _dim(dim, len(out.shape)), ctx.loc)


def stack(ctx, tensors, dim=0):
    """Each tensor with a 1 inserted at `dim`, concatenated there."""
    out = ctx.result
    axis = _dim(dim, len(out.shape))
    values = [ctx.w.reshape(ctx.w.cast(v, out.dtype, ctx.loc),
                            v.shape[:axis] + (1,) + v.shape[axis:], ctx.loc)
              for v in tensors]
    if len(values) == 1:
        return values[0]
    return ctx.w.concat(values, axis, ctx.loc)


def repeat(ctx, input, *sizes):
    """Tensor.repeat: each dim d of size n tiled r times, as a broadcast of
    [.., 1, n, ..] to [.., r, n, ..] merged into r * n (extra leading
    sizes add dims)."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    sizes = tuple(int(r) for r in sizes)
    if len(sizes) < input.rank:
        raise UnsupportedOperation("expects at least as many repeats as "
                                   "dims (%d), but got %d"
                                   % (input.rank, len(sizes)))
    shape = (1,) * (len(sizes) - input.rank) + tuple(input.shape)
    x = ctx.w.reshape(input, shape, ctx.loc)
    split = []
    tiled = []
    for r, n in zip(sizes, shape):
        split += [1, n]
        tiled += [r, n]
    x = ctx.w.broadcast_to(ctx.w.reshape(x, split, ctx.loc), tiled, ctx.loc)
    return ctx.w.reshape(x, _result_shape(ctx), ctx.loc)


def _windows(ctx, x, dim, size, step, dilation=1):
    """The `n` windows of `size` elements, `step` apart, along `dim`
    (elements `dilation` apart in a window), as a new last dim:
    [.., n, .., size]. One strided tcp.slice per window offset, then a
    concat along the new dim (sizes are static)."""
    length = x.shape[dim]
    count = (length - dilation * (size - 1) - 1) // step + 1
    if count < 1:
        raise UnsupportedOperation(
            "expects windows of %d elements (dilation %d) to fit in %d, but "
            "they do not" % (size, dilation, length))
    pieces = []
    for offset in range(size):
        starts = [0] * x.rank
        starts[dim] = offset * dilation
        sizes = list(x.shape)
        sizes[dim] = count
        steps = [1] * x.rank
        steps[dim] = step
        piece = ctx.w.slice(x, starts, sizes, steps, ctx.loc)
        pieces.append(ctx.w.reshape(piece, tuple(sizes) + (1,), ctx.loc))
    return (pieces[0] if len(pieces) == 1 else
            ctx.w.concat(pieces, x.rank, ctx.loc))


def tensor_unfold(ctx, input, dimension, size, step):
    """Tensor.unfold (HaloNet's blocks): the sliding windows along a dim as
    a new last dim."""
    return _windows(ctx, input, _dim(dimension, input.rank), int(size),
                    int(step))


def unfold_patches(ctx, input, kernel_size, dilation=1, padding=0,
                   stride=1):
    """nn.Unfold / F.unfold (im2col; TNT, VOLO) on [N, C, H, W]: the input
    zero-padded, its windows along H then W, ordered [N, C, kh, kw, oh, ow]
    and merged to [N, C * kh * kw, oh * ow]."""
    if input.rank != 4:
        raise UnsupportedOperation("expects F.unfold of [N, C, H, W], but "
                                   "got %s" % list(input.shape))
    (kh, kw), (dh, dw) = _pair(kernel_size), _pair(dilation)
    (ph, pw), (sh, sw) = _pair(padding), _pair(stride)
    x = pad(ctx, input, [pw, pw, ph, ph]) if ph or pw else input
    x = _windows(ctx, x, 2, kh, sh, dilation=dh)  # [N, C, oh, W, kh]
    x = _windows(ctx, x, 3, kw, sw, dilation=dw)  # [N, C, oh, ow, kh, kw]
    x = ctx.w.transpose(x, [0, 1, 4, 5, 2, 3], ctx.loc)
    return ctx.w.reshape(x, _result_shape(ctx), ctx.loc)


def tile(ctx, input, dims):
    """torch.tile: Tensor.repeat with the repeats left-padded with ones to
    the input's rank."""
    dims = tuple(dims)
    return repeat(ctx, input, (1,) * (input.rank - len(dims)) + dims)


def repeat_interleave(ctx, input, repeats, dim=None, *, output_size=None):
    """torch.repeat_interleave with a number of repeats: each element along
    `dim` (the flattened tensor without one) repeated in place, as a
    broadcast of [.., n, 1, ..] to [.., n, r, ..] merged into n * r. A
    tensor of repeats (data-dependent sizes) is refused."""
    if isinstance(repeats, Value) or not isinstance(repeats, int):
        raise UnsupportedOperation("expects repeat_interleave with a number "
                                   "of repeats, not a tensor of them")
    x = input
    if dim is None:
        x = ctx.w.reshape(x, (math.prod(x.shape),), ctx.loc)
        dim = 0
    d = _dim(dim, x.rank)
    spread = x.shape[:d + 1] + (1,) + x.shape[d + 1:]
    wide = x.shape[:d + 1] + (repeats,) + x.shape[d + 1:]
    x = ctx.w.broadcast_to(ctx.w.reshape(x, spread, ctx.loc), wide, ctx.loc)
    return ctx.w.reshape(x, _result_shape(ctx), ctx.loc)


def roll(ctx, input, shifts, dims=None):
    """torch.roll along given dims: per dim, the last `shift` elements
    (a tcp.slice) concatenated before the rest. Without dims torch rolls
    the flattened tensor, which is not taken."""
    if dims is None or (isinstance(dims, (list, tuple)) and not dims):
        raise UnsupportedOperation("expects torch.roll with dims (a roll of "
                                   "the flattened tensor is not taken)")
    shifts = list(shifts) if isinstance(shifts, (list, tuple)) else [shifts]
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    if len(shifts) != len(dims) or not all(
            isinstance(v, int) for v in shifts + dims):
        raise UnsupportedOperation(
            "expects as many integer shifts as dims, but got shifts %s and "
            "dims %s" % (shifts, dims))
    x = input
    for shift, dim in zip(shifts, dims):
        dim = _dim(dim, x.rank)
        size = x.shape[dim]
        shift = shift % size if size else 0
        if shift == 0:
            continue
        pieces = []
        for start, length in ((size - shift, shift), (0, size - shift)):
            starts = [0] * x.rank
            starts[dim] = start
            sizes = list(x.shape)
            sizes[dim] = length
            pieces.append(ctx.w.slice(x, starts, sizes, [1] * x.rank,
                                      ctx.loc))
        x = ctx.w.concat(pieces, dim, ctx.loc)
    return x


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def _padded_positions(mode, size, before, after):
    """The source position of each output position along a dim of `size`
    padded by (before, after): PyTorch's reflect (the edge not repeated),
    replicate and circular."""
    inner = list(range(size))
    if mode == "reflect":
        return inner[before:0:-1] + inner + inner[-2:-2 - after:-1]
    if mode == "replicate":
        return [0] * before + inner + [size - 1] * after
    return inner[size - before:] + inner + inner[:after]  # circular


def pad(ctx, input, pad, mode="constant", value=None):
    """F.pad (pad lists (before, after) pairs from the last dimension
    backwards). With a constant: blocks of the value concatenated before
    and after each padded dimension. Reflect, replicate and circular: each
    padded dimension read at the source positions PyTorch's modes give,
    one tcp.gather per dimension with the positions as a constant."""
    if mode not in _PAD_MODES:
        raise UnsupportedOperation("expects pad mode %s, but got '%s'" % (
            ", ".join("'%s'" % m for m in _PAD_MODES), mode))
    if isinstance(value, Value) or any(not isinstance(p, int) for p in pad):
        raise UnsupportedOperation("expects pad sizes and value to be numbers")
    if any(p < 0 for p in pad) or len(pad) % 2 or len(pad) // 2 > input.rank:
        raise UnsupportedOperation(
            "expects (before, after) pairs of sizes >= 0 for at most %d "
            "dimensions, but got %s" % (input.rank, list(pad)))
    x = input
    for i in range(len(pad) // 2):
        axis = x.rank - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if mode != "constant":
            size = x.shape[axis]
            limit = size - 1 if mode == "reflect" else size
            if (before or after) and (max(before, after) > limit or
                                      size == 0):
                raise UnsupportedOperation(
                    "expects %s padding of at most %d on a dimension of "
                    "size %d, but got (%d, %d)" % (mode, limit, size, before,
                                                   after))
            if before or after:
                x = _gather_along(ctx, x, _padded_positions(
                    mode, size, before, after), axis)
            continue
        parts = []
        for size in (before, after):
            shape = list(x.shape)
            shape[axis] = size
            parts.append(ctx.w.splat(0.0 if value is None else value, shape,
                                     x.dtype, ctx.loc) if size else None)
        pieces = [v for v in (parts[0], x, parts[1]) if v is not None]
        if len(pieces) > 1:
            x = ctx.w.concat(pieces, axis, ctx.loc)
    return x


def _gather_along(ctx, x, picks, dim):
    """The entries of x along `dim` at `picks` (a 1-D integer Value, or a
    list of positions written as an i64 constant), one tcp.gather: x's
    shape with len(picks) at `dim`."""
    if not isinstance(picks, Value):
        raw = torch.tensor(picks, dtype=torch.int64)
        picks = ctx.w.literal(tensor_bytes(raw), raw.shape, "i64", ctx.loc)
    count = picks.shape[0]
    spread = (1,) * dim + (count,) + (1,) * (x.rank - dim - 1)
    picks = ctx.w.reshape(picks, spread, ctx.loc)
    picks = ctx.w.broadcast_to(
        picks, x.shape[:dim] + (count,) + x.shape[dim + 1:], ctx.loc)
    return ctx.w.gather(x, picks, dim, ctx.loc)


def _index_along(ctx, x, indices, dim, wrap_negative):
    """x[:, ..., indices] for an integer tensor at `dim` (full slices
    before and after it): the entries of x along `dim` the indices pick,
    as embedding picks rows (MaxViT's relative position bias at dim 0,
    LeViT's attention biases at dim 1), by one tcp.gather. With
    `wrap_negative` a negative index counts from the end, as PyTorch's
    indexing has it (torch.export records x[..., [-2], :] as
    aten.index.Tensor with the list as a constant tensor); an index out of
    range fails tcp.gather's device-side assertion, as PyTorch asserts."""
    flat = ctx.w.reshape(indices, (math.prod(indices.shape),), ctx.loc)
    if wrap_negative:
        zero = ctx.w.scalar_like(0, flat, ctx.loc)
        wrapped = ctx.w.binary("tcp.add", flat, ctx.w.scalar_like(
            x.shape[dim], flat, ctx.loc), ctx.loc)
        flat = ctx.w.select(ctx.w.compare("lt", flat, zero, ctx.loc),
                            wrapped, flat, ctx.loc)
    return ctx.w.reshape(_gather_along(ctx, x, flat, dim),
                         _result_shape(ctx), ctx.loc)


def _integer_tensor_index(index):
    """(dim, indices) when `index` is one integer tensor among full slices
    (`x[idx]`, `x[:, idx]`, `x[:, idx, :]`), else None."""
    tensors = [d for d, i in enumerate(index) if isinstance(i, Value)]
    if len(tensors) != 1 or index[tensors[0]].dtype in FLOAT_TYPES + ("i1",):
        return None
    full = slice(None)
    if any(i != full for d, i in enumerate(index) if d != tensors[0]):
        return None
    return tensors[0], index[tensors[0]]


def _list_index(x, index):
    """(dim, positions) when `index` holds one list of ints and otherwise
    only slices and an Ellipsis (every dim kept), else None."""
    lists = [k for k, i in enumerate(index) if isinstance(i, list)]
    if len(lists) != 1 or not all(
            isinstance(p, int) and not isinstance(p, bool)
            for p in index[lists[0]]) or not all(
            isinstance(i, (slice, list)) or i is Ellipsis for i in index):
        return None
    k = lists[0]
    if Ellipsis in index[:k]:  # it stands for rank - (len - 1) dims
        k += x.rank - len(index)
    return k, list(index[lists[0]])


def getitem(ctx, obj, index):
    if not isinstance(obj, Value):
        return obj[index]
    return _tensor_index(ctx, obj, index)


def _tensor_index(ctx, x, index):
    """Basic indexing (ints, slices with a positive step, None, ...) as one
    tcp.slice and a reshape to the recorded shape."""
    index = index if isinstance(index, tuple) else (index,)
    along = _integer_tensor_index(index)
    if along is not None:
        return _index_along(ctx, x, along[1], along[0], wrap_negative=True)
    picked = _list_index(x, index)
    if picked is not None:  # x[..., [-2], :] (Falcon's multi-query k, v)
        dim, positions = picked
        rest = tuple(slice(None) if isinstance(i, list) else i for i in index)
        starts, sizes, strides, _ = basic_box(x.shape, rest)
        if sizes != list(x.shape):
            x = ctx.w.slice(x, starts, sizes, strides, ctx.loc)
        size = x.shape[dim]
        if any(not -size <= p < size for p in positions):
            raise UnsupportedOperation("expects list indices within %d, but "
                                       "got %s" % (size, positions))
        return ctx.w.reshape(_gather_along(
            ctx, x, [p % size for p in positions], dim),
            _result_shape(ctx), ctx.loc)
    if any(isinstance(i, Value) or isinstance(i, (list, torch.Tensor))
           for i in index):
        raise UnsupportedOperation("expects basic indexing (ints, slices, "
                                   "None, ...) or one integer tensor among "
                                   "full slices, but got a tensor or list "
                                   "index among others")
    starts, sizes, strides, _ = basic_box(x.shape, index)
    sliced = x
    if sizes != list(x.shape):
        sliced = ctx.w.slice(x, starts, sizes, strides, ctx.loc)
    return ctx.w.reshape(sliced, _result_shape(ctx), ctx.loc)


def slice_index(shape, dim, start=None, end=None, step=1):
    """The basic index x[..., start:end:step, ...] (at `dim`) takes of x."""
    index = [slice(None)] * len(shape)
    index[_dim(dim, len(shape))] = slice(start, end, step)
    return tuple(index)


def narrow_index(shape, dim, start, length):
    """The basic index narrow(x, dim, start, length) takes of x."""
    dim = _dim(dim, len(shape))
    start = int(start) + (shape[dim] if int(start) < 0 else 0)
    return slice_index(shape, dim, start, start + int(length))


def select_index(shape, dim, index):
    """The basic index select(x, dim, index) takes of x."""
    where = [slice(None)] * len(shape)
    where[_dim(dim, len(shape))] = int(index)
    return tuple(where)


def narrow(ctx, input, dim, start, length):
    return _tensor_index(ctx, input,
                         narrow_index(input.shape, dim, start, length))


def select(ctx, input, dim, index):
    return _tensor_index(ctx, input, select_index(input.shape, dim, index))


def setitem(ctx, obj, index, value):
    """`obj[index] = value`: the new value of `obj` (the importer rebinds
    it, and writes it back through the views `obj` is taken from)."""
    if isinstance(index, Value) or (isinstance(index, tuple) and any(
            isinstance(i, Value) for i in index)):
        raise UnsupportedOperation("expects basic indexing (ints, slices, "
                                   "None, ...) to assign to, but got a "
                                   "tensor index")
    return write_box(ctx.w, obj, index, value, ctx.loc)


def fill_(ctx, input, value):
    if isinstance(value, Value):
        return _operand(ctx, value, input.shape, input.dtype)
    return ctx.w.splat(float(value), input.shape, input.dtype, ctx.loc)


def zero_(ctx, input):
    return fill_(ctx, input, 0.0)


# -- reductions ----------------------------------------------------------------


def _axes(dim, rank):
    """The dimensions a reduction's `dim` names: every one for None or ()."""
    if dim is None or (isinstance(dim, (tuple, list)) and not dim):
        return list(range(rank))
    return [_dim(d, rank) for d in (
        dim if isinstance(dim, (tuple, list)) else [dim])]


def _reduction(op):
    def lower(ctx, input, dim=None, keepdim=False, *, dtype=None):
        axes = _axes(dim, input.rank)
        x = ctx.w.cast(input, ctx.result.dtype, ctx.loc)
        if input.rank == 0:
            return x
        return ctx.w.reduce(op, x, axes, keepdim, ctx.loc)
    return lower


mean = _reduction("tcp.reduce_mean")
sum_ = _reduction("tcp.reduce_sum")
amax = _reduction("tcp.reduce_max")
amin = _reduction("tcp.reduce_min")


# torch.max(x, dim)'s result: `.values`, `.indices`, or [0], [1].
_ValuesIndices = collections.namedtuple("_ValuesIndices", "values indices")


def _max_or_min(reduce, elementwise, name):
    def lower(ctx, input, dim=None, keepdim=False):
        """torch.max / torch.min over everything (a 0-d result) or over a
        dim (VOLO's `x.max(1)[0]`): the values as `amax`/`amin` computes
        them; the indices are not computed (a node that reads them is
        refused). With a second tensor, the elementwise torch.maximum /
        minimum."""
        if isinstance(dim, Value):
            return elementwise(ctx, input, dim)
        if dim is None:
            return reduce(ctx, input)
        from .aten_lowerings import Unavailable, _FirstResult
        # The recorded result is (values, indices).
        return _ValuesIndices(reduce(_FirstResult(ctx), input, dim, keepdim),
                              Unavailable("the indices of torch.%s" % name))
    return lower


max_ = _max_or_min(amax, logic_lowerings.maximum, "max")
min_ = _max_or_min(amin, logic_lowerings.minimum, "min")


def _correction(correction, unbiased):
    """The count a variance's sum of squares is divided by is n minus this:
    torch's `correction`, or its older `unbiased` (True: 1)."""
    if correction is not None:
        if isinstance(correction, Value):
            raise UnsupportedOperation("expects the variance's correction to "
                                       "be a number, but got a tensor")
        return float(correction)
    return 1.0 if unbiased in (None, True) else 0.0


def _var_and_mean(ctx, input, dim, unbiased, keepdim, correction):
    """(variance, mean) over `dim`: the mean of squared deviations from the
    mean, rescaled by n / (n - correction)."""
    x = _float(ctx, input)
    if isinstance(dim, bool):  # torch.var(x, False): the old `unbiased`
        dim, unbiased = None, dim
    axes = _axes(dim, x.rank)
    count = 1
    for axis in axes:
        count *= x.shape[axis] if x.rank else 1
    c = _correction(correction, unbiased)
    if count - c <= 0:
        raise UnsupportedOperation(
            "expects a variance over more elements (%d) than its correction "
            "(%g); PyTorch gives inf or nan there" % (count, c))
    if x.rank == 0:
        zero = ctx.w.scalar_like(0.0, x, ctx.loc)
        return zero, x
    mean_kept = ctx.w.reduce("tcp.reduce_mean", x, axes, True, ctx.loc)
    deviation = ctx.w.binary("tcp.sub", x, ctx.w.broadcast_to(
        mean_kept, x.shape, ctx.loc), ctx.loc)
    squares = ctx.w.binary("tcp.mul", deviation, deviation, ctx.loc)
    var = ctx.w.reduce("tcp.reduce_mean", squares, axes, keepdim, ctx.loc)
    if c:
        var = ctx.w.binary("tcp.mul", var, ctx.w.scalar_like(
            count / (count - c), var, ctx.loc), ctx.loc)
    mean = mean_kept if keepdim else ctx.w.reduce(
        "tcp.reduce_mean", x, axes, False, ctx.loc)
    return var, mean


def var(ctx, input, dim=None, unbiased=None, keepdim=False, *,
        correction=None):
    """torch.var / Tensor.var (timm's EvoNorm, FilterResponseNorm)."""
    return _var_and_mean(ctx, input, dim, unbiased, keepdim, correction)[0]


def std(ctx, input, dim=None, unbiased=None, keepdim=False, *,
        correction=None):
    return sqrt(ctx, var(ctx, input, dim, unbiased, keepdim,
                         correction=correction))


def var_mean(ctx, input, dim=None, unbiased=None, keepdim=False, *,
             correction=None):
    return _var_and_mean(ctx, input, dim, unbiased, keepdim, correction)


def std_mean(ctx, input, dim=None, unbiased=None, keepdim=False, *,
             correction=None):
    v, m = _var_and_mean(ctx, input, dim, unbiased, keepdim, correction)
    return sqrt(ctx, v), m


def cumsum(ctx, input, dim, *, dtype=None, out=None):
    """torch.cumsum as a masked sum: out[.., i, ..] = sum of x[.., j, ..]
    over j <= i, computed as `x` broadcast along a new dim of output
    positions i, the terms with j > i replaced by 0 (a select by a
    lower-triangle boolean literal) and summed over j. n^2 terms per row:
    meant for the short rows models take it over (position ids, masks);
    rows past 4096 are refused."""
    axis = _dim(dim, input.rank) if input.rank else 0
    x = ctx.w.cast(input, ctx.result.dtype, ctx.loc)
    if input.rank == 0:
        return x
    n = x.shape[axis]
    if n * n > _MAX_CAUSAL_MASK_ELEMENTS:
        raise UnsupportedOperation(
            "expects a cumsum over at most %d elements (it sums n^2 masked "
            "terms), but got %d" % (int(math.isqrt(_MAX_CAUSAL_MASK_ELEMENTS)),
                                    n))
    before, after = x.shape[:axis], x.shape[axis + 1:]
    terms_shape = (*before, n, n, *after)  # [.., i, j, ..]
    terms = ctx.w.broadcast_to(
        ctx.w.reshape(x, (*before, 1, n, *after), ctx.loc), terms_shape,
        ctx.loc)
    keep = _triangle_literal(ctx, n, n)  # j <= i
    keep = ctx.w.broadcast_to(
        ctx.w.reshape(keep, (*(1,) * len(before), n, n, *(1,) * len(after)),
                      ctx.loc), terms_shape, ctx.loc)
    kept = ctx.w.select(keep, terms, ctx.w.scalar_like(0, terms, ctx.loc),
                        ctx.loc)
    return ctx.w.reduce("tcp.reduce_sum", kept, [axis + 1], False, ctx.loc)


def _vector_norm(ctx, x, p, axes):
    """The p-norm of `x` over `axes` (kept as size 1), for p 1 or 2, summed
    in f32 as PyTorch accumulates it."""
    wide = ctx.w.cast(_float(ctx, x), "f32", ctx.loc)
    if p == 2:
        terms = ctx.w.binary("tcp.mul", wide, wide, ctx.loc)
    elif p == 1:
        terms = ctx.w.unary("tcp.abs", wide, loc=ctx.loc)
    else:
        raise UnsupportedOperation("expects the 1- or 2-norm, but got p=%s"
                                   % p)
    total = ctx.w.reduce("tcp.reduce_sum", terms, axes, True, ctx.loc)
    return ctx.w.unary("tcp.sqrt", total, loc=ctx.loc) if p == 2 else total


def vector_norm(ctx, input, ord=2, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.vector_norm (and Tensor.norm, torch.norm) for the 1- and
    2-norm."""
    norm = ctx.w.cast(_vector_norm(ctx, input, ord, _axes(dim, input.rank)),
                      ctx.result.dtype, ctx.loc)
    return ctx.w.reshape(norm, _result_shape(ctx), ctx.loc)


def norm(ctx, input, p="fro", dim=None, keepdim=False, dtype=None):
    return vector_norm(ctx, input, 2 if p == "fro" else p, dim, keepdim)


def normalize(ctx, input, p=2.0, dim=1, eps=1e-12, out=None):
    """x / max(||x||_p over dim, eps), as F.normalize."""
    norm = ctx.w.clamp(_vector_norm(ctx, input, p, _axes(dim, input.rank)),
                       eps, None, ctx.loc)
    norm = ctx.w.broadcast_to(ctx.w.cast(norm, input.dtype, ctx.loc),
                              input.shape, ctx.loc)
    return ctx.w.binary("tcp.divf", input, norm, ctx.loc)


def _softmax_parts(ctx, input, dim, dtype):
    x = ctx.w.cast(_float(ctx, input), ctx.result.dtype, ctx.loc)
    axis = _dim(dim, x.rank)
    peak = ctx.w.reduce("tcp.reduce_max", x, [axis], True, ctx.loc)
    shifted = ctx.w.binary("tcp.sub", x,
                           ctx.w.broadcast_to(peak, x.shape, ctx.loc), ctx.loc)
    e = ctx.w.unary("tcp.exp", shifted, loc=ctx.loc)
    total = ctx.w.reduce("tcp.reduce_sum", e, [axis], True, ctx.loc)
    return shifted, e, ctx.w.broadcast_to(total, x.shape, ctx.loc)


def softmax(ctx, input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise UnsupportedOperation("expects softmax to name its dim")
    _, e, total = _softmax_parts(ctx, input, dim, dtype)
    return ctx.w.binary("tcp.divf", e, total, ctx.loc)


def log_softmax(ctx, input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise UnsupportedOperation("expects log_softmax to name its dim")
    shifted, _, total = _softmax_parts(ctx, input, dim, dtype)
    return ctx.w.binary("tcp.sub", shifted,
                        ctx.w.unary("tcp.log", total, loc=ctx.loc), ctx.loc)


# -- contractions --------------------------------------------------------------


def matmul(ctx, input, other):
    a, b = _float(ctx, input), _float(ctx, other)
    if a.dtype != b.dtype:
        # PyTorch refuses it too ("expected m1 and m2 to have the same
        # dtype"); fake tensors let it through (Hugging Face CANINE in f16,
        # whose attention mask is f32).
        raise UnsupportedOperation(
            "expects matmul operands of one type, as PyTorch's matmul does, "
            "but got %s and %s" % (a.dtype, b.dtype))
    return _matmul(ctx, a, b, _result_shape(ctx))


def _matmul(ctx, a, b, out):
    """torch.matmul of `a` and `b` (broadcasting batch dims) into `out`."""
    if a.rank == 1:
        a = ctx.w.reshape(a, (1,) + a.shape, ctx.loc)
    if b.rank == 1:
        b = ctx.w.reshape(b, b.shape + (1,), ctx.loc)
    if a.rank == 2 and b.rank == 2:
        return ctx.w.reshape(ctx.w.contraction("tcp.matmul", a, b, ctx.loc),
                             out, ctx.loc)
    if b.rank == 2:
        # [..., M, K] x [K, N]: one matmul over all rows.
        rows = ctx.w.reshape(a, (math.prod(a.shape[:-1]), a.shape[-1]),
                             ctx.loc)
        return ctx.w.reshape(ctx.w.contraction("tcp.matmul", rows, b,
                                               ctx.loc), out, ctx.loc)
    # Batch dims broadcast, then merged into one: cuDNN's matmul takes
    # [B, M, K] x [B, K, N] (a rank-4 one has no engine on the H100).
    batch = tuple(torch.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    merged = (math.prod(batch),)
    a = ctx.w.reshape(ctx.w.broadcast_to(a, batch + a.shape[-2:], ctx.loc),
                      merged + a.shape[-2:], ctx.loc)
    b = ctx.w.reshape(ctx.w.broadcast_to(b, batch + b.shape[-2:], ctx.loc),
                      merged + b.shape[-2:], ctx.loc)
    return ctx.w.reshape(ctx.w.contraction("tcp.batch_matmul", a, b, ctx.loc),
                         out, ctx.loc)


# A causal mask is a constant of L x S booleans (bit-packed in the IR).
_MAX_CAUSAL_MASK_ELEMENTS = 1 << 24


def _repeat_heads(ctx, x, groups):
    """x (..., H, S, D) with each head repeated `groups` times in place
    (repeat_interleave along dim -3, as enable_gqa does for k and v)."""
    if groups == 1:
        return x
    *batch, heads, s, d = x.shape
    grouped = ctx.w.reshape(x, (*batch, heads, 1, s, d), ctx.loc)
    grouped = ctx.w.broadcast_to(grouped, (*batch, heads, groups, s, d),
                                 ctx.loc)
    return ctx.w.reshape(grouped, (*batch, heads * groups, s, d), ctx.loc)


def _triangle_literal(ctx, rows, cols, lower=True, diagonal=0,
                      what="a triangle"):
    """The bit-packed i1 [rows, cols] literal that is true on and below
    (`lower`) or on and above the `diagonal`: the causal mask, cumsum's
    terms, tril/triu. Refused past _MAX_CAUSAL_MASK_ELEMENTS, naming
    `what`."""
    if rows * cols > _MAX_CAUSAL_MASK_ELEMENTS:
        raise UnsupportedOperation(
            "expects %s of at most %d elements, but got %d x %d"
            % (what, _MAX_CAUSAL_MASK_ELEMENTS, rows, cols))
    ones = torch.ones(rows, cols, dtype=torch.bool)
    keep = ones.tril(diagonal) if lower else ones.triu(diagonal)
    return ctx.w.literal(tensor_bytes(keep), (rows, cols), "i1", ctx.loc)


def _attention_mask(ctx, attn_mask, is_causal, scores):
    """The additive mask on the scores, or None: a float attn_mask as it
    is; a boolean one (True: attend) and is_causal (the lower triangle,
    top-left aligned) as 0 where attending and -inf elsewhere."""
    if is_causal and attn_mask is not None:
        raise UnsupportedOperation("expects attn_mask or is_causal, not both "
                                   "(PyTorch refuses both too)")
    if is_causal:
        attn_mask = _triangle_literal(ctx, *scores.shape[-2:],
                                      what="a causal mask")
    if attn_mask is None:
        return None
    if not isinstance(attn_mask, Value):
        raise UnsupportedOperation("expects attn_mask to be a tensor, but got "
                                   "%s" % type(attn_mask).__name__)
    if attn_mask.dtype == "i1":
        keep = ctx.w.broadcast_to(attn_mask, scores.shape, ctx.loc)
        return ctx.w.select(keep, ctx.w.scalar_like(0.0, scores, ctx.loc),
                            ctx.w.scalar_like(float("-inf"), scores, ctx.loc),
                            ctx.loc)
    if attn_mask.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects a boolean or float attn_mask, but "
                                   "got %s" % attn_mask.type)
    return ctx.w.broadcast_to(ctx.w.cast(attn_mask, scores.dtype, ctx.loc),
                              scores.shape, ctx.loc)


def additive_mask(ctx, mask, like):
    """attention_modules.additive_mask: a boolean mask (True: do not
    attend) as -inf there and 0 elsewhere, a float one cast, in `like`'s
    type."""
    out = ctx.result
    if mask.dtype == "i1":
        shaped = Value("", tuple(mask.shape), out.dtype)
        return ctx.w.select(mask, ctx.w.scalar_like(float("-inf"), shaped,
                                                    ctx.loc),
                            ctx.w.scalar_like(0.0, shaped, ctx.loc), ctx.loc)
    if mask.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects a boolean or float attention "
                                   "mask, but got %s" % mask.type)
    return ctx.w.cast(mask, out.dtype, ctx.loc)


def scaled_dot_product_attention(ctx, query, key, value, attn_mask=None,
                                 dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(q @ k^T * scale + mask) @ v, as PyTorch's math reference
    defines it: two matmuls and a softmax over the last dimension. A mask
    is a float one to add, a boolean one (True: attend) or is_causal;
    enable_gqa repeats each key/value head for its group of query heads.
    Dropout is refused."""
    if dropout_p:
        raise UnsupportedOperation("expects scaled_dot_product_attention "
                                   "without dropout, but got dropout_p=%s"
                                   % dropout_p)
    q, k, v = (_float(ctx, t) for t in (query, key, value))
    if min(q.rank, k.rank, v.rank) < 2:
        raise UnsupportedOperation("expects query, key and value of rank 2 "
                                   "or more")
    if enable_gqa and min(q.rank, k.rank, v.rank) >= 3 and \
            q.shape[-3] != k.shape[-3]:
        if q.shape[-3] % k.shape[-3] or k.shape[-3] != v.shape[-3]:
            raise UnsupportedOperation(
                "expects the query heads (%d) to be a multiple of the "
                "key/value heads (%d, %d) with enable_gqa"
                % (q.shape[-3], k.shape[-3], v.shape[-3]))
        groups = q.shape[-3] // k.shape[-3]
        k, v = _repeat_heads(ctx, k, groups), _repeat_heads(ctx, v, groups)
    transposed = list(range(k.rank))
    transposed[-2], transposed[-1] = transposed[-1], transposed[-2]
    k_t = ctx.w.transpose(k, transposed, ctx.loc)
    batch = tuple(torch.broadcast_shapes(q.shape[:-2], k.shape[:-2]))
    scores_shape = batch + (q.shape[-2], k.shape[-2])
    scores = _matmul(ctx, q, k_t, scores_shape)
    factor = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    scores = ctx.w.binary("tcp.mul", scores,
                          ctx.w.scalar_like(float(factor), scores, ctx.loc),
                          ctx.loc)
    mask = _attention_mask(ctx, attn_mask, is_causal, scores)
    if mask is not None:
        scores = ctx.w.binary("tcp.add", scores, mask, ctx.loc)
    _, e, total = _softmax_parts(ctx, scores, -1, None)
    weights = ctx.w.binary("tcp.divf", e, total, ctx.loc)
    return _matmul(ctx, weights, v, _result_shape(ctx))


def linear(ctx, input, weight, bias=None):
    x = _float(ctx, input)
    rows = ctx.w.reshape(x, (math.prod(x.shape[:-1]), x.shape[-1]), ctx.loc)
    y = ctx.w.contraction("tcp.matmul", rows,
                          ctx.w.transpose(weight, [1, 0], ctx.loc), ctx.loc)
    if bias is not None:
        y = ctx.w.binary("tcp.add", y, ctx.w.broadcast_to(bias, y.shape,
                                                           ctx.loc), ctx.loc)
    return ctx.w.reshape(y, _result_shape(ctx), ctx.loc)


def embedding(ctx, input, weight, padding_idx=None, max_norm=None,
              norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    """Rows of `weight` ([num, dim]) picked by the integer `input`: one
    tcp.gather along dim 0 of the indices flattened and broadcast over the
    row, then the result's shape. `padding_idx`, `scale_grad_by_freq` and
    `sparse` only change gradients; `max_norm` renormalises the weight in
    place and is refused. An index outside [0, num) fails tcp.gather's
    device-side assertion, as PyTorch's embedding asserts."""
    if max_norm is not None:
        raise UnsupportedOperation("expects an embedding without max_norm "
                                   "(it renormalises the weight in place), "
                                   "but got max_norm = %s" % max_norm)
    if weight.rank != 2:
        raise UnsupportedOperation("expects a 2-D embedding weight, but got "
                                   "%s" % weight.type)
    if input.dtype in FLOAT_TYPES:
        raise UnsupportedOperation("expects integer embedding indices, but "
                                   "got %s" % input.type)
    return ctx.w.reshape(_embedding_rows(ctx, input, weight),
                         _result_shape(ctx), ctx.loc)


def _embedding_rows(ctx, input, weight):
    """[indices, dim]: the weight's rows at the flattened indices, one
    tcp.gather along dim 0."""
    count = math.prod(input.shape)
    rows = ctx.w.reshape(input, (count, 1), ctx.loc)
    rows = ctx.w.broadcast_to(rows, (count, weight.shape[1]), ctx.loc)
    return ctx.w.gather(weight, rows, 0, ctx.loc)


def embedding_bag(ctx, input, weight, offsets=None, max_norm=None,
                  norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """F.embedding_bag / nn.EmbeddingBag of a 2-D input (each row one bag
    of equal size): the rows gathered ([B, L, D]), weighted by
    per_sample_weights (mode "sum"), padding_idx entries left out, and
    summed, averaged (over the entries kept) or maxed over L. A 1-D input
    with offsets (bags of sizes known only at run time) is refused."""
    if offsets is not None or input.rank != 2:
        raise UnsupportedOperation(
            "expects embedding_bag of a 2-D input (equal bags, no offsets), "
            "but got a %d-D input%s" % (input.rank, " with offsets"
                                        if offsets is not None else ""))
    if mode not in ("sum", "mean", "max"):
        raise UnsupportedOperation("expects embedding_bag mode 'sum', 'mean' "
                                   "or 'max', but got '%s'" % mode)
    if max_norm is not None:
        raise UnsupportedOperation("expects an embedding_bag without "
                                   "max_norm (it renormalises the weight in "
                                   "place)")
    bags, length = input.shape
    full = (bags, length, weight.shape[1])
    w, loc = ctx.w, ctx.loc
    rows = w.reshape(_embedding_rows(ctx, input, weight), full, loc)
    keep = None
    if padding_idx is not None:
        ids = w.broadcast_to(w.reshape(input, (bags, length, 1), loc), full,
                             loc)
        keep = w.compare("ne", ids, w.scalar_like(int(padding_idx), ids,
                                                  loc), loc)
    if per_sample_weights is not None:
        if mode != "sum":
            raise UnsupportedOperation("expects per_sample_weights only "
                                       "with mode 'sum'")
        scale = w.broadcast_to(w.reshape(w.cast(per_sample_weights,
                                                rows.dtype, loc),
                                         (bags, length, 1), loc), full, loc)
        rows = w.binary("tcp.mul", rows, scale, loc)
    if mode == "max":
        if keep is None:
            return w.reduce("tcp.reduce_max", rows, [1], False, loc)
        # A bag of padding only is 0, as PyTorch's empty bags are.
        peak = w.reduce("tcp.reduce_max", w.select(keep, rows, w.scalar_like(
            float("-inf"), rows, loc), loc), [1], False, loc)
        kept = w.reduce("tcp.reduce_max", w.cast(keep, "i32", loc), [1],
                        False, loc)
        return w.select(w.compare("ne", kept, w.scalar_like(0, kept, loc),
                                  loc), peak, w.scalar_like(0.0, peak, loc),
                        loc)
    if keep is not None:
        rows = w.select(keep, rows, w.scalar_like(0.0, rows, loc), loc)
    total = w.reduce("tcp.reduce_sum", rows, [1], False, loc)
    if mode == "sum":
        return total
    if keep is None:
        count = w.scalar_like(float(length), total, loc)
    else:
        ones = w.select(keep, w.scalar_like(1.0, rows, loc),
                        w.scalar_like(0.0, rows, loc), loc)
        count = w.clamp(w.reduce("tcp.reduce_sum", ones, [1], False, loc),
                        1.0, None, loc)
    return w.binary("tcp.divf", total, count, loc)


def _embedding_module(ctx, m, input):
    return embedding(ctx, input, ctx.parameter("weight"), m.padding_idx,
                     m.max_norm)


def addmm(ctx, input, mat1, mat2, *, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        raise UnsupportedOperation("expects addmm with beta = alpha = 1, but "
                                   "got beta = %s, alpha = %s" % (beta, alpha))
    y = ctx.w.contraction("tcp.matmul", mat1, mat2, ctx.loc)
    return ctx.w.binary("tcp.add", y, ctx.w.broadcast_to(input, y.shape,
                                                          ctx.loc), ctx.loc)


def baddbmm(ctx, input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (batch1 @ batch2): a tcp.batch_matmul, scaled
    where alpha or beta is not 1 (beta = 0 ignores `input`, NaN included,
    as PyTorch does)."""
    y = ctx.w.contraction("tcp.batch_matmul", batch1, batch2, ctx.loc)
    if alpha != 1:
        y = ctx.w.binary("tcp.mul", y, ctx.w.scalar_like(alpha, y, ctx.loc),
                         ctx.loc)
    if beta == 0:
        return y
    base = ctx.w.broadcast_to(ctx.w.cast(input, y.dtype, ctx.loc), y.shape,
                              ctx.loc)
    if beta != 1:
        base = ctx.w.binary("tcp.mul", base,
                            ctx.w.scalar_like(beta, base, ctx.loc), ctx.loc)
    return ctx.w.binary("tcp.add", base, y, ctx.loc)


def _integer_index(index, what):
    if not isinstance(index, Value) or index.dtype in FLOAT_TYPES + ("i1",):
        raise UnsupportedOperation("expects an integer tensor %s, but got %s"
                                   % (what, getattr(index, "type",
                                                    type(index).__name__)))


def index_select(ctx, input, dim, index):
    """torch.index_select: the entries along `dim` a 1-D integer index
    picks, as x[:, index] (one tcp.gather)."""
    _integer_index(index, "index")
    return _index_along(ctx, input, index, _dim(dim, input.rank),
                        wrap_negative=False)


def gather(ctx, input, dim, index, *, sparse_grad=False):
    """torch.gather: out[i][j][k] = input[index[i][j][k]][j][k] (for dim
    0), one tcp.gather; `input` cut to the index's sizes in the other dims
    first (PyTorch allows an index smaller there)."""
    _integer_index(index, "index")
    d = _dim(dim, input.rank)
    if index.rank != input.rank:
        raise UnsupportedOperation("expects a gather index of the input's "
                                   "rank %d, but got %s" % (input.rank,
                                                            index.type))
    sizes = [input.shape[k] if k == d else index.shape[k]
             for k in range(input.rank)]
    if sizes != list(input.shape):
        input = ctx.w.slice(input, [0] * input.rank, sizes,
                            [1] * input.rank, ctx.loc)
    return ctx.w.gather(input, index, d, ctx.loc)


def _triangle(lower):
    def lower_fn(ctx, input, diagonal=0):
        """tril / triu: the entries on the kept side of the diagonal, zero
        elsewhere: a tcp.select by a bit-packed triangle literal over the
        last two dims."""
        mask = ctx.w.broadcast_to(_triangle_literal(
            ctx, *input.shape[-2:], lower, diagonal), input.shape, ctx.loc)
        return ctx.w.select(mask, input, ctx.w.scalar_like(
            False if input.dtype == "i1" else 0, input, ctx.loc), ctx.loc)
    return lower_fn


tril = _triangle(lower=True)
triu = _triangle(lower=False)


# -- convolution, pooling, normalisation ---------------------------------------


def _convolution(ctx, x, weight, bias, stride, padding, dilation, groups,
                 expected_shape):
    """A 2-D or 3-D convolution of the NCHW or NCDHW `x` (+ bias), checked
    against `expected_shape`, the recorded result's shape."""
    spatial = x.rank - 2
    per_dim = _pair if spatial == 2 else _triple
    dilation, stride = per_dim(dilation), per_dim(stride)
    if padding == "valid":
        padding = 0
    if padding == "same":
        pad = []
        for k, d in zip(weight.shape[2:], dilation):
            total = d * (k - 1)
            pad += [total // 2, total - total // 2]
    else:
        pad = [p for p in per_dim(padding) for _ in (0, 1)]
    y = ctx.w.convolution(x, weight, stride, pad, dilation, int(groups),
                          ctx.loc)
    if y.shape != tuple(expected_shape):
        raise UnsupportedOperation("expects the convolution to give %s, but "
                                   "TCP's shape rule gives %s"
                                   % (list(expected_shape), list(y.shape)))
    if bias is not None:
        y = ctx.w.add_channel_bias(y, bias, ctx.loc)
    return y


def _batched(ctx, input, layout):
    """A convolution's float input, of the rank `layout` ("NCHW") says."""
    x = _float(ctx, input)
    if x.rank != len(layout):
        raise UnsupportedOperation("expects a %d-D (batched %s) input, but "
                                   "got %s" % (len(layout), layout, x.type))
    return x


def conv2d(ctx, input, weight, bias=None, stride=1, padding=0, dilation=1,
           groups=1):
    x = _batched(ctx, input, "NCHW")
    return _convolution(ctx, x, weight, bias, stride, padding, dilation,
                        groups, _result_shape(ctx))


def conv3d(ctx, input, weight, bias=None, stride=1, padding=0, dilation=1,
           groups=1):
    """A 3-D convolution (torchvision's video models): tcp.conv3d, which
    cuDNN runs with three spatial dimensions."""
    x = _batched(ctx, input, "NCDHW")
    return _convolution(ctx, x, weight, bias, stride, padding, dilation,
                        groups, _result_shape(ctx))


def _one(v):
    """A 1-D convolution's stride, padding or dilation as one int (or a
    padding string)."""
    if isinstance(v, (tuple, list)):
        return int(v[0])
    return v if isinstance(v, str) else int(v)


def conv1d(ctx, input, weight, bias=None, stride=1, padding=0, dilation=1,
           groups=1):
    """A 2-D convolution over [N, C, 1, L] with a [K, C/g, 1, k] weight."""
    x = _batched(ctx, input, "NCL")
    n, c, length = x.shape
    x4 = ctx.w.reshape(x, (n, c, 1, length), ctx.loc)
    k, cg, taps = weight.shape
    w4 = ctx.w.reshape(weight, (k, cg, 1, taps), ctx.loc)
    padding = _one(padding)
    out = _result_shape(ctx)
    y = _convolution(ctx, x4, w4, bias, (1, _one(stride)),
                     padding if isinstance(padding, str) else (0, padding),
                     (1, _one(dilation)), groups,
                     (out[0], out[1], 1, out[2]))
    return ctx.w.reshape(y, out, ctx.loc)


def _pool_pad(padding):
    ph, pw = _pair(padding)
    return [ph, ph, pw, pw]


def max_pool2d(ctx, input, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode=False, return_indices=False):
    if return_indices:
        # The values only: a node that reads the indices is refused.
        from .aten_lowerings import Unavailable, _FirstResult
        return (max_pool2d(_FirstResult(ctx), input, kernel_size, stride,
                           padding, dilation, ceil_mode),
                Unavailable("max pooling's indices"))
    kernel = _pair(kernel_size)
    stride = _pair(stride) if stride not in (None, [], ()) else kernel
    extra = []
    if _pair(dilation) != (1, 1):
        extra.append("dilation = array<i64: %d, %d>" % _pair(dilation))
    return ctx.w.pool2d("tcp.max_pool2d", _float(ctx, input), kernel, stride,
                        _pool_pad(padding), ceil_mode, extra,
                        _result_shape(ctx), ctx.loc)


def avg_pool2d(ctx, input, kernel_size, stride=None, padding=0,
               ceil_mode=False, count_include_pad=True, divisor_override=None):
    if divisor_override is not None:
        raise UnsupportedOperation("expects avg_pool2d without "
                                   "divisor_override, but got %s"
                                   % divisor_override)
    kernel = _pair(kernel_size)
    stride = _pair(stride) if stride not in (None, [], ()) else kernel
    return ctx.w.pool2d("tcp.avg_pool2d", _float(ctx, input), kernel, stride,
                        _pool_pad(padding), ceil_mode,
                        ["count_include_pad"] if count_include_pad else [],
                        _result_shape(ctx), ctx.loc)


def _pool1d(ctx, op, input, kernel_size, stride, padding, ceil_mode, extra):
    """A 1-D pool over [N, C, L] as the 2-D one over [N, C, 1, L]."""
    x = _float(ctx, input)
    if x.rank != 3:
        raise UnsupportedOperation("expects a 1-D pool over [N, C, L], but "
                                   "got %s" % list(x.shape))
    (kernel,), (pad,) = _single(kernel_size), _single(padding)
    (step,) = _single(stride) if stride not in (None, [], ()) else (kernel,)
    out = tuple(_result_shape(ctx))
    y = ctx.w.pool2d(op, ctx.w.reshape(x, x.shape[:2] + (1,) + x.shape[2:],
                                       ctx.loc),
                     (1, kernel), (1, step), [0, 0, pad, pad], ceil_mode,
                     extra, out[:2] + (1,) + out[2:], ctx.loc)
    return ctx.w.reshape(y, out, ctx.loc)


def avg_pool1d(ctx, input, kernel_size, stride=None, padding=0,
               ceil_mode=False, count_include_pad=True):
    """F.avg_pool1d / nn.AvgPool1d (NextViT): the 2-D pool over a unit
    height."""
    return _pool1d(ctx, "tcp.avg_pool2d", input, kernel_size, stride,
                   padding, ceil_mode,
                   ["count_include_pad"] if count_include_pad else [])


def max_pool1d(ctx, input, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode=False, return_indices=False):
    """F.max_pool1d / nn.MaxPool1d: the 2-D pool over a unit height."""
    if return_indices or _single(dilation) != (1,):
        raise UnsupportedOperation("expects max_pool1d without indices or "
                                   "dilation")
    return _pool1d(ctx, "tcp.max_pool2d", input, kernel_size, stride,
                   padding, ceil_mode, [])


def adaptive_avg_pool2d(ctx, input, output_size):
    """An average pool whose windows tile the input where the output size
    divides it; else PyTorch's overlapping windows of uneven sizes as two
    products with constant averaging matrices (bilinear.py), the way a
    bilinear resize lowers."""
    x = _float(ctx, input)
    h, w = x.shape[-2:]
    oh, ow = _result_shape(ctx)[-2:]
    if h % oh or w % ow:
        return _resize_by_matrices(ctx, x, False, [None, None], "adaptive average")
    kernel = (h // oh, w // ow)
    return ctx.w.pool2d("tcp.avg_pool2d", x, kernel, kernel, [0, 0, 0, 0],
                        False, ["count_include_pad"], _result_shape(ctx),
                        ctx.loc)


def _pool3d(ctx, op, input, kernel_size, stride, padding, ceil_mode,
            extra):
    """A 3-D pool of [N, C, D, H, W] as two 2-D pools, H and W first (over
    [N, C D, H, W]), then D (over [N, C, D, H' W'] with a (kd, 1)
    window): exact for max, and for an average whose every window counts
    its full size (count_include_pad, no ceil-mode remainder)."""
    x = _float(ctx, input)
    if x.rank != 5:
        raise UnsupportedOperation("expects a 3-D pool of [N, C, D, H, W], "
                                   "but got %s" % x.type)
    kernel = _triple(kernel_size)
    stride = _triple(stride) if stride not in (None, [], ()) else kernel
    pad = _triple(padding)
    n, c, d, h, w = x.shape
    od, oh, ow = ctx.result.shape[2:]
    y = x
    if kernel[1:] != (1, 1) or stride[1:] != (1, 1) or pad[1:] != (0, 0):
        y = ctx.w.pool2d(op, ctx.w.reshape(y, (n, c * d, h, w), ctx.loc),
                         kernel[1:], stride[1:],
                         [pad[1], pad[1], pad[2], pad[2]], ceil_mode, extra,
                         (n, c * d, oh, ow), ctx.loc)
    y = ctx.w.reshape(y, (n, c, d, oh * ow), ctx.loc)
    if kernel[0] != 1 or stride[0] != 1 or pad[0] != 0:
        y = ctx.w.pool2d(op, y, (kernel[0], 1), (stride[0], 1),
                         [pad[0], pad[0], 0, 0], ceil_mode, extra,
                         (n, c, od, oh * ow), ctx.loc)
    return ctx.w.reshape(y, ctx.result.shape, ctx.loc)


def adaptive_avg_pool3d(ctx, input, output_size):
    """To an output size dividing the input (the video models' global
    pool): the 3-D average pool whose windows tile the input."""
    x = _float(ctx, input)
    out = tuple(_result_shape(ctx)[2:])
    if x.rank != 5 or any(i % o for i, o in zip(x.shape[2:], out)):
        raise UnsupportedOperation(
            "expects adaptive average pooling of [N, C, D, H, W] to a size "
            "dividing it, but got %s -> %s" % (list(x.shape), list(out)))
    kernel = tuple(i // o for i, o in zip(x.shape[2:], out))
    return _pool3d(ctx, "tcp.avg_pool2d", x, kernel, kernel, 0, False,
                   ["count_include_pad"])


def max_pool3d(ctx, input, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode=False, return_indices=False):
    if return_indices or _triple(dilation) != (1, 1, 1):
        raise UnsupportedOperation("expects max_pool3d without indices or "
                                   "dilation")
    return _pool3d(ctx, "tcp.max_pool2d", input, kernel_size, stride,
                   padding, ceil_mode, [])


def avg_pool3d(ctx, input, kernel_size, stride=None, padding=0,
               ceil_mode=False, count_include_pad=True, divisor_override=None):
    """Separable where every window counts its full size: no padding or
    count_include_pad, and no partial window at the end (ceil mode whose
    output the floor mode gives too)."""
    kernel = _triple(kernel_size)
    stride_ = _triple(stride) if stride not in (None, [], ()) else kernel
    pad = _triple(padding)
    floor_sizes = tuple(
        (size + 2 * p - k) // s + 1 for size, k, s, p in zip(
            input.shape[2:], kernel, stride_, pad))
    if divisor_override is not None or \
            (any(pad) and not count_include_pad) or \
            tuple(ctx.result.shape[2:]) != floor_sizes:
        raise UnsupportedOperation(
            "expects avg_pool3d whose windows all count their full size (no "
            "divisor_override; padding only with count_include_pad; no "
            "ceil-mode remainder)")
    return _pool3d(ctx, "tcp.avg_pool2d", input, kernel, stride_, pad, False,
                   ["count_include_pad"])


def adaptive_max_pool2d(ctx, input, output_size, return_indices=False):
    """nn.AdaptiveMaxPool2d (timm's avg-max global pools, BAT's non-local
    blocks); see _adaptive_max."""
    if return_indices:
        raise UnsupportedOperation("expects adaptive_max_pool2d without "
                                   "return_indices, but got "
                                   "return_indices=True")
    x = _float(ctx, input)
    oh, ow = _result_shape(ctx)[-2:]
    return _adaptive_max(ctx, x, oh, ow)


def adaptive_max_pool1d(ctx, input, output_size, return_indices=False):
    """nn.AdaptiveMaxPool1d on [N, C, L]: the 2-D pool over [N, C, 1, L]."""
    if return_indices or input.rank != 3:
        raise UnsupportedOperation(
            "expects adaptive max pooling of [N, C, L] without "
            "return_indices, but got %s%s" % (
                list(input.shape),
                " with return_indices=True" if return_indices else ""))
    n, c, length = input.shape
    out = _result_shape(ctx)[-1]
    y = _adaptive_max(ctx, ctx.w.reshape(_float(ctx, input),
                                         [n, c, 1, length], ctx.loc), 1, out)
    return ctx.w.reshape(y, [n, c, out], ctx.loc)


def _adaptive_max(ctx, x, oh, ow):
    """The adaptive max pool of [.., H, W] to [.., oh, ow]: a max pool whose
    windows tile the input where the output size divides it; else
    PyTorch's overlapping windows (rows floor(i h / oh) to
    ceil((i + 1) h / oh)), the maximum taken along H and then along W (max
    is separable), one slice and reduce_max per output row and per output
    column, concatenated."""
    h, w = x.shape[-2:]
    if not h % oh and not w % ow:
        kernel = (h // oh, w // ow)
        return ctx.w.pool2d("tcp.max_pool2d", x, kernel, kernel,
                            [0, 0, 0, 0], False, [],
                            list(x.shape[:-2]) + [oh, ow], ctx.loc)
    for axis, out in ((x.rank - 2, oh), (x.rank - 1, ow)):
        size = x.shape[axis]
        if out == size:
            continue
        if out > 64:
            raise UnsupportedOperation(
                "expects adaptive max pooling to at most 64 positions along "
                "a dim its size does not divide, but got %d -> %d"
                % (size, out))
        pieces = []
        for i in range(out):
            start, end = (i * size) // out, -((-(i + 1) * size) // out)
            starts, sizes = [0] * x.rank, list(x.shape)
            starts[axis], sizes[axis] = start, end - start
            window = ctx.w.slice(x, starts, sizes, [1] * x.rank, ctx.loc)
            pieces.append(ctx.w.reduce("tcp.reduce_max", window, [axis],
                                       True, ctx.loc))
        x = ctx.w.concat(pieces, axis, ctx.loc) if len(pieces) > 1 \
            else pieces[0]
    return x


def adaptive_avg_pool1d(ctx, input, output_size):
    """nn.AdaptiveAvgPool1d / torch.adaptive_avg_pool1d (Hugging Face
    Swin's pooler) on [N, C, L]: the 2-D pool over [N, C, 1, L], to an
    output size dividing L."""
    (out,) = _single(output_size)
    if input.rank != 3 or input.shape[2] % out:
        raise UnsupportedOperation(
            "expects adaptive average pooling of [N, C, L] to a size that "
            "divides L, but got %s -> %d" % (list(input.shape), out))
    kernel = input.shape[2] // out
    return _pool1d(ctx, "tcp.avg_pool2d", input, kernel, kernel, 0, False,
                   ["count_include_pad"])


def _per_channel(ctx, v, value, channels, dtype):
    return v if v is not None else ctx.w.splat(value, (channels,), dtype,
                                               ctx.loc)


def batch_norm_with_statistics(ctx, input, running_mean, running_var,
                               weight, bias, training, momentum, eps):
    """(y, new running mean, new running var); the new statistics are None
    in eval mode. A 5-D input (BatchNorm3d) is normalised as it is in eval
    mode (so a 3-D convolution before it takes it in) and as [N, C, D H, W]
    in training mode."""
    x = _float(ctx, input)
    if x.rank == 5 and training:
        n, c, d, h, w = x.shape
        y, new_mean, new_var = batch_norm_with_statistics(
            ctx, ctx.w.reshape(x, (n, c, d * h, w), ctx.loc), running_mean,
            running_var, weight, bias, training, momentum, eps)
        return ctx.w.reshape(y, x.shape, ctx.loc), new_mean, new_var
    channels = x.shape[1]
    known = [v for v in (running_mean, running_var, weight, bias)
             if v is not None]
    dtype = known[0].dtype if known else x.dtype
    scale = _per_channel(ctx, weight, 1.0, channels, dtype)
    shift = _per_channel(ctx, bias, 0.0, channels, dtype)
    if not training:
        if running_mean is None or running_var is None:
            raise UnsupportedOperation("expects running statistics for an "
                                       "eval-mode batch norm, but got none")
        return (ctx.w.batch_norm(x, scale, shift, running_mean, running_var,
                                 eps, ctx.loc), None, None)
    if momentum is None:
        raise UnsupportedOperation(
            "expects a batch norm momentum, but got None (a cumulative "
            "moving average is not supported)")
    mean_in = _per_channel(ctx, running_mean, 0.0, channels, dtype)
    var_in = _per_channel(ctx, running_var, 1.0, channels, dtype)
    y, _, _, new_mean, new_var = ctx.w.batch_norm_training(
        x, scale, shift, mean_in, var_in, eps, momentum, ctx.loc)
    return y, new_mean, new_var


def batch_norm(ctx, input, running_mean, running_var, weight=None, bias=None,
               training=False, momentum=0.1, eps=1e-05):
    """F.batch_norm: a training-mode one writes its new running statistics
    back into the buffers it read."""
    y, new_mean, new_var = batch_norm_with_statistics(
        ctx, input, running_mean, running_var, weight, bias, training,
        momentum, eps)
    if training and running_mean is not None:
        ctx.update_buffer(running_mean, new_mean)
    if training and running_var is not None:
        ctx.update_buffer(running_var, new_var)
    return y


def layer_norm(ctx, input, normalized_shape, weight=None, bias=None,
               eps=1e-05):
    x = _float(ctx, input)
    rank = len(normalized_shape) if isinstance(
        normalized_shape, (tuple, list)) else 1
    return ctx.w.layer_norm(x, weight, bias, rank, eps, ctx.loc)


def rms_norm(ctx, input, normalized_shape, weight=None, eps=None):
    """F.rms_norm / nn.RMSNorm as PyTorch computes it: in f32, x over the
    root of the mean of its squares over the normalised dims plus eps (the
    input type's machine epsilon when None), cast back, then times the
    weight."""
    x = _float(ctx, input)
    rank = len(normalized_shape) if isinstance(
        normalized_shape, (tuple, list)) else 1
    if eps is None:
        eps = torch.finfo(torch_type(x.dtype)).eps
    wide = ctx.w.cast(x, "f32", ctx.loc)
    mean = ctx.w.reduce("tcp.reduce_mean",
                        ctx.w.binary("tcp.mul", wide, wide, ctx.loc),
                        range(x.rank - rank, x.rank), True, ctx.loc)
    mean = ctx.w.binary("tcp.add", mean, ctx.w.scalar_like(eps, mean,
                                                           ctx.loc), ctx.loc)
    scale = _reciprocal(ctx, ctx.w.unary("tcp.sqrt", mean, loc=ctx.loc))
    y = ctx.w.cast(ctx.w.binary("tcp.mul", wide, ctx.w.broadcast_to(
        scale, wide.shape, ctx.loc), ctx.loc), x.dtype, ctx.loc)
    if weight is None:
        return y
    return ctx.w.binary("tcp.mul", y, ctx.w.broadcast_to(
        ctx.w.cast(weight, y.dtype, ctx.loc), y.shape, ctx.loc), ctx.loc)


def weight_norm(ctx, v, g, dim=0):
    """torch._weight_norm (nn.utils.weight_norm's parametrization, wav2vec
    2.0's positional conv): v * (g / ||v||), the norm over every dim but
    `dim` (over all of v when dim is -1), g holding one scale per entry
    of `dim`."""
    v = _float(ctx, v)
    if dim == -1:
        axes = list(range(v.rank))
    else:
        d = _dim(dim, v.rank)
        axes = [a for a in range(v.rank) if a != d]
    norm = ctx.w.unary("tcp.sqrt", ctx.w.reduce(
        "tcp.reduce_sum", ctx.w.binary("tcp.mul", v, v, ctx.loc), axes, True,
        ctx.loc), loc=ctx.loc)
    g = ctx.w.reshape(ctx.w.cast(g, v.dtype, ctx.loc), norm.shape, ctx.loc)
    scale = ctx.w.binary("tcp.divf", g, norm, ctx.loc)
    return ctx.w.binary("tcp.mul", v, ctx.w.broadcast_to(scale, v.shape,
                                                          ctx.loc), ctx.loc)


def _sample_norm(ctx, x, eps):
    """Each sample of x normalised over all its elements (group norm with
    one group: PoolFormer's, MetaFormer's), as reductions over the
    non-batch dims that keep them, in f32 for narrower floats. Any order of
    a sample's elements gives the same statistics, so on a channels-last
    tensor the generated kernels read its bytes as they are
    (cudnn-channels-last-kernels); the layer norm of a reshape to
    [N, 1, C*HW] is in the logical order and needed a layout conversion
    each way."""
    wide = ctx.w.cast(x, "f32", ctx.loc) if x.dtype in ("f16", "bf16") else x
    axes = range(1, x.rank)
    mean = ctx.w.reduce("tcp.reduce_mean", wide, axes, True, ctx.loc)
    centred = ctx.w.binary("tcp.sub", wide,
                           ctx.w.broadcast_to(mean, wide.shape, ctx.loc),
                           ctx.loc)
    var = ctx.w.reduce("tcp.reduce_mean",
                       ctx.w.binary("tcp.mul", centred, centred, ctx.loc),
                       axes, True, ctx.loc)
    var = ctx.w.binary("tcp.add", var, ctx.w.scalar_like(eps, var, ctx.loc),
                       ctx.loc)
    scale = _reciprocal(ctx, ctx.w.unary("tcp.sqrt", var, loc=ctx.loc))
    # x * scale - mean * scale, as PyTorch's kernel computes it: the
    # centred values feed the variance alone, so each reduction reads x
    # (one kernel for the three).
    shift = ctx.w.binary("tcp.mul", mean, scale, ctx.loc)
    y = ctx.w.binary(
        "tcp.sub",
        ctx.w.binary("tcp.mul", wide,
                     ctx.w.broadcast_to(scale, wide.shape, ctx.loc), ctx.loc),
        ctx.w.broadcast_to(shift, wide.shape, ctx.loc), ctx.loc)
    return ctx.w.cast(y, x.dtype, ctx.loc) if y.dtype != x.dtype else y


def instance_norm(ctx, input, running_mean=None, running_var=None,
                  weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    """Each channel of each sample normalised over its positions: a group
    norm with one group per channel (style transfer, U-Nets, GANs); with
    tracked running statistics in eval mode (use_input_stats False), the
    eval batch norm they describe. Updating the running statistics (a
    training-mode call that tracks them) is refused."""
    x = _float(ctx, input)
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise UnsupportedOperation(
                "expects running statistics where use_input_stats is False")
        return batch_norm(ctx, x, running_mean, running_var, weight, bias,
                          False, momentum, eps)
    if running_mean is not None:
        raise UnsupportedOperation(
            "expects instance_norm in eval mode where it tracks running "
            "statistics, but got a call that updates them (training mode)")
    return group_norm(ctx, x, x.shape[1], weight, bias, eps)


def local_response_norm(ctx, input, size, alpha=1e-4, beta=0.75, k=1.0):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta
    (the window zero-padded at the ends, as PyTorch's avg_pool3d):
    the squares as [N, 1, C, rest] average-pooled along C, the power as
    exp(beta log(.))."""
    x = _float(ctx, input)
    if x.rank < 3:
        raise UnsupportedOperation("expects [N, C, ...] for "
                                   "local_response_norm, but got %s" % x.type)
    size = int(size)
    n, c = x.shape[:2]
    rest = math.prod(x.shape[2:])
    w, loc = ctx.w, ctx.loc
    squares = w.reshape(w.binary("tcp.mul", x, x, loc), (n, 1, c, rest), loc)
    window = w.pool2d("tcp.avg_pool2d", squares, (size, 1), (1, 1),
                      [size // 2, (size - 1) // 2, 0, 0], False,
                      ["count_include_pad"], (n, 1, c, rest), loc)
    window = w.reshape(window, x.shape, loc)
    base = w.binary("tcp.add", w.binary("tcp.mul", window, w.scalar_like(
        float(alpha), window, loc), loc), w.scalar_like(float(k), window,
                                                        loc), loc)
    denominator = w.unary("tcp.exp", w.binary(
        "tcp.mul", w.unary("tcp.log", base, loc=loc),
        w.scalar_like(float(beta), base, loc), loc), loc=loc)
    return w.binary("tcp.divf", x, denominator, loc)


def group_norm(ctx, input, num_groups, weight=None, bias=None, eps=1e-05):
    """Each group of C / G channels (with all spatial positions) normalised
    on its own: a layer norm over the last dimension of [N, G, C/G * HW]
    (one group: _sample_norm), then the per-channel scale and shift."""
    x = _float(ctx, input)
    if x.rank < 2 or x.shape[1] % num_groups:
        raise UnsupportedOperation(
            "expects [N, C, ...] with C divisible by num_groups (%d), but got "
            "%s" % (num_groups, list(x.shape)))
    n, channels = x.shape[0], x.shape[1]
    if num_groups == 1:
        y = _sample_norm(ctx, x, eps)
    else:
        grouped = ctx.w.reshape(
            x, (n, num_groups, math.prod(x.shape[1:]) // num_groups), ctx.loc)
        y = ctx.w.reshape(
            ctx.w.layer_norm(grouped, None, None, 1, eps, ctx.loc), x.shape,
            ctx.loc)
    per_channel = (channels,) + (1,) * (x.rank - 2)
    for v, op in ((weight, "tcp.mul"), (bias, "tcp.add")):
        if v is not None:
            v = ctx.w.broadcast_to(ctx.w.reshape(v, per_channel, ctx.loc),
                                   x.shape, ctx.loc)
            y = ctx.w.binary(op, y, v, ctx.loc)
    return y


# -- modules -------------------------------------------------------------------


def _conv_module(conv):
    def lower(ctx, m, input):
        if m.padding_mode != "zeros":
            raise UnsupportedOperation("expects padding_mode='zeros', but "
                                       "got '%s'" % m.padding_mode)
        return conv(ctx, input, ctx.parameter("weight"),
                    ctx.parameter("bias") if m.bias is not None else None,
                    m.stride, m.padding, m.dilation, m.groups)
    return lower


def _max_pool_module(pool):
    """nn.MaxPool1d/2d/3d as the functional `pool`."""
    return lambda ctx, m, x: pool(ctx, x, m.kernel_size, m.stride, m.padding,
                                  m.dilation, m.ceil_mode, m.return_indices)


def _avg_pool_module(pool):
    """nn.AvgPool2d/3d as the functional `pool` (AvgPool1d has no
    divisor_override)."""
    return lambda ctx, m, x: pool(ctx, x, m.kernel_size, m.stride, m.padding,
                                  m.ceil_mode, m.count_include_pad,
                                  m.divisor_override)


def _batch_norm_module(ctx, m, input):
    use_batch_stats = m.training or not m.track_running_stats
    if m.training and m.track_running_stats:
        ctx.increment_counter("num_batches_tracked")
    tracked = m.track_running_stats and m.running_mean is not None
    return batch_norm(
        ctx, input,
        ctx.parameter("running_mean") if tracked else None,
        ctx.parameter("running_var") if tracked else None,
        ctx.parameter("weight") if m.affine else None,
        ctx.parameter("bias") if m.affine else None,
        use_batch_stats, m.momentum, m.eps)


def _instance_norm_module(ctx, m, input):
    tracked = m.track_running_stats
    return instance_norm(
        ctx, input, ctx.parameter("running_mean") if tracked else None,
        ctx.parameter("running_var") if tracked else None,
        ctx.parameter("weight") if m.affine else None,
        ctx.parameter("bias") if m.affine else None,
        m.training or not tracked, m.momentum, m.eps)


def _linear_module(ctx, m, input):
    return linear(ctx, input, ctx.parameter("weight"),
                  ctx.parameter("bias") if m.bias is not None else None)


def _layer_norm_module(ctx, m, input):
    affine = m.elementwise_affine
    return layer_norm(ctx, input, m.normalized_shape,
                      ctx.parameter("weight") if affine else None,
                      ctx.parameter("bias") if affine and getattr(
                          m, "bias", None) is not None else None, m.eps)


MODULES = {
    nn.Conv2d: _conv_module(conv2d),
    nn.Conv1d: _conv_module(conv1d),
    nn.BatchNorm1d: _batch_norm_module,
    nn.BatchNorm2d: _batch_norm_module,
    nn.Linear: _linear_module,
    nn.LayerNorm: _layer_norm_module,
    nn.GroupNorm: lambda ctx, m, x: group_norm(
        ctx, x, m.num_groups, ctx.parameter("weight") if m.affine else None,
        ctx.parameter("bias") if m.affine else None, m.eps),
    nn.ReLU: lambda ctx, m, x: relu(ctx, x),
    nn.ReLU6: lambda ctx, m, x: relu6(ctx, x),
    nn.Hardtanh: lambda ctx, m, x: hardtanh(ctx, x, m.min_val, m.max_val),
    nn.Sigmoid: lambda ctx, m, x: sigmoid(ctx, x),
    nn.Tanh: lambda ctx, m, x: tanh(ctx, x),
    nn.SiLU: lambda ctx, m, x: silu(ctx, x),
    nn.Hardsigmoid: lambda ctx, m, x: hardsigmoid(ctx, x),
    nn.Hardswish: lambda ctx, m, x: hardswish(ctx, x),
    nn.LeakyReLU: lambda ctx, m, x: leaky_relu(ctx, x, m.negative_slope),
    nn.GELU: lambda ctx, m, x: gelu(ctx, x, getattr(m, "approximate", "none")),
    nn.Softmax: lambda ctx, m, x: softmax(ctx, x, m.dim),
    nn.LogSoftmax: lambda ctx, m, x: log_softmax(ctx, x, m.dim),
    nn.MaxPool2d: _max_pool_module(max_pool2d),
    nn.Unfold: lambda ctx, m, x: unfold_patches(
        ctx, x, m.kernel_size, m.dilation, m.padding, m.stride),
    nn.AdaptiveAvgPool1d: lambda ctx, m, x: adaptive_avg_pool1d(
        ctx, x, m.output_size),
    nn.AvgPool1d: lambda ctx, m, x: avg_pool1d(
        ctx, x, m.kernel_size, m.stride, m.padding, m.ceil_mode,
        m.count_include_pad),
    nn.MaxPool1d: _max_pool_module(max_pool1d),
    nn.AvgPool2d: _avg_pool_module(avg_pool2d),
    nn.AdaptiveAvgPool2d: lambda ctx, m, x: adaptive_avg_pool2d(
        ctx, x, m.output_size),
    nn.Conv3d: _conv_module(conv3d),
    nn.BatchNorm3d: _batch_norm_module,
    nn.MaxPool3d: _max_pool_module(max_pool3d),
    nn.AvgPool3d: _avg_pool_module(avg_pool3d),
    nn.AdaptiveAvgPool3d: lambda ctx, m, x: adaptive_avg_pool3d(
        ctx, x, m.output_size),
    nn.EmbeddingBag: lambda ctx, m, input, offsets=None,
    per_sample_weights=None: embedding_bag(
        ctx, input, ctx.parameter("weight"), offsets, m.max_norm,
        m.norm_type, m.scale_grad_by_freq, m.mode, m.sparse,
        per_sample_weights, m.include_last_offset, m.padding_idx),
    nn.LocalResponseNorm: lambda ctx, m, x: local_response_norm(
        ctx, x, m.size, m.alpha, m.beta, m.k),
    **{norm: _instance_norm_module for norm in (
        nn.InstanceNorm1d, nn.InstanceNorm2d, nn.InstanceNorm3d)},
    nn.AdaptiveMaxPool2d: lambda ctx, m, x: adaptive_max_pool2d(
        ctx, x, m.output_size, m.return_indices),
    nn.AdaptiveMaxPool1d: lambda ctx, m, x: adaptive_max_pool1d(
        ctx, x, m.output_size, m.return_indices),
    nn.Flatten: lambda ctx, m, x: reshape_like_result(ctx, x),
    nn.Upsample: lambda ctx, m, x: interpolate(
        ctx, x, m.size, m.scale_factor, m.mode, m.align_corners,
        m.recompute_scale_factor),
    nn.UpsamplingNearest2d: lambda ctx, m, x: upsample_nearest(
        ctx, x, "nearest", m.scale_factor),
    nn.UpsamplingBilinear2d: lambda ctx, m, x: interpolate(
        ctx, x, m.size, m.scale_factor, "bilinear", True),
    nn.Dropout: lambda ctx, m, x: dropout(ctx, x, m.p, m.training),
    # The channel-wise and alpha forms: the identity in eval mode too
    # (timm's non-local attention blocks use Dropout2d).
    nn.Dropout1d: lambda ctx, m, x: dropout(ctx, x, m.p, m.training),
    nn.Dropout2d: lambda ctx, m, x: dropout(ctx, x, m.p, m.training),
    nn.Dropout3d: lambda ctx, m, x: dropout(ctx, x, m.p, m.training),
    nn.AlphaDropout: lambda ctx, m, x: dropout(ctx, x, m.p, m.training),
    nn.FeatureAlphaDropout: lambda ctx, m, x: dropout(ctx, x, m.p,
                                                      m.training),
    nn.Embedding: _embedding_module,
    nn.Identity: lambda ctx, m, x: x,
}
if hasattr(nn, "RMSNorm"):  # torch 2.4+
    MODULES[nn.RMSNorm] = lambda ctx, m, x: rms_norm(
        ctx, x, m.normalized_shape,
        ctx.parameter("weight") if m.elementwise_affine else None, m.eps)

FUNCTIONS = {
    operator.add: add, operator.iadd: add, torch.add: add,
    operator.sub: sub, operator.isub: sub, torch.sub: sub, torch.rsub: rsub,
    operator.mul: mul, operator.imul: mul, torch.mul: mul,
    operator.truediv: div, operator.itruediv: div, torch.div: div,
    getattr: tensor_attribute, torch._weight_norm: weight_norm,
    # PyTorch's aliases (ConvBERT's torch.multiply).
    torch.multiply: mul, torch.subtract: sub, torch.divide: div,
    torch.true_divide: div,
    operator.neg: neg, torch.neg: neg,
    operator.matmul: matmul, torch.matmul: matmul, torch.mm: matmul,
    torch.bmm: matmul,
    operator.getitem: getitem, operator.setitem: setitem,
    torch.relu: relu, F.relu: relu, F.relu6: relu6, F.hardtanh: hardtanh,
    torch.clamp: clamp, torch.clip: clamp,
    torch.sigmoid: sigmoid, F.sigmoid: sigmoid, torch.tanh: tanh,
    F.tanh: tanh, torch.exp: exp, torch.log: log, torch.sqrt: sqrt,
    torch.rsqrt: rsqrt, torch.abs: abs_, F.gelu: gelu, F.silu: silu,
    F.hardsigmoid: hardsigmoid, F.hardswish: hardswish,
    torch.sin: sin, torch.cos: cos, torch.atan: atan, torch.floor: floor,
    torch.ceil: ceil, torch.round: round_,
    # Any power (pow_ stays the lowering of the small whole ones).
    torch.pow: math_lowerings.pow_any, operator.pow: math_lowerings.pow_any,
    torch.log1p: log1p, torch.expm1: expm1, torch.sign: sign,
    torch.sgn: sign,
    F.leaky_relu: leaky_relu, torch.amax: amax, torch.amin: amin,
    torch.max: max_, torch.min: min_,
    F.dropout: dropout, F.dropout1d: dropout, F.dropout2d: dropout,
    F.dropout3d: dropout, F.alpha_dropout: dropout,
    F.feature_alpha_dropout: dropout, torch.square: square,
    F.normalize: normalize, torch.norm: norm,
    torch.linalg.vector_norm: vector_norm, torch.narrow: narrow, torch.select: select,
    torch.flatten: reshape_like_result, torch.reshape: reshape_like_result,
    torch.squeeze: reshape_like_result, torch.unsqueeze: reshape_like_result,
    torch.permute: permute, torch.transpose: transpose, torch.t: t,
    torch.swapaxes: transpose, torch.swapdims: transpose,
    torch.einsum: einsum, torch.tensordot: tensordot,
    torch.addcmul: addcmul, torch.cat: cat, torch.stack: stack,
    torch.mean: mean, torch.sum: sum_, torch.cumsum: cumsum, torch.roll: roll,
    attention_modules.additive_mask: additive_mask,
    torch.softmax: softmax, F.softmax: softmax, F.log_softmax: log_softmax,
    torch.log_softmax: log_softmax,
    F.linear: linear, torch.addmm: addmm, F.embedding: embedding,
    torch.baddbmm: baddbmm, torch.index_select: index_select,
    torch.gather: gather, torch.tril: tril, torch.triu: triu,
    torch.embedding: lambda ctx, weight, input, padding_idx=-1,
    scale_grad_by_freq=False, sparse=False: embedding(ctx, input, weight),
    F.conv2d: conv2d, torch.conv2d: conv2d,
    F.conv1d: conv1d, torch.conv1d: conv1d,
    F.max_pool2d: max_pool2d, torch.max_pool2d: max_pool2d,
    F.avg_pool2d: avg_pool2d, torch._C._nn.avg_pool2d: avg_pool2d,
    F.avg_pool1d: avg_pool1d, torch.avg_pool1d: avg_pool1d,
    F.adaptive_avg_pool1d: adaptive_avg_pool1d,
    torch.adaptive_avg_pool1d: adaptive_avg_pool1d,
    F.max_pool1d: max_pool1d, torch.tile: tile, F.unfold: unfold_patches,
    torch.repeat_interleave: repeat_interleave,
    F.adaptive_avg_pool2d: adaptive_avg_pool2d,
    F.adaptive_max_pool2d: adaptive_max_pool2d,
    F.adaptive_max_pool1d: adaptive_max_pool1d,
    F.max_pool2d_with_indices: lambda ctx, input, kernel_size, stride=None,
    padding=0, dilation=1, ceil_mode=False, return_indices=True: max_pool2d(
        ctx, input, kernel_size, stride, padding, dilation, ceil_mode, True),
    F.max_pool3d: max_pool3d, torch.max_pool3d: max_pool3d,
    F.avg_pool3d: avg_pool3d, torch._C._nn.avg_pool3d: avg_pool3d,
    F.adaptive_avg_pool3d: adaptive_avg_pool3d,
    F.conv3d: conv3d, torch.conv3d: conv3d,
    F.embedding_bag: embedding_bag,
    F.instance_norm: instance_norm,
    F.local_response_norm: local_response_norm,
    torch.var: var, torch.std: std, torch.var_mean: var_mean,
    torch.std_mean: std_mean,
    torch._C._nn.adaptive_avg_pool2d: adaptive_avg_pool2d,
    F.batch_norm: batch_norm, F.layer_norm: layer_norm,
    F.group_norm: group_norm, F.pad: pad,
    F.interpolate: interpolate, F.upsample: interpolate,
    F.upsample_nearest: lambda ctx, input, size=None, scale_factor=None:
        upsample_nearest(ctx, input, "nearest", scale_factor),
}
# The padding modules (.padding is (before, after) pairs, last dim first).
for _name, _mode in (("ReflectionPad", "reflect"), ("ReplicationPad",
                                                    "replicate"),
                     ("CircularPad", "circular"), ("ZeroPad", "constant"),
                     ("ConstantPad", "constant")):
    for _rank in ("1d", "2d", "3d"):
        if hasattr(nn, _name + _rank):  # CircularPad, ZeroPad1d: torch 2.1+
            MODULES[getattr(nn, _name + _rank)] = (
                lambda ctx, m, x, mode=_mode: pad(
                    ctx, x, list(m.padding), mode,
                    getattr(m, "value", None)))
if hasattr(F, "rms_norm"):  # torch 2.4+; TorchDynamo passes torch.rms_norm
    FUNCTIONS[F.rms_norm] = FUNCTIONS[torch.rms_norm] = rms_norm
FUNCTIONS[torch.chunk] = split_along
FUNCTIONS[torch.split] = split_along
FUNCTIONS[torch.tensor_split] = split_along
FUNCTIONS[torch.unbind] = split_along
if hasattr(torch, "concat"):
    FUNCTIONS[torch.concat] = cat
try:  # torchvision's EfficientNets and ConvNeXts call it in every block
    import torchvision.ops

    FUNCTIONS[torchvision.ops.stochastic_depth] = stochastic_depth
except ImportError:
    pass
if hasattr(torch._C._nn, "pad"):  # F.pad's builtin (TorchDynamo's target)
    FUNCTIONS[torch._C._nn.pad] = pad
if hasattr(F, "scaled_dot_product_attention"):  # torch 2.x
    FUNCTIONS[F.scaled_dot_product_attention] = scaled_dot_product_attention
if hasattr(F, "_max_pool2d"):
    FUNCTIONS[F._max_pool2d] = max_pool2d

METHODS = {
    "add": add, "add_": add, "sub": sub, "mul": mul, "div": div,
    "multiply": mul, "subtract": sub, "divide": div, "true_divide": div,
    "neg": neg, "matmul": matmul, "relu": relu, "relu_": relu,
    "sigmoid": sigmoid, "tanh": tanh, "exp": exp, "log": log, "sqrt": sqrt,
    "rsqrt": rsqrt, "abs": abs_, "clamp": clamp, "sin": sin, "cos": cos,
    "atan": atan, "floor": floor, "ceil": ceil, "round": round_,
    "pow": math_lowerings.pow_any, "square": square, "norm": norm,
    "fill_": fill_, "log1p": log1p, "expm1": expm1, "sign": sign,
    "sgn": sign,
    "zero_": zero_, "narrow": narrow,
    "select": select,
    "chunk": split_along, "split": split_along,
    "split_with_sizes": split_along, "tensor_split": split_along,
    "unbind": split_along, "roll": roll,
    "view": reshape_like_result, "reshape": reshape_like_result,
    "flatten": reshape_like_result, "squeeze": reshape_like_result,
    "unsqueeze": reshape_like_result, "view_as": reshape_like_result,
    "reshape_as": reshape_like_result,
    "permute": permute, "transpose": transpose, "t": t,
    "swapaxes": transpose, "swapdims": transpose,
    "expand": expand, "expand_as": expand, "repeat": repeat, "tile": tile,
    "repeat_interleave": repeat_interleave, "unfold": tensor_unfold,
    "addcmul": addcmul,
    "contiguous": identity, "clone": identity, "detach": identity,
    "mean": mean, "sum": sum_, "cumsum": cumsum, "amax": amax, "amin": amin,
    "max": max_, "min": min_, "var": var, "std": std,
    "baddbmm": baddbmm, "index_select": index_select, "gather": gather,
    "tril": tril, "triu": triu,
    "softmax": softmax,
    "log_softmax": log_softmax,
    "to": cast_to, "type": cast_to, "type_as": cast_to, "half": cast_to,
    "float": cast_to, "bfloat16": cast_to, "double": cast_to,
    "int": cast_to, "long": cast_to, "bool": cast_to,
}
FUNCTIONS.update(logic_lowerings.FUNCTIONS)
METHODS.update(logic_lowerings.METHODS)
FUNCTIONS.update(activation_lowerings.FUNCTIONS)
METHODS.update(activation_lowerings.METHODS)
MODULES.update(activation_lowerings.MODULES)
FUNCTIONS.update(transposed_convolution.FUNCTIONS)
FUNCTIONS.update(math_lowerings.FUNCTIONS)
METHODS.update(math_lowerings.METHODS)
FUNCTIONS.update(rearrangement_lowerings.FUNCTIONS)
METHODS.update(rearrangement_lowerings.METHODS)
MODULES.update(rearrangement_lowerings.MODULES)
FUNCTIONS.update(distance_lowerings.FUNCTIONS)
FUNCTIONS.update(grid_sample.FUNCTIONS)
METHODS.update(distance_lowerings.METHODS)
MODULES.update(distance_lowerings.MODULES)
MODULES.update(transposed_convolution.MODULES)
# The in-place twins of elementwise methods (y.mul_(2), x.clamp_(0, 1)) lower
# as the op itself; the importer rebinds the mutated tensor and writes it
# back through the views it is taken from.
for _name in ("add", "sub", "mul", "div", "neg", "relu", "sigmoid", "tanh",
              "exp", "log", "sqrt", "rsqrt", "abs", "clamp", "sin", "cos",
              "atan", "floor", "ceil", "round", "pow", "square"):
    METHODS.setdefault(_name + "_", METHODS[_name])
