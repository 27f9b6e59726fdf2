#!/usr/bin/env bash
# Runs the GPU integration suite on a GPU machine (CUDA, cuDNN 9, PyTorch,
# CMake, Ninja; no LLVM/MLIR): builds the runtime there (like
# scripts/gpu-runtime-tests.sh) and runs every compiled case of
# build/gpu-suite (integration_test/build_suite.sh made them here) against
# PyTorch, then (without case arguments) generated kernels on buffers that
# are not 16-byte aligned (integration_test/misaligned_buffers_test.py), a
# gather index out of range (integration_test/gather_bounds_test.py), a
# graph whose anchor alone has no engine (its error and cudnn-run line:
# integration_test/no_engine_error_test.py) and
# the runtime's RNN test against
# torch.nn.LSTM/GRU/RNN (integration_test/rnn_runtime_test.py). Carry build/gpu-suite and the cudnn-frontend headers
# (build/third_party). docs/testing.md has the one command.
#   bash scripts/gpu-integration-tests.sh [case ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODELS="${MODELS_DIR:-$ROOT/build/gpu-suite}"
source "$ROOT/scripts/gpu-runtime-env.sh"
status=0
python3 "$ROOT/integration_test/run_gpu_suite.py" "$MODELS" "$@" || status=1
if [ "$#" -eq 0 ]; then
  python3 "$ROOT/integration_test/misaligned_buffers_test.py" "$MODELS" || status=1
  python3 "$ROOT/integration_test/gather_bounds_test.py" "$MODELS" || status=1
  ninja -C "$BUILD" cudnn-run >/dev/null
  CUDNN_RUN="$(find "$BUILD" -name cudnn-run -type f -perm -u+x | head -1)" \
    python3 "$ROOT/integration_test/no_engine_error_test.py" "$MODELS" || status=1
  python3 "$ROOT/integration_test/rnn_runtime_test.py" || status=1
fi
exit "$status"
