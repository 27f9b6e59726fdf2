"""RNN weights packed once per parameter set, end to end on a GPU.

The e2e suite's lstm_model and gru_model through cudnn_mlir.compile, called
repeatedly: the runtime's weight-space counters (cmrtRnnGetWeightSpaceStats)
must show one pack for the first call and reuses after it; an in-place
update of the parameters (what an optimizer step does) must repack, and so
must invalidate_packed_weights() after a write through `.data` (which
PyTorch's version counters do not see); every output is compared with
eager PyTorch on the parameters of that moment, at the suite's tolerances.
It also times a call with the weights reused against one that repacks.

    # here (cudnn-compile): compile the two models into a cache
    python3 integration_test/e2e/run_e2e.py --compile-only --cache DIR \\
        --filter '^(lstm|gru)_model$' --dtypes f32,f16
    # on the GPU machine, with CUDNN_MLIR_RUNTIME_LIB set
    python3 integration_test/e2e/pack_once_test.py --cache DIR
"""

import argparse
import copy
import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import cudnn_mlir  # noqa: E402  (before torch: the runtime's cuDNN first)
import torch  # noqa: E402

import model_tests  # noqa: E402,F401  (registers)
from registry import TESTS  # noqa: E402
from run_e2e import _flat, _worst  # noqa: E402


def stats(runtime):
    packs, reuses = ctypes.c_int64(), ctypes.c_int64()
    if runtime.cmrtRnnGetWeightSpaceStats(ctypes.byref(packs),
                                          ctypes.byref(reuses)) != 0:
        raise RuntimeError("cmrtRnnGetWeightSpaceStats failed")
    return packs.value, reuses.value


def check(step, compiled, model, inputs, tolerance, runtime, before,
          packs, reuses):
    """Calls the compiled model once; checks the counters moved by
    (packs, reuses) and the outputs against eager on `model` now."""
    got = _flat(compiled(*inputs))
    with torch.no_grad():
        expected = _flat(model(*inputs))
    torch.cuda.synchronize()
    after = stats(runtime)
    moved = (after[0] - before[0], after[1] - before[1])
    worst = max(_worst(g, e, *tolerance)[1] for g, e in zip(got, expected))
    ok = moved == (packs, reuses) and worst <= 1.0
    print("  %-44s packs +%d reuses +%d (want +%d +%d), %.2f of tolerance: %s"
          % (step, moved[0], moved[1], packs, reuses, worst,
             "ok" if ok else "FAIL"))
    return after, ok


def run(name, dtype, cache):
    test = TESTS[name]
    model, inputs = test.build(dtype, "cuda")
    compiled = cudnn_mlir.compile(model, inputs, cache_dir=cache)
    runtime = compiled.module._runtime
    runtime.cmrtRnnGetWeightSpaceStats.argtypes = [
        ctypes.POINTER(ctypes.c_int64)] * 2
    tolerance = test.tolerance_for(dtype)
    # One RNN per model, so one pack or one reuse per call.
    print("%s %s" % (name, dtype))
    s = stats(runtime)
    results = []
    s, ok = check("first call packs", compiled, model, inputs, tolerance,
                  runtime, s, 1, 0)
    results.append(ok)
    for i in range(2):
        s, ok = check("unchanged parameters reuse (call %d)" % (i + 2),
                      compiled, model, inputs, tolerance, runtime, s, 0, 1)
        results.append(ok)
    rnn = model.lstm if hasattr(model, "lstm") else model.gru
    with torch.no_grad():  # an optimizer step: in place, version bumped
        for p in rnn.parameters():
            p.add_(0.05 * torch.randn_like(p))
    s, ok = check("in-place update repacks", compiled, model, inputs,
                  tolerance, runtime, s, 1, 0)
    results.append(ok)
    s, ok = check("and reuses after", compiled, model, inputs, tolerance,
                  runtime, s, 0, 1)
    results.append(ok)
    weight = next(rnn.parameters())
    weight.data.mul_(0.5)  # unseen by the version counter
    compiled.invalidate_packed_weights()
    s, ok = check("invalidate_packed_weights repacks", compiled, model,
                  inputs, tolerance, runtime, s, 1, 0)
    results.append(ok)
    # A copy of the model (new parameter tensors) through the same module.
    other = copy.deepcopy(model)
    with torch.no_grad():
        for p in other.parameters():
            p.mul_(-1.0)
    compiled_other = cudnn_mlir.compile(other, inputs, cache_dir=cache)
    s, ok = check("another model's parameters pack", compiled_other, other,
                  inputs, tolerance, runtime, s, 1, 0)
    results.append(ok)
    s, ok = check("then the first model's repack", compiled, model, inputs,
                  tolerance, runtime, s, 1, 0)
    results.append(ok)
    timing(compiled, inputs)
    return all(results)


def timing(compiled, inputs, calls=200):
    """Per call, the parameters unchanged (reused) against repacked every
    call (invalidate_packed_weights first): wall time on the host with the
    GPU kept busy, median of 5 rounds."""
    def per_call(repack):
        rounds = []
        for _ in range(5):
            torch.cuda.synchronize()
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(calls):
                if repack:
                    compiled.invalidate_packed_weights()
                compiled(*inputs)
            end.record()
            end.synchronize()
            rounds.append(start.elapsed_time(end) * 1000.0 / calls)
        return sorted(rounds)[len(rounds) // 2]
    per_call(False)  # warm-up
    reused, repacked = per_call(False), per_call(True)
    print("  time per call: reused %.1f us, repacked every call %.1f us "
          "(%.2fx)" % (reused, repacked, repacked / reused))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True)
    parser.add_argument("--dtypes", default="f32,f16")
    parser.add_argument("--models", default="lstm_model,gru_model")
    args = parser.parse_args()
    # fp32 exact on both sides, as in run_e2e.py.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print("device: %s" % torch.cuda.get_device_name())
    passed = all([run(name, dtype, args.cache)
                  for name in args.models.split(",")
                  for dtype in args.dtypes.split(",")])
    print("all passed" if passed else "FAILED")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
