#!/usr/bin/env bash
# Runs the runtime benchmarks on a GPU machine (CUDA, cuDNN 9, CMake, Ninja
# and PyTorch; no LLVM/MLIR needed): builds the runtime on its own, runs
# RuntimeBench, the host cost again with cuDNN's backend calls timed
# (CudnnCallTimer preloaded), and PyTorch's reference timings in the same
# run, and prints them. Needs the cudnn-frontend headers that
# scripts/setup.sh unpacks into build/third_party (carry them to the GPU
# machine).
#   bash benchmarks/run_runtime_benchmarks.sh [output file]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build-gpu-bench}"
FRONTEND="${CUDNN_FRONTEND_INCLUDE_DIR:-$ROOT/build/third_party/cudnn-frontend-1.32.0/include}"
OUT="${1:-/dev/stdout}"
cmake -S "$ROOT/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCUDNN_FRONTEND_INCLUDE_DIR="$FRONTEND" >/dev/null
ninja -C "$BUILD" CudnnMlirRuntimeBench CudnnMlirPlanCacheProbe \
  CudnnMlirCudnnCallTimer >"$BUILD/ninja.log" ||
  { tail -40 "$BUILD/ninja.log" >&2; exit 1; }
{
  "$BUILD/benchmarks/CudnnMlirRuntimeBench"
  # Again with cuDNN's backend calls timed: how much of an execute is cuDNN's.
  echo "# with CudnnCallTimer preloaded"
  LD_PRELOAD="$(find "$BUILD/benchmarks" -name 'libCudnnMlirCudnnCallTimer.so' | head -1)" \
    "$BUILD/benchmarks/CudnnMlirRuntimeBench" --host-cost-only
  python3 "$ROOT/benchmarks/runtime_torch_reference.py"
} >"$OUT"
