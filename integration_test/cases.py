"""The GPU integration suite's cases: one compiled module each
(integration_test/cases/<name>.mlir), how to make its inputs, its reference
in PyTorch (computed in float64 on the CPU from the same inputs), the
tolerance, and how many cuDNN graphs it must build, all fused (none split).

Tolerances (max |out - ref| <= tol * max |ref|, checked per output):
fp32 graphs run with TF32 off (convert-cudnn-to-llvm's exact-fp32 default),
so 1e-4; fp16/bf16 I/O with fp32 compute, 1e-2; fp32 on TF32, 5e-3.

A case file's `// COMPILE-OPTIONS: ...` line gives the pipeline options
integration_test/build_suite.sh compiles it with.
"""

import math

FP32_TOL = 1e-4
FP16_TOL = 1e-2
# fp32 data on TF32 tensor cores (10-bit mantissa), for graphs cuDNN only
# runs that way (compiled with exact-fp32=false).
TF32_TOL = 5e-3


class Case:
    def __init__(self, name, reference, tol, graphs, inputs=None, xfail=None):
        self.name = name
        self.reference = reference  # float64 torch tensors -> output(s)
        self.tol = tol
        self.graphs = graphs        # cuDNN graphs built on the first call
        self.inputs = inputs        # optional: (torch, specs, gen) -> tensors
        # Expected failure: the entry must fail with this cuDNN verdict
        # (CMRT_ERROR_NOT_SUPPORTED, "no engine") and a clear message.
        self.xfail = xfail


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


CASES = [
    # The seed's relu -> conv in fp32: only cuDNN's runtime-fusion engine
    # takes a pointwise prologue, and only NHWC with TF32.
    Case("seed_stage1", seed, TF32_TOL, graphs=1),
    Case("seed_stage3", seed, FP32_TOL, graphs=1,
         xfail="NCHW fp32 relu prologue before a conv: cuDNN 9.14 has no "
               "engine on Hopper (NHWC + TF32 has one: seed_stage1)"),
    Case("basic_block_f16", basic_block, FP16_TOL, graphs=2),
    Case("basic_block_f16_channels_last", basic_block, FP16_TOL, graphs=2),
    Case("conv_bias_relu_f32", conv_bias_relu, FP32_TOL, graphs=1),
    Case("matmul_bias_gelu_f16", matmul_bias_gelu, FP16_TOL, graphs=1),
    Case("batch_norm_f16", batch_norm, FP16_TOL, graphs=1,
         inputs=batch_norm_inputs,
         xfail="a batch norm alone: its graph computes rsqrt(var + eps) with "
               "pointwise ops on the 1xCx1x1 statistics, which no engine "
               "runs without an anchor (issue 7 generates it instead)"),
    Case("layer_norm_f32", layer_norm, FP32_TOL, graphs=1),
    Case("matmul_row_sum_f16", matmul_row_sum, FP16_TOL, graphs=1,
         xfail="matmul with a row-sum epilogue writing fp16: cuDNN 9.14 "
               "finds no engine config"),
    Case("matmul_row_sum_f32", matmul_row_sum, TF32_TOL, graphs=1),
    # examples/resnet18.mlir (batch 8, fp16, contiguous NCHW at the boundary:
    # the image and 3x3/7x7 weights are transformed to NHWC on the way in).
    Case("resnet18_f16", resnet18, FP16_TOL, graphs=23),
]


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
