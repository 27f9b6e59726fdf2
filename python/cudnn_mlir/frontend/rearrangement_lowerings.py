"""Ops that only move elements, as reshapes, transposes and gathers:
pixel shuffle and unshuffle (super-resolution heads), channel shuffle
(ShuffleNet written with nn.ChannelShuffle), movedim/moveaxis,
unflatten, flip, rot90 and diagonal; and argmax/argmin and topk (small
k), which pick positions.
Lowerings here follow lowerings.py's conventions (a leading `ctx`,
torch's own parameter names); lowerings.py registers them.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .lowering_arguments import UnsupportedOperation
from .lowering_arguments import dim as _dim
from .tcp_writer import FLOAT_TYPES, Value


def _image(x, what):
    if not isinstance(x, Value) or x.rank < 3:
        raise UnsupportedOperation("expects %s of a [.., C, H, W] tensor, but "
                                   "got %s"
                                   % (what, getattr(x, "type",
                                                    type(x).__name__)))
    return x


def pixel_shuffle(ctx, input, upscale_factor):
    """[.., C r^2, H, W] -> [.., C, H r, W r]: out[c, h r + i, w r + j] =
    in[c r^2 + i r + j, h, w]."""
    x, r = _image(input, "pixel_shuffle"), int(upscale_factor)
    *lead, c, h, w = x.shape
    k = len(lead)
    y = ctx.w.reshape(x, tuple(lead) + (c // (r * r), r, r, h, w), ctx.loc)
    perm = list(range(k)) + [k + i for i in (0, 3, 1, 4, 2)]
    y = ctx.w.transpose(y, perm, ctx.loc)
    return ctx.w.reshape(y, ctx.result.shape, ctx.loc)


def pixel_unshuffle(ctx, input, downscale_factor):
    """The inverse: [.., C, H r, W r] -> [.., C r^2, H, W]."""
    x, r = _image(input, "pixel_unshuffle"), int(downscale_factor)
    *lead, c, h, w = x.shape
    k = len(lead)
    y = ctx.w.reshape(x, tuple(lead) + (c, h // r, r, w // r, r), ctx.loc)
    perm = list(range(k)) + [k + i for i in (0, 2, 4, 1, 3)]
    y = ctx.w.transpose(y, perm, ctx.loc)
    return ctx.w.reshape(y, ctx.result.shape, ctx.loc)


def channel_shuffle(ctx, input, groups):
    """[N, g * k, ..] -> [N, k * g, ..]: the channels as a g x k matrix,
    transposed."""
    x, g = input, int(groups)
    if not isinstance(x, Value) or x.rank < 2 or x.shape[1] % g:
        raise UnsupportedOperation("expects [N, C, ..] with groups dividing C")
    n, c, *rest = x.shape
    y = ctx.w.reshape(x, (n, g, c // g) + tuple(rest), ctx.loc)
    y = ctx.w.transpose(y, [0, 2, 1] + list(range(3, x.rank + 1)), ctx.loc)
    return ctx.w.reshape(y, x.shape, ctx.loc)


def movedim(ctx, input, source, destination):
    """torch.movedim / moveaxis: a transpose."""
    rank = input.rank
    sources = [_dim(d, rank) for d in (
        source if isinstance(source, (tuple, list)) else [source])]
    targets = [_dim(d, rank) for d in (
        destination if isinstance(destination, (tuple, list))
        else [destination])]
    order = [None] * rank
    for s, t in zip(sources, targets):
        order[t] = s
    rest = iter(d for d in range(rank) if d not in sources)
    order = [next(rest) if o is None else o for o in order]
    return ctx.w.transpose(input, order, ctx.loc)


def unflatten(ctx, input, dim, sizes):
    """A reshape to the recorded shape."""
    return ctx.w.reshape(input, ctx.result.shape, ctx.loc)


def flip(ctx, input, dims):
    """The entries reversed along each of `dims`: one gather each (constant
    positions)."""
    from .lowerings import _gather_along
    x = input
    for d in (dims if isinstance(dims, (tuple, list)) else [dims]):
        d = _dim(d, x.rank)
        if x.shape[d] > 1:
            x = _gather_along(ctx, x, list(range(x.shape[d] - 1, -1, -1)), d)
    return x


def rot90(ctx, input, k=1, dims=(0, 1)):
    """k quarter turns from dims[0] towards dims[1]: flips and a
    transpose."""
    a, b = (_dim(d, input.rank) for d in dims)
    k = int(k) % 4
    perm = list(range(input.rank))
    perm[a], perm[b] = perm[b], perm[a]
    if k == 0:
        return input
    if k == 2:
        return flip(ctx, input, [a, b])
    if k == 1:
        return ctx.w.transpose(flip(ctx, input, [b]), perm, ctx.loc)
    return flip(ctx, ctx.w.transpose(input, perm, ctx.loc), [b])


def diagonal(ctx, input, offset=0, dim1=0, dim2=1):
    """The entries (i, i + offset) of dims dim1 and dim2, as a last dim:
    the two dims moved to the end and merged, then one strided slice (a
    step of one row and one column)."""
    x = input
    a, b = _dim(dim1, x.rank), _dim(dim2, x.rank)
    if a == b:
        raise UnsupportedOperation("expects diagonal of two different dims")
    rest = [d for d in range(x.rank) if d not in (a, b)]
    x = ctx.w.transpose(x, rest + [a, b], ctx.loc)
    rows, cols = x.shape[-2:]
    offset = int(offset)
    length = max(0, min(rows, cols - offset) if offset >= 0
                 else min(rows + offset, cols))
    if length == 0:
        raise UnsupportedOperation("expects a diagonal with at least one "
                                   "entry")
    lead = tuple(x.shape[:-2])
    flat = ctx.w.reshape(x, lead + (rows * cols,), ctx.loc)
    start = offset if offset >= 0 else -offset * cols
    k = len(lead)
    picked = ctx.w.slice(flat, [0] * k + [start], list(lead) + [length],
                         [1] * k + [cols + 1], ctx.loc)
    return ctx.w.reshape(picked, ctx.result.shape, ctx.loc)


def _positions(ctx, shape, axis):
    """Each entry's index along `axis`, an i64 constant broadcast to
    `shape`."""
    from .recording import tensor_bytes
    size = shape[axis]
    raw = torch.arange(size, dtype=torch.int64)
    spread = (1,) * axis + (size,) + (1,) * (len(shape) - axis - 1)
    return ctx.w.broadcast_to(ctx.w.reshape(ctx.w.literal(
        tensor_bytes(raw), raw.shape, "i64", ctx.loc), spread, ctx.loc),
        shape, ctx.loc)


def _extreme_and_first(ctx, x, reduce_op, axis, positions):
    """(the max or min of x along `axis`, the first position holding it),
    both with `axis` kept as size 1: positions where x equals the extreme
    keep their index, the others the dim's size, and the least is taken."""
    w, loc = ctx.w, ctx.loc
    extreme = w.reduce(reduce_op, x, [axis], True, loc)
    hit = w.compare("eq", x, w.broadcast_to(extreme, x.shape, loc), loc)
    picked = w.select(hit, positions, w.scalar_like(
        x.shape[axis], positions, loc), loc)
    return extreme, w.reduce("tcp.reduce_min", picked, [axis], True, loc)


def _arg_extreme(reduce_op, predicate_name):
    def lower(ctx, input, dim=None, keepdim=False):
        """The first position of the max (min) along `dim` (of the
        flattened tensor for None)."""
        x = input
        if not isinstance(x, Value) or x.dtype not in FLOAT_TYPES:
            raise UnsupportedOperation("expects torch.%s of a float tensor"
                                       % predicate_name)
        if dim is None:
            x = ctx.w.reshape(x, (max(1, math.prod(x.shape)),), ctx.loc)
            axis = 0
        else:
            axis = _dim(dim, x.rank)
        _, first = _extreme_and_first(ctx, x, reduce_op, axis,
                                      _positions(ctx, x.shape, axis))
        return ctx.w.reshape(first, ctx.result.shape, ctx.loc)
    return lower


argmax = _arg_extreme("tcp.reduce_max", "argmax")
argmin = _arg_extreme("tcp.reduce_min", "argmin")


# The most entries torch.topk may pick: one max-and-mask pass each.
_MAX_TOPK = 16


def topk(ctx, input, k, dim=-1, largest=True, sorted=True):
    """(values, indices) of the k largest (smallest) entries along `dim`,
    in order, for k up to 16: k passes, each taking the extreme of what is
    left and its first position (as argmax), then masking that position
    out (to -inf, or +inf for the smallest). NaN entries are not ranked as
    PyTorch ranks them (above every number)."""
    from .lowerings import _ValuesIndices
    x = input
    if not isinstance(x, Value) or x.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects torch.topk of a float tensor")
    k = int(k)
    if not 1 <= k <= _MAX_TOPK:
        raise UnsupportedOperation("expects torch.topk with k from 1 to %d "
                                   "(one pass over the dim each), but got k=%d"
                                   % (_MAX_TOPK, k))
    w, loc = ctx.w, ctx.loc
    axis = _dim(dim, x.rank)
    reduce_op = "tcp.reduce_max" if largest else "tcp.reduce_min"
    spent = float("-inf") if largest else float("inf")
    positions = _positions(ctx, x.shape, axis)
    values, indices = [], []
    left = x
    for _ in range(k):
        extreme, first = _extreme_and_first(ctx, left, reduce_op, axis,
                                            positions)
        values.append(extreme)
        indices.append(first)
        taken = w.compare("eq", positions, w.broadcast_to(first, x.shape,
                                                          loc), loc)
        left = w.select(taken, w.scalar_like(spent, left, loc), left, loc)
    concat = (lambda vs: w.concat(vs, axis, loc) if len(vs) > 1 else vs[0])
    return _ValuesIndices(concat(values), concat(indices))


FUNCTIONS = {
    F.pixel_shuffle: pixel_shuffle, torch.pixel_shuffle: pixel_shuffle,
    F.pixel_unshuffle: pixel_unshuffle,
    torch.pixel_unshuffle: pixel_unshuffle,
    torch.channel_shuffle: channel_shuffle, torch.movedim: movedim,
    torch.moveaxis: movedim, torch.unflatten: unflatten, torch.flip: flip,
    torch.fliplr: lambda ctx, input: flip(ctx, input, [1]),
    torch.flipud: lambda ctx, input: flip(ctx, input, [0]),
    torch.rot90: rot90, torch.argmax: argmax, torch.argmin: argmin,
    torch.diagonal: diagonal, torch.topk: topk,
}
if hasattr(F, "channel_shuffle"):
    FUNCTIONS[F.channel_shuffle] = channel_shuffle

METHODS = {
    "movedim": movedim, "moveaxis": movedim, "unflatten": unflatten,
    "flip": flip, "rot90": rot90, "argmax": argmax, "argmin": argmin,
    "diagonal": diagonal, "topk": topk,
}

MODULES = {
    nn.PixelShuffle: lambda ctx, m, x: pixel_shuffle(ctx, x,
                                                     m.upscale_factor),
    nn.PixelUnshuffle: lambda ctx, m, x: pixel_unshuffle(
        ctx, x, m.downscale_factor),
    nn.ChannelShuffle: lambda ctx, m, x: channel_shuffle(ctx, x, m.groups),
    nn.Unflatten: lambda ctx, m, x: unflatten(ctx, x, m.dim,
                                              m.unflattened_size),
}

# torch.export's forms (aten_lowerings registers them).
ATEN = {
    "pixel_shuffle.default": pixel_shuffle,
    "pixel_unshuffle.default": pixel_unshuffle,
    "channel_shuffle.default": channel_shuffle,
    "native_channel_shuffle.default": channel_shuffle,
    "flip.default": flip, "rot90.default": rot90,
    "argmax.default": argmax, "argmin.default": argmin,
    "diagonal.default": diagonal, "topk.default": topk,
}
