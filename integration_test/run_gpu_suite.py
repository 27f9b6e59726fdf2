#!/usr/bin/env python3
"""Runs the GPU integration suite on a GPU machine: each case's compiled
module (built here by integration_test/build_suite.sh) is run through the
cudnn_mlir loader on CUDA tensors and compared with PyTorch in float64 on the
same inputs, and the runtime log must show the expected number of cuDNN
graphs executed, none of them split by the runtime, and the compiled split
form running exactly where the case expects cuDNN to have no engine for the
fused graph. Fusion by cost is off (CUDNN_MLIR_FUSION_BY_COST=0) unless the
environment sets it.

    python3 integration_test/run_gpu_suite.py MODELS_DIR [case ...]

Prints one line per case and exits non-zero if any failed; with
CUDNN_MLIR_SUITE_VERBOSE=1, also each output's error.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

# The runtime reads CUDNN_MLIR_LOG once, when it first logs.
LOG = os.path.join(tempfile.mkdtemp(prefix="cudnn-mlir-suite-"), "log.txt")
os.environ["CUDNN_MLIR_LOG"] = LOG
# Each case checks its fused graphs as compiled, so fusion by cost (which
# may time a fused plan against its split form and pick either, by a few
# microseconds) is off unless the caller sets it; the runtime's GPU tests
# cover fusion by cost.
os.environ.setdefault("CUDNN_MLIR_FUSION_BY_COST", "0")

import cudnn_mlir  # noqa: E402  (imports no torch)

# The runtime (and its cuDNN) before torch: docs/abi.md, "Loading".
if os.environ.get("CUDNN_MLIR_SUITE_PRELOAD", "1") == "1":
    cudnn_mlir.load_runtime_before_torch()

import torch  # noqa: E402

from cases import CASES, default_inputs  # noqa: E402

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16,
          "f32": torch.float32, "f64": torch.float64,
          "i8": torch.int8, "i32": torch.int32, "i64": torch.int64}


def log_since(offset):
    if not os.path.exists(LOG):
        return "", offset
    with open(LOG) as f:
        f.seek(offset)
        text = f.read()
        return text, f.tell()


# What the runtime says, once per graph, when it runs a compiled split form.
SPLIT_FORM = "the module runs its compiled split form"


def run_case(case, models, offset):
    path = os.path.join(models, case.name + ".so")
    module = cudnn_mlir.load_module(path)
    (entry,) = module.entries.values()
    gen = torch.Generator().manual_seed(0)
    make = case.inputs or default_inputs
    host = [t.to(torch.float64) for t in make(torch, entry.inputs, gen)]
    device_inputs = [t.to(DTYPES[s.dtype]).cuda()
                     for t, s in zip(host, entry.inputs)]
    # The reference sees the inputs as the GPU does (rounded to their dtype).
    rounded = [t.cpu().to(torch.float64) for t in device_inputs]
    expected = case.reference(torch, *rounded)
    got = module(*device_inputs)
    torch.cuda.synchronize()
    # A second call runs the cached plans (no build).
    again = module(*device_inputs)
    torch.cuda.synchronize()
    log, offset = log_since(offset)

    outputs = got if isinstance(got, tuple) else (got,)
    refs = expected if isinstance(expected, tuple) else (expected,)
    # One tolerance for every output, or one per output.
    tols = list(case.tol) if isinstance(case.tol, (list, tuple)) \
        else [case.tol] * len(refs)
    errors = []
    for out, ref in zip(outputs, refs):
        out64 = out.cpu().to(torch.float64)
        scale = ref.abs().max().item() or 1.0
        errors.append((out64 - ref).abs().max().item() / scale)
    same = all(torch.equal(a, b) for a, b in
               zip(outputs, again if isinstance(again, tuple) else (again,)))
    # Two calls: each runs every graph once. A graph another case already
    # built comes from the process-wide cache, so count executions.
    executed = [l for l in log.splitlines() if "executed graph (" in l]
    split = [l for l in executed if "(split" in l]
    problems = []
    if not (len(outputs) == len(refs) == len(tols)):
        problems.append("%d outputs, %d references, %d tolerances"
                        % (len(outputs), len(refs), len(tols)))
    # `not e <= t`: a NaN in the output fails too.
    over = [(i, e, t) for i, (e, t) in enumerate(zip(errors, tols))
            if not e <= t]
    if over:
        problems.append("; ".join("output %d: error %.3g > tolerance %.0e"
                                  % o for o in over))
    if len(executed) != 2 * case.graphs:
        problems.append("ran %d graphs in two calls, expected %d"
                        % (len(executed), 2 * case.graphs))
    if split:
        problems.append("split fallback ran: " + split[0])
    switched = [l for l in log.splitlines() if SPLIT_FORM in l]
    if case.split_form and not switched:
        problems.append("expected the compiled split form (%s), but the "
                        "fused graph ran" % case.split_form)
    if switched and not case.split_form:
        problems.append("the compiled split form ran: " + switched[0])
    if not same:
        problems.append("a second call gave different results")
    status = "PASS" if not problems else "FAIL"
    # The output closest to its tolerance (exact outputs: the largest error).
    worst = max(range(len(errors)),
                key=lambda i: float("inf") if errors[i] != errors[i] else
                (errors[i] / tols[i]) if tols[i] else
                (float("inf") if errors[i] else 0.0))
    print("%s %-32s max_err/max|ref|=%.3g (tol %.0e%s) graphs=%d %s" % (
        status, case.name, errors[worst], tols[worst],
        ", output %d of %d" % (worst, len(errors)) if len(errors) > 1
        else "", len(executed) // 2, "; ".join(problems)), flush=True)
    if len(errors) > 1 and os.environ.get("CUDNN_MLIR_SUITE_VERBOSE"):
        for i, (e, t) in enumerate(zip(errors, tols)):
            print("     output %2d: max_err/max|ref|=%.3g (tol %.0e)"
                  % (i, e, t), flush=True)
    return not problems, offset


def main(argv):
    models = argv[1]
    wanted = set(argv[2:])
    print("device: %s, torch %s, cuDNN (torch) %s" % (
        torch.cuda.get_device_name(), torch.__version__,
        torch.backends.cudnn.version()), flush=True)
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    failures, offset, details = 0, 0, []
    for case in CASES:
        if wanted and case.name not in wanted:
            continue
        try:
            ok, offset = run_case(case, models, offset)
        except Exception as e:  # report and go on with the next case
            _, offset = log_since(offset)
            # The first line says what failed; the rest is the graph dump.
            lines = str(e).splitlines() or [""]
            print("FAIL %-32s %s: %s" % (case.name, type(e).__name__,
                                         lines[0][:600]), flush=True)
            details.append("== %s\n%s" % (case.name, e))
            ok = False
        failures += not ok
    print("%d case(s) failed" % failures if failures else "all cases passed")
    if details and os.environ.get("CUDNN_MLIR_SUITE_DETAILS"):
        with open(os.environ["CUDNN_MLIR_SUITE_DETAILS"], "w") as f:
            f.write("\n".join(details))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
