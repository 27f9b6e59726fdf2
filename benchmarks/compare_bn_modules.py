#!/usr/bin/env python3
"""Batch-norm training modules side by side with torch.cudnn_batch_norm, on
a GPU machine: several compiled variants of one shape (e.g. the same
benchmarks/codegen/bn_train_*.mlir compiled with different codegen
choices) are checked against eager PyTorch and timed round-robin with
cuDNN's batch norm, so that drift affects all alike.

    python3 benchmarks/compare_bn_modules.py CASE,MODULE.so[,MODULE.so...] ...
    python3 benchmarks/compare_bn_modules.py --host-parts CASE MODULE.so

CASE is one of CASES below (shape, dtype, layout). Per variant: y, saved
mean and invstd against eager / torch.var_mean (max error <= 1e-4 of max
|ref| in f32, 1e-2 in f16), then the median over 21 rounds of (20 calls,
CUDA events) / 20, the per-kernel GPU times (torch.profiler) and the
median host enqueue time of 20-call bursts after a sync. `--host-parts`
splits one module's host cost per call (100-call bursts, median of 9):
the whole Python call, the compiled entry alone (ctypes, prepared
pointers), the outputs' allocation, and torch.cudnn_batch_norm's call.
Results of 2026-11-25: benchmarks/results/bn-variants-h100-2026-11-25.txt.
"""
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
import cudnn_mlir  # noqa: E402

cudnn_mlir.load_runtime_before_torch()  # docs/abi.md, "Loading"
import torch  # noqa: E402

from cuda_timing import kernel_times, ms_per_call  # noqa: E402
from run_codegen_benchmarks import (  # noqa: E402
    BN_EPS as EPS, BN_MOMENTUM as MOMENTUM, bn_inputs, rel_err)

CASES = {
    "f16_7x7": ((256, 2048, 7, 7), "f16", True),
    "f16_64": ((256, 64, 56, 56), "f16", True),
    "f16_256": ((32, 256, 56, 56), "f16", True),
    "f32_7x7": ((256, 2048, 7, 7), "f32", False),
    "f32_64": ((256, 64, 56, 56), "f32", False),
    "f32_256": ((32, 256, 56, 56), "f32", False),
}
ROUNDS, CALLS = 21, 20


def kernel_summary(fn):
    return "; ".join("%s %.1fus" % (name[:34], us)
                     for name, us, _ in kernel_times(torch, fn))


def host_us(fn, calls=CALLS, bursts=9):
    """Median host time per call of bursts of `calls` calls after a sync."""
    fn()
    times = []
    for _ in range(bursts):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


def compare(spec):
    case, *paths = spec.split(",")
    shape, dtype, channels_last = CASES[case]
    x, scale, bias, rmean, rvar = bn_inputs(shape, dtype, channels_last)
    fns = {}
    for path in paths:
        module = cudnn_mlir.load_module(path)
        fns[os.path.basename(path)] = (
            lambda m=module: m(x, scale, bias, rmean, rvar))
    cud_mean, cud_var = rmean.clone(), rvar.clone()
    fns["cudnn"] = lambda: torch.cudnn_batch_norm(
        x, scale, bias, cud_mean, cud_var, True, MOMENTUM, EPS)
    ref_y = torch.nn.functional.batch_norm(
        x, rmean.clone(), rvar.clone(), scale, bias, True, MOMENTUM, EPS)
    var, mean = torch.var_mean(x.float(), dim=(0, 2, 3), correction=0)
    tol = 1e-4 if dtype == "f32" else 1e-2
    wrong = False
    for name, fn in fns.items():
        if name == "cudnn":
            continue
        y, m, inv, _, _ = fn()
        err = max(rel_err(y, ref_y), rel_err(m, mean),
                  rel_err(inv, torch.rsqrt(var + EPS)))
        wrong |= not err <= tol
        print("  %s %s err %.1e %s" % (case, name, err,
                                       "OK" if err <= tol else "WRONG"))
    for fn in fns.values():
        for _ in range(5):
            fn()
    samples = {name: [] for name in fns}
    for _ in range(ROUNDS):
        for name, fn in fns.items():
            samples[name].append(ms_per_call(torch, fn, CALLS))
    cudnn = statistics.median(samples["cudnn"])
    print("== %s %s" % (case, "x".join(map(str, shape))))
    for name, fn in fns.items():
        t = statistics.median(samples[name])
        print("  %-40s %.4f ms  cudnn/this %.3fx  host %.1f us | %s" % (
            name, t, cudnn / t, host_us(fn), kernel_summary(fn)))
    return wrong


def host_parts(case, path):
    shape, dtype, channels_last = CASES[case]
    x, scale, bias, rmean, rvar = bn_inputs(shape, dtype, channels_last)
    module = cudnn_mlir.load_module(path)
    function, ins, outs, array_type = module._plan(next(iter(module.entries)))
    outputs = [torch.empty_strided(d, s, dtype=t, device="cuda")
               for t, d, s in outs]
    pointers = array_type(*[t.data_ptr() for t in
                            [x, scale, bias, rmean, rvar] + outputs])
    stream = torch.cuda.current_stream().cuda_stream

    def burst(fn):
        return host_us(fn, calls=100)

    print("%s %s: call %.1f us, entry %.1f us, outputs alloc %.1f us, "
          "cudnn_batch_norm %.1f us" % (
              case, os.path.basename(path),
              burst(lambda: module(x, scale, bias, rmean, rvar)),
              burst(lambda: function(stream, pointers)),
              burst(lambda: [torch.empty_strided(d, s, dtype=t, device=0)
                             for t, d, s in outs]),
              burst(lambda: torch.cudnn_batch_norm(
                  x, scale, bias, rmean, rvar, True, MOMENTUM, EPS))))


def main(argv):
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__)
    if argv[:1] == ["--host-parts"]:
        host_parts(argv[1], argv[2])
        return 0
    wrong = [spec for spec in argv if compare(spec)]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
