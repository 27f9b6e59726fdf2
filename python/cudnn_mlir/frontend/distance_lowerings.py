"""Similarities and distances between tensors (F.cosine_similarity,
F.pairwise_distance, torch.cdist) and the outer product, as PyTorch
computes them, in elementwise ops, reductions and matmuls. Lowerings here
follow lowerings.py's conventions (a leading `ctx`, torch's own parameter
names); lowerings.py registers them.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

from .elementwise_ops import Elementwise
from .lowering_arguments import UnsupportedOperation
from .lowering_arguments import dim as _dim
from .tcp_writer import FLOAT_TYPES, Value


def _broadcast_pair(ctx, a, b):
    """a and b broadcast to their common shape, in the result's float
    type."""
    dtype = ctx.result.dtype
    if dtype not in FLOAT_TYPES or not isinstance(a, Value) or \
            not isinstance(b, Value):
        raise UnsupportedOperation("expects two float tensors")
    shape = torch.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    return tuple(ctx.w.broadcast_to(ctx.w.cast(v, dtype, ctx.loc), shape,
                                    ctx.loc) for v in (a, b))


def cosine_similarity(ctx, x1, x2, dim=1, eps=1e-8):
    """sum((x1 / max(|x1|, eps)) * (x2 / max(|x2|, eps))) over `dim`, each
    normalised first, as PyTorch's kernel does."""
    a, b = _broadcast_pair(ctx, x1, x2)
    o, w, loc = Elementwise(ctx), ctx.w, ctx.loc
    axis = _dim(dim, a.rank)

    def unit(v):
        norm = w.unary("tcp.sqrt", w.reduce("tcp.reduce_sum", o.mul(v, v),
                                            [axis], True, loc), loc=loc)
        norm = w.broadcast_to(w.clamp(norm, float(eps), None, loc), v.shape,
                              loc)
        return o.div(v, norm)
    return w.reduce("tcp.reduce_sum", o.mul(unit(a), unit(b)), [axis],
                    False, loc)


def pairwise_distance(ctx, x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p over the last dim (p = 1 or 2)."""
    from .lowerings import _vector_norm
    a, b = _broadcast_pair(ctx, x1, x2)
    o = Elementwise(ctx)
    diff = o.add(o.sub(a, b), o.const(float(eps), a))
    norm = ctx.w.cast(_vector_norm(ctx, diff, float(p), [a.rank - 1]),
                      ctx.result.dtype, ctx.loc)
    return ctx.w.reshape(norm, ctx.result.shape, ctx.loc)


# Above this many differences (P R M) cdist takes the matmul form.
_MAX_DIRECT_CDIST = 1 << 24


def cdist(ctx, x1, x2, p=2.0,
          compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p = 2 distances between the rows of [.., P, M] and [.., R, M]:
    directly, sqrt(sum((a_i - b_j)^2)), or for large inputs (and as
    compute_mode asks) as PyTorch's matmul form, sqrt(max(|a|^2 + |b|^2 -
    2 a b^T, 0))."""
    if float(p) != 2.0:
        raise UnsupportedOperation("expects torch.cdist with p=2, but got p=%g"
                                   % float(p))
    if not isinstance(x1, Value) or not isinstance(x2, Value) or \
            x1.rank != x2.rank or x1.rank < 2 or \
            x1.shape[:-2] != x2.shape[:-2] or x1.shape[-1] != x2.shape[-1]:
        raise UnsupportedOperation("expects torch.cdist of [.., P, M] and "
                                   "[.., R, M] with the same batch dims")
    w, loc, o = ctx.w, ctx.loc, Elementwise(ctx)
    *batch, rows, m = x1.shape
    cols = x2.shape[-2]
    use_mm = compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode == "use_mm_for_euclid_dist_if_necessary" and
        (rows > 25 or cols > 25)) or rows * cols * m > _MAX_DIRECT_CDIST
    if not use_mm:
        a = w.broadcast_to(w.reshape(x1, tuple(batch) + (rows, 1, m), loc),
                           tuple(batch) + (rows, cols, m), loc)
        b = w.broadcast_to(w.reshape(x2, tuple(batch) + (1, cols, m), loc),
                           tuple(batch) + (rows, cols, m), loc)
        d = o.sub(a, b)
        return w.unary("tcp.sqrt", w.reduce("tcp.reduce_sum", o.mul(d, d),
                                            [len(batch) + 2], False, loc),
                       loc=loc)
    flat = 1
    for size in batch:
        flat *= size
    a = w.reshape(x1, (flat, rows, m), loc)
    b = w.reshape(x2, (flat, cols, m), loc)
    products = w.contraction("tcp.batch_matmul", a, w.transpose(
        b, [0, 2, 1], loc), loc)  # [flat, rows, cols]
    square_a = w.reduce("tcp.reduce_sum", o.mul(a, a), [2], True, loc)
    square_b = w.reshape(w.reduce("tcp.reduce_sum", o.mul(b, b), [2], True,
                                  loc), (flat, 1, cols), loc)
    shape = (flat, rows, cols)
    total = o.sub(o.add(w.broadcast_to(square_a, shape, loc),
                        w.broadcast_to(square_b, shape, loc)),
                  o.scale(products, 2.0))
    distance = w.unary("tcp.sqrt", w.clamp(total, 0.0, None, loc), loc=loc)
    return w.reshape(distance, ctx.result.shape, loc)


def outer(ctx, input, vec2):
    """a[:, None] * b[None, :]."""
    if not isinstance(input, Value) or not isinstance(vec2, Value) or \
            input.rank != 1 or vec2.rank != 1:
        raise UnsupportedOperation("expects torch.outer of two 1-D tensors")
    shape = (input.shape[0], vec2.shape[0])
    dtype = ctx.result.dtype
    a = ctx.w.broadcast_to(ctx.w.reshape(ctx.w.cast(input, dtype, ctx.loc),
                                         (shape[0], 1), ctx.loc), shape,
                           ctx.loc)
    b = ctx.w.broadcast_to(ctx.w.reshape(ctx.w.cast(vec2, dtype, ctx.loc),
                                         (1, shape[1]), ctx.loc), shape,
                           ctx.loc)
    return ctx.w.binary("tcp.mul", a, b, ctx.loc)


FUNCTIONS = {
    F.cosine_similarity: cosine_similarity,
    torch.cosine_similarity: cosine_similarity,
    F.pairwise_distance: pairwise_distance,
    torch.pairwise_distance: pairwise_distance, torch.cdist: cdist,
    torch.outer: outer, torch.ger: outer,
}

METHODS = {"outer": outer, "ger": outer}

MODULES = {
    nn.CosineSimilarity: lambda ctx, m, a, b: cosine_similarity(
        ctx, a, b, m.dim, m.eps),
    nn.PairwiseDistance: lambda ctx, m, a, b: pairwise_distance(
        ctx, a, b, m.norm, m.eps, m.keepdim),
}

# torch.export's forms (aten_lowerings registers them).
_COMPUTE_MODES = {None: "use_mm_for_euclid_dist_if_necessary",
                  0: "use_mm_for_euclid_dist_if_necessary",
                  1: "use_mm_for_euclid_dist",
                  2: "donot_use_mm_for_euclid_dist"}
ATEN = {
    "outer.default": outer,
    "_cdist_forward.default": lambda ctx, x1, x2, p, compute_mode=None:
        cdist(ctx, x1, x2, p, _COMPUTE_MODES[compute_mode]),
    # torch 1.13's make_fx records cdist's matmul form as this.
    "_euclidean_dist.default": lambda ctx, x1, x2: cdist(
        ctx, x1, x2, 2.0, "use_mm_for_euclid_dist"),
}
