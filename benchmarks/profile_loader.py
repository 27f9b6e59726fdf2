#!/usr/bin/env python3
"""Host time per call of a compiled module through the Python loader, and of
its entry alone through ctypes, plus a cProfile of the loader, on a GPU
machine (docs/benchmarks.md, "Host cost per call"):

    CUDNN_MLIR_RUNTIME_LIB=.../libcudnn-mlir-runtime.so \
        python3 benchmarks/profile_loader.py [MODEL.so]

MODEL defaults to the l2 3x3 conv fusion of
benchmarks/build_lowering_benchmarks.sh. The GPU is kept busy so the time
measured is the host's enqueue cost.
"""
import ctypes, cProfile, pstats, sys, time
sys.path.insert(0, "python")
import cudnn_mlir  # imports no torch
cudnn_mlir.load_runtime_before_torch()  # docs/abi.md, "Loading"
import torch
m = cudnn_mlir.load_module(sys.argv[1] if len(sys.argv) > 1 else
                           "build/gpu-suite/bench/l2_3x3_128.so")
cl = torch.channels_last
x = torch.randn(32,128,28,28, device="cuda", dtype=torch.float16).contiguous(memory_format=cl)
w = torch.randn(128,128,3,3, device="cuda", dtype=torch.float16).contiguous(memory_format=cl)
b = torch.randn(1,128,1,1, device="cuda", dtype=torch.float16)
for _ in range(10): m(x, w, b)
torch.cuda.synchronize()
# host time per call with the GPU kept busy far ahead: time.perf_counter
N = 2000
t0 = time.perf_counter()
for _ in range(N): m(x, w, b)
t1 = time.perf_counter()
torch.cuda.synchronize()
print("host us/call (enqueue):", (t1 - t0) / N * 1e6)
lib = m._lib; fn = m._function("forward")
ptrs = (ctypes.c_void_p * 4)(x.data_ptr(), w.data_ptr(), b.data_ptr(), torch.empty_like(x).data_ptr())
s = torch.cuda.current_stream().cuda_stream
t0 = time.perf_counter()
for _ in range(N): fn(s, ptrs)
t1 = time.perf_counter()
torch.cuda.synchronize()
print("host us/call (entry only, ctypes):", (t1 - t0) / N * 1e6)
pr = cProfile.Profile(); pr.enable()
for _ in range(N): m(x, w, b)
pr.disable(); torch.cuda.synchronize()
pstats.Stats(pr).sort_stats("tottime").print_stats(12)
