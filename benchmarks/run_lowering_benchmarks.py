#!/usr/bin/env python3
"""The lowering benchmark (issue 5), run on a GPU machine: each compiled
conv fusion (benchmarks/gen_conv_fusions.py, compiled here with
cudnn-compile) against PyTorch eager and torch.compile on the same
channels-last fp16 inputs, in one process.

    python3 benchmarks/run_lowering_benchmarks.py MODELS_DIR MLIR_DIR

Each column is the median over 5 repeats of (time of 50 back-to-back calls,
measured with CUDA events) / 50: per-call time including each path's host
overhead, as a model running these layers in sequence sees it. The
"graphed" columns replay a CUDA graph of one call instead, which leaves
only the GPU work (our one fused graph vs eager's kernels). Before
timing, every output is checked against eager (fp16: max error <= 1e-2 of
max |ref|).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import cudnn_mlir  # noqa: E402  (imports no torch)

cudnn_mlir.load_runtime_before_torch()  # docs/abi.md, "Loading"

import torch  # noqa: E402

from cuda_timing import median_ms_per_call  # noqa: E402

CALLS, REPEATS = 50, 5


def per_call_ms(fn):
    return median_ms_per_call(torch, fn, warmup=1, calls=CALLS,
                              repeats=REPEATS)


def graphed(fn):
    """`fn` captured into a CUDA graph: replaying it costs no host work per
    kernel, so this times what each path runs on the GPU."""
    # Warm up on the stream that will be captured: the runtime's workspace
    # pool is per (device, stream) and cannot grow during capture.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):
        fn()
    return graph.replay


def shape_of(mlir):
    with open(mlir) as f:
        line = f.readline()
    fields = dict(re.findall(r"(\S+)=(\S+)", line))
    return (line.split()[2], int(fields["N"]), int(fields["C"]),
            int(fields["K"]), int(fields["H=W"]), int(fields["R=S"]),
            int(fields["stride"]), fields["residual"] == "1")


def resnet18_row(model_path, batch):
    """ResNet-18 forward (batch norm folded, as the compiled module has it):
    the compiled module vs the same network in eager PyTorch and
    torch.compile, fp16 channels-last."""
    sys.path.insert(0, os.path.join(HERE, "..", "integration_test"))
    from cases import resnet18, default_inputs  # noqa: E402
    module = cudnn_mlir.load_module(model_path)
    (entry,) = module.entries.values()
    gen = torch.Generator().manual_seed(0)
    host = default_inputs(torch, entry.inputs, gen)
    cl = torch.channels_last
    args = [t.to(torch.float16).cuda() for t in host]
    args = [t.contiguous(memory_format=cl) if t.dim() == 4 else t
            for t in args]
    eager = lambda: resnet18(torch, *args)  # noqa: E731
    compiled = torch.compile(eager)
    ours = lambda: module(*args)  # noqa: E731
    ref, got = eager().float(), ours().float()
    err = ((got - ref).abs().max() / ref.abs().max()).item()
    assert err <= 1e-2, "resnet18: error %.3g vs eager" % err
    t_ours, t_eager, t_comp = (per_call_ms(ours), per_call_ms(eager),
                               per_call_ms(compiled))
    g_ours, g_eager = per_call_ms(graphed(ours)), per_call_ms(graphed(eager))
    print("| ResNet-18 forward | batch %d | %.4f | %.4f | %.4f | %.2fx | %.2fx "
          "| %.4f | %.4f | %.2fx |"
          % (batch, t_ours, t_eager, t_comp, t_eager / t_ours,
             t_comp / t_ours, g_ours, g_eager, g_eager / g_ours), flush=True)


def main(models, mlirs):
    torch.backends.cudnn.benchmark = False
    print("device: %s; torch %s; cuDNN %s" % (
        torch.cuda.get_device_name(), torch.__version__,
        torch.backends.cudnn.version()))
    print("| layer | shape (N,C,K,H,R) | ours ms | eager ms | compile ms "
          "| eager/ours | compile/ours | ours graphed ms | eager graphed ms "
          "| eager/ours graphed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    gen = torch.Generator(device="cuda").manual_seed(0)
    cl = torch.channels_last
    for name in sorted(os.listdir(mlirs)):
        if not name.endswith(".mlir"):
            continue
        layer, n, c, k, h, r, stride, residual = shape_of(
            os.path.join(mlirs, name))
        module = cudnn_mlir.load_module(
            os.path.join(models, name[:-5] + ".so"))
        pad = r // 2
        oh = (h + 2 * pad - r) // stride + 1
        half = dict(device="cuda", dtype=torch.float16, generator=gen)
        x = torch.randn(n, c, h, h, **half).contiguous(memory_format=cl)
        w = (torch.randn(k, c, r, r, **half) / (c * r * r) ** 0.5) \
            .contiguous(memory_format=cl)
        b = torch.randn(1, k, 1, 1, **half)
        res = torch.randn(n, k, oh, oh, **half).contiguous(memory_format=cl)
        bias = b.view(k)

        def eager(x=x, w=w, bias=bias, res=res):
            y = torch.nn.functional.conv2d(x, w, bias, stride, pad)
            return torch.relu(y + res if residual else y)

        compiled = torch.compile(eager)
        args = (x, w, b, res) if residual else (x, w, b)
        ours = lambda: module(*args)  # noqa: E731

        ref = eager().float()
        got = ours().float()
        err = ((got - ref).abs().max() / ref.abs().max()).item()
        assert err <= 1e-2, "%s: error %.3g vs eager" % (layer, err)
        t_ours, t_eager, t_comp = (per_call_ms(ours), per_call_ms(eager),
                                   per_call_ms(compiled))
        g_ours, g_eager = per_call_ms(graphed(ours)), \
            per_call_ms(graphed(eager))
        print("| %s%s | %d,%d,%d,%d,%d | %.4f | %.4f | %.4f | %.2fx | %.2fx "
              "| %.4f | %.4f | %.2fx |"
              % (layer, " +add" if residual else "", n, c, k, h, r, t_ours,
                 t_eager, t_comp, t_eager / t_ours, t_comp / t_ours, g_ours,
                 g_eager, g_eager / g_ours), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    resnet18 = os.path.join(sys.argv[1], "resnet18_b32_cl.so")
    if os.path.exists(resnet18):
        resnet18_row(resnet18, 32)
