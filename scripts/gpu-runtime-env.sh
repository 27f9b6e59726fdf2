# Sourced by the GPU-machine scripts (CUDA, cuDNN 9, CMake, Ninja; no
# LLVM/MLIR): builds the runtime library on its own into $BUILD_DIR (default
# build-gpu-runtime) with the cudnn-frontend headers carried over in
# build/third_party, prints the GPU, and exports CUDNN_MLIR_RUNTIME_LIB.
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
BUILD="${BUILD_DIR:-$ROOT/build-gpu-runtime}"
FRONTEND="${CUDNN_FRONTEND_INCLUDE_DIR:-$ROOT/build/third_party/cudnn-frontend-1.32.0/include}"
cmake -S "$ROOT/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCUDNN_FRONTEND_INCLUDE_DIR="$FRONTEND" -DCUDNN_MLIR_RUNTIME_BUILD_TESTS=OFF >/dev/null
ninja -C "$BUILD" CudnnMlirRuntime >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
export CUDNN_MLIR_RUNTIME_LIB="$(find "$BUILD" -name libcudnn-mlir-runtime.so | head -1)"
