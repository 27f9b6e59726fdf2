#!/usr/bin/env python3
"""Where the GPU time of a model-zoo row goes (benchmarks/model_zoo.py):
the CUDA kernels of ours (from the artifact cache, no CUDA graph, so the
profiler names every kernel) and of torch.compile, summed per call with
torch.profiler. Runs on the GPU machine over a cache that model_zoo.py
--compile-only --pack made here:

    python3 benchmarks/profile_zoo.py --cache build/zoo-piece \\
        --rows convnext_tiny@32 --inductor-cache build/inductor-cache

Prints, per row and contender, the wall time per call, the summed kernel
time per call and the kernels that take the most (--top). With --sequence
DIR, also writes DIR/<model>-b<batch>-<contender>.txt: one call's kernels in launch
order (us, name); for ours, set CUDNN_MLIR_LOG=<file> beside it to see
which graph ran which kernels ("executed graph" lines come in call order).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import model_zoo  # noqa: E402
from cuda_timing import kernel_sequence, kernel_times, median_ms_per_call  # noqa: E402


def report(label, wall_ms, kernels, top):
    """kernels: cuda_timing.kernel_times' (name, us each, per call)."""
    per_call = [(name, us * n, n) for name, us, n in kernels]
    print("## %s: %.3f ms per call, kernels %.3f ms (%d launches)" % (
        label, wall_ms, sum(t for _, t, _ in per_call) / 1000,
        round(sum(n for _, _, n in per_call))), flush=True)
    for name, t, n in sorted(per_call, key=lambda k: -k[1])[:top]:
        print("  %8.1f us %5.1fx  %s" % (t, n, name[:140]), flush=True)


def profile_row(torch, cudnn_mlir, args, row):
    torch._dynamo.reset()
    with torch.no_grad():
        model, inputs = model_zoo.build(torch, row, "cuda", calibrated=True)
        fns, errors = model_zoo.contenders(torch, cudnn_mlir, model, inputs,
                                           args, row)
        for name, error in errors.items():
            print("%s %s: %s" % (model_zoo.row_name(row), name, error))
        for name, fn in fns:
            if name not in args.contenders:
                continue
            wall_ms = median_ms_per_call(torch, fn, model_zoo.WARMUP_CALLS,
                                         args.calls, 5)
            report("%s %s" % (model_zoo.row_name(row), name), wall_ms,
                   kernel_times(torch, fn, args.calls), args.top)
            if args.sequence:
                write_sequence(torch, fn, args.sequence, "%s-b%d-%s.txt" % (
                    model_zoo.NAMES[row[0]], row[1], name.replace(" ", "-")))


def write_sequence(torch, fn, folder, file_name):
    """One call's kernels into folder/file_name and, when CUDNN_MLIR_LOG
    names a file, the runtime's log lines of that call into file_name's
    .log twin."""
    os.makedirs(folder, exist_ok=True)
    log = os.environ.get("CUDNN_MLIR_LOG", "0")
    log_is_file = log not in ("0", "1", "stderr")
    log_start = []

    def note_log_size():
        if log_is_file and os.path.exists(log):
            log_start.append(os.path.getsize(log))

    kernels = kernel_sequence(torch, fn, note_log_size)
    path = os.path.join(folder, file_name)
    with open(path, "w") as out:
        for name, us in kernels:
            out.write("%9.1f  %s\n" % (us, name))
    if log_start:
        with open(log, "rb") as source, \
                open(os.path.splitext(path)[0] + ".log", "wb") as out:
            source.seek(log_start[0])
            out.write(source.read())


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--rows", required=True)
    parser.add_argument("--batch", default="1,32")
    parser.add_argument("--inductor-cache", default=None)
    parser.add_argument("--options", default=None)
    parser.add_argument("--contenders", default="ours,compile",
                        help="comma-separated, of eager, compile, ours")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sequence", default=None,
                        help="folder for one call's kernels in launch order")
    args = parser.parse_args()
    args.contenders = args.contenders.split(",")
    rows = model_zoo.parse_rows(args.rows, [
        int(b) for b in args.batch.split(",")])
    if args.inductor_cache:
        model_zoo.use_inductor_cache(args.inductor_cache)
    import cudnn_mlir
    cudnn_mlir.load_runtime_before_torch()
    import torch
    print("device: %s, torch %s" % (torch.cuda.get_device_name(),
                                    torch.__version__), flush=True)
    for row in rows:
        profile_row(torch, cudnn_mlir, args, row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
