"""F.grid_sample (spatial transformers, torchvision's RAFT, deformable
attention) in bilinear mode with zeros or border padding: each output
point's four neighbours gathered from the flattened [N, C, H W] input at
indices computed from the grid (tcp.gather), weighted and summed; and
F.affine_grid, the spatial transformer's grid. Registered by
lowerings.py.
"""

import torch.nn.functional as F

from .elementwise_ops import Elementwise
from .lowering_arguments import UnsupportedOperation
from .tcp_writer import FLOAT_TYPES, Value


def _source(o, coordinate, size, align_corners, padding_mode):
    """The grid's [-1, 1] coordinate as a source position in [0, size)
    (PyTorch's grid_sampler_compute_source_index), clamped for border."""
    if align_corners:
        s = o.scale(o.add(coordinate, o.const(1.0, coordinate)),
                    (size - 1) / 2.0)
    else:
        s = o.scale(o.sub(o.scale(o.add(coordinate, o.const(
            1.0, coordinate)), float(size)), o.const(1.0, coordinate)), 0.5)
    if padding_mode == "border":
        s = o.w.clamp(s, 0.0, float(size - 1), o.loc)
    return s


def grid_sample(ctx, input, grid, mode="bilinear", padding_mode="zeros",
                align_corners=None):
    x = input
    if not isinstance(x, Value) or not isinstance(grid, Value) or \
            x.rank != 4 or grid.rank != 4 or grid.shape[3] != 2 or \
            x.dtype not in FLOAT_TYPES or grid.dtype != x.dtype:
        raise UnsupportedOperation("expects grid_sample of a float "
                                   "[N, C, H, W] input and an [N, Ho, Wo, 2] "
                                   "grid of its type")
    if mode != "bilinear" or padding_mode not in ("zeros", "border"):
        raise UnsupportedOperation("expects grid_sample with mode='bilinear' "
                                   "and padding_mode 'zeros' or 'border', but "
                                   "got mode='%s', padding_mode='%s'"
                                   % (mode, padding_mode))
    w, loc, o = ctx.w, ctx.loc, Elementwise(ctx)
    n, c, h, wd = x.shape
    ho, wo = grid.shape[1:3]
    points = ho * wo
    flat_grid = w.reshape(grid, (n, 1, points, 2), loc)

    def coordinate(k):
        return w.reshape(w.slice(flat_grid, [0, 0, 0, k], [n, 1, points, 1],
                                 [1, 1, 1, 1], loc), (n, 1, points), loc)
    ix = _source(o, coordinate(0), wd, bool(align_corners), padding_mode)
    iy = _source(o, coordinate(1), h, bool(align_corners), padding_mode)
    x0, y0 = o.floor(ix), o.floor(iy)
    wx1, wy1 = o.sub(ix, x0), o.sub(iy, y0)
    one = o.const(1.0, ix)
    wx0, wy0 = o.sub(one, wx1), o.sub(one, wy1)
    pixels = w.reshape(x, (n, c, h * wd), loc)
    total = None
    for dy, wy in ((0.0, wy0), (1.0, wy1)):
        for dx, wx in ((0.0, wx0), (1.0, wx1)):
            yc, xc = o.add(y0, o.const(dy, y0)), o.add(x0, o.const(dx, x0))
            weight = o.mul(wy, wx)
            if padding_mode == "zeros":
                inside = None
                for v, size in ((xc, wd), (yc, h)):
                    for predicate, bound in (("ge", 0.0),
                                             ("le", float(size - 1))):
                        test = w.compare(predicate, v, o.const(bound, v),
                                         loc)
                        inside = test if inside is None else w.binary(
                            "tcp.bitwise_and", inside, test, loc)
                weight = w.select(inside, weight, o.const(0.0, weight), loc)
            row = w.clamp(yc, 0.0, float(h - 1), loc)
            col = w.clamp(xc, 0.0, float(wd - 1), loc)
            index = w.cast(o.add(o.scale(row, float(wd)), col), "i64", loc)
            index = w.broadcast_to(index, (n, c, points), loc)
            value = w.gather(pixels, index, 2, loc)
            term = o.mul(value, w.broadcast_to(weight, (n, c, points), loc))
            total = term if total is None else o.add(total, term)
    return w.reshape(total, (n, c, ho, wo), loc)


def affine_grid(ctx, theta, size, align_corners=None):
    """The [N, H, W, 2] sampling grid of 2-D affine matrices theta [N, 2,
    3]: PyTorch's base grid of (x, y, 1) per output pixel (a constant),
    times theta^T."""
    import torch
    from .recording import tensor_bytes, torch_type
    if not isinstance(theta, Value) or theta.rank != 3 or \
            tuple(theta.shape[1:]) != (2, 3) or len(size) != 4:
        raise UnsupportedOperation("expects affine_grid of [N, 2, 3] matrices "
                                   "to a 4-D size")
    n, _, h, wd = (int(v) for v in size)

    def line(steps):
        if steps == 1:
            return torch.zeros(1, dtype=torch.float64)
        ramp = torch.linspace(-1, 1, steps, dtype=torch.float64)
        return ramp if align_corners else ramp * (steps - 1) / steps
    base = torch.ones(h, wd, 3, dtype=torch.float64)
    base[..., 0] = line(wd).view(1, wd)
    base[..., 1] = line(h).view(h, 1)
    base = base.view(1, h * wd, 3).to(torch_type(theta.dtype))
    w, loc = ctx.w, ctx.loc
    grid = w.broadcast_to(w.literal(tensor_bytes(base), base.shape,
                                    theta.dtype, loc), (n, h * wd, 3), loc)
    rows = w.contraction("tcp.batch_matmul", grid, w.transpose(
        theta, [0, 2, 1], loc), loc)  # [N, H W, 2]
    return w.reshape(rows, (n, h, wd, 2), loc)


FUNCTIONS = {F.grid_sample: grid_sample, F.affine_grid: affine_grid}

# torch.export's form (aten_lowerings registers it): modes as numbers.
_MODES = {0: "bilinear", 1: "nearest", 2: "bicubic"}
_PADDINGS = {0: "zeros", 1: "border", 2: "reflection"}
ATEN = {
    "affine_grid_generator.default": lambda ctx, theta, size,
    align_corners: affine_grid(ctx, theta, size, align_corners),
    "grid_sampler_2d.default": lambda ctx, input, grid, mode, padding_mode,
    align_corners: grid_sample(ctx, input, grid, _MODES.get(mode, mode),
                               _PADDINGS.get(padding_mode, padding_mode),
                               align_corners),
}
