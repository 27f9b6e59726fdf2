#!/usr/bin/env python3
"""Where the GPU time of one whole-model benchmark row goes: the CUDA
kernels of cudnn_mlir.compile (with each pipeline option string given) and
of torch.compile, summed over a few calls with torch.profiler (CUPTI sees
the runtime's kernels too, as it runs in the same process).

    # here: compile the row with each option string
    python3 benchmarks/profile_frontend.py --row 2 --options ",autotune=true" --compile-only
    # GPU machine
    python3 benchmarks/profile_frontend.py --row 2 --options ",autotune=true"

Prints, per contender, the wall time per call, the summed kernel time per
call, and the kernels that take the most time.
"""

import argparse
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run_frontend_benchmarks import ROWS, cudnn_mlir, time_calls, torch  # noqa: E402


def kernel_times(fn, calls):
    """{kernel name: (total us per call, launches per call)} over `calls`."""
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    totals = collections.defaultdict(lambda: [0.0, 0])
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            entry = totals[event.name]
            entry[0] += event.device_time_total / calls
            entry[1] += 1
    return {name: (t, n / calls) for name, (t, n) in totals.items()}


def report(label, wall_ms, kernels, top):
    total = sum(t for t, _ in kernels.values())
    launches = sum(n for _, n in kernels.values())
    print("## %s: %.3f ms per call, kernels %.3f ms (%d launches)" % (
        label, wall_ms, total / 1000, launches))
    for name, (t, n) in sorted(kernels.items(), key=lambda kv: -kv[1][0])[:top]:
        print("  %8.1f us %5.1fx  %s" % (t, n, name[:150]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--row", type=int, default=2)
    parser.add_argument("--options", default="",
                        help="comma-separated pipeline option strings for "
                             "ours ('' is the default)")
    parser.add_argument("--cache", default=os.path.join(
        HERE, "..", "build", "bench-cache"))
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--no-torch-compile", action="store_true")
    args = parser.parse_args()
    name, make, batch = ROWS[args.row]
    options = args.options.split(",")
    if args.compile_only:
        from cudnn_mlir.frontend import import_model
        model, inputs = make(batch, "cpu")
        imported = import_model(model, inputs)
        for opts in options:
            print(opts or "(default)", cudnn_mlir.compile_artifact(
                imported, options=opts or None, cache_dir=args.cache))
        return 0
    print("device: %s, torch %s; %s batch %d" % (
        torch.cuda.get_device_name(), torch.__version__, name, batch))
    model, inputs = make(batch, "cuda")
    with torch.no_grad():
        contenders = []
        for opts in options:
            ours = cudnn_mlir.compile(model, inputs, options=opts or None,
                                      cache_dir=args.cache)
            contenders.append(("ours " + (opts or "(default)"),
                               lambda ours=ours: ours(*inputs)))
        if not args.no_torch_compile:
            compiled = torch.compile(model)
            contenders.append(("torch.compile", lambda: compiled(*inputs)))
        for _, fn in contenders:
            fn()
            fn()
        walls = time_calls([fn for _, fn in contenders], rounds=5)
        for (label, fn), wall in zip(contenders, walls):
            report(label, wall, kernel_times(fn, 5), args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
