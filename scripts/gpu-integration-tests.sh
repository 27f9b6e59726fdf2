#!/usr/bin/env bash
# Runs the GPU integration suite on a GPU machine (CUDA, cuDNN 9, PyTorch,
# CMake, Ninja; no LLVM/MLIR): builds the runtime there (like
# scripts/gpu-runtime-tests.sh) and runs every compiled case of
# build/gpu-suite (integration_test/build_suite.sh made them here) against
# PyTorch, then (without case arguments) the runtime's RNN test against
# torch.nn.LSTM/GRU/RNN (integration_test/rnn_runtime_test.py). Carry build/gpu-suite and the cudnn-frontend headers
# (build/third_party). docs/testing.md has the one command.
#   bash scripts/gpu-integration-tests.sh [case ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build-gpu-runtime}"
FRONTEND="${CUDNN_FRONTEND_INCLUDE_DIR:-$ROOT/build/third_party/cudnn-frontend-1.32.0/include}"
MODELS="${MODELS_DIR:-$ROOT/build/gpu-suite}"
cmake -S "$ROOT/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCUDNN_FRONTEND_INCLUDE_DIR="$FRONTEND" -DCUDNN_MLIR_RUNTIME_BUILD_TESTS=OFF >/dev/null
ninja -C "$BUILD" CudnnMlirRuntime >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
export CUDNN_MLIR_RUNTIME_LIB="$(find "$BUILD" -name libcudnn-mlir-runtime.so | head -1)"
status=0
python3 "$ROOT/integration_test/run_gpu_suite.py" "$MODELS" "$@" || status=1
if [ "$#" -eq 0 ]; then
  python3 "$ROOT/integration_test/rnn_runtime_test.py" || status=1
fi
exit "$status"
