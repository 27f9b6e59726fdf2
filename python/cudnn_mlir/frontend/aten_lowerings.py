"""ATen operator overloads (torch.ops.aten.*), as graphs from torch.export
(after run_decompositions) and make_fx carry them, restated as the torch-level
lowerings in lowerings.py. Each adapter takes the overload's own schema.

Results an ATen op returns that models do not use (the saved statistics of
an inference batch norm, max pooling's indices) are `Unavailable`: a later
node that reads one gets an error naming it.
"""

import torch

from . import activation_lowerings as activations
from . import distance_lowerings as distances
from . import grid_sample
from . import logic_lowerings as logic
from . import math_lowerings as math_ops
from . import rearrangement_lowerings as rearrangements
from . import transposed_convolution
from . import lowerings as L
from .lowerings import UnsupportedOperation


class Unavailable:
    """A result the importer does not compute."""

    def __init__(self, what):
        self.what = what


def convolution(ctx, input, weight, bias, stride, padding, dilation,
                transposed, output_padding, groups):
    if transposed:
        return transposed_convolution.aten_convolution(
            ctx, input, weight, bias, stride, padding, dilation,
            output_padding, groups)
    if len(weight.shape) == 3:
        return L.conv1d(ctx, input, weight, bias, stride, padding, dilation,
                        groups)
    if len(weight.shape) == 5:
        return L.conv3d(ctx, input, weight, bias, stride, padding, dilation,
                        groups)
    if len(weight.shape) != 4:
        raise UnsupportedOperation("expects a 1-D, 2-D or 3-D convolution, "
                                   "but got a %d-D weight" % len(weight.shape))
    return L.conv2d(ctx, input, weight, bias, stride, padding, dilation,
                    groups)


_SAVED = (Unavailable("the saved mean of a batch norm"),
          Unavailable("the saved invstd of a batch norm"))


def native_batch_norm(ctx, input, weight, bias, running_mean, running_var,
                      training, momentum, eps):
    y = L.batch_norm(ctx, input, running_mean, running_var, weight, bias,
                     training, momentum, eps)
    return (y,) + _SAVED


def batch_norm_no_training(ctx, input, weight, bias, running_mean,
                           running_var, momentum, eps):
    return native_batch_norm(ctx, input, weight, bias, running_mean,
                             running_var, False, momentum, eps)


def batch_norm_functional(ctx, input, weight, bias, running_mean,
                          running_var, training, momentum, eps):
    """torch.export's batch norm: the new running statistics are results
    (the graph copies them into the buffers after)."""
    y, new_mean, new_var = L.batch_norm_with_statistics(
        ctx, input, running_mean, running_var, weight, bias, training,
        momentum, eps)
    if not training:
        return (y,) + _SAVED
    return (y,) + _SAVED + (new_mean, new_var)


def native_layer_norm(ctx, input, normalized_shape, weight, bias, eps):
    y = L.layer_norm(ctx, input, normalized_shape, weight, bias, eps)
    return (y, Unavailable("the mean of a layer norm"),
            Unavailable("the rstd of a layer norm"))


def fused_rms_norm(ctx, input, normalized_shape, weight, eps):
    """aten._fused_rms_norm: what torch.export records for F.rms_norm on a
    CUDA device (CUDA has a fused kernel; the CPU records aten.rms_norm)."""
    return (L.rms_norm(ctx, input, normalized_shape, weight, eps),
            Unavailable("the rstd of an rms norm"))


def native_group_norm(ctx, input, weight, bias, n, channels, hw, group,
                      eps):
    y = L.group_norm(ctx, input, group, weight, bias, eps)
    return (y, Unavailable("the mean of a group norm"),
            Unavailable("the rstd of a group norm"))


def max_pool2d_with_indices(ctx, input, kernel_size, stride=(), padding=0,
                            dilation=1, ceil_mode=False):
    # The recorded result is (values, indices); values has the shape.
    shape_ctx = _FirstResult(ctx)
    y = L.max_pool2d(shape_ctx, input, kernel_size, stride or None, padding,
                     dilation, ceil_mode)
    return (y, Unavailable("max pooling's indices"))


def adaptive_max_pool2d(ctx, input, output_size):
    # (values, indices), as max_pool2d_with_indices.
    return (L.adaptive_max_pool2d(_FirstResult(ctx), input, output_size),
            Unavailable("adaptive max pooling's indices"))


class _FirstResult:
    """A NodeContext whose result is the first of the node's results."""

    def __init__(self, ctx):
        self._ctx = ctx
        self.result = ctx.result[0]

    def __getattr__(self, name):
        return getattr(self._ctx, name)


def softmax(ctx, input, dim, half_to_float):
    return L.softmax(ctx, input, dim)


def log_softmax(ctx, input, dim, half_to_float):
    return L.log_softmax(ctx, input, dim)


def slice_tensor(ctx, input, dim=0, start=None, end=None, step=1):
    return L._tensor_index(ctx, input, L.slice_index(input.shape, dim, start,
                                                     end, step))


def slice_scatter(ctx, input, src, dim=0, start=None, end=None, step=1):
    """input with input[..., start:end:step, ...] replaced by src: the
    functional form of an in-place op on a slice (torch.export's)."""
    return L.write_box(ctx.w, input, L.slice_index(input.shape, dim, start,
                                                   end, step), src, ctx.loc)


def select_scatter(ctx, input, src, dim, index):
    return L.write_box(ctx.w, input, L.select_index(input.shape, dim, index),
                       src, ctx.loc)


def copy_(ctx, input, src, non_blocking=False):
    """In place: the new value of `input` (the importer writes it back when
    `input` is a function argument)."""
    return L._operand(ctx, src, input.shape, input.dtype)


def avg_pool2d(ctx, input, kernel_size, stride=(), padding=0,
               ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return L.avg_pool2d(ctx, input, kernel_size, stride or None, padding,
                        ceil_mode, count_include_pad, divisor_override)


def index_tensor(ctx, input, indices):
    """aten.index.Tensor: x[idx], x[:, idx], ... with one integer index
    tensor (None stands for a dim left whole); other advanced indexing is
    refused."""
    return L._tensor_index(ctx, input, tuple(
        slice(None) if i is None else i for i in indices))


def binary_scalar(lower):
    def adapter(ctx, input, other, alpha=1):
        return lower(ctx, input, other, alpha=alpha)
    return adapter


def as_strided(ctx, input, size, stride, storage_offset=None):
    """aten.as_strided where it only restates its input's layout: the same
    sizes, storage offset and, over the dims longer than 1, strides as the
    input had when the graph was recorded (each element reads itself).
    torch.export writes one after the mean of AdaptiveAvgPool2d(1) on a
    channels-last tensor (a squeeze-excite's pool) to give the [N, C, 1, 1]
    result channels-last strides. Any other is refused: the importer has
    values, not storage."""
    source = ctx.node.args[0]
    meta = ctx.recorded(source) if isinstance(source, torch.fx.Node) else None
    if meta is None or getattr(meta, "strides", None) is None:
        raise UnsupportedOperation(
            "expects as_strided's input to have recorded strides, but it "
            "has none")
    offset = 0 if storage_offset is None else int(storage_offset)
    size, stride = [int(n) for n in size], [int(s) for s in stride]
    if size != list(meta.shape) or offset != meta.storage_offset or any(
            n != 1 and s != t for n, s, t in zip(size, stride, meta.strides)):
        raise UnsupportedOperation(
            "expects an as_strided that restates its input's layout (sizes "
            "%s, strides %s over the dims longer than 1, storage offset %d), "
            "but got sizes %s, strides %s, storage offset %d"
            % (list(meta.shape), list(meta.strides), meta.storage_offset,
               size, stride, offset))
    return input


def _overloads():
    aten = torch.ops.aten

    def given_scales(scales):
        """An upsample overload's trailing scale arguments as one list per
        spatial dim, or None where none is given: .vec passes
        (scale_factors,), .default (scales_h, scales_w)."""
        if len(scales) == 1:
            scales = scales[0]
        if not scales or all(s is None for s in scales):
            return None
        return [None if s is None else float(s) for s in scales]

    def upsample_nearest(mode):
        def lower(ctx, input, output_size=None, *scales):
            # The recorded result shape gives the sizes; PyTorch indexes
            # with given scales.
            return L.upsample_nearest(ctx, input, mode, given_scales(scales))
        return lower

    def upsample_by_matrices(mode):
        def lower(ctx, input, output_size, align_corners, *scales):
            return L._resize_by_matrices(
                ctx, input, bool(align_corners),
                given_scales(scales) or [None, None], mode)
        return lower

    table = {
        "upsample_bilinear2d.vec": upsample_by_matrices("bilinear"),
        "upsample_bilinear2d.default": upsample_by_matrices("bilinear"),
        "upsample_bicubic2d.vec": upsample_by_matrices("bicubic"),
        **{"_upsample_%s2d_aa.%s" % (mode, overload):
           upsample_by_matrices(mode + " antialiased")
           for mode in ("bilinear", "bicubic")
           for overload in ("vec", "default")},
        "upsample_bicubic2d.default": upsample_by_matrices("bicubic"),
        "convolution.default": convolution,
        "_native_batch_norm_legit_no_training.default":
            batch_norm_no_training,
        "native_batch_norm.default": native_batch_norm,
        "_native_batch_norm_legit_functional.default": batch_norm_functional,
        "native_layer_norm.default": native_layer_norm,
        "rms_norm.default": L.rms_norm,
        "_fused_rms_norm.default": fused_rms_norm,
        "native_group_norm.default": native_group_norm,
        "max_pool2d_with_indices.default": max_pool2d_with_indices,
        "avg_pool2d.default": avg_pool2d,
        "_adaptive_avg_pool2d.default": L.adaptive_avg_pool2d,
        "adaptive_avg_pool2d.default": L.adaptive_avg_pool2d,
        "relu.default": L.relu, "hardtanh.default": L.hardtanh,
        "clamp.default": L.clamp, "sigmoid.default": L.sigmoid,
        "tanh.default": L.tanh, "exp.default": L.exp, "log.default": L.log,
        "sqrt.default": L.sqrt, "rsqrt.default": L.rsqrt,
        "log1p.default": L.log1p, "expm1.default": L.expm1,
        "sign.default": L.sign,
        "neg.default": L.neg, "abs.default": L.abs_, "gelu.default": L.gelu,
        "silu.default": L.silu, "hardsigmoid.default": L.hardsigmoid,
        "hardswish.default": L.hardswish, "leaky_relu.default": L.leaky_relu,
        "amax.default": L.amax, "amin.default": L.amin,
        "sin.default": L.sin, "cos.default": L.cos, "atan.default": L.atan,
        "floor.default": L.floor, "ceil.default": L.ceil,
        "round.default": L.round_, "round.decimals": L.round_,
        "pow.Tensor_Scalar": L.pow_,
        "roll.default": L.roll,
        "max.dim": L.max_, "min.dim": L.min_,
        "max.default": L.max_, "min.default": L.min_,
        "adaptive_avg_pool1d.default": L.adaptive_avg_pool1d,
        "_weight_norm.default": L.weight_norm,
        "_weight_norm_interface.default":
            lambda ctx, v, g, dim=0: (L.weight_norm(ctx, v, g, dim),
                                      Unavailable("the norms of a weight "
                                                  "norm")),
        "unfold.default": L.tensor_unfold,
        "im2col.default": L.unfold_patches,
        "index.Tensor": index_tensor,
        "constant_pad_nd.default": lambda ctx, input, pad, value=0: L.pad(
            ctx, input, pad, "constant", value),
        **{"%s_pad%dd.default" % (name, rank):
           (lambda ctx, input, padding, mode=mode: L.pad(
               ctx, input, list(padding), mode))
           for name, mode in (("reflection", "reflect"),
                              ("replication", "replicate"))
           for rank in (1, 2, 3)},
        "scaled_dot_product_attention.default":
            L.scaled_dot_product_attention,
        "upsample_nearest2d.vec": upsample_nearest("nearest"),
        "upsample_nearest2d.default": upsample_nearest("nearest"),
        "_upsample_nearest_exact2d.vec": upsample_nearest("nearest-exact"),
        "_upsample_nearest_exact2d.default":
            upsample_nearest("nearest-exact"),
        "add.Tensor": binary_scalar(L.add), "add.Scalar": binary_scalar(L.add),
        "sub.Tensor": binary_scalar(L.sub), "sub.Scalar": binary_scalar(L.sub),
        "rsub.Scalar": L.rsub, "rsub.Tensor": L.rsub,
        "mul.Tensor": L.mul, "mul.Scalar": L.mul,
        "div.Tensor": L.div, "div.Scalar": L.div,
        "addmm.default": L.addmm, "mm.default": L.matmul,
        "embedding.default": lambda ctx, weight, indices, padding_idx=-1,
        scale_grad_by_freq=False, sparse=False: L.embedding(
            ctx, indices, weight),
        "bmm.default": L.matmul, "t.default": L.t,
        "baddbmm.default": L.baddbmm, "index_select.default": L.index_select,
        "gather.default": L.gather, "tril.default": L.tril,
        "triu.default": L.triu,
        "permute.default": L.permute, "transpose.int": L.transpose,
        "view.default": L.reshape_like_result,
        "_unsafe_view.default": L.reshape_like_result,
        "_reshape_alias.default": L.reshape_like_result,
        "reshape.default": L.reshape_like_result,
        "squeeze.dim": L.reshape_like_result,
        "squeeze.dims": L.reshape_like_result,
        "unsqueeze.default": L.reshape_like_result,
        "expand.default": L.expand, "cat.default": L.cat,
        "stack.default": L.stack, "repeat.default": L.repeat,
        "addcmul.default": L.addcmul,
        "mean.dim": L.mean, "sum.dim_IntList": L.sum_,
        # Over every dim (x.mean(), x.sum()): a dtype keyword only.
        "mean.default": lambda ctx, input, dtype=None: L.mean(ctx, input),
        "sum.default": lambda ctx, input, dtype=None: L.sum_(ctx, input),
        "cumsum.default": L.cumsum,
        "_softmax.default": softmax, "_log_softmax.default": log_softmax,
        "slice.Tensor": slice_tensor, "select.int": L.select,
        "narrow.default": L.narrow, "copy.default": copy_,
        "linalg_vector_norm.default": L.vector_norm,
        # torch 1.13's _weight_norm (make_fx) reaches these: the p-norm of
        # everything, or over `dim`.
        "norm.Scalar": lambda ctx, input, p=2: L.vector_norm(
            ctx, input, 2 if p is None else p),
        "norm.ScalarOpt_dim": lambda ctx, input, p, dim, keepdim=False:
            L.vector_norm(ctx, input, 2 if p is None else p, dim, keepdim),
        "slice_scatter.default": slice_scatter,
        "select_scatter.default": select_scatter,
        "fill.Scalar": L.fill_, "fill.Tensor": L.fill_, "zero.default": L.zero_,
        "clone.default": L.identity, "alias.default": L.identity,
        "as_strided.default": as_strided,
        "detach.default": L.identity, "contiguous.default": L.identity,
        "lift_fresh_copy.default": L.identity,
        "_to_copy.default": L.cast_to, "copy_.default": copy_,
        "dropout.default": lambda ctx, input, p, train: L.dropout(
            ctx, input, p, train),
        "split.Tensor": L.split_along,
        "split_with_sizes.default": L.split_along,
        "chunk.default": L.split_along, "unbind.int": L.split_along,
    }
    # Binary ops with a tensor or a number as the second operand.
    for name in ("eq", "ne", "lt", "le", "gt", "ge", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "masked_fill"):
        for overload in ("Tensor", "Scalar"):
            table[name + "." + overload] = getattr(logic, name)
    table.update({
        "where.self": logic.where, "where.ScalarSelf": logic.where,
        "where.ScalarOther": logic.where, "where.Scalar": logic.where,
        "bitwise_not.default": logic.bitwise_not,
        "logical_and.default": logic.logical_and,
        "logical_or.default": logic.logical_or,
        "logical_xor.default": logic.logical_xor,
        "logical_not.default": logic.logical_not,
        "isnan.default": logic.isnan, "isinf.default": logic.isinf,
        "isfinite.default": logic.isfinite,
        "any.default": logic.any_, "any.dim": logic.any_,
        "any.dims": logic.any_, "all.default": logic.all_,
        "all.dim": logic.all_, "all.dims": logic.all_,
        "clamp.Tensor": L.clamp,
        "maximum.default": logic.maximum, "minimum.default": logic.minimum,
        "fmax.default": logic.fmax, "fmin.default": logic.fmin,
    })
    table.update(activations.ATEN)
    table.update(math_ops.ATEN)
    table.update(rearrangements.ATEN)
    table.update(transposed_convolution.ATEN)
    table.update(distances.ATEN)
    table.update(grid_sample.ATEN)
    table.update({
        "avg_pool3d.default": L.avg_pool3d,
        "adaptive_avg_pool3d.default": L.adaptive_avg_pool3d,
        "_adaptive_avg_pool3d.default": L.adaptive_avg_pool3d,
        "max_pool3d_with_indices.default":
            lambda ctx, input, kernel_size, stride=(), padding=0,
            dilation=1, ceil_mode=False: (
                L.max_pool3d(_FirstResult(ctx), input, kernel_size,
                             stride or None, padding, dilation, ceil_mode),
                Unavailable("max pooling's indices")),
        "sgn.default": L.sign, "div.Tensor_mode": L.div,
        "div.Scalar_mode": L.div,
        # Instance norm, as torch.export decomposes it: a batch norm of
        # [1, N C, ..] with batch statistics and none tracked.
        "_native_batch_norm_legit.no_stats":
            lambda ctx, input, weight, bias, training, momentum, eps:
            native_batch_norm(ctx, input, weight, bias, None, None,
                              training, momentum, eps),
    })
    table.update({
        "var.correction": L.var, "var.dim": L.var, "std.correction": L.std,
        "std.dim": L.std, "var_mean.correction": L.var_mean,
        "std_mean.correction": L.std_mean,
        "adaptive_max_pool2d.default": adaptive_max_pool2d,
    })
    overloads = {}
    for name, lower in table.items():
        packet, _, overload = name.partition(".")
        # The in-place twin (relu_, add_.Tensor: make_fx keeps them) lowers
        # the same; the importer rebinds the mutated value.
        for variant in (packet, packet + "_"):
            op = getattr(getattr(aten, variant, None), overload, None)
            if op is not None and op not in overloads:
                overloads[op] = lower
    return overloads


FUNCTIONS = _overloads()


def check_available(args):
    """Raises when an argument is a result the importer did not compute."""
    for a in args:
        if isinstance(a, Unavailable):
            raise UnsupportedOperation("uses %s, which the importer does not "
                                       "compute" % a.what)
        if isinstance(a, (list, tuple)):
            check_available(a)
