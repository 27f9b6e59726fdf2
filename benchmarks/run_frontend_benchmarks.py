#!/usr/bin/env python3
"""Whole models from PyTorch (issue 9's benchmark): torchvision's ResNet-50
inference in fp16 channels-last at batch 1, 32 and 128, and an LSTM model,
through cudnn_mlir.compile, against eager PyTorch and torch.compile
(default and, with --reduce-overhead / --max-autotune, those modes) in the
same process.

Two halves, as the GPU machine has no compiler:

    # here: import and compile every row into the artifact cache
    python3 benchmarks/run_frontend_benchmarks.py --compile-only --cache build/bench-cache
    # GPU machine (carry build/bench-cache): time
    CUDNN_MLIR_RUNTIME_LIB=... python3 benchmarks/run_frontend_benchmarks.py --cache build/bench-cache

Ours runs twice: called as compiled (`ours`) and replayed from a CUDA graph
(`cuda_graph=True`, `ours graph`); `--options` are the pipeline options of
both (e.g. `autotune=true`; the same for --compile-only). Times are per
call, from CUDA events around 20 back-to-back calls, the median of 15
rounds; the contenders take turns round by round. The last column checks
ours (graph replay) against eager on the last call's output. `--profile`
then lists each contender's GPU work per call from torch.profiler: how many
kernels and copies, their summed GPU time, and the costliest.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import cudnn_mlir  # noqa: E402

cudnn_mlir.load_runtime_before_torch()

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

from cuda_timing import kernel_times, ms_per_call_in_turns  # noqa: E402
from inductor_cache import use_inductor_cache  # noqa: E402


class LSTMClassifier(nn.Module):
    """A 2-layer LSTM (hidden 1024) over [seq 128, batch, 512] features and
    a classifier on the last step."""

    def __init__(self, features=512, hidden=1024, classes=1000):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, num_layers=2)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        output, _ = self.lstm(x)
        return self.fc(output[-1])


def resnet50(batch, device):
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet50().eval().to(
        device=device, dtype=torch.float16,
        memory_format=torch.channels_last)
    x = torch.randn(batch, 3, 224, 224, device=device,
                    dtype=torch.float16).to(memory_format=torch.channels_last)
    return model, [x]


def resnet50_fp32(batch, device):
    """What a user brings first: PyTorch's default dtype and layout."""
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet50().eval().to(device=device)
    x = torch.randn(batch, 3, 224, 224, device=device)
    return model, [x]


def lstm(batch, device):
    torch.manual_seed(0)
    model = LSTMClassifier().eval().to(device=device, dtype=torch.float16)
    x = torch.randn(128, batch, 512, device=device, dtype=torch.float16)
    return model, [x]


ROWS = [("resnet50 fp16 channels-last", resnet50, 1),
        ("resnet50 fp16 channels-last", resnet50, 32),
        ("resnet50 fp16 channels-last", resnet50, 128),
        ("lstm 2x1024 seq 128 fp16", lstm, 32),
        ("resnet50 fp32", resnet50_fp32, 16),
        ("resnet50 fp32", resnet50_fp32, 32)]


def time_calls(fns, rounds=15, calls=20):
    """Median ms per call of each function, taking turns round by round."""
    return ms_per_call_in_turns(torch, fns, rounds, calls)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--cache", default=os.path.join(
        HERE, "..", "build", "bench-cache"))
    parser.add_argument("--max-autotune", action="store_true")
    parser.add_argument("--reduce-overhead", action="store_true",
                        help='also torch.compile(mode="reduce-overhead") '
                        "(CUDA graphs, no autotuning)")
    parser.add_argument("--inductor-cache", default=None,
                        help="TorchInductor's and Triton's caches in this "
                        "folder (default: theirs): max-autotune's results "
                        "kept there let a later run (another call on the "
                        "GPU machine, the folder carried) skip autotuning")
    parser.add_argument("--options", default=None,
                        help="pipeline options of ours (default: the "
                        "model's defaults)")
    parser.add_argument("--profile", action="store_true",
                        help="after timing, each contender's GPU work per "
                        "call (torch.profiler): kernels per call, their "
                        "total time and the costliest ones")
    parser.add_argument("--tf32", choices=["on", "off"], default="on",
                        help="torch.backends.cudnn.allow_tf32 and "
                        "torch.backends.cuda.matmul.allow_tf32 for every "
                        "contender (and the front end's precision); "
                        "default on, PyTorch's default for convolutions")
    parser.add_argument("--rows", default="",
                        help="comma-separated row indices (default: all)")
    args = parser.parse_args()
    rows = [ROWS[int(i)] for i in args.rows.split(",")] if args.rows else ROWS
    torch.backends.cudnn.allow_tf32 = args.tf32 == "on"
    torch.backends.cuda.matmul.allow_tf32 = args.tf32 == "on"
    if args.compile_only:
        from cudnn_mlir.frontend import import_model
        for name, make, batch in rows:
            model, inputs = make(batch, "cpu")
            folder = cudnn_mlir.compile_artifact(import_model(model, inputs),
                                                 options=args.options,
                                                 cache_dir=args.cache)
            print("%s batch %d: %s" % (name, batch, folder), flush=True)
        return 0

    if args.inductor_cache:
        use_inductor_cache(args.inductor_cache)
    print("device: %s, torch %s, options %r, tf32 %s" % (
        torch.cuda.get_device_name(), torch.__version__, args.options,
        args.tf32))
    header = "| model | batch | ours ms | ours graph ms | eager ms | " \
        "compile ms |"
    modes = (["reduce-overhead"] if args.reduce_overhead else []) + (
        ["max-autotune"] if args.max_autotune else [])
    header += "".join(" %s ms |" % m for m in modes)
    header += " graph vs eager | graph vs compile |"
    header += "".join(" graph vs %s |" % m for m in modes)
    header += " max err |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, make, batch in rows:
        model, inputs = make(batch, "cuda")
        with torch.no_grad():
            ours = cudnn_mlir.compile(model, inputs, options=args.options,
                                      cache_dir=args.cache)
            graph = cudnn_mlir.compile(model, inputs, options=args.options,
                                       cache_dir=args.cache, cuda_graph=True)
            compiled = torch.compile(model)
            contenders = [lambda: ours(*inputs), lambda: graph(*inputs),
                          lambda: model(*inputs), lambda: compiled(*inputs)]
            for mode in modes:
                contenders.append(
                    lambda f=torch.compile(model, mode=mode): f(*inputs))
            for fn in contenders:  # warm-up: plans, kernels, autotuning
                fn()
            expected = model(*inputs)
            err = (graph(*inputs).float() - expected.float()).abs().max()
            scale = expected.float().abs().max()
            times = time_calls(contenders)
        line = "| %s | %d | %s |" % (name, batch,
                                     " | ".join("%.3f" % t for t in times))
        line += "".join(" %.2fx |" % (t / times[1]) for t in times[2:])
        line += " %.3g (of max %.3g) |" % (err.item(), scale.item())
        print(line, flush=True)
        if args.profile:
            names = ["ours", "ours graph", "eager", "compile"] + modes
            for label, fn in zip(names, contenders):
                with torch.no_grad():
                    print_profile("%s batch %d, %s" % (name, batch, label),
                                  kernel_times(torch, fn))
    return 0


def print_profile(title, times, top=12):
    """One contender's GPU activities per call: how many, their total time,
    and the `top` costliest, each with its share."""
    per_call = sorted(((us * count, us, count, key)
                       for key, us, count in times), reverse=True)
    total = sum(t for t, _, _, _ in per_call)
    launches = sum(count for _, _, count, _ in per_call)
    print("## %s: %.0f GPU activities per call, %.1f us of GPU time" % (
        title, launches, total))
    for t, us, count, key in per_call[:top]:
        print("  %7.1f us %5.1f%%  %5.1f x %6.1f us  %s" % (
            t, 100 * t / total if total else 0, count, us, key[:90]))
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
