"""Transposed convolutions (nn.ConvTranspose1d/2d, F.conv_transpose1d/2d,
aten.convolution with transposed=True) as forward convolutions, with no
work wasted on inserted zeros: the sub-pixel form; and F.fold, which is
one.

Along one spatial dim with stride s, padding p, dilation d and kernel k,
output position o = s q + r (phase r in [0, s)) sums x[i] w[j] over the
taps j with i s - p + d j = o, that is the taps with (r + p - d j)
divisible by s, each reading x at q + (r + p - d j) / s. Those offsets
form an arithmetic sequence, so phase r is an ordinary stride-1
cross-correlation of x with the phase's taps in reversed order (dilated by
the offsets' step, padded so that offset e reads x[q + e]). Each of the
s_h * s_w phases is one tcp.conv2d, the weight's in and out channels
swapped (per group) and its taps picked by a tcp.gather of the
parameters; the phases' outputs interleave into the result (reshapes and
a concat). Where every phase reads the same offsets (kernel = stride and
no padding: U-Net's 2x2 up-convolutions) the phases are one convolution
with s_h * s_w times the output channels, then a depth-to-space
transpose. The convolutions run as cuDNN's forward convolutions, the
same multiply-adds a cuDNN transposed (data-gradient) convolution would
do.
"""

import torch.nn as nn
import torch.nn.functional as F

from .lowering_arguments import UnsupportedOperation
from .lowering_arguments import pair as _pair
from .lowering_arguments import triple as _triple
from .tcp_writer import FLOAT_TYPES, Value


def _phases(size, k, s, p, d, out):
    """(rows per phase, per phase r: (taps by increasing offset, offsets))
    along one dim of `size` inputs and `out` outputs."""
    rows = -(-out // s)
    phases = []
    for r in range(s):
        taps = sorted((j for j in range(k) if (r + p - d * j) % s == 0),
                      key=lambda j: (r + p - d * j) // s)
        phases.append((taps, [(r + p - d * j) // s for j in taps]))
    return rows, phases


def _swap_channels(ctx, weight, groups):
    """A transposed convolution's [C_in, C_out/g, kh, kw] weight as a
    forward convolution's [C_out, C_in/g, kh, kw]."""
    cin, cog, kh, kw = weight.shape
    w = ctx.w.reshape(weight, (groups, cin // groups, cog, kh, kw), ctx.loc)
    w = ctx.w.transpose(w, [0, 2, 1, 3, 4], ctx.loc)
    return ctx.w.reshape(w, (groups * cog, cin // groups, kh, kw), ctx.loc)


def _window(ctx, x, offsets, rows, axis):
    """x cut or zero-padded along `axis` so that output q of a stride-1
    correlation reads x[q + offsets[t]]: (x, pad before, pad after), the
    pads non-negative."""
    size = x.shape[axis]
    before, after = -offsets[0], rows - 1 + offsets[-1] - (size - 1)
    cut_before, cut_after = max(-before, 0), max(-after, 0)
    if cut_before or cut_after:
        starts, sizes = [0] * x.rank, list(x.shape)
        starts[axis] = cut_before
        sizes[axis] = size - cut_before - cut_after
        x = ctx.w.slice(x, starts, sizes, [1] * x.rank, ctx.loc)
    return x, max(before, 0), max(after, 0)


def _phase_kernel(ctx, weight, phase_h, phase_w):
    """The forward weight's taps a phase reads, in its correlation's
    order (a tcp.gather along kh, then kw)."""
    from .lowerings import _gather_along
    return _gather_along(ctx, _gather_along(ctx, weight, phase_h[0], 2),
                         phase_w[0], 3)


def _phase_conv(ctx, x, kernel, phase_h, phase_w, rows, groups):
    """The stride-1 correlation of x with `kernel` that reads x at the
    phase's offsets: [N, kernel's out channels, rows_h, rows_w]."""
    offs_h, offs_w = phase_h[1], phase_w[1]
    x, top, bottom = _window(ctx, x, offs_h, rows[0], 2)
    x, left, right = _window(ctx, x, offs_w, rows[1], 3)
    dilation = tuple(offs[1] - offs[0] if len(offs) > 1 else 1
                     for offs in (offs_h, offs_w))
    return ctx.w.convolution(x, kernel, (1, 1), [top, bottom, left, right],
                             dilation, groups, ctx.loc)


def _interleave(ctx, pieces, n, c, rows, strides):
    """pieces[ry][rx], each [N, C, rows_h, rows_w], as [N, C, rows_h * s_h,
    rows_w * s_w] with piece (ry, rx) at rows s_h q + ry, columns s_w q +
    rx."""
    rh, rw = rows
    columns = []
    for row in pieces:
        spread = [ctx.w.reshape(p, (n, c, rh, 1, rw, 1), ctx.loc)
                  for p in row]
        columns.append(ctx.w.concat(spread, 5, ctx.loc) if len(spread) > 1
                       else spread[0])
    y = ctx.w.concat(columns, 3, ctx.loc) if len(columns) > 1 \
        else columns[0]
    return ctx.w.reshape(y, (n, c, rh * strides[0], rw * strides[1]),
                         ctx.loc)


def _conv_transpose(ctx, x, weight, bias, stride, padding, groups,
                    dilation, out):
    """The transposed convolution of the NCHW or NCDHW `x` to spatial size
    `out` (which fixes the output padding): tcp.conv_transpose2d/3d, or for
    a 2-D one whose output padding passes its stride (allowed below the
    dilation) the sub-pixel form; a 3-D one has none and is refused."""
    spatial = x.rank - 2
    window = "kh, kw" if spatial == 2 else "kd, kh, kw"
    if isinstance(padding, str):
        raise UnsupportedOperation("expects a transposed convolution's "
                                   "padding to be numbers, but got '%s'"
                                   % padding)
    if not isinstance(weight, Value) or weight.rank != x.rank:
        raise UnsupportedOperation("expects a [C_in, C_out/groups, %s] "
                                   "weight tensor" % window)
    per_dim = _pair if spatial == 2 else _triple
    stride, padding, dilation = (per_dim(v) for v in (stride, padding,
                                                      dilation))
    groups = int(groups)
    cin = x.shape[1]
    if weight.shape[0] != cin or cin % groups:
        raise UnsupportedOperation(
            "expects a weight of [C_in = %d, C_out/groups, %s] with "
            "groups (%d) dividing C_in, but got %s"
            % (cin, window, groups, list(weight.shape)))
    extra = [o - ((size - 1) * s - 2 * p + d * (k - 1) + 1)
             for size, k, s, p, d, o in zip(x.shape[2:], weight.shape[2:],
                                            stride, padding, dilation, out)]
    past = [(e, s) for e, s in zip(extra, stride) if not 0 <= e < s]
    if not past:
        y = ctx.w.conv_transpose(x, weight, stride, padding, dilation,
                                 groups, out, ctx.loc)
    elif spatial == 2:
        y = _sub_pixel(ctx, x, weight, stride, padding, dilation, groups,
                       out)
    else:
        raise UnsupportedOperation(
            "expects a 3-D transposed convolution's output padding below "
            "its stride %d, but got %d" % (past[0][1], past[0][0]))
    if bias is not None:
        y = ctx.w.add_channel_bias(y, bias, ctx.loc)
    return y


def _sub_pixel(ctx, x, weight, stride, padding, dilation, groups, out_hw):
    """The sub-pixel form (the module's docstring) of a transposed
    convolution without bias."""
    n, cin, h, w = x.shape
    cout = weight.shape[1] * groups
    plans = [_phases(size, k, s, p, d, o) for size, k, s, p, d, o in zip(
        (h, w), weight.shape[2:], stride, padding, dilation, out_hw)]
    rows = (plans[0][0], plans[1][0])
    forward = _swap_channels(ctx, weight, groups)
    same_offsets = all(len({tuple(offs) for _, offs in plan[1]}) == 1 and
                       plan[1][0][0] for plan in plans)
    if same_offsets and groups == 1 and stride != (1, 1):
        # One convolution for every phase: the phases' kernels stacked
        # along the output channels, then depth to space.
        stacked = ctx.w.concat([
            _phase_kernel(ctx, forward, phase_h, phase_w)
            for phase_h in plans[0][1] for phase_w in plans[1][1]], 0,
            ctx.loc)
        y = _phase_conv(ctx, x, stacked, plans[0][1][0], plans[1][1][0],
                        rows, 1)
        y = ctx.w.reshape(y, (n, stride[0], stride[1], cout) + rows, ctx.loc)
        y = ctx.w.transpose(y, [0, 3, 4, 1, 5, 2], ctx.loc)
        y = ctx.w.reshape(y, (n, cout, rows[0] * stride[0],
                              rows[1] * stride[1]), ctx.loc)
    else:
        zeros = None
        pieces = []
        for phase_h in plans[0][1]:
            row = []
            for phase_w in plans[1][1]:
                if not phase_h[0] or not phase_w[0]:  # no tap lands here
                    if zeros is None:
                        zeros = ctx.w.splat(0.0, (n, cout) + rows, x.dtype,
                                            ctx.loc)
                    row.append(zeros)
                else:
                    row.append(_phase_conv(
                        ctx, x, _phase_kernel(ctx, forward, phase_h,
                                              phase_w),
                        phase_h, phase_w, rows, groups))
            pieces.append(row)
        y = _interleave(ctx, pieces, n, cout, rows, stride)
    if tuple(y.shape[2:]) != tuple(out_hw):
        starts = [0, 0, 0, 0]
        y = ctx.w.slice(y, starts, [n, cout] + list(out_hw), [1] * 4,
                        ctx.loc)
    return y


def _batched_float(ctx, input, layout):
    if not isinstance(input, Value) or input.dtype not in FLOAT_TYPES or \
            input.rank != len(layout):
        raise UnsupportedOperation("expects a %d-D (batched %s) float input, "
                                   "but got %s"
                                   % (len(layout), layout, getattr(
                                       input, "type", type(input).__name__)))
    return input


def conv_transpose2d(ctx, input, weight, bias=None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1):
    """F.conv_transpose2d; the output padding (or a module call's
    output_size) is read from the recorded result's shape."""
    x = _batched_float(ctx, input, "NCHW")
    return _conv_transpose(ctx, x, weight, bias, stride, padding, groups,
                           dilation, tuple(ctx.result.shape[2:]))


def conv_transpose3d(ctx, input, weight, bias=None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1):
    """F.conv_transpose3d (3-D U-Nets, video decoders): tcp.conv_transpose3d,
    cuDNN's data-gradient convolution with three spatial dims; the output
    padding must stay below the stride (there is no 3-D sub-pixel form)."""
    x = _batched_float(ctx, input, "NCDHW")
    return _conv_transpose(ctx, x, weight, bias, stride, padding, groups,
                           dilation, tuple(ctx.result.shape[2:]))


def _one(v):
    return int(v[0]) if isinstance(v, (tuple, list)) else int(v)


def conv_transpose1d(ctx, input, weight, bias=None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1):
    """The 2-D form over [N, C, 1, L] with a [C_in, C_out/g, 1, k] weight."""
    x = _batched_float(ctx, input, "NCL")
    n, c, length = x.shape
    cin, cog, taps = weight.shape
    out = ctx.result.shape
    y = _conv_transpose(
        ctx, ctx.w.reshape(x, (n, c, 1, length), ctx.loc),
        ctx.w.reshape(weight, (cin, cog, 1, taps), ctx.loc), bias,
        (1, _one(stride)), (0, _one(padding)), groups, (1, _one(dilation)),
        (1, out[2]))
    return ctx.w.reshape(y, out, ctx.loc)


def _module(lower):
    def call(ctx, m, input, output_size=None):
        if m.padding_mode != "zeros":
            raise UnsupportedOperation("expects padding_mode='zeros', but got "
                                       "'%s'" % m.padding_mode)
        return lower(ctx, input, ctx.parameter("weight"),
                     ctx.parameter("bias") if m.bias is not None else None,
                     m.stride, m.padding, m.output_padding, m.groups,
                     m.dilation)
    return call


def aten_convolution(ctx, input, weight, bias, stride, padding, dilation,
                     output_padding, groups):
    """aten.convolution with transposed=True."""
    lower = {3: conv_transpose1d, 4: conv_transpose2d,
             5: conv_transpose3d}.get(len(weight.shape))
    if lower is None:
        raise UnsupportedOperation("expects a 1-D, 2-D or 3-D transposed "
                                   "convolution, but got a %d-D weight"
                                   % len(weight.shape))
    return lower(ctx, input, weight, bias, stride, padding, output_padding,
                 groups, dilation)


def fold(ctx, input, output_size, kernel_size, dilation=1, padding=0,
         stride=1):
    """F.fold / nn.Fold (col2im; VOLO's outlooker), the adjoint of unfold:
    the transposed convolution of the [N, C kh kw, blocks_h, blocks_w]
    columns with one-hot weights, one group per channel (column j of a
    group lands at window position (j // kw, j % kw)), overlaps summed."""
    import torch
    from .recording import tensor_bytes, torch_type
    x = input
    if not isinstance(x, Value) or x.rank not in (2, 3) or \
            x.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects F.fold of a float [N, C kh kw, L] "
                                   "or [C kh kw, L] tensor")
    batched = x.rank == 3
    if not batched:
        x = ctx.w.reshape(x, (1,) + x.shape, ctx.loc)
    (kh, kw), (dh, dw) = _pair(kernel_size), _pair(dilation)
    (ph, pw), (sh, sw) = _pair(padding), _pair(stride)
    out_h, out_w = _pair(output_size)
    n, ckk, length = x.shape
    blocks = [(size + 2 * p - d * (k - 1) - 1) // s + 1 for size, p, d, k, s
              in ((out_h, ph, dh, kh, sh), (out_w, pw, dw, kw, sw))]
    if ckk % (kh * kw) or blocks[0] * blocks[1] != length:
        raise UnsupportedOperation(
            "expects fold's input of [N, C * %d, %d] for a %dx%d output, but "
            "got %s" % (kh * kw, blocks[0] * blocks[1], out_h, out_w,
                        list(input.shape)))
    channels = ckk // (kh * kw)
    one_hot = torch.zeros(ckk, 1, kh, kw)
    for c in range(channels):
        for j in range(kh * kw):
            one_hot[c * kh * kw + j, 0, j // kw, j % kw] = 1
    one_hot = one_hot.to(torch_type(x.dtype))
    weight = ctx.w.literal(tensor_bytes(one_hot), one_hot.shape, x.dtype,
                           ctx.loc)
    columns = ctx.w.reshape(x, (n, ckk, blocks[0], blocks[1]), ctx.loc)
    y = _conv_transpose(ctx, columns, weight, None, (sh, sw), (ph, pw),
                        channels, (dh, dw), (out_h, out_w))
    return y if batched else ctx.w.reshape(y, y.shape[1:], ctx.loc)


FUNCTIONS = {
    F.fold: fold,
    F.conv_transpose2d: conv_transpose2d,
    F.conv_transpose1d: conv_transpose1d,
    F.conv_transpose3d: conv_transpose3d,
}

# torch.export's form (aten_lowerings registers it).
ATEN = {"col2im.default": fold}

MODULES = {
    nn.Fold: lambda ctx, m, x: fold(ctx, x, m.output_size, m.kernel_size,
                                    m.dilation, m.padding, m.stride),
    nn.ConvTranspose2d: _module(conv_transpose2d),
    nn.ConvTranspose1d: _module(conv_transpose1d),
    nn.ConvTranspose3d: _module(conv_transpose3d),
}
