"""Bilinear and bicubic resizing (F.interpolate mode="bilinear",
"bicubic"), and adaptive average pooling to sizes that do not divide the
input (mode="area"), as two matrix products: y = A_h x A_w^T over the last
two dims. Bilinear: A_h [out_h, in_h] and A_w [out_w, in_w] hold each output
row's two source rows and their weights, as PyTorch's
upsample_bilinear2d computes them (area_pixel_compute_source_index): with
align_corners the corners map to corners, src = dst * (in - 1) / (out -
1); without, src = (dst + 0.5) * scale - 0.5, clamped at 0, scale = 1 /
scale_factor when one is given and in / out otherwise. Bicubic weights
(four source rows an output row, clamped at the edges) and the weights of
antialiased resizes come from PyTorch's own float64 kernel run on the unit
vectors: the resize is linear and separable. The lowering (lowerings.interpolate) makes the
matrices constants; `resize` is the same product in torch, for tests.
"""

import math

import torch
import torch.nn.functional as F


def source_scale(in_size, out_size, align_corners, scale_factor=None):
    """The factor from an output index to its source coordinate."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    if scale_factor is not None and scale_factor > 0:
        return 1.0 / scale_factor
    return in_size / out_size


def interpolation_matrix(in_size, out_size, align_corners,
                         scale_factor=None):
    """[out_size, in_size] float64 weights of one spatial dim."""
    scale = source_scale(in_size, out_size, align_corners, scale_factor)
    matrix = torch.zeros(out_size, in_size, dtype=torch.float64)
    for dst in range(out_size):
        if align_corners:
            src = scale * dst
        else:
            src = max(scale * (dst + 0.5) - 0.5, 0.0)
        low = min(int(math.floor(src)), in_size - 1)
        high = low + 1 if low < in_size - 1 else low
        weight = src - low
        matrix[dst, low] += 1.0 - weight
        matrix[dst, high] += weight
    return matrix


def resampled_matrix(mode, antialias, in_size, out_size, align_corners,
                     scale_factor=None):
    """[out_size, in_size] float64 weights of one spatial dim of PyTorch's
    `mode` resize (with `antialias`): column i is PyTorch's own resize of
    the i-th unit vector, as the resize is linear and separable. The other
    spatial dim has size 2, left as it is: with size 1, torch 2.11's CPU
    antialiased kernel gives weights that do not compose with the other
    dim's (0.69 off on a 16x12 -> 5x7 resize)."""
    basis = torch.eye(in_size, dtype=torch.float64).view(
        in_size, 1, in_size, 1).expand(in_size, 1, in_size, 2).contiguous()
    resized = F.interpolate(basis, mode=mode, align_corners=align_corners,
                            antialias=antialias, **(
                                {"size": (out_size, 2)}
                                if scale_factor is None else
                                {"scale_factor": (scale_factor, 1.0),
                                 "recompute_scale_factor": False}))
    return resized[:, 0, :, 0].t().contiguous()


def bicubic_matrix(in_size, out_size, align_corners, scale_factor=None):
    """Bicubic weights (four source rows an output row, clamped at the
    edges), from PyTorch's float64 kernel."""
    return resampled_matrix("bicubic", False, in_size, out_size,
                            align_corners, scale_factor)


def antialiased_matrix(mode):
    """The weights of an antialiased bilinear or bicubic resize
    (`antialias=True`: NaFlexViT's and SAM's position-embedding resizes),
    whose filter widens with the downscale factor, from PyTorch's own
    float64 kernel."""
    return lambda in_size, out_size, align_corners, scale_factor=None: \
        resampled_matrix(mode, True, in_size, out_size, align_corners,
                         scale_factor)


def adaptive_average_matrix(in_size, out_size, align_corners=False,
                            scale_factor=None):
    """[out_size, in_size] float64 weights of one spatial dim of adaptive
    average pooling (and F.interpolate mode="area", which is that): output
    i averages inputs floor(i * in / out) to ceil((i + 1) * in / out) - 1,
    as PyTorch's adaptive_avg_pool2d does. A window's 2-D mean is the
    product of its rows' and columns' means, so the pool is separable.
    align_corners and scale_factor do not apply."""
    matrix = torch.zeros(out_size, in_size, dtype=torch.float64)
    for dst in range(out_size):
        start = (dst * in_size) // out_size
        end = -((-(dst + 1) * in_size) // out_size)  # ceil
        matrix[dst, start:end] = 1.0 / (end - start)
    return matrix


def scale_factors(scale_factor, recompute_scale_factor, spatial):
    """The per-dim scale factors PyTorch indexes with: the given ones,
    unless recompute_scale_factor asks for the sizes' ratio."""
    if scale_factor is None or recompute_scale_factor:
        return [None] * spatial
    if isinstance(scale_factor, (tuple, list)):
        return [float(s) for s in scale_factor]
    return [float(scale_factor)] * spatial


def resize(x, out_h, out_w, align_corners, scales=(None, None),
           matrix=interpolation_matrix):
    """x [..., H, W] resized by the matrices (bilinear unless `matrix` is
    bicubic_matrix), in float64."""
    a_h = matrix(x.shape[-2], out_h, align_corners, scales[0])
    a_w = matrix(x.shape[-1], out_w, align_corners, scales[1])
    return a_h @ x.double() @ a_w.t()
