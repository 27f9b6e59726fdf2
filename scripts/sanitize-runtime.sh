#!/usr/bin/env bash
# Builds the runtime, cudnn-run and their GoogleTests with a sanitizer, in a
# build tree of its own, and runs the tests (docs/testing.md#sanitizers):
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer, in build/asan-runtime
#   tsan  ThreadSanitizer, in build/tsan-runtime
# (under $BUILD_DIR when set, as scripts/setup.sh takes it).
# Every report is an error (-fno-sanitize-recover=all, halt_on_error=1), so a
# report fails the run. The CPU tests (CudnnMlirRuntimeTests, CudnnRunTests)
# run; the GPU tests (CudnnMlirRuntimeGpuTests) are built and run only with
# --gpu, on the GPU machine. A gtest filter after the mode narrows the run.
#
#   scripts/sanitize-runtime.sh asan|tsan [--gpu] [gtest filter]
#
# Needs the cudnn-frontend headers that scripts/setup.sh unpacks into
# build/third_party (carry them to a GPU machine without network).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:?usage: scripts/sanitize-runtime.sh asan|tsan [--gpu] [gtest filter]}"
shift
GPU=0
if [[ "${1:-}" == --gpu ]]; then
  GPU=1
  shift
fi
FILTER="${1:-*}"
# BUILD_DIR as in scripts/setup.sh: the main build, which holds the headers.
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
FRONTEND="${CUDNN_FRONTEND_INCLUDE_DIR:-$BUILD_DIR/third_party/cudnn-frontend-1.32.0/include}"

case "$MODE" in
asan) SANITIZE=address,undefined ;;
tsan) SANITIZE=thread ;;
*)
  echo "sanitize-runtime: expects the mode asan or tsan, but got '$MODE'" >&2
  exit 2
  ;;
esac
BUILD="$BUILD_DIR/$MODE-runtime"

# -O1 keeps the tests quick and the stacks readable; asserts stay on.
FLAGS="-fsanitize=$SANITIZE -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}" CCACHE_BASEDIR="$ROOT"
launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Debian's GCC links --as-needed, but not with -fsanitize: without it the
# library would need the driver (libcuda.so.1) that CUDA::cublas brings onto
# the link line, which a machine without a GPU does not have.
LINK="-fsanitize=$SANITIZE -Wl,--as-needed"
cmake -S "$ROOT/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ "${launcher[@]}" \
  -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS="$FLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="$LINK" -DCMAKE_SHARED_LINKER_FLAGS="$LINK" \
  -DCUDNN_FRONTEND_INCLUDE_DIR="$FRONTEND" \
  -DCUDNN_MLIR_RUNTIME_BUILD_TESTS=ON >/dev/null
# The benchmarks are left out: their cuDNN call timer is an LD_PRELOAD shim.
tests=(unittests/CudnnMlirRuntimeTests cudnn-run/unittests/CudnnRunTests)
((GPU)) && tests+=(unittests/CudnnMlirRuntimeGpuTests)
targets=(CudnnMlirRuntime cudnn-run)
for t in "${tests[@]}"; do targets+=("${t##*/}"); done
ninja -C "$BUILD" -j"${JOBS:-2}" "${targets[@]}"

# Leaks are checked: the runtime frees what it owns at exit or leaks it on
# purpose through a static pointer, which LSan counts as reachable. On a GPU,
# CUDA maps memory where ASan's shadow gap would be (protect_shadow_gap=0),
# and what CUDA's and cuDNN's own libraries allocate and keep to the end is
# theirs, not ours (sanitizers/lsan-gpu.supp names only those libraries).
common="halt_on_error=1:print_stacktrace=1"
export UBSAN_OPTIONS="$common"
export ASAN_OPTIONS="$common:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export TSAN_OPTIONS="$common:second_deadlock_stack=1"
if ((GPU)); then
  ASAN_OPTIONS+=":protect_shadow_gap=0"
  export LSAN_OPTIONS="suppressions=$ROOT/scripts/sanitizers/lsan-gpu.supp"
fi
status=0
for t in "${tests[@]}"; do
  echo "sanitize-runtime ($MODE): $t"
  "$BUILD/$t" --gtest_brief=1 --gtest_filter="$FILTER" || status=$?
done
exit $status
