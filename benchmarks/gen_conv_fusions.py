#!/usr/bin/env python3
"""Writes the lowering benchmark's TCP modules: conv + bias + ReLU and conv +
bias + residual add + ReLU at ResNet-50 layer shapes, batch 32, fp16, every
argument and the result channels-last (as PyTorch's channels_last tensors
are stored), one module per shape.

    python3 benchmarks/gen_conv_fusions.py OUT_DIR

Each module's first line names its shape for run_lowering_benchmarks.py.
"""
import os
import sys

N = 32
# (name, C, K, H, kernel, stride, residual): ResNet-50's convs at batch 32.
SHAPES = [
    ("l1_3x3_64", 64, 64, 56, 3, 1, False),
    ("l1_1x1_64_256", 64, 256, 56, 1, 1, True),
    ("l2_3x3_128", 128, 128, 28, 3, 1, False),
    ("l2_1x1_128_512", 128, 512, 28, 1, 1, True),
    ("l3_3x3_256", 256, 256, 14, 3, 1, False),
    ("l3_1x1_256_1024", 256, 1024, 14, 1, 1, True),
    ("l4_3x3_512", 512, 512, 7, 3, 1, False),
    ("l4_1x1_512_2048", 512, 2048, 7, 1, 1, True),
]

CL = '{cudnn.layout = "channels_last"}'


def module(name, c, k, h, r, stride, residual):
    pad = r // 2
    oh = (h + 2 * pad - r) // stride + 1
    x = "tensor<%dx%dx%dx%dxf16>" % (N, c, h, h)
    w = "tensor<%dx%dx%dx%dxf16>" % (k, c, r, r)
    y = "tensor<%dx%dx%dx%dxf16>" % (N, k, oh, oh)
    args = ["%%x: %s %s" % (x, CL), "%%w: %s %s" % (w, CL),
            "%%b: tensor<1x%dx1x1xf16>" % k]
    if residual:
        args.append("%%res: %s %s" % (y, CL))
    lines = [
        "// SHAPE: %s N=%d C=%d K=%d H=W=%d R=S=%d stride=%d residual=%d"
        % (name, N, c, k, h, r, stride, residual),
        "func.func @forward(%s) -> (%s %s) {" % (", ".join(args), y, CL),
        "  %%cn = arith.constant %d : index" % N,
        "  %%ch = arith.constant %d : index" % oh,
        "  %%0 = tcp.conv2d %%x, %%w {dilation = array<i64: 1, 1>, "
        "pad = array<i64: %d, %d, %d, %d>, stride = array<i64: %d, %d>} "
        ": %s, %s -> %s" % (pad, pad, pad, pad, stride, stride, x, w, y),
        "  %%1 = tcp.broadcast %%b, %%cn, %%ch, %%ch {axes = [0, 2, 3]} : "
        "tensor<1x%dx1x1xf16>, index, index, index -> %s" % (k, y),
        "  %%2 = tcp.add %%0, %%1 : %s, %s -> %s" % (y, y, y),
    ]
    last = "%2"
    if residual:
        lines.append("  %%3 = tcp.add %%2, %%res : %s, %s -> %s" % (y, y, y))
        last = "%3"
    lines += [
        "  %%r = tcp.clamp %s {min_float = 0.000000e+00 : f32} : %s -> %s"
        % (last, y, y),
        "  return %%r : %s" % y,
        "}",
    ]
    return "\n".join(lines) + "\n"


def main(out):
    os.makedirs(out, exist_ok=True)
    for shape in SHAPES:
        with open(os.path.join(out, shape[0] + ".mlir"), "w") as f:
            f.write(module(*shape))


if __name__ == "__main__":
    main(sys.argv[1])
