"""cudnn_mlir.compile(..., cuda_graph=True) on the GPU (docs/frontend.md,
"CUDA graphs"): each e2e model below is captured and replayed, compared
with eager PyTorch at the e2e test's tolerance:

1. on its example inputs, then on new inputs of the same shape (the replay
   reads the copied inputs);
2. after an in-place update of every parameter (the replay reads them; an
   RNN repacks its weights inside the graph);
3. after a parameter moved to new memory (the next call captures again);
4. an input of another shape is an error naming the captured one;
and a training-mode batch norm is refused, and dynamic=True captures one
graph per input shape. On the GPU machine:

    python3 integration_test/e2e/cuda_graph_test.py --cache CACHE

--compile-only (here) makes the artifacts.
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
from dynamic_shapes_test import _check, _expect_error, _inputs  # noqa: E402
from registry import TESTS  # noqa: E402

# (e2e test, dtype, input shapes)
CASES = [("resnet18", "f16", [(2, 3, 64, 64)]),
         ("transformer_block", "f16", [(2, 16, 64)]),
         ("lstm_model", "f16", [(12, 4, 32)]),
         ("gru_model", "f32", [(3, 9, 16), (2, 3, 32)])]
OTHER_RESNET_SHAPE = [(4, 3, 64, 64)]


def run_case(test, dtype, shapes, cache):
    torch.manual_seed(0)
    model, _ = test.build(dtype, "cuda")
    inputs = _inputs(shapes, dtype, "cuda")
    fast = cudnn_mlir.compile(model, inputs, cache_dir=cache,
                              cuda_graph=True)
    worst = 0.0
    with torch.no_grad():
        worst = max(worst, _check(test, dtype, fast(*inputs), model(*inputs),
                                  "example inputs"))
        fresh = _inputs(shapes, dtype, "cuda")
        worst = max(worst, _check(test, dtype, fast(*fresh), model(*fresh),
                                  "new inputs"))
        for p in model.parameters():
            p.mul_(0.75)
        worst = max(worst, _check(test, dtype, fast(*fresh), model(*fresh),
                                  "parameters updated in place"))
        first = next(model.parameters())
        first.data = first.data.clone() * 0.5
        worst = max(worst, _check(test, dtype, fast(*fresh), model(*fresh),
                                  "a parameter moved"))
    if fast.captures != 2:
        raise AssertionError("expects 2 captures (the first and after the "
                             "move), but got %d" % fast.captures)
    other = [(s[0] + 1,) + tuple(s[1:]) for s in shapes]
    _expect_error(ValueError, ["as captured", "dynamic=True"],
                  lambda: fast(*_inputs(other, dtype, "cuda")))
    return "worst %.2f of tolerance" % worst


def run_refusal_and_dynamic(cache):
    test = TESTS["conv_batch_norm_train"]
    model, inputs = test.build("f16", "cuda")
    _expect_error(ValueError, ["updates no buffers", "running_mean"],
                  lambda: cudnn_mlir.compile(model, inputs, cache_dir=cache,
                                             cuda_graph=True))
    test = TESTS["resnet18"]
    model, _ = test.build("f16", "cuda")
    first = _inputs([(2, 3, 64, 64)], "f16", "cuda")
    fast = cudnn_mlir.compile(model, first, cache_dir=cache, dynamic=True,
                              cuda_graph=True)
    other = _inputs(OTHER_RESNET_SHAPE, "f16", "cuda")
    with torch.no_grad():
        for x in (first, other, first):
            _check(test, "f16", fast(*x), model(*x), "dynamic")
    if len(fast.compiled) != 2:
        raise AssertionError("expects 2 captured signatures, but got %d"
                             % len(fast.compiled))
    return "training refused; dynamic: 2 graphs"


def compile_only(cache):
    from cudnn_mlir.frontend import import_model
    jobs = [(n, d, s) for n, d, s in CASES] + [
        ("resnet18", "f16", OTHER_RESNET_SHAPE),
        ("conv_batch_norm_train", "f16", None)]
    for name, dtype, shapes in jobs:
        test = TESTS[name]
        model, inputs = test.build(dtype, "cpu")
        if shapes is not None:
            inputs = _inputs(shapes, dtype, "cpu")
        cudnn_mlir.compile_artifact(import_model(model, inputs),
                                    cache_dir=cache)
        print("artifact: %s [%s] %s" % (name, dtype, shapes), flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", default=None)
    parser.add_argument("--compile-only", action="store_true")
    args = parser.parse_args(argv)
    # Exact fp32 on both sides; the flags are part of the artifact key, so
    # --compile-only sets them as the run does.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if args.compile_only:
        compile_only(args.cache)
        return 0
    failed = 0
    runs = [("%s [%s]" % (n, d),
             lambda n=n, d=d, s=s: run_case(TESTS[n], d, s, args.cache))
            for n, d, s in CASES]
    runs.append(("refusal and dynamic",
                 lambda: run_refusal_and_dynamic(args.cache)))
    for name, run in runs:
        try:
            print("PASS  %s: %s" % (name, run()), flush=True)
        except Exception as error:  # reported, counted, not hidden
            failed += 1
            print("FAIL  %s: %s: %s" % (name, type(error).__name__,
                                        str(error).splitlines()[0]
                                        if str(error) else ""), flush=True)
    print("summary: %d FAIL" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
