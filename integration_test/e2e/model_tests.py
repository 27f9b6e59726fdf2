"""Whole models as e2e tests: a ResNet-18 written here in torchvision's form
(so the CPU importer tests need no torchvision), torchvision's ResNet-50,
MobileNetV2, MobileNetV3-small and a small DenseNet where torchvision is
installed, a transformer encoder block, and LSTM/GRU models."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from registry import causal_mask, rand, register

# -- ResNet-18, torchvision's structure ----------------------------------------


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False),
                nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet18(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        layers, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers.append(nn.Sequential(BasicBlock(cin, cout, stride),
                                        BasicBlock(cout, cout, 1)))
            cin = cout
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def _randomize_batch_norms(model):
    """Non-trivial running statistics, so eval-mode batch norm is tested."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.1, 0.1)
    return model


register("resnet18", lambda: [rand(2, 3, 64, 64)],
         tolerance={"f32": (1e-3, 1e-3), "f16": (5e-2, 5e-2)})(
    lambda: _randomize_batch_norms(ResNet18()))


class _EcaResNetDBlock(nn.Module):
    """timm's ECA-ResNet-D bottleneck, small: efficient channel attention
    (`x.mean((2, 3))` without keepdim, a 1-D conv over the channels, a
    sigmoid gate) and the ResNet-D shortcut (a ceil_mode average pool that
    adds no window, then a 1x1 conv), on channels-last tensors."""

    def __init__(self, channels=32):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, stride=2, padding=1,
                              bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.eca = nn.Conv1d(1, 1, 3, padding=1, bias=False)
        self.pool = nn.AvgPool2d(2, 2, ceil_mode=True,
                                 count_include_pad=False)
        self.down = nn.Conv2d(channels, channels, 1, bias=False)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        gate = self.eca(y.mean((2, 3)).view(y.shape[0], 1, -1))
        y = y * gate.view(y.shape[0], -1, 1, 1).sigmoid().expand_as(y)
        return torch.relu(y + self.down(self.pool(x)))


def _register_channels_last_block(name, block, channels):
    """`block` (a module class with batch norms) on a channels-last
    [2, channels, 16, 16] input, its batch norms randomized."""
    register(name,
             lambda: [rand(2, channels, 16, 16).contiguous(
                 memory_format=torch.channels_last)],
             tolerance={"f32": (1e-3, 1e-3), "f16": (5e-2, 5e-2)})(
        lambda: _randomize_batch_norms(block()).to(
            memory_format=torch.channels_last))


_register_channels_last_block("eca_resnet_d_block", _EcaResNetDBlock, 32)


class _RegNetYBlock(nn.Module):
    """torchvision's RegNetY bottleneck, small: a grouped 3x3 conv with
    24-channel groups (its plan timed by the runtime), a squeeze-excite
    (1x1 convs on pooled features, 48 -> 12 -> 48 channels), and the
    projection's batch norm, on channels-last tensors."""

    def __init__(self, channels=48):
        super().__init__()
        self.a = nn.Conv2d(channels, channels, 1, bias=False)
        self.a_bn = nn.BatchNorm2d(channels)
        self.b = nn.Conv2d(channels, channels, 3, padding=1,
                           groups=channels // 24, bias=False)
        self.b_bn = nn.BatchNorm2d(channels)
        self.se_pool = nn.AdaptiveAvgPool2d(1)  # torchvision's
        self.se_fc1 = nn.Conv2d(channels, channels // 4, 1)  # SqueezeExcitation
        self.se_fc2 = nn.Conv2d(channels // 4, channels, 1)
        self.c = nn.Conv2d(channels, channels, 1, bias=False)
        self.c_bn = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = torch.relu(self.a_bn(self.a(x)))
        y = torch.relu(self.b_bn(self.b(y)))
        scale = self.se_fc2(torch.relu(self.se_fc1(self.se_pool(y))))
        y = y * torch.sigmoid(scale)
        return torch.relu(x + self.c_bn(self.c(y)))


_register_channels_last_block("regnet_y_block", _RegNetYBlock, 48)


class _PoolFormerBlock(nn.Module):
    """timm's PoolFormer block, small: a group norm with one group, the
    pooling token mixer (a 3x3 average pool without the padding, minus its
    input), layer scales, and the 1x1-conv MLP, on channels-last tensors
    (their group norms run on the channels-last bytes, no conversions)."""

    def __init__(self, channels=32):
        super().__init__()
        self.norm1 = nn.GroupNorm(1, channels)
        self.pool = nn.AvgPool2d(3, 1, 1, count_include_pad=False)
        self.norm2 = nn.GroupNorm(1, channels)
        self.fc1 = nn.Conv2d(channels, 4 * channels, 1)
        self.fc2 = nn.Conv2d(4 * channels, channels, 1)
        self.scale1 = nn.Parameter(torch.rand(channels, 1, 1) + 0.5)
        self.scale2 = nn.Parameter(torch.rand(channels, 1, 1) + 0.5)
        with torch.no_grad():
            for norm in (self.norm1, self.norm2):
                norm.weight.uniform_(0.5, 1.5)
                norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        y = self.norm1(x)
        x = x + self.scale1 * (self.pool(y) - y)
        return x + self.scale2 * self.fc2(F.gelu(self.fc1(self.norm2(x))))


register("poolformer_block",
         lambda: [(rand(2, 32, 16, 16) * 3 + 1).contiguous(
             memory_format=torch.channels_last)],
         tolerance={"f32": (1e-3, 1e-3), "f16": (5e-2, 5e-2)})(
    lambda: _PoolFormerBlock().to(memory_format=torch.channels_last))


class _ConvBatchNorm(nn.Module):
    def __init__(self, relu_first=False):
        super().__init__()
        self.relu_first = relu_first
        self.conv = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)

    def forward(self, x):
        if self.relu_first:
            return self.conv(torch.relu(self.bn(x)))
        return self.bn(self.conv(x))


register("conv_batch_norm_train", lambda: [rand(4, 8, 8, 8)], train=True,
         tolerance={"f32": (1e-3, 1e-3), "f16": (5e-2, 5e-2)})(
    lambda: _ConvBatchNorm())
register("batch_norm_train_relu_conv", lambda: [rand(4, 8, 8, 8)], train=True,
         tolerance={"f32": (1e-3, 1e-3), "f16": (5e-2, 5e-2)})(
    lambda: _ConvBatchNorm(relu_first=True))
register("resnet18_block_train", lambda: [rand(4, 64, 16, 16)], train=True,
         tolerance={"f32": (1e-3, 1e-3), "f16": (5e-2, 5e-2)})(
    lambda: BasicBlock(64, 128, 2))

try:
    import torchvision

    register("torchvision_resnet50", lambda: [rand(2, 3, 96, 96)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: _randomize_batch_norms(torchvision.models.resnet50()))
    register("torchvision_mobilenet_v2", lambda: [rand(2, 3, 96, 96)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: _randomize_batch_norms(torchvision.models.mobilenet_v2()))
    # Hardswish, and squeeze-excitation gates through Hardsigmoid.
    register("torchvision_mobilenet_v3_small", lambda: [rand(2, 3, 96, 96)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: _randomize_batch_norms(
            torchvision.models.mobilenet_v3_small()))
    # Batch norms after channel concats (each dense layer's input), which
    # run on the concat's channels-last bytes, and a transition's avg pool.
    register("torchvision_densenet_small", lambda: [rand(2, 3, 64, 64)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: _randomize_batch_norms(torchvision.models.DenseNet(
            growth_rate=8, block_config=(2, 2), num_init_features=16,
            bn_size=2, num_classes=10)))
    # Segmentation heads: bilinear upsampling back to the input size (two
    # matmuls with constant interpolation matrices), dilated convs, an
    # image-pooling branch, and an OrderedDict {"out": ...} as the output.
    register("torchvision_lraspp", lambda: [rand(1, 3, 64, 64)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: _randomize_batch_norms(
            torchvision.models.segmentation.lraspp_mobilenet_v3_large(
                weights=None, weights_backbone=None, num_classes=5)))
    register("torchvision_deeplabv3", lambda: [rand(1, 3, 64, 64)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: _randomize_batch_norms(
            torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(
                weights=None, weights_backbone=None, num_classes=5)))
except ImportError:
    torchvision = None

# -- a transformer encoder block ------------------------------------------------


class TransformerBlock(nn.Module):
    """Pre-norm self-attention and MLP, written with matmuls, layer norm,
    softmax and GELU (no fused attention kernel)."""

    def __init__(self, dim=64, heads=4, hidden=256):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        b, s, d = x.size(0), x.size(1), x.size(2)
        qkv = self.qkv(self.norm1(x)).reshape(b, s, 3, self.heads,
                                              self.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        attention = F.softmax(scores, dim=-1)
        y = (attention @ v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(y)
        return x + self.fc2(self.act(self.fc1(self.norm2(x))))


class Attention(nn.Module):
    """The transformer block's attention alone (no norms, no MLP)."""

    def __init__(self):
        super().__init__()
        self.block = TransformerBlock()

    def forward(self, x):
        blk = self.block
        b, s, d = x.size(0), x.size(1), x.size(2)
        qkv = blk.qkv(x).reshape(b, s, 3, blk.heads, blk.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attention = F.softmax(q @ k.transpose(-2, -1), dim=-1)
        return (attention @ v).transpose(1, 2).reshape(b, s, d)


class MLP(nn.Module):
    """The transformer block's MLP half: layer norm, fc, GELU, fc."""

    def __init__(self):
        super().__init__()
        self.block = TransformerBlock()

    def forward(self, x):
        blk = self.block
        return x + blk.fc2(blk.act(blk.fc1(blk.norm2(x))))


register("transformer_attention", lambda: [rand(2, 16, 64)],
         tolerance={"f32": (1e-3, 1e-3), "f16": (3e-2, 3e-2)})(Attention)
register("transformer_mlp", lambda: [rand(2, 16, 64)],
         tolerance={"f32": (1e-3, 1e-3), "f16": (3e-2, 3e-2)})(MLP)
register("permute5_index", lambda: [rand(2, 16, 48)])(
    lambda: _Permute5())


class _Permute5(nn.Module):
    def forward(self, x):
        y = x.reshape(2, 16, 3, 4, 4).permute(2, 0, 3, 1, 4)
        return y[0] * 1.0, y[2] + 1.0


register("transformer_block", lambda: [rand(2, 16, 64)],
         tolerance={"f32": (1e-3, 1e-3), "f16": (3e-2, 3e-2)})(
    TransformerBlock)

# -- torch.nn attention modules (attention_modules.py decomposes them) -----------


class _SelfAttention(nn.Module):
    """ViT's use: batch first, need_weights=False."""
    def __init__(self, width=64):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 4, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class _CrossAttentionWeights(nn.Module):
    """Sequence first, key/value of another width, a float mask, and the
    head-averaged weights returned."""
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(32, 4, kdim=24, vdim=24)

    def forward(self, q, kv, mask):
        out, weights = self.attn(q, kv, kv, attn_mask=mask)
        return out, weights


def _encoder(norm_first):
    layer = nn.TransformerEncoderLayer(64, 4, 128, activation="gelu",
                                       batch_first=True,
                                       norm_first=norm_first)
    return nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(64),
                                 enable_nested_tensor=False)


class _CausalEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = _encoder(norm_first=False)

    def forward(self, x, mask):
        return self.encoder(x, mask=mask)


ATTENTION_TOLERANCE = {"f32": (1e-3, 1e-3), "f16": (3e-2, 3e-2),
                       "bf16": (6e-2, 6e-2)}
register("multihead_attention", lambda: [rand(2, 16, 64)],
         tolerance=ATTENTION_TOLERANCE)(_SelfAttention)
# 96 keys (>= attention-min-keys): one cuDNN attention graph reading q, k
# and v through the transposes that split the heads (by strides).
register("multihead_attention_long", lambda: [rand(2, 96, 128)],
         tolerance=ATTENTION_TOLERANCE)(lambda: _SelfAttention(128))


class _ProjectedHeads(nn.Module):
    """Hugging Face's way: q, k, v projections viewed as [B, S, H, D] and
    transposed to [B, H, S, D] for scaled_dot_product_attention."""
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v = (nn.Linear(128, 128) for _ in range(3))

    def forward(self, x):
        def heads(t):
            return t.view(x.shape[0], x.shape[1], 4, 32).transpose(1, 2)
        out = F.scaled_dot_product_attention(
            heads(self.q(x)), heads(self.k(x)), heads(self.v(x)))
        return out.transpose(1, 2).reshape(x.shape)


if hasattr(F, "scaled_dot_product_attention"):  # torch 2
    register("projected_heads_sdpa", lambda: [rand(2, 80, 128)],
             tolerance=ATTENTION_TOLERANCE)(_ProjectedHeads)


class _PackedQkvUnbind(nn.Module):
    """timm's ViT/DeiT/Swin way: one qkv projection reshaped to
    [B, N, 3, H, D], permuted to [3, B, H, N, D] and unbound."""
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(128, 384)

    def forward(self, x):
        b, n, c = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, 4, 32).permute(
            2, 0, 3, 1, 4).unbind(0)
        out = F.scaled_dot_product_attention(q, k, v)
        return out.transpose(1, 2).reshape(b, n, c)


class _PackedQkvSplit(nn.Module):
    """GPT-2's way: one qkv projection split along its features, each part
    viewed as [B, S, H, D] and transposed, causal."""
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(128, 384)

    def forward(self, x):
        b, n, c = x.shape
        q, k, v = (t.view(b, n, 4, 32).transpose(1, 2)
                   for t in self.c_attn(x).split(128, dim=2))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return out.transpose(1, 2).reshape(b, n, c)


class _ClassAttention(nn.Module):
    """CaiT's class attention: one query (the class token) against every
    token, viewed as [B, H, 1, D]."""
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v = (nn.Linear(128, 128) for _ in range(3))

    def forward(self, x):
        b, n, c = x.shape
        q = self.q(x[:, 0]).unsqueeze(1).reshape(b, 1, 4, 32).permute(
            0, 2, 1, 3)
        k = self.k(x).reshape(b, n, 4, 32).permute(0, 2, 1, 3)
        v = self.v(x).reshape(b, n, 4, 32).permute(0, 2, 1, 3)
        out = F.scaled_dot_product_attention(q, k, v)
        return out.transpose(1, 2).reshape(b, 1, c)


if hasattr(F, "scaled_dot_product_attention"):  # torch 2
    register("class_attention", lambda: [rand(1, 80, 128)],
             tolerance=ATTENTION_TOLERANCE)(_ClassAttention)
    # 80 tokens (>= attention-min-keys): one cuDNN attention graph reading
    # q, k and v at their offsets in the projection.
    register("packed_qkv_unbind", lambda: [rand(2, 80, 128)],
             tolerance=ATTENTION_TOLERANCE)(_PackedQkvUnbind)
    register("packed_qkv_split", lambda: [rand(2, 80, 128)],
             tolerance=ATTENTION_TOLERANCE)(_PackedQkvSplit)
register("multihead_attention_cross_weights",
         lambda: [rand(10, 2, 32), rand(12, 2, 24), rand(10, 12)],
         tolerance=ATTENTION_TOLERANCE)(_CrossAttentionWeights)


class _MaskedSelfAttention(nn.Module):
    """nn.MultiheadAttention with its own masks' meaning: a boolean causal
    attn_mask (True: do not attend) and a boolean key_padding_mask."""

    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        # 16 tokens; a buffer, so that it moves to the GPU with the model.
        self.register_buffer(
            "causal", torch.triu(torch.ones(16, 16, dtype=torch.bool), 1))

    def forward(self, x, padding):
        return self.attn(x, x, x, attn_mask=self.causal,
                         key_padding_mask=padding, need_weights=False)[0]


def _padding(batch, keys):
    """Key 0 is never padding, so no query has every key masked."""
    mask = torch.zeros(batch, keys, dtype=torch.bool)
    mask[1, keys // 2:] = True
    return mask


register("multihead_attention_masks", lambda: [rand(2, 16, 64),
                                               _padding(2, 16)],
         tolerance=ATTENTION_TOLERANCE)(_MaskedSelfAttention)
register("transformer_encoder_norm_first", lambda: [rand(2, 16, 64)],
         tolerance=ATTENTION_TOLERANCE)(lambda: _encoder(norm_first=True))
class _Seq2Seq(nn.Module):
    """nn.Transformer (2 encoder and 2 decoder layers, pre-norm decoder
    order off) over a source and a target with a causal target mask."""

    def __init__(self):
        super().__init__()
        self.transformer = nn.Transformer(64, 4, num_encoder_layers=2,
                                          num_decoder_layers=2,
                                          dim_feedforward=128,
                                          batch_first=True)

    def forward(self, src, tgt, mask):
        return self.transformer(src, tgt, tgt_mask=mask)


register("transformer_seq2seq",
         lambda: [rand(2, 12, 64), rand(2, 9, 64), causal_mask(9)],
         tolerance=ATTENTION_TOLERANCE)(_Seq2Seq)
register("transformer_encoder_causal",
         lambda: [rand(2, 16, 64), causal_mask(16)],
         tolerance=ATTENTION_TOLERANCE)(_CausalEncoder)

# -- Tensors made inside the model, and models torch.fx cannot trace ------------


class _WindowMaskAttention(nn.Module):
    """Swin's shifted-window attention mask, built in forward from sizes:
    new_zeros, region numbers written with setitem, the pairwise
    difference turned into -100 / 0 with masked_fill. The importer folds
    it all into one literal (recording._Recorder); the scores it is added
    to come from the input."""

    def __init__(self, size=8, window=4, shift=2):
        super().__init__()
        self.size, self.window, self.shift = size, window, shift
        self.proj = nn.Linear(16, 16)

    def forward(self, x):  # x: [windows * batch, window^2, 16]
        n, w, s = self.size, self.window, self.shift
        mask = x.new_zeros((n, n))
        slices = ((0, -w), (-w, -s), (-s, None))
        count = 0
        for h in slices:
            for v in slices:
                mask[h[0]:h[1], v[0]:v[1]] = count
                count += 1
        mask = mask.view(n // w, w, n // w, w).permute(0, 2, 1, 3)
        mask = mask.reshape((n // w) ** 2, w * w)
        mask = mask.unsqueeze(1) - mask.unsqueeze(2)
        mask = mask.masked_fill(mask != 0, -100.0).masked_fill(mask == 0, 0.0)
        q = self.proj(x)
        scores = torch.matmul(q, x.transpose(-2, -1)) * 0.25
        scores = scores.view(-1, mask.shape[0], w * w, w * w) + mask
        return torch.matmul(scores.view(-1, w * w, w * w).softmax(-1), x)



class _InPlaceOnViews(nn.Module):
    """Writes through views of computed tensors, made functional by the
    importer (frontend/view_writes.py): Swin V2's
    `bias = bias.clone(); bias[n:2n].zero_()`, setitem of a tensor that
    broadcasts, a narrow/select view of a view, and F.normalize."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(12, 12)

    def forward(self, x):  # x: [batch, tokens, 12]
        bias = self.proj.bias.clone()
        bias[4:8].zero_()
        y = F.linear(x, self.proj.weight, bias)
        y[:, 0] = y[:, 1] * 2.0
        y.narrow(2, 2, 6).select(1, 3).mul_(0.5)
        return F.normalize(y, dim=-1) + y


class _DataDependentBranch(nn.Module):
    """`if y.mean() > 0:` on a computed value: neither torch.fx nor one
    TorchDynamo capture takes the model whole, so cudnn_mlir.compile runs
    it through torch.compile with the cudnn_mlir backend, TorchDynamo
    breaking the graph at the branch."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(8, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.conv1(x))
        if y.mean() > 0:
            y = y * 2.0
        return torch.relu(self.conv2(y)) + 1


class _PadToMultiple(nn.Module):
    """Python control flow on a size (`if`), which torch.fx's symbolic
    trace refuses: cudnn_mlir.compile captures the model with TorchDynamo
    instead (torch 2), on the example inputs' static sizes."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, stride=2)

    def forward(self, x):
        pad = (-x.shape[-1]) % 4
        if pad:
            x = F.pad(x, (0, pad, 0, pad))
        return self.conv(x).relu()


try:
    from torch import _dynamo  # noqa: F401 (TorchDynamo: torch 2)

    # Setitem on a proxy: torch.fx cannot trace it.
    register("in_place_on_views", lambda: [rand(2, 5, 12)])(_InPlaceOnViews)
    register("graph_break_fallback", lambda: [rand(2, 8, 12, 12)],
             partitioned=True)(_DataDependentBranch)
    register("size_control_flow", lambda: [rand(2, 4, 10, 10)])(
        _PadToMultiple)
    # Setitem on a proxy: torch.fx cannot trace it either.
    register("folded_window_mask", lambda: [rand(8, 16, 16)])(
        _WindowMaskAttention)
except ImportError:
    pass

if torchvision is not None:
    from torchvision.models import swin_transformer as _swin

    # torchvision's Swin: shifted_window_attention and the patch merging's
    # padding are torch.fx.wrap'd functions with control flow on sizes;
    # the model comes in through TorchDynamo, whole.
    register("torchvision_swin_block", lambda: [rand(2, 8, 8, 32)],
             tolerance={"f32": (1e-3, 1e-3), "f16": (2e-2, 2e-2)})(
        lambda: _swin.SwinTransformerBlock(32, 2, [4, 4], [2, 2]))
    register("torchvision_swin_t", lambda: [rand(1, 3, 64, 64)],
             tolerance={"f32": (2e-3, 2e-3), "f16": (1e-1, 1e-1)})(
        lambda: torchvision.models.swin_t(num_classes=10))
    # Swin V2: cosine attention (F.normalize), a log-spaced position MLP, and
    # `qkv_bias[n:2n].zero_()` on a clone of a parameter. Not in fp16: with
    # random weights eager itself overflows fp16 from the third stage on
    # (inf/NaN; seen on an H100, 2026-11-27), so there is nothing to match.
    register("torchvision_swin_v2_t", lambda: [rand(1, 3, 64, 64)],
             dtypes=("f32", "bf16"),
             tolerance={"f32": (2e-3, 2e-3), "bf16": (1e-1, 1e-1)})(
        lambda: torchvision.models.swin_v2_t(num_classes=10))


# -- Partitioned on purpose (issue 28): ops the importer does not take run in
# PyTorch between compiled partitions (cudnn_mlir/partition.py).


class _BesselBetweenConvs(nn.Module):
    """conv -> ReLU -> torch.special.i0e (no TCP lowering) -> conv -> ReLU:
    two compiled partitions around it."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(8, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 8, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.conv1(x))
        y = torch.special.i0e(y)
        return torch.relu(self.conv2(y)) + x


class _CumprodInAnMlp(nn.Module):
    """Linear -> GELU -> torch.cumprod over the sequence (no TCP lowering)
    -> LayerNorm -> Linear."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.norm = nn.LayerNorm(64)
        self.fc2 = nn.Linear(64, 32)

    def forward(self, x):
        y = torch.nn.functional.gelu(self.fc1(x))
        y = torch.cumprod(1 + y / y.shape[1], dim=1)
        return self.fc2(self.norm(y))


class _WriteThroughATransposedView(nn.Module):
    """conv -> an in-place op through a transposed view (refused by the
    importer, left to PyTorch) -> a read of the conv's output -> conv: the
    read must see the write, so it is not fused with the first conv
    (partition.py's `written` nodes)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(8, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)

    def forward(self, x):
        y = self.conv1(x)
        y.transpose(2, 3)[:, :, :4].mul_(2.0)
        return self.conv2(torch.relu(y + 1))


register("partitioned_bessel", lambda: [rand(2, 8, 12, 12)],
         partitioned=True)(_BesselBetweenConvs)
register("partitioned_write_through_view", lambda: [rand(2, 8, 12, 12)],
         partitioned=True)(_WriteThroughATransposedView)
register("partitioned_cumprod", lambda: [rand(2, 10, 32)],
         tolerance={"f32": (1e-3, 1e-3), "f16": (2e-2, 2e-2)},
         partitioned=True)(_CumprodInAnMlp)

# -- RNN models -------------------------------------------------------------------


class LSTMModel(nn.Module):
    """A 2-layer LSTM over [seq, batch, features] and a classifier on the
    last step's output."""

    def __init__(self, features=32, hidden=64, classes=10):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, num_layers=2)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        output, (h, c) = self.lstm(x)
        return self.fc(output[-1]), h, c


class GRUModel(nn.Module):
    """A bidirectional batch-first GRU with an initial state."""

    def __init__(self, features=16, hidden=32):
        super().__init__()
        self.gru = nn.GRU(features, hidden, batch_first=True,
                          bidirectional=True)
        self.fc = nn.Linear(2 * hidden, 4)

    def forward(self, x, h0):
        output = self.gru(x, h0)[0]
        return torch.sigmoid(self.fc(output))


class PackedLSTMModel(nn.Module):
    """Variable-length sequences through a packed sequence: a 2-layer
    bidirectional batch-first LSTM on unsorted lengths."""

    def __init__(self, features=16, hidden=24):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, num_layers=2, batch_first=True,
                            bidirectional=True)

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(
            x, lengths, batch_first=True, enforce_sorted=False)
        output, (h, c) = self.lstm(packed)
        padded, _ = nn.utils.rnn.pad_packed_sequence(
            output, batch_first=True, total_length=x.size(1))
        return padded, h, c


class PackedGRUModel(nn.Module):
    """A time-major GRU on lengths sorted longest first, with an initial
    state, and a classifier on each sequence's last state."""

    def __init__(self, features=16, hidden=32):
        super().__init__()
        self.gru = nn.GRU(features, hidden)
        self.fc = nn.Linear(hidden, 5)

    def forward(self, x, lengths, h0):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
        output, h = self.gru(packed, h0)
        padded, _ = nn.utils.rnn.pad_packed_sequence(
            output, total_length=x.size(0))
        return padded, self.fc(h[-1])


register("lstm_model", lambda: [rand(12, 4, 32)],
         tolerance={"f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2)})(LSTMModel)
register("gru_model", lambda: [rand(3, 9, 16), rand(2, 3, 32)],
         tolerance={"f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2)})(GRUModel)
register("lstm_packed_model",
         lambda: [rand(5, 9, 16), torch.tensor([9, 4, 6, 1, 7])],
         tolerance={"f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2)},
         cpu_inputs=(1,))(PackedLSTMModel)
register("gru_packed_model",
         lambda: [rand(8, 3, 16), torch.tensor([8, 5, 2]), rand(1, 3, 32)],
         tolerance={"f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2)},
         cpu_inputs=(1,))(PackedGRUModel)
