"""Every operation the importer supports, alone (or with the one op it needs
to be observable), as e2e tests."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from registry import causal_mask, rand, register


class Fn1(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class Fn2(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x, y):
        return self.fn(x, y)


class Fn3(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x, y, z):
        return self.fn(x, y, z)


def _affine(norm):
    """`norm` with random scale and shift (they start as 1 and 0)."""
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.5, 0.5)
    return norm


def one(*shape, **kw):
    return lambda: [rand(*shape, **kw)]


def two(a, b, **kw):
    return lambda: [rand(*a, **kw), rand(*b, **kw)]


IMAGE = (2, 8, 12, 12)

# -- convolution, pooling, normalisation --------------------------------------

register("conv2d_bias", one(2, 3, 16, 16))(
    lambda: nn.Conv2d(3, 16, 3, padding=1))
register("conv2d_stride2_nobias", one(2, 8, 15, 15))(
    lambda: nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False))
register("conv2d_depthwise", one(2, 16, 12, 12))(
    lambda: nn.Conv2d(16, 16, 3, padding=1, groups=16, bias=False))
register("conv2d_dilated", one(2, 8, 16, 16))(
    lambda: nn.Conv2d(8, 8, 3, padding=2, dilation=2))
register("conv2d_functional", two((2, 4, 10, 10), (8, 4, 3, 3)))(
    lambda: Fn2(lambda x, w: F.conv2d(x, w, stride=1, padding=1)))

class _FoldUnfold(nn.Module):
    """F.fold (VOLO's outlooker folds its attended windows back), with
    stride and padding, and nn.Fold with overlapping 2x2 windows."""

    def __init__(self):
        super().__init__()
        self.fold = nn.Fold((9, 10), 2)

    def forward(self, x):
        return (F.fold(F.unfold(x, 3, padding=1, stride=2) * 0.5, (9, 10), 3,
                       padding=1, stride=2),
                self.fold(F.unfold(x, 2)))


register("fold_unfold", one(2, 4, 9, 10))(_FoldUnfold)
register("interpolate_antialias", one(2, 4, 12, 15))(lambda: Fn1(
    lambda x: (F.interpolate(x, size=(5, 7), mode="bilinear",
                             antialias=True),
               F.interpolate(x, scale_factor=0.5, mode="bicubic",
                             antialias=True, align_corners=True))))
register("conv_transpose2d_unet", one(2, 8, 6, 7))(
    lambda: nn.Sequential(nn.ConvTranspose2d(8, 4, 2, stride=2), nn.ReLU()))


class _TransposedConvForms(nn.Module):
    """Transposed convolutions (cuDNN data-gradient convolutions): DCGAN's
    k4 s2 p1, with output padding and groups, with stride 1, dilated, a
    module called with output_size; and an output padding past the stride
    (allowed below the dilation), which the sub-pixel form computes."""

    def __init__(self):
        super().__init__()
        self.dcgan = nn.ConvTranspose2d(8, 6, 4, stride=2, padding=1,
                                        bias=False)
        self.grouped = nn.ConvTranspose2d(8, 6, 3, stride=2, padding=1,
                                          output_padding=1, groups=2)
        self.same = nn.ConvTranspose2d(8, 4, 3, padding=1)
        self.dilated = nn.ConvTranspose2d(8, 4, 3, stride=3, dilation=2,
                                          padding=2)
        self.sized = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1)
        self.past_stride = nn.ConvTranspose2d(8, 4, 3, dilation=3,
                                              output_padding=2)

    def forward(self, x):
        return (self.dcgan(x), self.grouped(x), self.same(x),
                self.dilated(x),
                self.sized(x, output_size=[2 * x.shape[2],
                                           2 * x.shape[3]]),
                self.past_stride(x))


register("conv_transpose2d_forms", one(2, 8, 5, 6))(_TransposedConvForms)


class _TransposedConv3dForms(nn.Module):
    """3-D transposed convolutions: a 3-D U-Net's 2x2x2 stride-2
    up-convolution, and one strided in H and W only with padding, output
    padding, groups and a bias."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose3d(8, 4, 2, stride=2, bias=False)
        self.mixed = nn.ConvTranspose3d(8, 6, 3, stride=(1, 2, 2), padding=1,
                                        output_padding=(0, 1, 1), groups=2)

    def forward(self, x):
        return torch.relu(self.up(x)), self.mixed(x)


register("conv_transpose3d_forms", one(2, 8, 3, 4, 5))(_TransposedConv3dForms)
register("conv_transpose1d_upsample", one(2, 8, 10))(
    lambda: nn.Sequential(nn.ConvTranspose1d(8, 4, 16, stride=8, padding=4),
                          nn.LeakyReLU(0.1)))

class _PatchEmbedding(nn.Module):
    """ViT's patch embedding: a conv whose stride is its window over an RGB
    input (f16/bf16 run it as a transpose and one matmul,
    tcp-fuse-for-cudnn's patch-conv-as-matmul), then the patches as tokens."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Conv2d(3, 32, 8, stride=8)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


register("patch_embedding", one(2, 3, 32, 48))(lambda: _PatchEmbedding())

# ECA channel attention (timm's ecaresnet): a 1-D conv over the channels.
register("conv1d", one(2, 8, 20))(
    lambda: nn.Conv1d(8, 6, 3, padding=1, stride=2, bias=True))
register("conv1d_functional", two((2, 1, 16), (1, 1, 5)))(
    lambda: Fn2(lambda x, w: F.conv1d(x, w, padding=2)))
register("stack_repeat", two((2, 3, 4), (2, 3, 4)))(
    lambda: Fn2(lambda x, y: torch.stack([x, y * 2.0], dim=1).sum(1)
                + x.repeat(1, 2, 1)[:, :3] + y.repeat(2, 1, 1, 1)[1]))
register("addcmul", lambda: [rand(2, 8, 16), rand(16), rand(2, 8, 16)])(
    lambda: Fn3(lambda x, a, b: torch.addcmul(x, a, b, value=0.5)
                + x.addcmul(a, b)))
register("batch_norm_eval", one(*IMAGE))(lambda: nn.BatchNorm2d(8))
register("batch_norm_train", one(4, 8, 12, 12), train=True,
         tolerance={"f16": (2e-2, 2e-2)})(lambda: nn.BatchNorm2d(8))
# 160 channels (NCHW): the statistics kernel also normalises, a block per
# channel.
register("batch_norm_train_wide", one(2, 160, 6, 8), train=True,
         tolerance={"f16": (2e-2, 2e-2)})(lambda: nn.BatchNorm2d(160))
# A channels-last input: statistics, merge and normalisation as one
# grid-sync kernel.
register("batch_norm_train_channels_last",
         lambda: [rand(4, 64, 10, 12).contiguous(
             memory_format=torch.channels_last)],
         train=True, tolerance={"f16": (2e-2, 2e-2)})(
    lambda: nn.BatchNorm2d(64))
register("batch_norm1d_eval", one(8, 16))(lambda: nn.BatchNorm1d(16))
register("max_pool2d", one(*IMAGE))(
    lambda: nn.MaxPool2d(3, stride=2, padding=1))
# A stem (3 input channels, a large output: the conv runs alone in f16 and
# bf16), its bias and ReLU, then a max pool: the compiler pools first and
# adds the bias and ReLU to the pooled tensor.
register("conv_stem_relu_max_pool", one(2, 3, 224, 224))(
    lambda: nn.Sequential(nn.Conv2d(3, 16, 7, stride=2, padding=3),
                          nn.ReLU(), nn.MaxPool2d(3, stride=2, padding=1)))
register("max_pool2d_ceil", one(2, 8, 11, 11))(
    lambda: nn.MaxPool2d(2, stride=2, ceil_mode=True))
register("avg_pool2d", one(*IMAGE))(lambda: nn.AvgPool2d(2))
register("avg_pool2d_pad_exclude", one(*IMAGE))(
    lambda: nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False))
register("adaptive_avg_pool2d", one(2, 8, 7, 7))(
    lambda: nn.AdaptiveAvgPool2d((1, 1)))
# On a channels-last input torch.export writes the mean then an as_strided
# that gives the [N, C, 1, 1] result channels-last strides (a no-op the
# importer checks against the traced strides).
register("adaptive_avg_pool2d_channels_last",
         lambda: [rand(2, 16, 7, 7).contiguous(
             memory_format=torch.channels_last)])(
    lambda: nn.AdaptiveAvgPool2d(1))
# And a pool that keeps the size (AlexNet's and VGG's AdaptiveAvgPool2d at
# 224x224): it folds away.
register("adaptive_avg_pool2d_same_size", one(2, 8, 6, 6))(
    lambda: nn.Sequential(nn.ReLU(), nn.AdaptiveAvgPool2d((6, 6))))
# To sizes that do not divide the input (overlapping windows of uneven
# sizes: two products with averaging matrices), and F.interpolate's
# mode="area", which is that pool.
class _UnevenAdaptivePools(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((5, 3))

    def forward(self, x):
        return (F.adaptive_avg_pool2d(x, (3, 4))
                + F.interpolate(x, size=(3, 4), mode="area")
                + F.pad(self.pool(x)[..., :3, :], (0, 1)))


register("adaptive_avg_pool2d_uneven", one(2, 8, 7, 10))(
    _UnevenAdaptivePools)
class _AdaptiveMaxPools(nn.Module):
    """Adaptive max pools: to sizes that tile the input (a max pool), to
    sizes that do not (overlapping windows, separable slices), global, and
    the 1-D form."""

    def __init__(self):
        super().__init__()
        self.global_max = nn.AdaptiveMaxPool2d(1)

    def forward(self, x):
        tiled = F.adaptive_max_pool2d(x, (7, 1))
        uneven = F.adaptive_max_pool2d(x, (3, 4))
        rows = F.adaptive_max_pool1d(x.flatten(2), 5)
        return (tiled.flatten(1), uneven.flatten(1), rows.flatten(1),
                self.global_max(x).flatten(1))


register("adaptive_max_pool", one(2, 8, 7, 10))(_AdaptiveMaxPools)
if hasattr(nn, "RMSNorm"):  # torch 2.4+
    class _RmsNorms(nn.Module):
        """nn.RMSNorm (default eps: the type's epsilon) and F.rms_norm over
        the last two dims with an eps, no weight."""

        def __init__(self):
            super().__init__()
            self.norm = nn.RMSNorm(16)

        def forward(self, x):
            return self.norm(x) + F.rms_norm(x, (5, 16), eps=1e-5)

    register("rms_norm_torch", one(2, 5, 16))(_RmsNorms)
register("layer_norm", one(4, 10, 32))(lambda: nn.LayerNorm(32))
register("layer_norm_2d_no_affine", one(4, 10, 32))(
    lambda: nn.LayerNorm((10, 32), elementwise_affine=False))
register("group_norm", one(*IMAGE))(lambda: _affine(nn.GroupNorm(4, 8)))
register("group_norm_one_group", one(*IMAGE, low=-2, high=4))(
    lambda: _affine(nn.GroupNorm(1, 8)))
register("group_norm_no_affine", one(2, 6, 5, 7))(
    lambda: nn.GroupNorm(3, 6, affine=False))

# -- elementwise ---------------------------------------------------------------

register("relu", one(*IMAGE))(lambda: nn.ReLU())
register("relu6", one(*IMAGE, low=-8, high=8))(lambda: nn.ReLU6())
register("hardtanh", one(*IMAGE, low=-3, high=3))(
    lambda: nn.Hardtanh(-2.0, 2.5))
register("clamp", one(*IMAGE))(lambda: Fn1(lambda x: x.clamp(-0.5, 0.25)))
register("sigmoid", one(*IMAGE, low=-6, high=6))(lambda: nn.Sigmoid())
register("tanh", one(*IMAGE, low=-3, high=3))(lambda: nn.Tanh())
register("exp", one(*IMAGE))(lambda: Fn1(torch.exp))
register("log", one(*IMAGE, low=0.1, high=4))(lambda: Fn1(torch.log))
register("sqrt", one(*IMAGE, low=0.01, high=4))(lambda: Fn1(torch.sqrt))
register("rsqrt", one(*IMAGE, low=0.1, high=4))(lambda: Fn1(torch.rsqrt))
register("neg_abs", one(*IMAGE))(lambda: Fn1(lambda x: (-x).abs()))
register("pow_scalars", one(*IMAGE, low=0.5, high=2))(lambda: Fn1(
    lambda x: x ** 2 + torch.pow(x, 3) - x.pow(0.5) + x ** -1))


class RMSNorm(nn.Module):
    """x * rsqrt(mean(x ** 2) + eps) * weight, as LLaMA-style models write
    it."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)

    def forward(self, x):
        scale = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * scale * self.weight


register("rms_norm", one(4, 10, 32))(lambda: RMSNorm(32))



if hasattr(F, "scaled_dot_product_attention"):  # torch 2.x
    register("sdpa", lambda: [rand(2, 4, 10, 16), rand(2, 4, 12, 16),
                              rand(2, 4, 12, 8)])(
        lambda: Fn3(F.scaled_dot_product_attention))
    register("sdpa_float_mask_scale", lambda: [rand(2, 4, 10, 16),
                                               causal_mask(10)])(
        lambda: Fn2(lambda x, mask: F.scaled_dot_product_attention(
            x, x, x, attn_mask=mask, scale=0.3)))
    # 128 keys: at least tcp-fuse-for-cudnn's attention-min-keys (64), so
    # f16/bf16 run as one cuDNN flash-attention graph (the two above stay
    # matmuls and a softmax).
    register("sdpa_long", lambda: [rand(2, 4, 128, 64), causal_mask(128)])(
        lambda: Fn2(lambda x, mask: F.scaled_dot_product_attention(
            x, x, x, attn_mask=mask)))
    register("sdpa_bool_mask", lambda: [
        rand(2, 4, 10, 16),
        (torch.rand(10, 10) > 0.4) | torch.eye(10, dtype=torch.bool)])(
        lambda: Fn2(lambda x, keep: F.scaled_dot_product_attention(
            x, x, x, attn_mask=keep)))
    register("sdpa_causal", one(2, 4, 10, 16))(
        lambda: Fn1(lambda x: F.scaled_dot_product_attention(
            x, x, x, is_causal=True)))
    # 5-D q/k/v, [1, B, H, S, D] (timm's NesT and Hiera): f16/bf16 take
    # the flash-attention graph over the collapsed leading dims.
    register("sdpa_5d", lambda: [rand(1, 2, 4, 128, 32),
                                 rand(1, 2, 4, 128, 32)])(
        lambda: Fn2(lambda q, kv: F.scaled_dot_product_attention(
            q, kv, kv * 0.5)))
    register("sdpa_gqa", lambda: [rand(2, 8, 10, 16), rand(2, 2, 12, 16)])(
        lambda: Fn2(lambda q, kv: F.scaled_dot_product_attention(
            q, kv, kv, enable_gqa=True)))

# -- comparisons, selection, boolean logic -------------------------------------

register("compare_where", two(IMAGE, IMAGE))(
    lambda: Fn2(lambda x, y: torch.where(x > y, x, y * 2.0)
                + (x <= 0.5).to(x.dtype) - torch.eq(x, y).to(x.dtype)))
register("masked_fill_logic", two(IMAGE, IMAGE))(
    lambda: Fn2(lambda x, y: x.masked_fill(
        ((x < 0) & ~(y > 0.25)) | torch.isnan(y), -3.0)
        + torch.logical_xor(x > 0, y > 0).to(x.dtype)))
register("compare_integers", one(*IMAGE))(
    lambda: Fn1(lambda x: torch.where((x * 4).to(torch.int64) >= 2, x, -x)))
# T5's fp16 overflow guard: a tensor bound from any() over isinf.
register("clamp_by_any", one(*IMAGE, low=-4, high=4))(
    lambda: Fn1(lambda x: torch.clamp(
        x, min=-torch.where(torch.isinf(x).any(), 1.0, 2.0),
        max=torch.where(torch.isinf(x).any(), 1.0, 2.0))
        + torch.all(x < 10).to(x.dtype)))


class _CumsumPositions(nn.Module):
    """RoBERTa's position ids (a cumsum over the non-padding mask, the
    .int()/.long() casts) looked up in a table, plus a running mean of the
    input along the sequence (a float cumsum)."""

    def __init__(self):
        super().__init__()
        self.positions = nn.Embedding(16, 8)

    def forward(self, x):
        mask = (x[..., 0] > -0.5).int()
        ids = (torch.cumsum(mask, dim=1).type_as(mask) * mask).long() + 1
        running = x.cumsum(1) / x.shape[1]
        return self.positions(ids) + running


register("cumsum_positions", one(3, 12, 8))(lambda: _CumsumPositions())

register("sin_cos", one(*IMAGE, low=-6, high=6))(
    lambda: Fn1(lambda x: torch.sin(x) * x.cos()))
register("atan", one(*IMAGE, low=-6, high=6))(lambda: Fn1(torch.atan))
register("floor_ceil_round", one(*IMAGE, low=-8, high=8))(
    lambda: Fn1(lambda x: torch.floor(x) + x.ceil() * 2.0 + torch.round(x)))
register("gelu", one(*IMAGE, low=-4, high=4))(lambda: nn.GELU())
register("gelu_tanh", one(*IMAGE, low=-4, high=4))(
    lambda: Fn1(lambda x: F.gelu(x, approximate="tanh")))
register("silu", one(*IMAGE, low=-4, high=4))(lambda: nn.SiLU())
register("hardsigmoid", one(*IMAGE, low=-5, high=5))(
    lambda: nn.Hardsigmoid())
register("hardswish", one(*IMAGE, low=-5, high=5))(lambda: nn.Hardswish())
register("leaky_relu", one(*IMAGE))(lambda: nn.LeakyReLU(0.1))
register("leaky_relu_functional", one(*IMAGE))(
    lambda: Fn1(lambda x: F.leaky_relu(x, 0.2)))
class _SoftplusFamily(nn.Module):
    """Softplus (beta, threshold: both branches), Mish, log-sigmoid,
    softsign and tanhshrink on values up to +-12 (exp(12) overflows f16)."""

    def __init__(self):
        super().__init__()
        self.softplus = nn.Softplus(beta=2.0, threshold=6.0)
        self.mish = nn.Mish()

    def forward(self, x):
        return (self.softplus(x) + F.softplus(x) + self.mish(x) +
                F.logsigmoid(x) + F.softsign(x) + F.tanhshrink(x / 4))


class _ExponentialUnits(nn.Module):
    """ELU, CELU, SELU, PReLU (one slope per channel), RReLU (eval)."""

    def __init__(self):
        super().__init__()
        self.prelu = nn.PReLU(8)
        with torch.no_grad():
            self.prelu.weight.uniform_(0.0, 0.5)
        self.elu = nn.ELU(0.5)

    def forward(self, x):
        return (self.elu(x) + F.celu(x, 2.0) + torch.selu(x) +
                self.prelu(x) + F.rrelu(x, training=False))


class _ShrinksAndGates(nn.Module):
    """Hard/soft shrink, threshold, and GLU over the channels. The bounds
    are exact in every float type: PyTorch itself compares a bf16 input
    with F.threshold's 0.1 in bf16 on CUDA and in f32 on the CPU and in
    torch.export's decomposition, so an input of bf16(0.1) has two
    answers."""

    def forward(self, x):
        y = F.hardshrink(x, 0.5) + F.softshrink(x, 0.25) + \
            F.threshold(x, 0.125, -1.0)
        return F.glu(y, dim=1)


class _ElementwiseMath(nn.Module):
    """math_lowerings.py's compositions on inputs in (0.1, 0.9) (inside
    every function's domain)."""

    @staticmethod
    def rounded(x):
        # On halves, divided by powers of two: exact in every float type,
        # so no value sits at a step of trunc or floor by rounding.
        z = -(torch.floor(x * 8) + 0.5)
        return (torch.trunc(z) + torch.frac(z) + torch.fmod(z, 2.0) +
                torch.remainder(z, 4.0) +
                torch.div(z, 2.0, rounding_mode="floor") +
                torch.div(z, 4.0, rounding_mode="trunc") + z // 2)

    def forward(self, x):
        y = -x
        return (x.reciprocal() + torch.exp2(y) + torch.log2(x) +
                torch.log10(x) + torch.tan(y) + torch.sinh(y) +
                torch.cosh(x) + torch.asinh(y) + torch.acosh(x + 1.5) +
                torch.atanh(y) + torch.asin(y) + torch.acos(x),
                self.rounded(x),
                torch.lerp(x, y, 0.3) + torch.hypot(x, y) +
                torch.atan2(y, x - 0.5) + torch.erf(y * 3) +
                torch.erfc(x * 2) + x.clamp_min(0.4) + x.clamp_max(0.6) +
                x ** 1.5 + x ** 5 + x ** -2 + torch.sgn(y),
                torch.logsumexp(x * 4, dim=1) + F.softmin(x, dim=1).sum(1))


class _Rearrangements(nn.Module):
    """Pixel (un)shuffle, channel shuffle, movedim, unflatten, flip, rot90
    and argmax/argmin."""

    def __init__(self):
        super().__init__()
        self.shuffle = nn.PixelShuffle(2)
        self.channels = nn.ChannelShuffle(2)

    def forward(self, x):
        up = self.shuffle(x)
        down = F.pixel_unshuffle(up.flip(3), 2)
        y = self.channels(down) + torch.rot90(x, 1, (2, 3)) + \
            x.flip((1, 2)).movedim(1, -1).movedim(-1, 1)
        return (y.flatten(2).unflatten(2, (12, 12)),
                x.argmax(1).float() + x.argmin(-1).float().mean())


class _InstanceAndResponseNorms(nn.Module):
    """InstanceNorm2d (affine; and tracking running statistics, in eval)
    and LocalResponseNorm."""

    def __init__(self):
        super().__init__()
        self.instance = nn.InstanceNorm2d(8, affine=True)
        self.tracked = nn.InstanceNorm2d(8, track_running_stats=True)
        with torch.no_grad():
            self.instance.weight.uniform_(0.5, 1.5)
            self.instance.bias.uniform_(-0.5, 0.5)
            self.tracked.running_mean.uniform_(-0.5, 0.5)
            self.tracked.running_var.uniform_(0.5, 1.5)
        self.lrn = nn.LocalResponseNorm(3, alpha=0.1, beta=0.75, k=1.0)

    def forward(self, x):
        return self.instance(x) + self.tracked(x) + self.lrn(x), \
            F.max_pool2d(x, 2, return_indices=True)[0]


class _VideoBlock(nn.Module):
    """torchvision's video-model pieces: Conv3d (padded, strided in time,
    grouped, a (1, 3, 3) spatial one), BatchNorm3d, MaxPool3d,
    AdaptiveAvgPool3d."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv3d(3, 8, 3, stride=(2, 1, 1), padding=1)
        self.bn = _affine(nn.BatchNorm3d(8))
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.2, 0.2)
            self.bn.running_var.uniform_(0.5, 1.5)
        self.spatial = nn.Conv3d(8, 8, (1, 3, 3), stride=(1, 2, 2),
                                 padding=(0, 1, 1), groups=2, bias=False)
        self.temporal = nn.Conv3d(8, 4, (3, 1, 1), padding=(1, 0, 0),
                                  dilation=(2, 1, 1))
        self.pool = nn.AdaptiveAvgPool3d(1)

    def forward(self, x):
        y = F.max_pool3d(torch.relu(self.bn(self.stem(x))), (1, 2, 2))
        y = self.temporal(torch.relu(self.spatial(y)))
        return y, self.pool(y).flatten(1)


register("video_conv3d_block", one(2, 3, 8, 16, 16))(
    lambda: _VideoBlock().eval())
register("pool3d", one(2, 4, 6, 8, 8))(lambda: Fn1(lambda x: (
    F.max_pool3d(x, 2), F.max_pool3d(x, 3, 2, 1, ceil_mode=True),
    F.avg_pool3d(x, 3, 2, 1), F.avg_pool3d(x, (2, 1, 1)))))


class _VideoConvForms(nn.Module):
    """More 3-D convolutions on a channels-last (NDHWC) clip: padding
    "same" with a dilation, a depthwise one (X3D's), strided in all three
    dims, and a biased conv followed by a BatchNorm3d (the fold after the
    bias add)."""

    def __init__(self):
        super().__init__()
        self.same = nn.Conv3d(8, 8, (3, 3, 3), padding="same",
                              dilation=(1, 2, 1), bias=False)
        self.depthwise = nn.Conv3d(8, 8, 3, padding=1, groups=8, bias=False)
        self.strided = nn.Conv3d(8, 16, (2, 3, 3), stride=2, padding=(0, 1, 1))
        self.bn = _affine(nn.BatchNorm3d(16))
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.2, 0.2)
            self.bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        y = torch.relu(self.same(x)) + self.depthwise(x)
        return F.silu(self.bn(self.strided(y)))


register("video_conv3d_forms", lambda: [rand(2, 8, 6, 10, 10).contiguous(
    memory_format=torch.channels_last_3d)])(
    lambda: _VideoConvForms().eval().to(memory_format=torch.channels_last_3d))


class _Distances(nn.Module):
    """Cosine similarity (module and function, broadcasting), pairwise
    distance, cdist directly (few rows) and in its matmul form (over 25
    rows), torch.outer."""

    def __init__(self):
        super().__init__()
        self.cosine = nn.CosineSimilarity(dim=-1)

    def forward(self, x, y):
        tokens = x.flatten(2).transpose(1, 2)  # [2, 36, 8]
        return (self.cosine(x.flatten(2), y.flatten(2)),
                F.cosine_similarity(x, y[:1], dim=1),
                F.pairwise_distance(x.flatten(1), y.flatten(1)),
                # In f32: PyTorch's CUDA cdist has no f16/bf16 kernel.
                torch.cdist(tokens[:, :5].float(), tokens[:, 5:9].float()),
                torch.cdist(tokens.float(), tokens[:, :30].float()),
                torch.outer(x[0, 0, 0], y[0, 0, 1]))


register("distances_outer", two((2, 8, 6, 6), (2, 8, 6, 6)),
         tolerance={"f32": (2e-3, 2e-3)})(_Distances)
class _TopK(nn.Module):
    """torch.topk along the last dim and the smallest along dim 1; the
    values and (as floats) the indices."""

    def __init__(self):
        super().__init__()
        # Distinct scores (ties, frequent in bf16, are ordered differently
        # by PyTorch): x in [-1, 1) plus levels 4 apart, permuted (whole
        # numbers, exact in every float type).
        self.register_buffer("levels", (
            (torch.arange(12) * 5 % 12 * 4.0).view(1, 1, 1, 12) +
            (torch.arange(8) * 3 % 8 * 4.0).view(1, 8, 1, 1)))

    def forward(self, x):
        x = x + self.levels
        top = torch.topk(x, 3)
        low = torch.topk(x, 2, dim=1, largest=False)
        return top.values, top.indices.float(), low[0], low[1].float()


register("topk_small_k", one(*IMAGE))(_TopK)
class _SpatialTransformer(nn.Module):
    """A spatial transformer: affine grids from a small head (both
    align_corners), bilinear sampling with zeros and border padding, and a
    grid past the edges (RAFT-style sampling at computed coordinates)."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8 * 6 * 6, 6)

    def forward(self, x, grid):
        theta = torch.tanh(self.head(x.flatten(1))).view(-1, 2, 3)
        aligned = F.affine_grid(theta, [2, 8, 5, 7], align_corners=True)
        centered = F.affine_grid(theta, [2, 8, 4, 4], align_corners=False)
        return (F.grid_sample(x, aligned, align_corners=True),
                F.grid_sample(x, centered, padding_mode="border",
                              align_corners=False),
                F.grid_sample(x, grid * 1.3, align_corners=False))


register("spatial_transformer_grid_sample",
         two((2, 8, 6, 6), (2, 3, 5, 2)))(_SpatialTransformer)
class _EmbeddingBags(nn.Module):
    """nn.EmbeddingBag of equal bags (a 2-D input): mean with a padding
    index (a bag of padding only is 0), max, and sum with per-sample
    weights."""

    def __init__(self):
        super().__init__()
        self.mean = nn.EmbeddingBag(10, 8, mode="mean", padding_idx=0)
        self.max = nn.EmbeddingBag(10, 8, mode="max")
        self.sum = nn.EmbeddingBag(10, 8, mode="sum")

    def forward(self, x):
        ids = (x * 10).long().clamp(0, 9)
        ids = torch.cat([ids, torch.zeros_like(ids[:1])])  # a padding bag
        return (self.mean(ids), self.max(ids),
                self.sum(ids, per_sample_weights=x.repeat(2, 1)[:5]))


register("embedding_bags", one(4, 6, low=0.0, high=1.0))(_EmbeddingBags)
register("diagonal_tensordot", two((2, 8, 6, 6), (6, 6, 3)))(
    lambda: Fn2(lambda x, y: (
        torch.diagonal(x, 1, 2, 3), x.diagonal(-2, -1, -2),
        torch.diagonal(x[0], 0, 0, 1),
        torch.tensordot(x, y, 2),
        torch.tensordot(x, y, dims=([2], [0])))))
register("integer_division", one(2, 8, 6, 6, low=-9, high=9))(
    lambda: Fn1(lambda x: (  # CANINE's hash buckets: (ids + 1) * p % n
        ((x.long() + 1) * 7 % 5) + x.long() // 3 +
        torch.fmod(x.long(), 4) +
        torch.div(x.long(), 2, rounding_mode="trunc")).float()))
register("elementwise_math", one(2, 8, 6, 6, low=0.1, high=0.9))(
    _ElementwiseMath)
register("rearrangements_argmax", one(*IMAGE))(_Rearrangements)
register("instance_lrn_norms", one(*IMAGE))(
    lambda: _InstanceAndResponseNorms().eval())
register("softplus_mish_family", one(*IMAGE, low=-12, high=12))(
    lambda: _SoftplusFamily())
register("elu_selu_prelu", one(*IMAGE, low=-4, high=4))(
    lambda: _ExponentialUnits())
register("shrink_threshold_glu", one(*IMAGE))(lambda: _ShrinksAndGates())
register("maximum_minimum", two(IMAGE, (8, 1, 1)))(
    lambda: Fn2(lambda x, y: torch.maximum(x, y) - torch.minimum(x, y * 2)
                + torch.max(x, y.expand_as(x)) + torch.fmax(x, y)))
register("add_broadcast", two(IMAGE, (8, 1, 1)))(
    lambda: Fn2(lambda x, y: x + y))
register("add_alpha", two(IMAGE, IMAGE))(
    lambda: Fn2(lambda x, y: torch.add(x, y, alpha=0.5)))
register("sub_scalar", one(*IMAGE))(lambda: Fn1(lambda x: x - 0.25))
register("mul_broadcast", two(IMAGE, (12,)))(lambda: Fn2(lambda x, y: x * y))
register("div", two(IMAGE, IMAGE, low=0.5, high=2))(
    lambda: Fn2(lambda x, y: x / y))
register("rsub_scalar", one(*IMAGE))(lambda: Fn1(lambda x: 1.0 - x))

# -- contractions --------------------------------------------------------------

register("linear", one(6, 32))(lambda: nn.Linear(32, 16))
register("linear_3d", one(2, 5, 32))(lambda: nn.Linear(32, 16))


class _EmbeddingLinear(nn.Module):
    """F.embedding on a parameter, then a linear layer on the rows."""

    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(40, 24))
        self.out = nn.Linear(24, 8)

    def forward(self, tokens):
        return self.out(torch.relu(F.embedding(tokens, self.table)))


# Integer indices (int64, as PyTorch's): rows of the weight by tcp.gather.
register("embedding", lambda: [torch.randint(0, 50, (4, 7))])(
    lambda: nn.Embedding(50, 16, padding_idx=0))
register("embedding_linear", lambda: [torch.randint(0, 40, (3, 5))])(
    lambda: _EmbeddingLinear())


class _ShiftTokensRight(nn.Module):
    """BART's shift_tokens_right: token ids written into a new_zeros
    tensor in place (a tensor made inside the model, then changed by ops
    that read the input), the start token set, -100 replaced, then looked
    up."""
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(40, 16)

    def forward(self, ids):
        shifted = ids.new_zeros(ids.shape)
        shifted[:, 1:] = ids[:, :-1].clone()
        shifted[:, 0] = 2
        shifted.masked_fill_(shifted == -100, 1)
        return self.embed(shifted)


# torch 1.13's torch.fx cannot trace item assignment, and it has no
# TorchDynamo to capture it instead.
if hasattr(F, "scaled_dot_product_attention"):  # torch 2
    register("shift_tokens_right",
             lambda: [torch.randint(0, 40, (3, 9))])(_ShiftTokensRight)
# Hugging Face's kin of indexing and masking (issue 32): index_select and a
# general gather (int64 indices, an index smaller than the input in the
# other dims), tril/triu with a diagonal offset, baddbmm with beta, alpha.
register("index_select_gather", lambda: [
    rand(2, 6, 5), torch.tensor([4, 0, 2, 2]),
    torch.randint(0, 6, (2, 3, 4))])(
    lambda: Fn3(lambda x, idx, picks: torch.index_select(x, 1, idx).sum(1)
                + torch.gather(x, 1, picks).mean(1)[:, :1]))
register("tril_triu", one(2, 5, 7))(
    lambda: Fn1(lambda x: torch.tril(x, -1) + x.triu(2) * 2.0))
register("baddbmm", lambda: [rand(3, 4, 6), rand(3, 4, 5), rand(3, 5, 6)])(
    lambda: Fn3(lambda c, a, b: torch.baddbmm(c, a, b, beta=0.5,
                                              alpha=2.0)))
register("matmul_2d", two((16, 32), (32, 8)))(
    lambda: Fn2(lambda a, b: a @ b))
register("matmul_batched", two((3, 16, 32), (3, 32, 8)))(
    lambda: Fn2(torch.bmm))
register("matmul_broadcast_4d", two((2, 3, 16, 32), (32, 8)))(
    lambda: Fn2(torch.matmul))

# -- shapes and reductions -----------------------------------------------------

register("flatten", one(2, 8, 3, 3))(lambda: nn.Sequential(
    nn.Flatten(), nn.Linear(72, 10)))
register("view_permute", one(2, 6, 8))(lambda: Fn1(
    lambda x: x.view(2, 3, 2, 8).permute(0, 3, 1, 2).relu()))
register("transpose_reshape", one(4, 6, 8))(lambda: Fn1(
    lambda x: x.transpose(1, 2).reshape(4, 48).sigmoid()))
register("cat", two((2, 3, 4, 4), (2, 5, 4, 4)))(
    lambda: Fn2(lambda x, y: torch.cat([x, y], dim=1).tanh()))
register("mean_keepdim", one(*IMAGE))(
    lambda: Fn1(lambda x: x.mean(dim=(2, 3), keepdim=True)))
register("sum_dim", one(4, 10, 32))(lambda: Fn1(lambda x: x.sum(-1)))
class _VarianceForms(nn.Module):
    """Tensor.var (timm's EvoNorm), torch.std, var_mean, the unbiased
    default over everything."""

    def forward(self, x):
        var_mean = torch.var_mean(x, dim=-1, correction=0)
        return (x.var(dim=(2, 3), unbiased=False, keepdim=True),
                torch.std(x, dim=1), var_mean[0], var_mean[1], x.std())


register("var_std", one(*IMAGE))(_VarianceForms)


class _F32TableInReducedModel(nn.Module):
    """Hugging Face CodeGen's rotary table: a plain f32 tensor attribute
    (not a buffer, so .half() leaves it f32), split in two, scaling the
    f16/bf16 input; the result is f32 in every run."""

    def __init__(self):
        super().__init__()
        self.table = torch.randn(16, 8)

    def forward(self, x):
        # As CodeGen does: the attribute is not moved by .cuda() either.
        halves = torch.split(self.table.to(x.device), 4, dim=-1)
        return x * torch.cat([halves[1], halves[0]], -1)


register("f32_table_split_in_half_run", one(2, 16, 8))(
    _F32TableInReducedModel)
register("amax_amin", one(*IMAGE))(lambda: Fn1(
    lambda x: x.amax(dim=(2, 3), keepdim=True) + torch.amin(x, 1, True)))
register("softmax", one(4, 10, 32, low=-4, high=4))(
    lambda: nn.Softmax(dim=-1))
register("log_softmax", one(4, 32, low=-4, high=4))(
    lambda: Fn1(lambda x: F.log_softmax(x, dim=1)))
register("pad_constant", one(2, 3, 5, 6))(lambda: Fn1(
    lambda x: F.pad(x, (1, 2, 0, 3), value=0.5).sigmoid()))
# einsum as permutes, reshapes and one batched matmul (MaxViT's attention:
# scores q.k over d, then weights.v; a contraction over two dims with the
# output's dims reordered), and swapaxes.
register("einsum_attention", two((2, 3, 7, 8), (2, 3, 5, 8)))(lambda: Fn2(
    lambda q, k: torch.einsum("bhid,bhjd->bhij", q, k).softmax(-1)
    @ k))
register("einsum_reorder", two((4, 3, 6, 5), (3, 5, 7)))(lambda: Fn2(
    lambda x, y: torch.einsum("bcih,chj->jbi", x, y)
    + torch.einsum("bcih->hbci", x)[0].sum(0).mean()))
register("swapaxes", one(2, 3, 4))(lambda: Fn1(
    lambda x: torch.swapaxes(x, 0, 2).relu() + x.swapaxes(1, 2).sum()))

class _IndexRows(nn.Module):
    """x[index] with a long buffer of row indices, as MaxViT indexes its
    relative position bias table."""

    def __init__(self):
        super().__init__()
        self.register_buffer("index", torch.tensor(
            [[3, 0, 5], [5, 5, 1], [2, 4, 0], [1, 1, 3]]))

    def forward(self, x):
        return x[self.index].relu() * 2.0


register("index_rows", one(6, 4, 7))(_IndexRows)


class _IndexAlong(nn.Module):
    """x[:, index] with a 2-D long buffer, as LeViT (timm) indexes its
    attention biases."""

    def __init__(self):
        super().__init__()
        self.register_buffer("index", torch.tensor(
            [[3, 0, 5], [5, 5, 1], [2, 4, 0], [1, 1, 3]]))

    def forward(self, x):
        return x[:, self.index] + x[:, self.index, :].relu()


register("index_along", one(4, 6, 7))(_IndexAlong)

# Bilinear resizing as two matmuls with constant interpolation matrices
# (segmentation heads: FCN, DeepLabV3, LRASPP), up and down, both
# align_corners, by size and by scale factor.
register("interpolate_bilinear", one(2, 3, 9, 7))(lambda: Fn1(
    lambda x: F.interpolate(x, size=(20, 16), mode="bilinear",
                            align_corners=False)[..., :9, :7]
    + F.interpolate(x, scale_factor=(1.5, 2.0), mode="bilinear",
                    align_corners=True)[..., 1:10, 3:10]
    + F.interpolate(F.interpolate(x, size=(5, 4), mode="bilinear",
                                  align_corners=False),
                    size=(9, 7), mode="bilinear", align_corners=True)))
# Bicubic (CrossViT's and SAM2's position embeddings resized): the same two
# products with bicubic matrices.
register("interpolate_bicubic", one(2, 3, 9, 7))(lambda: Fn1(
    lambda x: F.interpolate(x, size=(20, 16), mode="bicubic",
                            align_corners=False)[..., :9, :7]
    + F.interpolate(F.interpolate(x, size=(5, 4), mode="bicubic",
                                  align_corners=True),
                    size=(9, 7), mode="bicubic", align_corners=False)))

# Swin's shifted windows: torch.roll as slices and a concat per dim.
register("roll", one(2, 7, 9, 5))(lambda: Fn1(
    lambda x: torch.roll(x, shifts=(3, -4), dims=(1, 2)).relu()
    + x.roll(1, -1)))
register("slice_index", one(4, 10, 32))(lambda: Fn1(
    lambda x: x[:, 1:9:2, 0] * 2.0))
register("dropout_eval", one(*IMAGE))(lambda: nn.Sequential(
    nn.Dropout(0.5), nn.ReLU()))


def _chunk_split(x):
    # ShuffleNetV2 splits its channels in two with chunk. Indexed rather
    # than unpacked: torch 1.13's torch.fx cannot unpack a traced tuple.
    abc = x.chunk(3, dim=1)
    de = torch.split(x, [4, 8], dim=1)
    return torch.cat([abc[0] * abc[1] + abc[2], de[0]], 1) - de[1].relu()


register("chunk_split", one(2, 12, 5, 5))(lambda: Fn1(_chunk_split))


def _split_keywords(x):
    # The keyword names torch gives each (RAFT calls chunk(chunks=...)),
    # tensor_split, and unbind (its pieces lose the dimension). Indexed, as
    # above.
    ab = torch.chunk(x, chunks=2, dim=1)
    cde = x.tensor_split(3, dim=2)
    rows = torch.unbind(x, dim=1)
    pq = x.split(split_size=[4, 8], dim=1)
    return (ab[0] * ab[1], cde[0] + cde[2] - cde[1][:, :, :1],
            rows[0] + rows[11], pq[0].relu().sum(1) + pq[1].sum(1))


register("split_keywords", one(2, 12, 6, 5))(lambda: Fn1(_split_keywords))
try:
    import torchvision.ops

    # EfficientNet's and ConvNeXt's residual branch: the identity in eval.
    register("stochastic_depth_eval", one(*IMAGE))(lambda: Fn1(
        lambda x: x + torchvision.ops.stochastic_depth(
            x.sigmoid(), 0.2, "row", training=False)))
except ImportError:
    pass


class _SquareAfterChannelDropout(nn.Module):
    """MetaFormer's StarReLU squares (torch.square); timm's non-local
    attention drops channels with Dropout2d: the identity in eval."""

    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout2d(0.1)

    def forward(self, x):
        y = torch.square(torch.relu(self.drop(x)))
        return y + F.dropout2d(x, 0.1, training=False).square()


register("square_dropout2d", one(*IMAGE))(
    lambda: _SquareAfterChannelDropout().eval())
register("upsample_nearest", one(2, 8, 6, 6))(lambda: nn.Sequential(
    nn.Upsample(scale_factor=2), nn.ReLU()))

class _UpsampleBilinearModules(nn.Module):
    """nn.Upsample in bilinear mode (timm's EfficientFormerV2) and
    nn.UpsamplingBilinear2d (corners aligned)."""
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear")
        self.up_aligned = nn.UpsamplingBilinear2d(size=(12, 12))

    def forward(self, x):
        return self.up(x) + self.up_aligned(x)


register("upsample_bilinear_modules", one(2, 8, 6, 6))(
    _UpsampleBilinearModules)


class _PadModes(nn.Module):
    """The padding modules and F.pad's non-constant modes (TResNet's
    reflection padding)."""
    def __init__(self):
        super().__init__()
        self.reflect = nn.ReflectionPad2d((1, 2, 2, 1))
        self.replicate = nn.ReplicationPad2d((1, 2, 1, 2))
        self.zero = nn.ZeroPad2d((0, 3, 1, 2))

    def forward(self, x):
        return (self.reflect(x) + self.replicate(x) + self.zero(x)
                + F.pad(x, (3, 0, 1, 2), mode="circular")
                + F.pad(x, (2, 1, 0, 3), mode="reflect"))


register("pad_modes", one(2, 3, 5, 6))(_PadModes)


class _RepeatsAndPool1d(nn.Module):
    """repeat_interleave (GCViT), torch.tile (SAM2's Hiera) and the 1-D
    pools (NextViT's nn.AvgPool1d)."""
    def __init__(self):
        super().__init__()
        self.avg = nn.AvgPool1d(3, stride=1, padding=1,
                                count_include_pad=False)
        self.max = nn.MaxPool1d(2)

    def forward(self, x):
        y = x.repeat_interleave(2, dim=1)
        z = torch.tile(x, (2, 1))
        return self.avg(y) + z + self.max(z).repeat_interleave(2, dim=2)


register("repeat_tile_pool1d", one(2, 4, 12))(_RepeatsAndPool1d)
# im2col (TNT's and VOLO's nn.Unfold; padded, strided, dilated) and
# Tensor.unfold's sliding windows (HaloNet's blocks).
register("unfold_patches", one(2, 4, 10, 12))(lambda: Fn1(
    lambda x: torch.cat([F.unfold(x, 3, padding=1, stride=2),
                         F.unfold(x, 3, dilation=(2, 1), stride=(3, 2))],
                        -1) * 2.0))


class _ListIndexAndTransposeAttributes(nn.Module):
    """Falcon's multi-query split (x[..., [-2], :], a list index) and its
    matmuls with w.T; x.mT."""
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(16, 16) / 4)

    def forward(self, x):
        return ((x @ self.w.T) * x[..., [-2], :]
                + x.mT.mT[:, [0, 2, 1, -1], :, :])


register("list_index_transpose_attrs", one(2, 4, 6, 16))(
    _ListIndexAndTransposeAttributes)


class _WeightNormConv(nn.Module):
    """wav2vec 2.0's positional conv: weight norm (the parametrization,
    torch 2) over dim 2 of a grouped Conv1d, and over dim 0 of a Linear."""
    def __init__(self):
        super().__init__()
        norm = nn.utils.parametrizations.weight_norm
        self.conv = norm(nn.Conv1d(16, 16, 5, padding=2, groups=4), dim=2)
        self.proj = norm(nn.Linear(16, 16))

    def forward(self, x):
        return self.proj(F.gelu(self.conv(x)).transpose(1, 2))


if hasattr(getattr(nn.utils, "parametrizations", None), "weight_norm"):
    register("weight_norm", one(2, 16, 12))(_WeightNormConv)


class _LegacyWeightNorm(nn.Module):
    """nn.utils.weight_norm, the hook form (older wav2vec 2.0 and vocoder
    code): each call's weight is computed from weight_g and weight_v; the
    `weight` attribute is the last call's, f32 after .half()."""
    def __init__(self):
        super().__init__()
        self.conv = nn.utils.weight_norm(nn.Conv1d(16, 16, 3, padding=1))
        self.proj = nn.utils.weight_norm(nn.Linear(16, 8), dim=None)

    def forward(self, x):
        return self.proj(torch.relu(self.conv(x)).transpose(1, 2))


register("weight_norm_legacy", one(2, 16, 12))(_LegacyWeightNorm)
# VOLO's auxiliary head: x.max(1)[0]; and a max over everything.
register("max_over_dim", one(2, 9, 16))(lambda: Fn1(
    lambda x: x.max(1)[0].unsqueeze(1)
    + torch.min(x, dim=1, keepdim=True).values + x.max()))
register("tensor_unfold", one(2, 4, 10, 12))(lambda: Fn1(
    lambda x: x.unfold(2, 4, 3).unfold(3, 5, 3).exp()))
# Nearest interpolation to sizes no power of two relates (GhostNetV2's
# 3x3 -> 7x7 attention map), growing and shrinking.
register("interpolate_nearest_any", one(2, 4, 3, 5))(lambda: Fn1(
    lambda x: F.interpolate(x, size=(7, 7)) + F.interpolate(
        F.interpolate(x, size=(11, 4), mode="nearest-exact"),
        size=(7, 7))))
# Scale factors that are no exact ratio: PyTorch indexes with 1 / scale.
register("interpolate_nearest_scale", one(2, 4, 3, 5))(lambda: nn.Sequential(
    nn.UpsamplingNearest2d(scale_factor=2.0001), nn.Upsample(
        scale_factor=1.7, mode="nearest-exact")))
register("interpolate_nearest_size", one(2, 8, 6, 6))(lambda: Fn1(
    lambda x: F.interpolate(x, size=(12, 24), mode="nearest-exact") * 2.0))
register("expand", one(4, 1, 32))(lambda: Fn1(
    lambda x: x.expand(4, 6, 32).exp()))
# An integer scalar update, as a training-mode batch norm's
# num_batches_tracked.add_(1) reaches the importer from TorchDynamo.
register("add_int64_scalar", lambda: [torch.tensor(5)], dtypes=("f32",))(
    lambda: Fn1(lambda x: x + 1))
