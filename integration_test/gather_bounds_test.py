#!/usr/bin/env python3
"""A gather index outside the gathered dimension, on a GPU machine: the
generated kernel fails a device-side assertion (as PyTorch's gather and
embedding do) instead of reading outside the input. Each call runs in a
child process, since a device-side assertion leaves the CUDA context
unusable.

    python3 integration_test/gather_bounds_test.py MODELS_DIR

MODELS_DIR is build/gpu-suite (integration_test/build_suite.sh); the module
is codegen_data_movement_f32 (torch.gather along dim 1 of a 9x40x13 input).
Exits non-zero unless in-range indices run and 40 and -1 both assert.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import os, sys
sys.path.insert(0, os.path.join(%(here)r, "..", "python"))
sys.path.insert(0, %(here)r)
import cudnn_mlir
cudnn_mlir.load_runtime_before_torch()
import torch
from cases import CASES
case = [c for c in CASES if c.name == "codegen_data_movement_f32"][0]
module = cudnn_mlir.load_module(os.path.join(%(models)r,
                                             "codegen_data_movement_f32.so"))
(entry,) = module.entries.values()
gen = torch.Generator().manual_seed(0)
from run_gpu_suite import DTYPES
host = case.inputs(torch, entry.inputs, gen)
inputs = [t.to(DTYPES[s.dtype]).cuda() for t, s in zip(host, entry.inputs)]
# The first integer input: torch.gather's indices (the second is
# gather_nd's).
index = [i for i, s in enumerate(entry.inputs) if s.dtype == "i64"][0]
bad = %(bad)s
if bad is not None:
    inputs[index].view(-1)[5] = bad
module(*inputs)
torch.cuda.synchronize()
print("RAN")
"""


def run(models, bad):
    child = subprocess.run(
        [sys.executable, "-c", CHILD % {"here": HERE, "models": models,
                                        "bad": bad}],
        capture_output=True, text=True, timeout=120)
    return child.returncode, child.stdout + child.stderr


def main(argv):
    models = argv[0]
    failed = False
    code, out = run(models, None)
    ok = code == 0 and "RAN" in out
    print("%s in-range indices run" % ("PASS" if ok else "FAIL"))
    failed |= not ok
    for bad in (40, -1):
        code, out = run(models, bad)
        # CUDA's error for a failed device assertion, and the kernel's
        # own message (printed by __assertfail).
        asserted = (code != 0 and "RAN" not in out
                    and "device-side assert triggered" in out
                    and "index out of range of the gathered dimension" in out)
        print("%s index %d fails a device-side assertion%s" % (
            "PASS" if asserted else "FAIL", bad,
            "" if asserted else ": " + out[-600:]))
        for line in out.splitlines():
            if ("index out of range" in line
                    or "device-side assert triggered" in line):
                print("     " + line.strip()[:200])
                break
        failed |= not asserted
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
