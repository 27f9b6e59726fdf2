#!/usr/bin/env bash
# Runs the runtime's tests on a GPU machine (CUDA, cuDNN 9, CMake, Ninja and
# GoogleTest or network-free access to it; no LLVM/MLIR): configures the
# runtime on its own, builds it, and runs every test, the GPU ones (CTest
# label `gpu`) included, printing each GPU case's measured error. Needs the
# cudnn-frontend headers that scripts/setup.sh unpacks into build/third_party
# (carry them when the GPU machine has no network). The tests are turned on
# explicitly: scripts/gpu-runtime-env.sh configures the same build folder
# with them off, and CMake's cache would otherwise keep that.
#   bash scripts/gpu-runtime-tests.sh [gtest filter]
# With --asan or --tsan first, the same tests (CPU and GPU) run built with
# ASan+UBSan or TSan instead, in build/asan-runtime or build/tsan-runtime
# (scripts/sanitize-runtime.sh, docs/testing.md#sanitizers).
#   bash scripts/gpu-runtime-tests.sh --asan|--tsan [gtest filter]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
--asan | --tsan)
  JOBS="${JOBS:-$(nproc)}" exec "$ROOT/scripts/sanitize-runtime.sh" "${1#--}" \
    --gpu "${2:-*}"
  ;;
esac
BUILD="${BUILD_DIR:-$ROOT/build-gpu-runtime}"
FRONTEND="${CUDNN_FRONTEND_INCLUDE_DIR:-$ROOT/build/third_party/cudnn-frontend-1.32.0/include}"
cmake -S "$ROOT/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCUDNN_FRONTEND_INCLUDE_DIR="$FRONTEND" -DCUDNN_MLIR_RUNTIME_BUILD_TESTS=ON >/dev/null
ninja -C "$BUILD" >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$BUILD/unittests/CudnnMlirRuntimeTests" --gtest_brief=1
"$BUILD/unittests/CudnnMlirRuntimeGpuTests" --gtest_filter="${1:-*}"
