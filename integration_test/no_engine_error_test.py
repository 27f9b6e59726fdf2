#!/usr/bin/env python3
"""A graph whose anchor alone has no engine fails with a clear error, on a
GPU machine: each module of MODELS_DIR/errors (integration_test/errors/,
compiled by integration_test/build_suite.sh) is called through the loader
and must raise an error that names the graph's site and its op, dumps the
tensors (shapes, strides, types), and ends with the cudnn-run line that
reruns it; that line, run (CUDNN_RUN names the cudnn-run binary), must
fail the same way.

    python3 integration_test/no_engine_error_test.py MODELS_DIR

Exits non-zero if a module ran, or its error lacks one of those parts.
"""

import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import cudnn_mlir  # noqa: E402

cudnn_mlir.load_runtime_before_torch()
import torch  # noqa: E402

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}

# What each module's error must say.
EXPECTED = {
    "norm_no_engine_rank2_batch_norm": [
        "graph at ",
        "op #0 (norm_forward)",
        "tensor UID 1: float [32, 64] strides [64, 1]",
        "tensor UID 2: float [1, 64] strides [64, 1]",
    ],
}


def check(path, needles):
    module = cudnn_mlir.load_module(path)
    (entry,) = module.entries.values()
    inputs = [torch.rand(*s.dims).to(DTYPES[s.dtype]).cuda()
              for s in entry.inputs]
    try:
        module(*inputs)
        torch.cuda.synchronize()
        return ["ran, but expected the call to fail (no engine)"]
    except RuntimeError as error:
        message = str(error)
    problems = ["the error lacks %r" % n for n in needles
                if n not in message]
    repro = [line for line in message.splitlines()
             if line.startswith("to reproduce: ")]
    want = "to reproduce: cudnn-run %s --entry forward" % path
    if repro != [want]:
        problems.append("expected the line %r, but got %r" % (want, repro))
        return problems
    cudnn_run = os.environ.get("CUDNN_RUN")
    if not cudnn_run:
        return problems + ["CUDNN_RUN names no cudnn-run to run the line"]
    argv = shlex.split(repro[0][len("to reproduce: "):])
    argv[0] = cudnn_run
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if done.returncode != 1 or needles[1] not in done.stderr:
        problems.append("the cudnn-run line exited %d, expected 1 with the "
                        "same error; stderr: %s"
                        % (done.returncode, done.stderr[-400:]))
    return problems


def main():
    folder = os.path.join(os.path.abspath(sys.argv[1]), "errors")
    failed = 0
    for name, needles in sorted(EXPECTED.items()):
        problems = check(os.path.join(folder, name + ".so"), needles)
        print("%s %s %s" % ("FAIL" if problems else "PASS", name,
                            "; ".join(problems)), flush=True)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
