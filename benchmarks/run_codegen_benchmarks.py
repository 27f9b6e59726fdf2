#!/usr/bin/env python3
"""The general-codegen benchmark (issue 6), run on a GPU machine: each module
of benchmarks/codegen/ (compiled here by build_codegen_benchmarks.sh)
against PyTorch eager and torch.compile on the same f32 inputs, in one
process, with the device-to-device copy bandwidth of the same size as the
roofline.

    python3 benchmarks/run_codegen_benchmarks.py MODELS_DIR [--out FILE]
        [bench ...]

Each time is the median over REPEATS of (time of CALLS back-to-back calls,
measured with CUDA events) / CALLS, after WARMUP calls: per-call time
including each path's host overhead (ours goes through the Python loader;
at these sizes the GPU work dominates). Bandwidth is the bytes the op must
read and write once (inputs + outputs) over our time; the copy is
`dst.copy_(src)` of the op's largest tensor, counted as read + write.
Before timing, our output is checked against eager (f32: max error <=
1e-4 of max |ref|; the transpose exactly): a wrong result fails the run.

A second table times batch-norm training forward (issue 7; the bn_train_*
modules, compiled with batch-norm=codegen) on ResNet-50 activation shapes,
fp16 channels-last and fp32 NCHW with f32 parameters, against
torch.nn.functional.batch_norm(training=True) eager (cuDNN or PyTorch's
native kernels, as torch picks), against each of those two called directly
(torch.native_batch_norm and torch.cudnn_batch_norm), and torch.compile of
it. `--profile` lists each module's kernels with their GPU time. Bandwidth counts the minimal
traffic of a two-pass batch norm, 3 x |x| bytes: read x for the statistics,
read x again and write y for the normalisation (the per-channel vectors are
negligible). All five outputs are checked first: y and the next running
mean and var against eager's, the saved mean and invstd against
torch.var_mean of x in f32 (max error <= 1e-4 of max |ref| for f32, 1e-2
for f16).
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import cudnn_mlir  # noqa: E402  (imports no torch)

cudnn_mlir.load_runtime_before_torch()  # docs/abi.md, "Loading"

import torch  # noqa: E402

from cuda_timing import kernel_times, median_ms_per_call  # noqa: E402

WARMUP, CALLS, REPEATS = 5, 20, 15
MIB = 1 << 20


def time_ms(fn):
    return median_ms_per_call(torch, fn, WARMUP, CALLS, REPEATS)


def time_or_na(fn, t_ours):
    """(ms, ms / ours) of `fn` as table cells after one call, or "n/a"
    with the reason where calling it fails (torch.compile or a backend
    that does not take the case): reported, and the run goes on."""
    try:
        fn()
        t = time_ms(fn)
        return "%.4f" % t, "%.2fx" % (t / t_ours)
    except Exception as e:  # report, and go on
        reason = (str(e).splitlines() or [type(e).__name__])[0][:120]
        return "n/a (%s: %s)" % (type(e).__name__, reason), "n/a"


def _randn(gen, *shape):
    return torch.randn(*shape, device="cuda", generator=gen)


def chain_case(n):
    def inputs(gen):
        return [_randn(gen, n, n), _randn(gen, n, n), _randn(gen, n, n),
                _randn(gen, 1, n)]

    def eager(x, a, b, c):
        return torch.clamp(torch.tanh(x * a + b) * c, -0.5, 0.5) - 0.25
    return inputs, eager


def softmax_case(rows, cols):
    def inputs(gen):
        return [_randn(gen, rows, cols)]

    def eager(x):
        return torch.softmax(x, dim=-1)
    return inputs, eager


def colsum_case(rows, cols):
    def inputs(gen):
        return [_randn(gen, rows, cols)]

    def eager(x):
        return x.sum(dim=0)
    return inputs, eager


def transpose_case(n, c, h, w):
    def inputs(gen):
        return [_randn(gen, n, c, h, w)]

    def eager(x):
        return x.permute(0, 2, 3, 1).contiguous()
    return inputs, eager


# name (module file without .so), what, shape, (inputs, eager), tolerance
BENCHES = [
    ("chain_f32_64mib", "(a) 6-op chain", "4096x4096", chain_case(4096), 1e-4),
    ("chain_f32_256mib", "(a) 6-op chain", "8192x8192", chain_case(8192),
     1e-4),
    ("softmax_f32_rows1024", "(b) softmax", "32768x1024",
     softmax_case(32768, 1024), 1e-4),
    ("softmax_f32_rows32768", "(b) softmax", "1024x32768",
     softmax_case(1024, 32768), 1e-4),
    ("colsum_f32_16384x4096", "(c) column sum", "16384x4096 -> 4096",
     colsum_case(16384, 4096), 1e-4),
    ("transpose_nchw_nhwc_f32", "(d) NCHW->NHWC", "64x128x64x64",
     transpose_case(64, 128, 64, 64), 0.0),
]


def nbytes(tensors):
    return sum(t.numel() * t.element_size() for t in tensors)


def run_one(models, name, what, shape, case, tol):
    make_inputs, eager_fn = case
    module = cudnn_mlir.load_module(os.path.join(models, name + ".so"))
    gen = torch.Generator(device="cuda").manual_seed(0)
    args = make_inputs(gen)
    ours = lambda: module(*args)  # noqa: E731
    eager = lambda: eager_fn(*args)  # noqa: E731

    got, ref = ours(), eager()
    torch.cuda.synchronize()
    if got.shape != ref.shape:
        raise AssertionError("%s: output shape %s, eager's %s"
                             % (name, tuple(got.shape), tuple(ref.shape)))
    err = ((got.double() - ref.double()).abs().max()
           / (ref.double().abs().max() or 1.0)).item()
    wrong = not err <= tol  # NaN is wrong too
    moved = nbytes(args) + nbytes([got])
    biggest = max(args, key=lambda t: t.numel())
    del got, ref

    t_ours = time_ms(ours)
    t_eager = time_ms(eager)
    dst = torch.empty_like(biggest)
    t_copy = time_ms(lambda: dst.copy_(biggest))
    copy_gbs = 2 * nbytes([biggest]) / (t_copy * 1e6)
    del dst
    compiled_fn = torch.compile(eager_fn)
    comp, comp_ratio = time_or_na(lambda: compiled_fn(*args), t_ours)
    ours_gbs = moved / (t_ours * 1e6)
    row = ("| %s | %s | %.0f | %.4f | %.0f | %.0f | %.0f%% | %.4f | %s "
           "| %.2fx | %s | %.1e%s |"
           % (what, shape, moved / MIB, t_ours, ours_gbs, copy_gbs,
              100 * ours_gbs / copy_gbs, t_eager, comp, t_eager / t_ours,
              comp_ratio, err, " WRONG (tol %.0e)" % tol if wrong else ""))
    return row, wrong


BN_EPS, BN_MOMENTUM = 1e-5, 0.1
# name, shape (N, C, H, W), dtype, channels-last: ResNet-50's first-stage
# activations at batch 32 and 256 and its last stage at batch 256.
BN_BENCHES = [
    ("bn_train_%s_%s_%s" % (dt, "nhwc" if cl else "nchw",
                            "x".join(map(str, shape))), shape, dt, cl)
    for shape in ([32, 256, 56, 56], [256, 64, 56, 56], [256, 2048, 7, 7])
    for dt, cl in (("f16", True), ("f32", False))
]


PROFILE = False


def _bn_eager(x, rmean, rvar, scale, bias):
    return torch.nn.functional.batch_norm(
        x, rmean, rvar, scale, bias, training=True, momentum=BN_MOMENTUM,
        eps=BN_EPS)


def rel_err(got, ref):
    """max |got - ref| / max |ref|, in float64."""
    ref = ref.double()
    return ((got.double() - ref).abs().max()
            / (ref.abs().max() or 1.0)).item()


def bn_inputs(shape, dtype, channels_last):
    """The batch-norm benchmark's x (dtype "f16" or "f32", channels-last or
    not) and f32 scale, bias, running mean and running variance, seeded."""
    gen = torch.Generator(device="cuda").manual_seed(0)
    torch_dtype = {"f16": torch.float16, "f32": torch.float32}[dtype]
    c = shape[1]
    x = (_randn(gen, *shape) * 2 + 1).to(torch_dtype)
    if channels_last:
        x = x.contiguous(memory_format=torch.channels_last)
    scale = torch.rand(c, device="cuda", generator=gen) + 0.5
    bias = _randn(gen, c) * 0.1
    rmean = _randn(gen, c) * 0.1
    rvar = torch.rand(c, device="cuda", generator=gen) + 0.5
    return x, scale, bias, rmean, rvar


def run_bn(models, name, shape, dtype, channels_last):
    module = cudnn_mlir.load_module(os.path.join(models, name + ".so"))
    x, scale, bias, rmean, rvar = bn_inputs(shape, dtype, channels_last)
    ours = lambda: module(x, scale, bias, rmean, rvar)  # noqa: E731

    # Numerics first: every output against eager / torch in f32.
    y, mean, invstd, next_mean, next_var = ours()
    ref_mean, ref_var = rmean.clone(), rvar.clone()
    ref_y = _bn_eager(x, ref_mean, ref_var, scale, bias)
    var, ref_saved = torch.var_mean(x.float(), dim=(0, 2, 3), correction=0)
    ref_inv = torch.rsqrt(var + BN_EPS)
    torch.cuda.synchronize()
    err = max(rel_err(y, ref_y), rel_err(mean, ref_saved),
              rel_err(invstd, ref_inv), rel_err(next_mean, ref_mean),
              rel_err(next_var, ref_var))
    tol = 1e-4 if dtype == "f32" else 1e-2
    wrong = not err <= tol  # NaN is wrong too
    del y, mean, invstd, next_mean, next_var, ref_y

    # Eager and compiled update their own copies of the running statistics.
    run_mean, run_var = rmean.clone(), rvar.clone()
    eager = lambda: _bn_eager(x, run_mean, run_var, scale, bias)  # noqa
    t_ours = time_ms(ours)
    t_eager = time_ms(eager)
    # PyTorch's two implementations, called directly (eager picks one):
    # its own kernels, and cuDNN's batch norm.
    nat_mean, nat_var = rmean.clone(), rvar.clone()
    t_native = time_ms(lambda: torch.native_batch_norm(
        x, scale, bias, nat_mean, nat_var, True, BN_MOMENTUM, BN_EPS))
    cud_mean, cud_var = rmean.clone(), rvar.clone()
    cudnn, cudnn_ratio = time_or_na(lambda: torch.cudnn_batch_norm(
        x, scale, bias, cud_mean, cud_var, True, BN_MOMENTUM, BN_EPS), t_ours)
    kernels = profile_kernels(ours) if PROFILE else ""
    dst = torch.empty_like(x)
    t_copy = time_ms(lambda: dst.copy_(x))
    del dst
    size = nbytes([x])
    copy_gbs = 2 * size / (t_copy * 1e6)
    compiled_fn = torch.compile(_bn_eager)
    comp, comp_ratio = time_or_na(
        lambda: compiled_fn(x, run_mean, run_var, scale, bias), t_ours)
    moved = 3 * size
    ours_gbs = moved / (t_ours * 1e6)
    row = ("| %s | %s, %s | %.0f | %.4f | %.0f | %.0f | %.0f%% | %.4f "
           "| %.4f | %s | %s | %.2fx | %.2fx | %s | %s | %.1e%s |%s"
           % ("x".join(map(str, shape)), dtype,
              "NHWC" if channels_last else "NCHW", size / MIB, t_ours,
              ours_gbs, copy_gbs, 100 * ours_gbs / copy_gbs, t_eager,
              t_native, cudnn, comp, t_eager / t_ours, t_native / t_ours,
              cudnn_ratio, comp_ratio, err,
              " WRONG (tol %.0e)" % tol if wrong else "", kernels))
    return row, wrong


def profile_kernels(fn, calls=20):
    """Mean GPU time per call of each kernel `fn` launches (torch.profiler),
    as extra lines under the row."""
    lines = ["\n    %-40s %8.1f us x %.2f per call" % (name[:40], us, per_call)
             for name, us, per_call in kernel_times(torch, fn, calls)]
    # The host's cost of one call (enqueueing only): a call whose host cost
    # exceeds its kernels' time is bound by the host.
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    host = (time.perf_counter() - start) / calls
    torch.cuda.synchronize()
    lines.append("\n    host enqueue time %.1f us per call" % (host * 1e6))
    return "".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", help="build/codegen-bench")
    parser.add_argument("--out", help="also write the table here")
    parser.add_argument("bench", nargs="*", help="run only these")
    parser.add_argument("--profile", action="store_true",
                        help="list each batch-norm module's kernels and "
                             "their GPU time under its row")
    # Intermixed: the documented `MODELS_DIR --out FILE bench ...` order.
    opts = parser.parse_intermixed_args()
    global PROFILE
    PROFILE = opts.profile
    torch.backends.cuda.matmul.allow_tf32 = False
    lines = [
        "device: %s; torch %s; CUDA %s" % (
            torch.cuda.get_device_name(), torch.__version__,
            torch.version.cuda),
        "median of %d x (%d calls) after %d warm-up calls, CUDA events"
        % (REPEATS, CALLS, WARMUP),
    ]
    if not opts.bench or any(b[0] in opts.bench for b in BENCHES):
        lines += [
            "",
            "| benchmark | shape | MiB moved | ours ms | ours GB/s "
            "| copy GB/s | ours / copy | eager ms | compile ms | eager/ours "
            "| compile/ours | max err vs eager |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
    for line in lines:
        print(line, flush=True)
    failures = []
    for name, what, shape, case, tol in BENCHES:
        if opts.bench and name not in opts.bench:
            continue
        try:
            row, wrong = run_one(opts.models, name, what, shape, case, tol)
        except Exception as e:  # a module that does not run: loud, go on
            row, wrong = "| %s | %s | FAILED: %s: %s |" % (
                what, shape, type(e).__name__,
                (str(e).splitlines() or [""])[0][:300]), True
        print(row, flush=True)
        lines.append(row)
        if wrong:
            failures.append(name)
        torch.cuda.empty_cache()
    bn_lines = [
        "",
        "batch-norm training forward (bytes = 3 x |x|: read x twice, "
        "write y)",
        "",
        "| shape | dtype, layout | MiB of x | ours ms | ours GB/s "
        "| copy GB/s | ours / copy | eager ms | native ms | cuDNN ms "
        "| compile ms | eager/ours | native/ours | cuDNN/ours | compile/ours "
        "| max err vs eager |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    selected = [b for b in BN_BENCHES if not opts.bench or b[0] in opts.bench]
    if selected:
        for line in bn_lines:
            print(line, flush=True)
        lines += bn_lines
    for name, shape, dtype, channels_last in selected:
        try:
            row, wrong = run_bn(opts.models, name, shape, dtype,
                                channels_last)
        except Exception as e:  # a module that does not run: loud, go on
            row, wrong = "| %s | %s | FAILED: %s: %s |" % (
                "x".join(map(str, shape)), dtype, type(e).__name__,
                (str(e).splitlines() or [""])[0][:300]), True
        print(row, flush=True)
        lines.append(row)
        if wrong:
            failures.append(name)
        torch.cuda.empty_cache()
    if failures:
        msg = "FAILED (wrong result or error): %s" % ", ".join(failures)
        print(msg, flush=True)
        lines.append(msg)
    if opts.out:
        with open(opts.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
