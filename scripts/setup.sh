#!/usr/bin/env bash
# Installs what cudnn-mlir needs on Debian 12 (apt), configures and builds it.
# Idempotent: a second run installs nothing and rebuilds only what changed.
#
#   scripts/setup.sh            # build into ./build
#   BUILD_DIR=out scripts/setup.sh
#   CMAKE_ARGS="-DX=Y" scripts/setup.sh   # more cmake options (first configure)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CUDA_ROOT="${CUDA_ROOT:-/usr/local/cuda}"

APT_PACKAGES=(
  cmake ninja-build ccache g++ python3 python3-pip
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev
  # The PyTorch front end's CPU tests (test/Frontend): torch 1.13.
  python3-torch
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [[ ! -f "$CUDA_ROOT/include/cuda_runtime_api.h" ]]; then
  echo "setup: expects the CUDA 13 toolkit in $CUDA_ROOT (set CUDA_ROOT), but found no" \
       "$CUDA_ROOT/include/cuda_runtime_api.h" >&2
  exit 1
fi
if [[ ! -f "$CUDA_ROOT/include/cudnn_version.h" ]]; then
  echo "setup: expects cuDNN 9 headers and libraries in $CUDA_ROOT, but found no" \
       "$CUDA_ROOT/include/cudnn_version.h" >&2
  exit 1
fi

# cudnn-frontend: header-only, from the PyPI wheel at the pinned version
# (runtime/cmake/CudnnMlirFrontend.cmake checks the same pin). Only the
# wheel's include/ folder is kept; a second run finds it and downloads nothing.
CUDNN_FRONTEND_VERSION=1.32.0
CUDNN_FRONTEND_DIR="$BUILD_DIR/third_party/cudnn-frontend-$CUDNN_FRONTEND_VERSION"
if [[ ! -f "$CUDNN_FRONTEND_DIR/include/cudnn_frontend.h" ]]; then
  echo "setup: fetching nvidia-cudnn-frontend==$CUDNN_FRONTEND_VERSION (headers)"
  wheel_dir="$(mktemp -d)"
  # The headers are the same in every wheel; pinning the platform makes the
  # download the same on every host Python.
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    --python-version 3.11 --platform manylinux_2_28_x86_64 \
    -d "$wheel_dir" "nvidia-cudnn-frontend==$CUDNN_FRONTEND_VERSION"
  rm -rf "$CUDNN_FRONTEND_DIR"
  mkdir -p "$CUDNN_FRONTEND_DIR"
  python3 - "$wheel_dir" "$CUDNN_FRONTEND_DIR" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/nvidia_cudnn_frontend-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith("include/")])
PY
  rm -rf "$wheel_dir"
fi

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
# Paths under the checkout hash relative, so fresh clones (CI) hit the cache.
export CCACHE_BASEDIR="$ROOT"
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DCUDAToolkit_ROOT="$CUDA_ROOT" \
    -DCUDNN_FRONTEND_INCLUDE_DIR="$CUDNN_FRONTEND_DIR/include" \
    -DPython3_EXECUTABLE=/usr/bin/python3 ${CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR"
