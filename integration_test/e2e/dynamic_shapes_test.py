"""Models called with more than one input shape (docs/frontend.md, "Dynamic
shapes"), each call compared with eager PyTorch at the e2e test's
tolerance:

- `compile`: cudnn_mlir.compile(model, inputs, dynamic=True), one module
  per input signature; also the errors around it (a static compile called
  with another shape, a call past max_signatures);
- `dynamo-dynamic`: torch.compile(backend="cudnn_mlir", dynamic=True), a
  subgraph with symbolic sizes specialized per signature;
- `dynamo-auto`: torch.compile's default, static first, then automatic
  dynamic shapes after the first shape change.

Every subgraph must be compiled (none left in PyTorch). On the GPU machine:

    python3 integration_test/e2e/dynamic_shapes_test.py --cache CACHE

With --compile-only (here, torch 2.x on the CPU for the TorchDynamo modes)
it only makes the artifacts, for the GPU machine to find by hash.
"""

import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import cudnn_mlir  # noqa: E402
import model_tests  # noqa: E402,F401  (registers)
from registry import TESTS, rand  # noqa: E402
from run_e2e import _flat, compare  # noqa: E402

# (e2e test, dtype, the input shapes of each call): the first call's are the
# example inputs; a repeated signature must reuse its module.
CASES = [
    ("resnet18", "f16", [[(2, 3, 64, 64)], [(1, 3, 64, 64)],
                         [(5, 3, 64, 64)], [(1, 3, 64, 64)],
                         [(2, 3, 48, 48)]]),
    ("transformer_block", "f16", [[(2, 16, 64)], [(3, 16, 64)],
                                  [(2, 24, 64)], [(3, 16, 64)]]),
    ("lstm_model", "f16", [[(12, 4, 32)], [(7, 4, 32)], [(12, 2, 32)],
                           [(7, 4, 32)]]),
    ("gru_model", "f32", [[(3, 9, 16), (2, 3, 32)], [(5, 9, 16), (2, 5, 32)],
                          [(5, 4, 16), (2, 5, 32)]]),
]
MODES = ("compile", "dynamo-dynamic", "dynamo-auto")


def _inputs(shapes, dtype, device):
    torch_dtype = {"f32": torch.float32, "f16": torch.float16}[dtype]
    return [rand(*s).to(device=device, dtype=torch_dtype) for s in shapes]


def _check(test, dtype, got, expected, where):
    got, expected = _flat(got), _flat(expected)
    if len(got) != len(expected):
        raise AssertionError("%s: expects %d outputs, but got %d"
                             % (where, len(expected), len(got)))
    try:
        err, ratio, _ = compare(list(zip(got, expected)),
                                *test.tolerance_for(dtype))
    except AssertionError as error:
        raise AssertionError("%s: %s" % (where, error)) from None
    if ratio > 1.0:
        raise AssertionError("%s: max error %.3g is %.2fx the tolerance"
                             % (where, err, ratio))
    return ratio


def _expect_error(kind, words, call):
    try:
        call()
    except kind as error:
        if not all(w in str(error) for w in words):
            raise AssertionError("expects %s naming %s, but got: %s"
                                 % (kind.__name__, words, error))
        return
    raise AssertionError("expects %s, but the call succeeded"
                         % kind.__name__)


def run_compile(test, dtype, calls, cache, compile_only):
    device = "cpu" if compile_only else "cuda"
    torch.manual_seed(0)
    model, _ = test.build(dtype, device)
    first = _inputs(calls[0], dtype, device)
    if compile_only:  # every signature's artifact, nothing run
        from cudnn_mlir.frontend import import_model
        for shapes in calls:
            cudnn_mlir.compile_artifact(
                import_model(model, _inputs(shapes, dtype, device)),
                cache_dir=cache)
        return "artifacts made"
    fast = cudnn_mlir.compile(model, first, cache_dir=cache, dynamic=True)
    worst = 0.0
    for i, shapes in enumerate(calls):
        inputs = first if i == 0 else _inputs(shapes, dtype, device)
        with torch.no_grad():
            worst = max(worst, _check(test, dtype, fast(*inputs),
                                      model(*inputs), "call %d %s"
                                      % (i, shapes)))
    distinct = len({tuple(map(tuple, c)) for c in calls})
    if len(fast.compiled) != distinct:
        raise AssertionError("expects %d modules (one per signature), but "
                             "got %d" % (distinct, len(fast.compiled)))
    # A static compile names the option; a call past the limit is an error.
    static = cudnn_mlir.compile(model, first, cache_dir=cache)
    other = _inputs(calls[1], dtype, device)
    _expect_error(ValueError, ["as compiled", "dynamic=True"],
                  lambda: static(*other))
    capped = cudnn_mlir.compile(model, first, cache_dir=cache, dynamic=True,
                                max_signatures=1)
    _expect_error(RuntimeError, ["at most 1 input signatures"],
                  lambda: capped(*other))
    return "worst %.2f of tolerance, %d modules" % (worst, distinct)


def run_dynamo(test, dtype, calls, cache, compile_only, dynamic):
    import torch._dynamo
    from cudnn_mlir import dynamo
    device = "cpu" if compile_only else "cuda"
    torch._dynamo.reset()
    torch.manual_seed(0)
    model, _ = test.build(dtype, device)
    first_entry = len(dynamo.REPORT)
    fast = torch.compile(
        model, dynamic=dynamic,
        backend=lambda gm, ins: dynamo.backend(gm, ins, cache_dir=cache))
    worst = 0.0
    for i, shapes in enumerate(calls):
        inputs = _inputs(shapes, dtype, device)
        with torch.no_grad():
            if compile_only:
                try:
                    fast(*inputs)
                except ValueError as error:  # compiled, but no GPU here
                    if "on a CUDA device" not in str(error):
                        raise
                continue
            worst = max(worst, _check(test, dtype, fast(*inputs),
                                      model(*inputs), "call %d %s"
                                      % (i, shapes)))
    entries = dynamo.REPORT[first_entry:]
    eager = [e["reason"] for e in entries if e["status"] == "eager"]
    eager += [s["signature"] + ": " + s["reason"] for e in entries
              for s in e.get("signatures", []) if s["status"] == "eager"]
    if not entries or eager:
        raise AssertionError("expects every subgraph compiled, but %d ran in "
                             "PyTorch: %s" % (len(eager), "; ".join(eager[:3])))
    specialized = sum(len(e.get("signatures", [])) for e in entries)
    if not any(e["status"] == "specialized" for e in entries):
        raise AssertionError("expects a subgraph with symbolic sizes, but "
                             "TorchDynamo passed only static ones")
    return "%s%d subgraphs (%d specializations)" % (
        "" if compile_only else "worst %.2f of tolerance, " % worst,
        len(entries), specialized)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", default=None)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--filter", default="")
    args = parser.parse_args(argv)
    # Exact fp32 on both sides; the flags are part of the artifact key, so
    # --compile-only sets them as the run does.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    modes = args.modes.split(",")
    if not hasattr(torch, "compile"):
        modes = [m for m in modes if m == "compile"]
    failed = 0
    for name, dtype, calls in CASES:
        if args.filter not in name:
            continue
        test = TESTS[name]
        for mode in modes:
            try:
                if mode == "compile":
                    detail = run_compile(test, dtype, calls, args.cache,
                                         args.compile_only)
                else:
                    detail = run_dynamo(test, dtype, calls, args.cache,
                                        args.compile_only,
                                        True if mode == "dynamo-dynamic"
                                        else None)
                print("PASS  %s [%s] %s: %s" % (name, dtype, mode, detail),
                      flush=True)
            except Exception as error:  # reported, counted, not hidden
                failed += 1
                print("FAIL  %s [%s] %s: %s: %s"
                      % (name, dtype, mode, type(error).__name__,
                         str(error).splitlines()[0] if str(error) else ""),
                      flush=True)
    print("summary: %d FAIL" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
