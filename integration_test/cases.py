"""The GPU integration suite's cases: one compiled module each
(integration_test/cases/<name>.mlir), how to make its inputs, its reference
in PyTorch (computed in float64 on the CPU from the same inputs), the
tolerance, and how many cuDNN graphs it must build, all fused (none split).

Tolerances (max |out - ref| <= tol * max |ref|, checked per output):
fp32 graphs run with TF32 off (the pipelines' allow-tf32-conv and
allow-tf32-matmul default to false), so 1e-4; fp16/bf16 I/O with fp32 compute, 1e-2; fp32 on TF32, 5e-3.
Generated kernels (the codegen_* cases, issue 6) are held to the same
tolerances, and data movement to 0 (bit exact). A case's `tol` is one number
for every output, or a list with one per output (the casts: exact where the
conversion is).

A case file's `// COMPILE-OPTIONS: ...` line gives the pipeline options
integration_test/build_suite.sh compiles it with.
"""

import math

FP32_TOL = 1e-4
FP16_TOL = 1e-2
# fp32 data on TF32 tensor cores (10-bit mantissa), for graphs cuDNN only
# runs that way (compiled with allow-tf32-conv=true or allow-tf32-matmul=true).
TF32_TOL = 5e-3


class Case:
    def __init__(self, name, reference, tol, graphs, inputs=None,
                 split_form=None):
        self.name = name
        self.reference = reference  # float64 torch tensors -> output(s)
        self.tol = tol              # one for all outputs, or one each
        self.graphs = graphs        # cuDNN graphs each call executes
        self.inputs = inputs        # optional: (torch, specs, gen) -> tensors
        # Why cuDNN has no engine for the case's fused graph on the GPU
        # machine: the module must then run its compiled split form (the
        # runtime says so once), and `graphs` counts the split form's.
        self.split_form = split_form


def _conv(torch, x, w, stride=1, padding=1):
    return torch.nn.functional.conv2d(x, w, stride=stride, padding=padding)


def seed(torch, x, w):
    return _conv(torch, torch.relu(x), w)


def basic_block(torch, x, w1, b1, w2, b2):
    y = torch.relu(_conv(torch, x, w1) + b1)
    return torch.relu(_conv(torch, y, w2) + b2 + x)


def conv_bias_relu(torch, x, w, b):
    return torch.relu(_conv(torch, x, w, stride=2) + b)


# 1.702 as the fp16 constant of the module holds it.
GELU_K = 1.7021484375


def matmul_bias_gelu(torch, a, b, bias):
    z = a @ b + bias
    return z * torch.sigmoid(GELU_K * z)


def gelu_after_matmul(approximate):
    """tcp.gelu with `approximate` ("none": erf, or "tanh") of a @ b + bias."""
    def reference(torch, a, b, bias):
        return torch.nn.functional.gelu(a @ b + bias, approximate=approximate)
    return reference


def batch_norm(torch, x, scale, bias, mean, var):
    view = lambda t: t.view(1, -1, 1, 1)
    return (x - view(mean)) / torch.sqrt(view(var) + 1e-5) * view(scale) \
        + view(bias)


def batch_norm_inputs(torch, specs, gen):
    x = torch.randn(specs[0].dims, generator=gen)
    c = specs[1].dims[0]
    scale = torch.rand(c, generator=gen) + 0.5
    bias = torch.randn(c, generator=gen)
    mean = torch.randn(c, generator=gen) * 0.1
    var = torch.rand(c, generator=gen) + 0.5
    return [x, scale, bias, mean, var]


def layer_norm(torch, x, g):
    return torch.nn.functional.layer_norm(x, x.shape[1:], g, None, 1e-5)


def conv_then_softmax_transpose(torch, x, w, b):
    y = torch.relu(_conv(torch, x, w, stride=2) + b)
    return torch.softmax(y, dim=-1).permute(0, 2, 3, 1)


def matmul_row_sum(torch, a, b):
    return (a @ b).sum(dim=1)


def resnet18(torch, x, *params):
    """examples/gen_resnet18_tcp.py's ResNet-18 from its flat arguments:
    conv1 (w, b), then per block conv1, conv2 and, where the shape changes,
    the 1x1 downsample, then fc (w [512, classes], b [1, classes])."""
    f = torch.nn.functional
    it = iter(params)

    def conv(h, stride, pad):
        w, b = next(it), next(it)
        return f.conv2d(h, w, stride=stride, padding=pad) + b

    h = torch.relu(conv(x, 2, 3))
    h = f.max_pool2d(h, 3, 2, 1)
    cin = 64
    for layer, cout in enumerate([64, 128, 256, 512], start=1):
        for block in range(2):
            stride = 2 if (layer > 1 and block == 0) else 1
            y = torch.relu(conv(h, stride, 1))
            y = conv(y, 1, 1)
            skip = conv(h, stride, 0) if (stride != 1 or cin != cout) else h
            h = torch.relu(y + skip)
            cin = cout
    h = h.mean(dim=(2, 3))
    fc_w, fc_b = next(it), next(it)
    return h @ fc_w + fc_b


# ---- One case per cuDNN graph op (the cudnn-dialect cases mirror the
# runtime's GpuOpsTest graphs: runtime/unittests/RuntimeGraphs.h).

BN_EPS = 1e-5
BN_MOMENTUM = 0.1


def _uniform(torch, dims, gen, lo, hi):
    return torch.rand(dims, generator=gen, dtype=torch.float64) * (hi - lo) + lo


def conv_dgrad(torch, dy, w):
    """dx of a 3x3 stride-2 pad-1 conv whose output is dy (dx has twice dy's
    spatial size; conv2d_input works out the output padding)."""
    n, _, h, wd = dy.shape
    return torch.nn.grad.conv2d_input((n, w.shape[1], 2 * h, 2 * wd), w, dy,
                                      stride=2, padding=1)


def conv_wgrad(torch, x, dy):
    """dw of a 3x3 stride-1 pad-1 conv of x whose output is dy."""
    return torch.nn.grad.conv2d_weight(x, (dy.shape[1], x.shape[1], 3, 3), dy,
                                       stride=1, padding=1)


def _row_stats(x):
    """Mean and 1/sqrt(biased var + eps) of each sample over all its other
    dims, shaped [N, 1, 1, ...] (layer norm's statistics)."""
    dims = tuple(range(1, x.dim()))
    mean = x.mean(dim=dims, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=dims, keepdim=True)
    return mean, 1 / (var + BN_EPS).sqrt()


def layer_norm_training(torch, x, scale, bias):
    """y, saved mean, saved inverse std."""
    mean, inv = _row_stats(x)
    return (x - mean) * inv * scale + bias, mean, inv


def layer_norm_training_inputs(torch, specs, gen):
    x = _uniform(torch, specs[0].dims, gen, -1, 3)  # mean near 1
    scale = _uniform(torch, specs[1].dims, gen, 0.5, 1.5)
    bias = _uniform(torch, specs[2].dims, gen, -0.5, 0.5)
    return [x, scale, bias]


def layer_norm_backward(torch, dy, x, scale, mean, inv):
    """With the given (saved) statistics, as cuDNN uses them: per row, with
    g = dy * scale and xhat = (x - mean) * inv,
    dx = inv * (g - mean(g) - xhat * mean(g * xhat)); dscale = sum of
    dy * xhat and dbias = sum of dy over the rows."""
    dims = tuple(range(1, x.dim()))
    xhat = (x - mean) * inv
    g = dy * scale
    dx = inv * (g - g.mean(dim=dims, keepdim=True)
                - xhat * (g * xhat).mean(dim=dims, keepdim=True))
    dscale = (dy * xhat).sum(dim=0, keepdim=True)
    dbias = dy.sum(dim=0, keepdim=True)
    return dx, dscale, dbias


def _backward_inputs(torch, specs, gen, dtype, stats):
    """dy, x, scale, and the mean and inverse std `stats` computes from x as
    the GPU sees it (rounded to `dtype`)."""
    dy = _uniform(torch, specs[0].dims, gen, -1, 1)
    x = _uniform(torch, specs[1].dims, gen, -1, 3)
    x = x.to(dtype).to(torch.float64)
    scale = _uniform(torch, specs[2].dims, gen, 0.5, 1.5)
    mean, inv = stats(x)
    return [dy, x, scale, mean, inv]


def layer_norm_backward_inputs(torch, specs, gen):
    return _backward_inputs(torch, specs, gen, torch.float32, _row_stats)


def _channel_stats(x):
    """Per-channel mean and biased variance of [N, C, H, W], [1, C, 1, 1]."""
    mean = x.mean(dim=(0, 2, 3), keepdim=True)
    var = ((x - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
    return mean, var


def batch_norm_training(torch, x, scale, bias, rmean, rvar):
    """y, saved mean, saved inverse std, next running mean and var; the
    running var takes the unbiased batch variance (what cuDNN does:
    docs/runtime.md, GpuOpsTest TrainingHalfNhwc)."""
    count = x.numel() // x.shape[1]
    mean, var = _channel_stats(x)
    inv = 1 / (var + BN_EPS).sqrt()
    y = (x - mean) * inv * scale + bias
    next_mean = (1 - BN_MOMENTUM) * rmean + BN_MOMENTUM * mean
    next_var = (1 - BN_MOMENTUM) * rvar + \
        BN_MOMENTUM * var * count / (count - 1)
    return y, mean, inv, next_mean, next_var


def batch_norm_training_inputs(torch, specs, gen):
    x = _uniform(torch, specs[0].dims, gen, -1, 3)  # mean near 1
    c = specs[1].dims
    return [x, _uniform(torch, c, gen, 0.5, 1.5),    # scale
            _uniform(torch, c, gen, -0.5, 0.5),      # bias
            _uniform(torch, c, gen, -0.5, 0.5),      # running mean
            _uniform(torch, c, gen, 0.5, 1.5)]       # running var > 0


def batch_norm_backward(torch, dy, x, scale, mean, inv):
    """With the given saved statistics and M = N*H*W elements per channel:
    dbias = sum dy, dscale = sum dy * xhat,
    dx = scale * inv * (dy - dbias / M - xhat * dscale / M)."""
    count = x.numel() // x.shape[1]
    xhat = (x - mean) * inv
    dbias = dy.sum(dim=(0, 2, 3), keepdim=True)
    dscale = (dy * xhat).sum(dim=(0, 2, 3), keepdim=True)
    dx = scale * inv * (dy - dbias / count - xhat * dscale / count)
    return dx, dscale, dbias


def batch_norm_backward_inputs(torch, specs, gen):
    def stats(x):
        mean, var = _channel_stats(x)
        return mean, 1 / (var + BN_EPS).sqrt()
    return _backward_inputs(torch, specs, gen, torch.float16, stats)


def genstats_bn_finalize(torch, x, scale, bias, w, bn_scale, bn_bias, rmean,
                         rvar):
    """Graph 1: y = conv3x3(relu(x * scale + bias), w) and the per-channel
    sum and sum of squares of y; graph 2: bn_finalize of those over
    M = N*H*W: eq_scale = bn_scale * inv_std, eq_bias = bn_bias - mean *
    eq_scale, mean, inv_std (biased variance), next running mean and var
    (unbiased variance)."""
    y = _conv(torch, torch.relu(x * scale + bias), w)
    count = y.numel() // y.shape[1]
    s = y.sum(dim=(0, 2, 3), keepdim=True)
    sq = (y * y).sum(dim=(0, 2, 3), keepdim=True)
    mean = s / count
    var = sq / count - mean * mean
    inv = 1 / (var + BN_EPS).sqrt()
    eq_scale = bn_scale * inv
    eq_bias = bn_bias - mean * eq_scale
    next_mean = (1 - BN_MOMENTUM) * rmean + BN_MOMENTUM * mean
    next_var = (1 - BN_MOMENTUM) * rvar + \
        BN_MOMENTUM * var * count / (count - 1)
    return y, s, sq, eq_scale, eq_bias, mean, inv, next_mean, next_var


def genstats_bn_finalize_inputs(torch, specs, gen):
    x = torch.randn(specs[0].dims, generator=gen, dtype=torch.float64)
    c16 = specs[1].dims
    w = torch.randn(specs[3].dims, generator=gen, dtype=torch.float64) / \
        math.sqrt(math.prod(specs[3].dims[1:]))
    c = specs[4].dims
    return [x, _uniform(torch, c16, gen, 0.5, 1.5),  # scale
            _uniform(torch, c16, gen, -0.5, 0.5),    # bias
            w,
            _uniform(torch, c, gen, 0.5, 1.5),       # bn scale
            _uniform(torch, c, gen, -0.5, 0.5),      # bn bias
            _uniform(torch, c, gen, -0.5, 0.5),      # running mean
            _uniform(torch, c, gen, 0.5, 1.5)]       # running var > 0


def resample_avg(torch, x):
    return torch.nn.functional.avg_pool2d(x, 3, stride=2, padding=1,
                                          count_include_pad=False)


def pointwise_epilogue(torch, x, w, b):
    z = _conv(torch, x, w)
    a = z - b
    return -(torch.tanh(a) * torch.sigmoid(z)) / (1 + a.abs())


def conv_then_double(torch, x, w):
    return 2.0 * _conv(torch, x, w)


# ---- General GPU codegen (issue 6): TCP ops no cuDNN graph takes, lowered
# through convert-tcp-to-linalg, codegen-fuse-elementwise and
# codegen-map-to-gpu into generated kernels. One module per op family and
# dtype (integration_test/cases/codegen_*.mlir); graphs=0 except the pools
# the fusion pass gives to cuDNN.

EXACT = 0.0
CODEGEN_DTYPES = ("f32", "f16", "bf16")
CODEGEN_TOL = {"f32": FP32_TOL, "f16": FP16_TOL, "bf16": FP16_TOL}
# The 6-op chain in bf16: each op rounds to bf16's 8-bit mantissa (as
# PyTorch's eager bf16 does), six times. PyTorch eager in bf16 on the same
# kind of inputs (chain_inputs) is off by up to 0.91% of max |ref| over 20
# seeds (ours: 0.80% at seed 0, H100), so 1e-2 leaves no margin.
BF16_CHAIN_TOL = 2e-2


def normal_inputs(torch, specs, gen):
    """Standard normal inputs, unscaled (no weights here)."""
    return [torch.randn(s.dims, generator=gen, dtype=torch.float64)
            for s in specs]


def _signed(torch, dims, gen, lo, hi):
    """Uniform magnitudes in [lo, hi] with random signs (divisors)."""
    sign = torch.randint(0, 2, dims, generator=gen).to(torch.float64) * 2 - 1
    return _uniform(torch, dims, gen, lo, hi) * sign


def elementwise_inputs(torch, specs, gen):
    """x in [-4, 4] with every 4th element an exact half (round and
    round_even disagree there), p in [0.1, 10] for log and sqrt, a in
    [-3, 3], b with |b| in [0.5, 2]."""
    x = _uniform(torch, specs[0].dims, gen, -4, 4)
    flat = x.view(-1)
    flat[::4] = torch.round(flat[::4] * 2) / 2
    p = _uniform(torch, specs[1].dims, gen, 0.1, 10)
    a = _uniform(torch, specs[2].dims, gen, -3, 3)
    b = _signed(torch, specs[3].dims, gen, 0.5, 2)
    return [x, p, a, b]


def gelu_inputs(torch, specs, gen):
    """Uniform in [-6, 6]: both tails (gelu(x) near x and near 0) and the
    curved middle."""
    return [_uniform(torch, s.dims, gen, -6, 6) for s in specs]


def gelu_both(torch, x, y):
    """Exact and tanh-approximated GELU of each input."""
    f = torch.nn.functional
    return (f.gelu(x), f.gelu(x, approximate="tanh"),
            f.gelu(y), f.gelu(y, approximate="tanh"))


def _round_half_away(torch, x):
    return torch.sign(x) * torch.floor(x.abs() + 0.5)


def elementwise(torch, x, p, a, b):
    return (torch.tanh(x), torch.sigmoid(x), torch.ceil(x), torch.floor(x),
            _round_half_away(torch, x), torch.round(x),  # round_even
            torch.cos(x), torch.sin(x), -x, torch.atan(x), x.abs(),
            torch.log(p), torch.sqrt(p), x.clamp(-1.5, 2.0),
            a + b, a - b, a * b, a / b, torch.atan2(a, b))


def cast_inputs(torch, specs, gen):
    floats = [_uniform(torch, s.dims, gen, -300, 300) for s in specs[:3]]
    ints = torch.randint(-1000, 1001, specs[3].dims, generator=gen)
    return floats + [ints.to(torch.float64)]


def cast(torch, x, h, b, i):
    """The reference is the value converted exactly; rounding to a 16-bit
    float is within the per-output tolerance, float -> i32 truncates."""
    return (x, x, h, b, h, b, torch.trunc(x), torch.trunc(h), torch.trunc(b),
            i, i, i)


# f32->f16, f32->bf16, f16->f32, bf16->f32, f16->bf16, bf16->f16, three
# float->i32, i32->f32, i32->f16 (|i| <= 1000: exact), i32->bf16 (rounds).
CAST_TOLS = [FP16_TOL, FP16_TOL, EXACT, EXACT, FP16_TOL, EXACT,
             EXACT, EXACT, EXACT, EXACT, EXACT, FP16_TOL]


def int_inputs(torch, specs, gen):
    a = torch.randint(-1000, 1001, specs[0].dims, generator=gen)
    b = torch.randint(1, 51, specs[1].dims, generator=gen) * \
        (torch.randint(0, 2, specs[1].dims, generator=gen) * 2 - 1)
    return [a.to(torch.float64), b.to(torch.float64)]


def int_ops(torch, a, b):
    return (a + b, a * b, torch.div(a, b, rounding_mode="trunc"),
            torch.div(a, b, rounding_mode="floor"), torch.ceil(a / b),
            a.clamp(-100, 100), a.abs())


def broadcast(torch, x, row, col, s, x3, mid):
    return x + row.view(1, -1), x * col, x - s, x3 + mid


def chain_inputs(torch, specs, gen):
    """x, a, b in [-1, 1], c in [0.5, 1.5]: bounded, so that the error
    measured is the kernel's per-op rounding, not bf16's cancellation in
    x * a + b amplified by a large c (randn inputs: 2.1e-2 in bf16)."""
    return [_uniform(torch, s.dims, gen, -1, 1) for s in specs[:3]] + \
        [_uniform(torch, specs[3].dims, gen, 0.5, 1.5)]


def chain(torch, x, a, b, c):
    return torch.clamp(torch.tanh(x * a + b) * c, -0.5, 0.5) - 0.25


def reductions(torch, a, b, z, t):
    return (a.sum(1), a.amax(1, keepdim=True), a.mean(1), a.amin(1),
            b.sum(0), b.amax(0), b.mean(0, keepdim=True),
            z.sum((0, 2)), z.mean((0, 2), keepdim=True), z.amax((0, 2)),
            t.sum(0))


def softmax(torch, x):
    return torch.softmax(x, dim=-1)


def short_rows(torch, x, g, b, s, z, t):
    f = torch.nn.functional
    return (f.layer_norm(x, x.shape[-1:], g, b, 1e-6), torch.softmax(s, dim=-1),
            f.layer_norm(z, z.shape[-1:], None, None, 1e-5),
            torch.softmax(t, dim=-1))


def transposes(torch, x, y):
    return (x.permute(0, 2, 3, 1).contiguous(),
            y.permute(0, 3, 1, 2).contiguous())


def codegen_pools(torch, x):
    f = torch.nn.functional
    return (f.max_pool2d(x, 3, stride=1, padding=1, dilation=2),
            f.avg_pool2d(x, 2, stride=2, padding=1, ceil_mode=True,
                         count_include_pad=True),
            f.avg_pool2d(x, 2, stride=2, padding=0, ceil_mode=True,
                         count_include_pad=False))


def cudnn_pools(torch, x):
    f = torch.nn.functional
    return (f.max_pool2d(x, 3, stride=2, padding=1),
            f.max_pool2d(x, 2, stride=2, padding=0, ceil_mode=True),
            f.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=True),
            f.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False))


def data_movement_inputs(torch, specs, gen):
    floats = normal_inputs(torch, specs[:4], gen)
    idx = torch.randint(0, 40, specs[4].dims, generator=gen)
    rows = torch.randint(0, 9, (specs[5].dims[0],), generator=gen)
    cols = torch.randint(0, 40, (specs[5].dims[0],), generator=gen)
    nd = torch.stack([rows, cols], dim=1)
    return floats + [idx.to(torch.float64), nd.to(torch.float64)]


def data_movement(torch, x, a, b, c, idx, nd):
    nd = nd.long()
    return (x[1:9:2, 3:39:3, :].contiguous(), torch.cat([a, x, b], 1),
            torch.cat([x, c], 2), torch.gather(x, 1, idx.long()),
            x[nd[:, 0], nd[:, 1]])


def conv_matmul(torch, x, w, a, b, ba, bb):
    """fp32 anchors left to generated kernels (fuse-fp32=false)."""
    return (torch.nn.functional.conv2d(x, w, stride=2, padding=1, dilation=2,
                                       groups=2),
            a @ b, torch.bmm(ba, bb))


def layer_norm_last2(torch, x, g, b):
    """Layer norms over the last 2 dims; the training form's mean and rstd
    as torch.ops.aten.native_layer_norm returns them (rows x 1 x 1)."""
    f = torch.nn.functional
    shape = x.shape[2:]
    mean = x.mean(dim=(2, 3), keepdim=True)
    var = x.var(dim=(2, 3), unbiased=False, keepdim=True)
    return (f.layer_norm(x, shape, g, b, 1e-5),
            f.layer_norm(x, shape, None, None, 1e-5),
            mean, torch.rsqrt(var + 1e-5))


def _codegen_cases():
    cases = []
    for dt in CODEGEN_DTYPES:
        tol = CODEGEN_TOL[dt]
        cases += [
            Case("codegen_elementwise_" + dt, elementwise, tol, graphs=0,
                 inputs=elementwise_inputs),
            Case("codegen_broadcast_" + dt, broadcast, tol, graphs=0,
                 inputs=normal_inputs),
            Case("codegen_gelu_" + dt, gelu_both, tol, graphs=0,
                 inputs=gelu_inputs),
            Case("codegen_chain_" + dt, chain,
                 BF16_CHAIN_TOL if dt == "bf16" else tol, graphs=0,
                 inputs=chain_inputs),
            Case("codegen_reduce_" + dt, reductions, tol, graphs=0,
                 inputs=normal_inputs),
            Case("codegen_softmax_" + dt, softmax, tol, graphs=0,
                 inputs=normal_inputs),
            Case("codegen_transpose_" + dt, transposes, EXACT, graphs=0,
                 inputs=normal_inputs),
            # The 2x2 stride-2 ceil_mode pool with padding 1 adds no window
            # on 33x35 (ceil and floor agree): a cuDNN resample since
            # 1e491ba, except in bf16.
            Case("codegen_pool_" + dt, codegen_pools, tol,
                 graphs=0 if dt == "bf16" else 1, inputs=normal_inputs),
            # bf16 pools are generated kernels: cuDNN 9.14's bf16 resample
            # gave wrong results on the H100 (CudnnSupportTable.cpp).
            Case("codegen_pool_cudnn_" + dt, cudnn_pools, tol,
                 graphs=0 if dt == "bf16" else 4, inputs=normal_inputs),
            Case("codegen_data_movement_" + dt, data_movement, EXACT,
                 graphs=0, inputs=data_movement_inputs),
        ]
    return cases + [
        Case("codegen_softmax_rows1024_f32", softmax, FP32_TOL, graphs=0,
             inputs=normal_inputs),
        # A cuDNN graph, then generated kernels on its output, one stream.
        Case("codegen_after_graph_f16", conv_then_softmax_transpose,
             FP16_TOL, graphs=1),
        Case("codegen_cast", cast, CAST_TOLS, graphs=0, inputs=cast_inputs),
        Case("codegen_int_i32", int_ops, EXACT, graphs=0, inputs=int_inputs),
        # Ops with a cuDNN road that no graph took: generated kernels.
        Case("codegen_conv_matmul_f32", conv_matmul, FP32_TOL, graphs=0,
             inputs=normal_inputs),
        Case("codegen_layer_norm_f16", layer_norm_last2, FP16_TOL, graphs=0,
             inputs=normal_inputs),
        # Short rows, several a block (RowReductionKernel.cpp).
        Case("codegen_short_rows_f16", short_rows, FP16_TOL, graphs=0,
             inputs=normal_inputs),
    ]


# ---- Batch norms as generated kernels (issue 7): the inference and training
# forms through convert-tcp-batch-norm-to-linalg (Welford statistics, f32
# arithmetic for f16/bf16), against torch.nn.functional.batch_norm in
# float64. Every case is graphs=0 (integration_test/cases/bn_codegen_*.mlir
# say which batch-norm= option each is compiled with).

def _bn_reduced_dims(x):
    return [d for d in range(x.dim()) if d != 1]


def _bn_formula(torch, x, mean, var, scale, bias, eps):
    """(x - mean) / sqrt(var + eps) * scale + bias, per channel: the
    reference for epsilon = 0, which torch.nn.functional.batch_norm rejects
    ("batch_norm eps must be positive", torch 2.11)."""
    rank = x.dim()
    return (x - _per_channel(mean, rank)) \
        / torch.sqrt(_per_channel(var, rank) + eps) \
        * _per_channel(scale, rank) + _per_channel(bias, rank)


def bn_training_reference(eps, momentum):
    """y, saved mean, saved invstd = 1/sqrt(biased var + eps), and the next
    running mean and var (torch.nn.functional.batch_norm updates the running
    statistics it is given in place, with the unbiased variance)."""
    def reference(torch, x, scale, bias, rmean, rvar):
        var, mean = torch.var_mean(x, dim=_bn_reduced_dims(x), correction=0)
        if eps == 0:
            count = x.numel() // x.shape[1]
            y = _bn_formula(torch, x, mean, var, scale, bias, eps)
            rmean = (1 - momentum) * rmean + momentum * mean
            rvar = (1 - momentum) * rvar + \
                momentum * var * count / (count - 1)
            return y, mean, 1 / torch.sqrt(var), rmean, rvar
        rmean, rvar = rmean.clone(), rvar.clone()
        y = torch.nn.functional.batch_norm(
            x, rmean, rvar, scale, bias, training=True, momentum=momentum,
            eps=eps)
        return y, mean, 1 / torch.sqrt(var + eps), rmean, rvar
    return reference


def bn_inference_reference(eps):
    def reference(torch, x, scale, bias, mean, var):
        if eps == 0:
            return _bn_formula(torch, x, mean, var, scale, bias, eps)
        return torch.nn.functional.batch_norm(x, mean, var, scale, bias,
                                              training=False, eps=eps)
    return reference


def _bn_parameters(torch, c, gen):
    """scale, bias, running mean, running var > 0 (C each)."""
    return [_uniform(torch, c, gen, 0.5, 1.5),
            _uniform(torch, c, gen, -0.5, 0.5),
            _uniform(torch, c, gen, -0.5, 0.5),
            _uniform(torch, c, gen, 0.5, 1.5)]


def bn_offset_inputs(offset):
    """x = offset + N(0, 1): a mean far larger than the deviation."""
    def inputs(torch, specs, gen):
        x = torch.randn(specs[0].dims, generator=gen, dtype=torch.float64)
        return [x + offset] + _bn_parameters(torch, specs[1].dims, gen)
    return inputs


def _per_channel(t, rank):
    return t.view([1, -1] + [1] * (rank - 2))


def bn_constant_inputs(torch, specs, gen):
    """Every channel constant, at its own value in [-2, 2]."""
    dims = specs[0].dims
    value = _uniform(torch, [dims[1]], gen, -2, 2)
    x = _per_channel(value, len(dims)).expand(dims).contiguous()
    return [x] + _bn_parameters(torch, specs[1].dims, gen)


def bn_small_deviation_inputs(torch, specs, gen):
    """Per channel: mean in [-0.5, 0.5], standard deviation 10^u with u in
    [-3, 0] (invstd up to 1000 with epsilon 0). Means this small keep the
    float32 rounding of the mean (half an ulp of 0.5: 3e-8) times invstd
    well under the tolerance."""
    dims = specs[0].dims
    rank = len(dims)
    mean = _uniform(torch, [dims[1]], gen, -0.5, 0.5)
    std = 10 ** _uniform(torch, [dims[1]], gen, -3, 0)
    x = torch.randn(dims, generator=gen, dtype=torch.float64)
    x = x * _per_channel(std, rank) + _per_channel(mean, rank)
    return [x] + _bn_parameters(torch, specs[1].dims, gen)


def bn_small_variance_inputs(torch, specs, gen):
    """Inference: running variances 10^u with u in [-6, 0]."""
    x = torch.randn(specs[0].dims, generator=gen, dtype=torch.float64)
    scale, bias, mean, _ = _bn_parameters(torch, specs[1].dims, gen)
    var = 10 ** _uniform(torch, specs[1].dims, gen, -6, 0)
    return [x, scale, bias, mean, var]


# The stress cases keep fp32's 1e-4: with > 2^24 values a channel around a
# mean of 1000, y's error is dominated by the float32 mean itself (half an
# ulp of 1000 is 3e-5, a few roundings in the Welford merges ~1e-4
# absolute), times invstd ~1 and scale <= 1.5, against max |y| ~ 9 (5.6
# deviations at this count): ~2e-5 of max |y| (2.5e-5 on the H100). The
# mean and invstd are relative to their own size (1000, ~1). A float32 count
# stops at 2^24 (2^24 + 1 rounds back), and E[x^2] - E[x]^2 in float32
# (1e6 + 1 - 1e6 with an ulp of 0.0625 at 1e6, rounded ~1.7e7 times) loses
# most of the variance's digits: Welford with 64-bit counts does neither.
def bn_backward_autograd(training):
    """dx, dscale, dbias by autograd through torch.nn.functional.batch_norm
    (float64). Training: x's own batch statistics (the saved mean and invstd
    the module is given are those of x). Eval: the running mean and
    var = 1/invstd^2 - eps, constants for the gradient."""
    def reference(torch, dy, x, scale, mean, invstd):
        x = x.clone().requires_grad_()
        scale = scale.clone().requires_grad_()
        bias = torch.zeros_like(scale).requires_grad_()
        if training:
            y = torch.nn.functional.batch_norm(
                x, None, None, scale, bias, training=True, eps=BN_EPS)
        else:
            var = 1 / (invstd * invstd) - BN_EPS
            y = torch.nn.functional.batch_norm(
                x, mean, var, scale, bias, training=False, eps=BN_EPS)
        y.backward(dy)
        return x.grad, scale.grad, bias.grad
    return reference


def bn_backward_inputs(dtype_name):
    """dy, x, scale, and x's own saved mean and invstd (x rounded to the
    dtype the GPU sees first)."""
    def inputs(torch, specs, gen):
        dtype = {"f32": torch.float32, "f16": torch.float16,
                 "bf16": torch.bfloat16}[dtype_name]

        def stats(x):
            var, mean = torch.var_mean(x, dim=_bn_reduced_dims(x),
                                       correction=0)
            return mean, 1 / (var + BN_EPS).sqrt()
        return _backward_inputs(torch, specs, gen, dtype, stats)
    return inputs


def bn_eval_backward_inputs(dtype_name):
    """dy, x, scale, a running mean and invstd = 1/sqrt(running var + eps)
    (running var in [0.5, 1.5])."""
    def inputs(torch, specs, gen):
        dtype = {"f32": torch.float32, "f16": torch.float16,
                 "bf16": torch.bfloat16}[dtype_name]

        def stats(x):
            c = x.shape[1]
            var = _uniform(torch, [c], gen, 0.5, 1.5)
            return _uniform(torch, [c], gen, -0.5, 0.5), \
                1 / (var + BN_EPS).sqrt()
        return _backward_inputs(torch, specs, gen, dtype, stats)
    return inputs


def _bn_codegen_cases():
    train = bn_training_reference(BN_EPS, BN_MOMENTUM)
    infer = bn_inference_reference(BN_EPS)
    grad_train = bn_backward_autograd(training=True)
    grad_eval = bn_backward_autograd(training=False)
    tol16 = FP16_TOL  # y rounds once to f16/bf16 (2^-9 for bf16): 1e-2 holds
    return [
        Case("bn_codegen_training_f32", train, FP32_TOL, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_f16", train, tol16, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_bf16", train, tol16, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_planes_f32", train, FP32_TOL, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_planes_f16", train, tol16, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_f32_channels_last", train, FP32_TOL,
             graphs=0, inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_f16_channels_last", train, tol16, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_bf16_channels_last", train, tol16,
             graphs=0, inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_2d_f32", train, FP32_TOL, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_2d_wide_f16", train, tol16, graphs=0,
             inputs=batch_norm_training_inputs),
        Case("bn_codegen_training_large_f32", train, FP32_TOL, graphs=0,
             inputs=bn_offset_inputs(1000.0)),
        Case("bn_codegen_training_large_f16_channels_last", train, tol16,
             graphs=0, inputs=bn_offset_inputs(100.0)),
        Case("bn_codegen_training_constant_f32", train, FP32_TOL, graphs=0,
             inputs=bn_constant_inputs),
        Case("bn_codegen_training_eps0_f32", bn_training_reference(0.0, 0.25),
             FP32_TOL, graphs=0, inputs=bn_small_deviation_inputs),
        Case("bn_codegen_inference_f32", infer, FP32_TOL, graphs=0,
             inputs=batch_norm_inputs),
        Case("bn_codegen_inference_f16_channels_last", infer, tol16,
             graphs=0, inputs=batch_norm_inputs),
        Case("bn_codegen_inference_bf16", infer, tol16, graphs=0,
             inputs=batch_norm_inputs),
        Case("bn_codegen_inference_eps0_f32", bn_inference_reference(0.0),
             FP32_TOL, graphs=0, inputs=bn_small_variance_inputs),
        Case("bn_codegen_backward_f32", grad_train, FP32_TOL, graphs=0,
             inputs=bn_backward_inputs("f32")),
        Case("bn_codegen_backward_f16", grad_train, tol16, graphs=0,
             inputs=bn_backward_inputs("f16")),
        Case("bn_codegen_backward_2d_bf16", grad_train, tol16,
             graphs=0, inputs=bn_backward_inputs("bf16")),
        Case("bn_codegen_backward_f16_channels_last", grad_train, tol16,
             graphs=0, inputs=bn_backward_inputs("f16")),
        Case("bn_codegen_eval_backward_f32", grad_eval, FP32_TOL, graphs=0,
             inputs=bn_eval_backward_inputs("f32")),
        Case("bn_codegen_eval_backward_bf16_channels_last", grad_eval, tol16,
             graphs=0, inputs=bn_eval_backward_inputs("bf16")),
    ]


# ---- Batch norms forced to cuDNN (batch-norm=cudnn): each training or
# backward batch norm one cuDNN norm graph (integration_test/cases/
# bn_cudnn_*.mlir), against the references of the generated ones.

def _bn_cudnn_cases():
    train = bn_training_reference(BN_EPS, BN_MOMENTUM)
    trainings = [Case("bn_cudnn_training_" + suffix, train, tol, graphs=1,
                      inputs=batch_norm_training_inputs)
                 for suffix, tol in (("f16_channels_last", FP16_TOL),
                                     ("f32", FP32_TOL),
                                     ("2d_f32", FP32_TOL))]
    return trainings + [
        Case("bn_cudnn_training_y_only_bf16_channels_last",
             lambda torch, *args: train(torch, *args)[0], FP16_TOL,
             graphs=1, inputs=batch_norm_training_inputs),
        Case("bn_cudnn_backward_f16_channels_last",
             bn_backward_autograd(training=True), FP16_TOL, graphs=1,
             inputs=bn_backward_inputs("f16"))]


def rnn_inputs(torch, specs, gen):
    """RNN inputs: x in [-1, 1], states in [-0.5, 0.5], parameters in
    [-0.3, 0.3] (so that 2-layer relu/tanh stacks stay O(1)), and an i64
    `lengths` operand: lengths in [1, seq], the longest not first (the
    batch is unsorted)."""
    out = []
    for i, spec in enumerate(specs):
        if spec.dtype == "i64":
            batch = spec.dims[0]
            seq = specs[0].dims[0]  # seq-major input
            lengths = [seq - (k * 3) % seq for k in range(batch)]
            out.append(torch.tensor(lengths[1:] + lengths[:1],
                                    dtype=torch.float64))
        elif i == 0:
            out.append(_uniform(torch, spec.dims, gen, -1, 1))
        elif i <= 2 and len(spec.dims) == 3:
            out.append(_uniform(torch, spec.dims, gen, -0.5, 0.5))
        else:
            out.append(_uniform(torch, spec.dims, gen, -0.3, 0.3))
    return out


def _rnn_module(torch, cls, params, **kwargs):
    module = cls(**kwargs).double()
    with torch.no_grad():
        for weight, value in zip(module._flat_weights, params):
            weight.copy_(value)
    return module


def rnn_lstm_2layer_bi(torch, x, h0, c0, *params):
    m = _rnn_module(torch, torch.nn.LSTM, params, input_size=16,
                    hidden_size=32, num_layers=2, bidirectional=True)
    y, (hn, cn) = m(x, (h0, c0))
    return y, hn, cn


def rnn_gru_batch_first(torch, x, h0, *params):
    m = _rnn_module(torch, torch.nn.GRU, params, input_size=32,
                    hidden_size=64, batch_first=True)
    y, hn = m(x, h0)
    return y, hn


def rnn_tanh_lengths(torch, x, h0, *rest):
    *params, lengths = rest
    m = _rnn_module(torch, torch.nn.RNN, params, input_size=8,
                    hidden_size=16, num_layers=2)
    packed = torch.nn.utils.rnn.pack_padded_sequence(
        x, lengths.long(), enforce_sorted=False)
    out, hn = m(packed, h0)
    y, _ = torch.nn.utils.rnn.pad_packed_sequence(out,
                                                  total_length=x.shape[0])
    return y, hn


def rnn_lstm_proj(torch, x, h0, c0, *params):
    m = _rnn_module(torch, torch.nn.LSTM, params, input_size=12,
                    hidden_size=24, proj_size=8)
    y, (hn, cn) = m(x, (h0, c0))
    return y, hn, cn


def rnn_lstm_training(torch, x, h0, c0, w_ih, w_hh, b_ih, b_hh, dy, dhy, dcy):
    params = [w_ih, w_hh, b_ih, b_hh]
    m = _rnn_module(torch, torch.nn.LSTM, params, input_size=8,
                    hidden_size=16)
    x, h0, c0 = (t.clone().requires_grad_() for t in (x, h0, c0))
    y, (hn, cn) = m(x, (h0, c0))
    loss = (y * dy).sum() + (hn * dhy).sum() + (cn * dcy).sum()
    grads = torch.autograd.grad(loss, [x, h0, c0] + list(m.parameters()))
    return (y.detach(),) + tuple(grads)


CASES = [
    # RNNs (issue 8): tcp.custom_op("torch.aten.lstm"/...) through
    # cudnn.rnn_pack_weights + cudnn.rnn_forward to the runtime's cmrtRnn*
    # calls, against torch.nn in float64 on the CPU. No cuDNN graphs.
    Case("rnn_lstm_2layer_bi_f32", rnn_lstm_2layer_bi, FP32_TOL, graphs=0,
         inputs=rnn_inputs),
    Case("rnn_gru_batch_first_f16", rnn_gru_batch_first, FP16_TOL, graphs=0,
         inputs=rnn_inputs),
    Case("rnn_tanh_lengths_f32", rnn_tanh_lengths, FP32_TOL, graphs=0,
         inputs=rnn_inputs),
    Case("rnn_lstm_proj_f32", rnn_lstm_proj, FP32_TOL, graphs=0,
         inputs=rnn_inputs),
    # A training step on the cudnn RNN ops: forward with a reserve space,
    # backward data and weights, the gradient unpacked (vs autograd).
    Case("rnn_lstm_training_f32", rnn_lstm_training, FP32_TOL, graphs=0,
         inputs=rnn_inputs),
    # The seed's relu -> conv in fp32: only cuDNN's runtime-fusion engine
    # takes a pointwise prologue, and only NHWC with TF32.
    Case("seed_stage1", seed, TF32_TOL, graphs=1),
    # Exact fp32 NCHW: no engine for the fused graph, so the compiled split
    # form runs (the conv alone is the one graph executed).
    Case("seed_stage1_exact", seed, FP32_TOL, graphs=1,
         split_form="NCHW exact fp32 relu prologue before a conv: cuDNN 9.14 "
                    "has no engine on Hopper"),
    # The seed's stage 2 (its group has no group_type): the same graph.
    Case("seed_stage2", seed, TF32_TOL, graphs=1),
    # The seed's stage 3 (a graph written at the cudnn level), on TF32 as
    # PyTorch's default conv precision allows, channels-last.
    Case("seed_stage3", seed, TF32_TOL, graphs=1),
    Case("basic_block_f16", basic_block, FP16_TOL, graphs=2),
    Case("basic_block_f16_channels_last", basic_block, FP16_TOL, graphs=2),
    Case("conv_bias_relu_f32", conv_bias_relu, FP32_TOL, graphs=1),
    Case("matmul_bias_gelu_f16", matmul_bias_gelu, FP16_TOL, graphs=1),
    # tcp.gelu in the matmul's epilogue: cuDNN's GELU_FWD (erf) and
    # GELU_APPROX_TANH_FWD, one graph each.
    Case("matmul_bias_gelu_erf_f16", gelu_after_matmul("none"), FP16_TOL,
         graphs=1),
    Case("matmul_bias_gelu_tanh_f16", gelu_after_matmul("tanh"), FP16_TOL,
         graphs=1),
    Case("matmul_bias_gelu_erf_f32", gelu_after_matmul("none"), TF32_TOL,
         graphs=1),
    Case("matmul_bias_gelu_tanh_f32", gelu_after_matmul("tanh"), TF32_TOL,
         graphs=1),
    # The same with the default options (PyTorch's exact matmul precision):
    # the matmul on cuBLAS in exact fp32, bias + GELU a generated kernel.
    Case("matmul_bias_gelu_exact_f32", gelu_after_matmul("none"), FP32_TOL,
         graphs=0),
    # A batch norm alone: no cuDNN engine runs it (the graph's rsqrt(var +
    # eps) on the 1xCx1x1 statistics has no anchor), so batch-norm=auto
    # makes it a generated kernel (issue 7).
    Case("batch_norm_f16", batch_norm, FP16_TOL, graphs=0,
         inputs=batch_norm_inputs),
    Case("layer_norm_f32", layer_norm, FP32_TOL, graphs=1),
    # The row sum writes fp16: no engine takes it as the matmul's epilogue
    # (cuDNN 9.14, H100), so the fusion pass leaves it to a generated kernel.
    Case("matmul_row_sum_f16", matmul_row_sum, FP16_TOL, graphs=1),
    Case("matmul_row_sum_f32", matmul_row_sum, TF32_TOL, graphs=1),
    # examples/resnet18.mlir (batch 8, fp16, contiguous NCHW at the boundary:
    # the image and 3x3/7x7 weights are transformed to NHWC on the way in);
    # 21 conv/matmul graphs and the max pool's resample graph (the global
    # average pool is a generated reduction kernel).
    Case("resnet18_f16", resnet18, FP16_TOL, graphs=22),
    # The same network with the image and weights channels-last
    # (gen_resnet18_tcp.py --channels-last): no layout conversion at all.
    Case("resnet18_f16_channels_last", resnet18, FP16_TOL, graphs=22),
    # One case per cuDNN graph op. The cudnn-dialect ones are the runtime's
    # GpuOpsTest graphs (passed on the H100, cuDNN 9.14) as modules.
    Case("conv_dgrad_f16", conv_dgrad, FP16_TOL, graphs=1),
    Case("conv_wgrad_f16", conv_wgrad, FP16_TOL, graphs=1),
    Case("conv_dgrad_f32", conv_dgrad, FP32_TOL, graphs=1),
    Case("layer_norm_training_f32", layer_norm_training, FP32_TOL, graphs=1,
         inputs=layer_norm_training_inputs),
    Case("layer_norm_backward_f32", layer_norm_backward, FP32_TOL, graphs=1,
         inputs=layer_norm_backward_inputs),
    Case("batch_norm_training_f16", batch_norm_training, FP16_TOL, graphs=1,
         inputs=batch_norm_training_inputs),
    Case("batch_norm_backward_f16", batch_norm_backward, FP16_TOL, graphs=1,
         inputs=batch_norm_backward_inputs),
    Case("genstats_bn_finalize_f16", genstats_bn_finalize, FP16_TOL,
         graphs=2, inputs=genstats_bn_finalize_inputs),
    Case("resample_avg_f16", resample_avg, FP16_TOL, graphs=1),
    Case("pointwise_epilogue_f16", pointwise_epilogue, FP16_TOL, graphs=1),
    # A cuDNN graph, then a generated kernel on its output, in one entry.
    Case("graph_then_kernel_f32", conv_then_double, FP32_TOL, graphs=1),
] + _codegen_cases() + _bn_codegen_cases() + _bn_cudnn_cases()


def default_inputs(torch, specs, gen):
    """Normal inputs; a rank-4 or rank-2 tensor that is a weight (every arg
    after the first) is scaled by 1/sqrt(fan-in) so fp16 stays in range."""
    tensors = []
    for i, spec in enumerate(specs):
        t = torch.randn(spec.dims, generator=gen, dtype=torch.float64)
        if i > 0 and len(spec.dims) >= 2:
            fan_in = math.prod(spec.dims[1:]) if len(spec.dims) == 4 \
                else spec.dims[0]
            t = t / math.sqrt(fan_in)
        tensors.append(t)
    return tensors
