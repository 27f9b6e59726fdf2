#!/usr/bin/env python3
"""Generated kernels on buffers that are not 16-byte aligned, on a GPU
machine. The ABI (docs/abi.md) takes any element-aligned pointer: a kernel
uses 16-byte vectors only after checking at run time that its buffers are
aligned, and otherwise runs its lane-by-lane code. The loader always passes
aligned buffers (it copies others), so the GPU suite never reaches that
code; this test calls the compiled entries directly with every buffer one
element past an aligned address and compares the outputs with an aligned
call of the same module on the same inputs.

    python3 integration_test/misaligned_buffers_test.py MODELS_DIR [case ...]

MODELS_DIR is build/gpu-suite (integration_test/build_suite.sh). Exits
non-zero if an output differs by more than the case's tolerance.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

import cudnn_mlir  # noqa: E402

cudnn_mlir.load_runtime_before_torch()
import torch  # noqa: E402

from cases import CASES, default_inputs  # noqa: E402
from run_gpu_suite import DTYPES  # noqa: E402

# Generated kernels with a vector and a lane-by-lane path: grid-sync batch
# norms (f16, f32 NHWC; f16 [N, C]; an eval-mode backward), column
# statistics too narrow for vectors (3 channels), the three kernels of a
# training backward, planes (NCHW), planes that normalise in the same kernel.
DEFAULT = [
    "bn_codegen_training_f16_channels_last",
    "bn_codegen_training_f32_channels_last",
    "bn_codegen_training_bf16_channels_last",
    "bn_codegen_training_2d_wide_f16",
    "bn_codegen_eval_backward_bf16_channels_last",
    "bn_codegen_backward_f16_channels_last",
    "bn_codegen_training_f16",
    "bn_codegen_training_planes_f32",
    "bn_codegen_training_planes_f16",
]


def misaligned(dtype, dims, strides, device):
    """A tensor of `dims` and `strides` that starts one element past a
    16-byte aligned address (torch's allocations are aligned)."""
    span = 1 + sum((d - 1) * s for d, s in zip(dims, strides)) if all(dims) \
        else 0
    base = torch.empty(span + 1, dtype=dtype, device=device)
    view = base.as_strided(dims, strides, storage_offset=1)
    assert view.data_ptr() % 16 != 0
    return view


def run(case, models):
    module = cudnn_mlir.load_module(os.path.join(models, case.name + ".so"))
    (name,) = module.entries.keys()
    function, ins, outs, array_type = module._plan(name)
    entry = module.entries[name]
    gen = torch.Generator().manual_seed(0)
    make = case.inputs or default_inputs
    host = make(torch, entry.inputs, gen)
    aligned = [t.to(DTYPES[s.dtype]).cuda() for t, s in zip(host, entry.inputs)]
    expected = module(*aligned)
    expected = expected if isinstance(expected, tuple) else (expected,)

    inputs = []
    for (dtype, dims, strides, _), tensor in zip(ins, aligned):
        view = misaligned(dtype, dims, strides, "cuda")
        view.copy_(tensor)
        inputs.append(view)
    outputs = [misaligned(dtype, dims, strides, "cuda")
               for dtype, dims, strides in outs]
    pointers = array_type(*[t.data_ptr() for t in inputs + outputs])
    status = function(torch.cuda.current_stream().cuda_stream, pointers)
    torch.cuda.synchronize()
    if status != 0:
        print("FAIL %-44s status %d: %s" % (
            case.name, status, module._runtime.cmrtGetLastErrorMessage()))
        return False
    tols = list(case.tol) if isinstance(case.tol, (list, tuple)) \
        else [case.tol] * len(outputs)
    worst, ok = 0.0, True
    for got, want, tol in zip(outputs, expected, tols):
        want64 = want.double()
        err = ((got.double() - want64).abs().max().item()
               / (want64.abs().max().item() or 1.0))
        worst = max(worst, err)
        ok = ok and err <= tol
    print("%s %-44s max_err/max|aligned call|=%.3g over %d outputs" % (
        "PASS" if ok else "FAIL", case.name, worst, len(outputs)),
        flush=True)
    return ok


def main(argv):
    models, names = argv[0], argv[1:] or DEFAULT
    print("device: %s, torch %s" % (torch.cuda.get_device_name(),
                                    torch.__version__))
    by_name = {case.name: case for case in CASES}
    failed = [n for n in names if not run(by_name[n], models)]
    print("%d case(s) failed" % len(failed) if failed else "all cases passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
