#!/usr/bin/env python3
"""Runs the e2e suite (integration_test/e2e, docs/frontend.md#tests).

Two halves, because the GPU machine has no compiler:

    # the imported TCP of some tests (for a look, and the lit tests)
    python3 integration_test/e2e/run_e2e.py --print-ir --filter '^resnet18$' --dtypes f32
    # where cudnn-compile is (here): import and compile every test
    python3 integration_test/e2e/run_e2e.py --compile-only --cache build/e2e-cache
    # on the GPU machine: import again, load the artifact by its hash, run,
    # compare with eager PyTorch
    CUDNN_MLIR_RUNTIME_LIB=... python3 integration_test/e2e/run_e2e.py --cache build/e2e-cache
    # the same through torch.compile(backend="cudnn_mlir"); with
    # CUDNN_MLIR_EXPORT_DIR set, subgraphs without an artifact are exported
    # for `python3 -m cudnn_mlir.compile_exported` here
    ... run_e2e.py --torch-compile --cache build/e2e-cache

Each line is PASS, FAIL, XFAIL (listed in xfail.py) or XPASS (listed but
passed: fix the table); the exit status is 1 on FAIL or XPASS.
"""

import argparse
import os
import re
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import cudnn_mlir  # noqa: E402  (before torch: the runtime's cuDNN first)

cudnn_mlir.load_runtime_before_torch()

import torch  # noqa: E402

import model_tests  # noqa: E402,F401  (registers)
import op_tests  # noqa: E402,F401  (registers)
from registry import TESTS  # noqa: E402
from xfail import XFAIL  # noqa: E402
from cudnn_mlir.frontend import (  # noqa: E402
    TorchImportError, decompose_exported, import_graph, import_model)
from cudnn_mlir.driver.compiler import PartitionedModel  # noqa: E402
from cudnn_mlir.frontend.recording import copy_module  # noqa: E402
from cudnn_mlir.driver.runner import CompiledModel  # noqa: E402


def import_aten(model, inputs):
    """The ATen-level import: torch.export on torch 2.x (core ATen after
    run_decompositions, RNNs kept whole), make_fx on torch 1.x. Returns the imported module
    and the module its tensor names refer to."""
    if hasattr(torch, "export"):
        exported = decompose_exported(
            torch.export.export(model, tuple(inputs)))
        bound = exported.module()
        return import_graph(bound, inputs), bound
    from torch.fx.experimental.proxy_tensor import make_fx
    if any(i.is_floating_point() and i.dtype != torch.float32
           for i in inputs):
        raise RuntimeError(
            "expects f32 for the ATen import on torch 1.x: make_fx runs "
            "torch's CPU kernels, which lack f16/bf16 (and may crash on "
            "bf16); torch 2.x uses torch.export instead")
    bound = make_fx(model)(*inputs)
    return import_graph(bound, inputs), bound


def import_for(aten):
    if aten:
        return lambda model, inputs: import_aten(model, inputs)[0]
    return import_model


def _flat(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _flat(v)]
    if isinstance(value, dict):  # segmentation models: {"out": ..., "aux": ...}
        return [t for v in value.values() for t in _flat(v)]
    return []


def _worst(ours, eager, atol, rtol):
    """(max |ours - eager|, the worst ratio of error to allowed error). The
    absolute part scales with the output's magnitude (deep fp16 networks
    with random weights produce outputs far from 1): allowed =
    atol * max(1, max |eager|) + rtol * |eager|."""
    eager = eager.double()
    err = (ours.double() - eager).abs()
    scale = max(1.0, eager.abs().max().item()) if eager.numel() else 1.0
    allowed = atol * scale + rtol * eager.abs()
    return err.max().item(), (err / allowed).max().item()


def compare(pairs, atol, rtol):
    """(max error, worst ratio to the tolerance, index of the worst pair)
    over (ours, eager) pairs; a shape mismatch or a non-finite value of ours
    is an AssertionError naming the output."""
    worst_err, worst_ratio, worst_at = 0.0, 0.0, 0
    for i, (g, e) in enumerate(pairs):
        if g.shape != e.shape:
            raise AssertionError("expects output %d of shape %s, but got %s"
                                 % (i, list(e.shape), list(g.shape)))
        if not torch.isfinite(g.double()).all():
            raise AssertionError("output %d has non-finite values" % i)
        err, ratio = _worst(g, e, atol, rtol)
        if ratio > worst_ratio:
            worst_ratio, worst_at = ratio, i
        worst_err = max(worst_err, err)
    return worst_err, worst_ratio, worst_at


def _f64_errors(model, inputs, got, expected):
    """For fp32 tests: max error of ours and of eager against the same model
    in float64, which tells a TF32 path from a wrong one."""
    with torch.no_grad():
        exact = _flat(copy_module(model).double()(
            *[i.double() if i.is_floating_point() else i for i in inputs]))
    ours = max((g.double() - e).abs().max().item()
               for g, e in zip(got, exact))
    eager = max((g.double() - e).abs().max().item()
                for g, e in zip(expected, exact))
    return " vs_f64: ours %.2g eager %.2g" % (ours, eager)


def compile_one(test, dtype, cache, aten=False, torch_compile=False):
    model, inputs = test.build(dtype, "cpu")
    if torch_compile:
        _through_torch_compile(model, inputs, cache, compile_only=True,
                               partitioned=test.partitioned)
        return "subgraphs compiled"
    if test.partitioned and not aten:
        try:
            return _partitions_only(model, inputs, cache)
        except TorchImportError as error:
            if error.node is not None:
                raise
            # Not captured whole: cudnn_mlir.compile runs it through
            # torch.compile, whose subgraphs these are.
            _through_torch_compile(model, inputs, cache, compile_only=True,
                                   partitioned=True)
            return "subgraphs compiled (graph breaks)"
    imported = import_for(aten)(model, inputs)
    folder = cudnn_mlir.compile_artifact(imported, cache_dir=cache)
    return "artifact %s" % os.path.basename(folder)


def _partitions_only(model, inputs, cache):
    """The artifacts cudnn_mlir.compile's partitions will look for on the
    GPU machine."""
    from cudnn_mlir.driver.compiler import compile_partition_artifacts
    report = compile_partition_artifacts(model, inputs, cache_dir=cache)
    if report.whole or not report.compiled_ops:
        raise AssertionError("expects a partitioned compile, but got: %s"
                             % report.summarize())
    return "partitioned: %s" % report.summarize()


def _in_pytorch_on_cpu(gm):
    """gm run in PyTorch on the CPU, an f16/bf16 graph as its f32 copy
    (recording.runnable_on_cpu: the CPU lacks some half kernels, such as
    cdist's and avg_pool3d's), its results in the real run's types."""
    from cudnn_mlir.frontend.recording import InF32, runnable_on_cpu

    def run(*args):
        module, inputs, back, float_type = runnable_on_cpu(gm, list(args))
        with torch.no_grad():
            out = InF32(module, float_type).run(*inputs)
        return torch.utils._pytree.tree_map(back, out)
    return run


def _through_torch_compile(model, inputs, cache, compile_only=False,
                           partitioned=False):
    """torch.compile(backend="cudnn_mlir"): fails unless every subgraph
    TorchDynamo captured was compiled (whole, or with `partitioned` in
    partitions too). `compile_only` (on the CPU): each subgraph is compiled
    into the cache, then runs in PyTorch, so that the model runs on to its
    later subgraphs."""
    import torch._dynamo
    from cudnn_mlir import dynamo
    torch._dynamo.reset()
    first = len(dynamo.REPORT)

    def backend(gm, ins):
        run = dynamo.backend(gm, ins, cache_dir=cache)
        return _in_pytorch_on_cpu(gm) if compile_only else run
    compiled = torch.compile(model, dynamic=False, backend=backend)
    with torch.no_grad():
        out = compiled(*inputs)
    subgraphs = dynamo.REPORT[first:]
    accepted = ("compiled", "partitioned") if partitioned else ("compiled",)
    eager = [e for e in subgraphs if e["status"] not in accepted]
    if not subgraphs or eager:
        raise AssertionError(
            "expects every subgraph compiled, but %d of %d ran in PyTorch: %s"
            % (len(eager), len(subgraphs),
               "; ".join(e["reason"] for e in eager[:3])))
    return out


# --time: a model is "slow" when ours takes more than this times eager.
SLOW_FACTOR = 1.10


def time_against_eager(model, compiled, inputs, rounds=7, calls=10):
    """(eager ms, ours ms) per call: medians of `rounds` rounds, the two
    taking turns, each round `calls` back-to-back calls (CUDA events,
    benchmarks/cuda_timing.py), after two warm-up calls each."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
    from cuda_timing import ms_per_call
    import statistics
    fns = [lambda: model(*inputs), lambda: compiled(*inputs)]
    times = [[], []]
    with torch.no_grad():
        for fn in fns:
            fn()
            fn()
        for _ in range(rounds):
            for i, fn in enumerate(fns):
                times[i].append(ms_per_call(torch, fn, calls))
    return statistics.median(times[0]), statistics.median(times[1])


def run_one(test, dtype, cache, torch_compile=False, aten=False,
            timing=None):
    model, inputs = test.build(dtype, "cuda")
    # copy_module: also a model whose legacy weight-norm hook holds a
    # computed weight, which copy.deepcopy refuses.
    reference = copy_module(model)
    pristine = copy_module(model) if dtype == "f32" else None
    with torch.no_grad():
        expected = _flat(reference(*inputs))
    holder = model  # the module whose buffers the call updates
    if torch_compile:
        got = _flat(_through_torch_compile(model, inputs, cache,
                                           partitioned=test.partitioned))
    elif aten:
        imported, bound = import_aten(model, inputs)
        folder = cudnn_mlir.compile_artifact(imported, cache_dir=cache)
        compiled = CompiledModel(
            cudnn_mlir.load_module(os.path.join(folder, "model.so")),
            imported, bound)
        got = _flat(compiled(*inputs))
        holder = bound
    else:
        compiled = cudnn_mlir.compile(model, inputs, cache_dir=cache,
                                      strict=not test.partitioned)
        if test.partitioned and not isinstance(compiled, PartitionedModel):
            raise AssertionError("expects a partitioned compile, but it "
                                 "compiled whole")
        got = _flat(compiled(*inputs))
    torch.cuda.synchronize()
    if len(got) != len(expected):
        raise AssertionError("expects %d outputs, but got %d"
                             % (len(expected), len(got)))
    if not expected:  # a comparison over no pairs would always pass
        raise AssertionError("expects the model to return tensors (in "
                             "tuples, lists or dicts), but found none in "
                             "its output")
    atol, rtol = test.tolerance_for(dtype)
    pairs = list(zip(got, expected))
    if test.train:  # the running statistics the call updated, by name
        # (through torch.export they live in ExportedProgram.module())
        updated = dict(holder.named_buffers())
        pairs += [(updated[name], buffer)
                  for name, buffer in reference.named_buffers()]
    worst_err, worst_ratio, worst_at = compare(pairs, atol, rtol)
    detail = ""
    if pristine is not None and not test.train:
        detail = _f64_errors(pristine, inputs, got[:len(expected)], expected)
    if worst_ratio > 1.0:
        what = "output %d" % worst_at if worst_at < len(got) else \
            "buffer %d" % (worst_at - len(got))
        raise AssertionError("max error %.3g is %.2fx the tolerance (atol %g, "
                             "rtol %g; worst: %s of %d outputs)%s"
                             % (worst_err, worst_ratio, atol, rtol, what,
                                len(got), detail))
    if timing is not None and not (torch_compile or aten or test.train):
        eager_ms, ours_ms = time_against_eager(reference, compiled, inputs)
        timing.append(eager_ms / ours_ms)
        detail += " eager_ms=%.4g ours_ms=%.4g speedup=%.2fx%s" % (
            eager_ms, ours_ms, eager_ms / ours_ms,
            " SLOW" if ours_ms > SLOW_FACTOR * eager_ms else "")
    return "max_err=%.3g (%.2f of tolerance)%s" % (worst_err, worst_ratio,
                                                   detail)


# CUDA errors after which the process's context is unusable: every later
# test of the run would fail with the same error.
STICKY_CUDA_ERRORS = ("device-side assert", "illegal memory access",
                      "unspecified launch failure")
# A test seam: "name[dtype]" fails that test with a sticky CUDA error
# instead of running it (test/Frontend/e2e-lost-context.test).
LOSE_CONTEXT_ENV = "E2E_LOSE_CUDA_CONTEXT_AT"


def run_rest_in_new_process(pairs, counts):
    """Runs the (name, dtype) `pairs` by this script in a fresh process (the
    same arguments, --only them), printing its lines and adding its counts
    to `counts`."""
    import subprocess
    argv = [a for a in sys.argv[1:] if not a.startswith("--only=")]
    only = ",".join("%s[%s]" % p for p in pairs)
    child = subprocess.Popen([sys.executable, os.path.abspath(__file__)]
                             + argv + ["--only=" + only],
                             stdout=subprocess.PIPE, text=True)
    for line in child.stdout:
        match = re.match(r"summary: (.*)", line)
        if not match:
            print(line, end="", flush=True)
            continue
        for part in match.group(1).split(", "):
            n, status = part.split(" ")
            counts[status] += int(n)
    child.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--cache", default=os.path.join(
        HERE, "..", "..", "build", "e2e-cache"))
    parser.add_argument("--filter", default="")
    parser.add_argument("--dtypes", default="f32,f16,bf16")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--aten", action="store_true",
                        help="import at the ATen level: torch.export on "
                        "torch 2.x, make_fx on 1.x")
    parser.add_argument("--torch-compile", action="store_true",
                        help="run through torch.compile(backend='cudnn_mlir') "
                        "instead of cudnn_mlir.compile (torch 2.x)")
    parser.add_argument("--print-ir", action="store_true",
                        help="print each test's imported TCP, '// -----' "
                        "between tests, and exit")
    parser.add_argument("--time", action="store_true",
                        help="after each passing inference test, time eager "
                        "and ours per call (taking turns) and mark SLOW "
                        "where ours takes over %.2fx eager" % SLOW_FACTOR)
    parser.add_argument("--only", default="",
                        help="comma-separated name[dtype]: run just these "
                        "(what the runner passes a fresh process after a "
                        "test lost the CUDA context)")
    args = parser.parse_args()
    # Exact fp32 on both sides, eager and ours: the flags are part of the
    # artifact key too, so --compile-only must set them as the run will.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dtypes = args.dtypes.split(",")
    counts = {"PASS": 0, "FAIL": 0, "XFAIL": 0, "XPASS": 0}
    speedups = [] if args.time else None  # eager ms / ours ms per test
    only = set(args.only.split(",")) if args.only else None
    pairs = [(name, dtype) for name in sorted(TESTS)
             if re.search(args.filter, name)
             for dtype in TESTS[name].dtypes if dtype in dtypes
             and (only is None or "%s[%s]" % (name, dtype) in only)]
    for index, (name, dtype) in enumerate(pairs):
        test = TESTS[name]
        if args.list:
            print(name, dtype)
            continue
        if args.print_ir:
            model, inputs = test.build(dtype, "cpu")
            print("// %s [%s]" % (name, dtype))
            print(import_for(args.aten)(model, inputs).text)
            print("// -----")
            continue
        start = time.time()
        try:
            if os.environ.get(LOSE_CONTEXT_ENV) == "%s[%s]" % (name,
                                                               dtype):
                raise RuntimeError("CUDA error: device-side assert "
                                   "triggered (simulated by %s)"
                                   % LOSE_CONTEXT_ENV)
            if args.compile_only:
                detail = compile_one(test, dtype, args.cache, args.aten,
                                     args.torch_compile)
            else:
                detail = run_one(test, dtype, args.cache,
                                 args.torch_compile, args.aten,
                                 speedups)
            ok = True
        except Exception as error:  # reported, never hidden
            detail = "%s: %s" % (type(error).__name__, error)
            if os.environ.get("E2E_TRACEBACK"):
                detail += "\n" + traceback.format_exc()
            ok = False
        mode = "aten" if args.aten else (
            "dynamo" if args.torch_compile else "fx")
        reason = XFAIL.get((name, dtype, mode))
        status = ("XPASS" if ok else "XFAIL") if reason else (
            "PASS" if ok else "FAIL")
        counts[status] += 1
        line = "%-5s %s [%s] %.1fs %s" % (status, name, dtype,
                                         time.time() - start, detail)
        if reason:
            line += " (xfail: %s)" % reason
        print(line, flush=True)
        rest = pairs[index + 1:]
        if not ok and rest and any(e in detail
                                   for e in STICKY_CUDA_ERRORS):
            # One failure stays one failure: the tests after it run
            # where the CUDA context is whole.
            print("note: %s [%s] left this process's CUDA context "
                  "unusable; the %d tests after it run in a new process"
                  % (name, dtype, len(rest)), flush=True)
            run_rest_in_new_process(rest, counts)
            break
    if args.list or args.print_ir:
        return 0
    print("summary: " + ", ".join("%d %s" % (v, k) for k, v in counts.items()))
    if speedups:
        import math
        slow = sum(1 for x in speedups if x < 1 / SLOW_FACTOR)
        print("timing: %d tests timed, eager/ours geometric mean %.2fx, "
              "min %.2fx, %d slower than eager by more than %d%%"
              % (len(speedups),
                 math.exp(sum(map(math.log, speedups)) / len(speedups)),
                 min(speedups), slow, round((SLOW_FACTOR - 1) * 100)))
    return 1 if counts["FAIL"] or counts["XPASS"] else 0


if __name__ == "__main__":
    sys.exit(main())
