#!/usr/bin/env bash
# Builds the compiler's own code (lib/, cudnn-opt, cudnn-compile) with
# AddressSanitizer and UndefinedBehaviorSanitizer into a separate build folder
# and runs the lit suite there (which includes the fuzz test at its CI size),
# every report fatal. MLIR and LLVM are Debian's, not instrumented; the
# runtime is not instrumented either (scripts/test.sh covers it). See
# docs/testing.md, "Sanitizers (compiler)".
#
#   scripts/sanitize-compiler.sh                    # the whole lit suite
#   scripts/sanitize-compiler.sh test/Robustness    # part of it (lit paths)
#   ASAN_BUILD_DIR=out JOBS=4 scripts/sanitize-compiler.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ASAN_BUILD_DIR="${ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${JOBS:-2}"
LLVM_BIN=/usr/lib/llvm-22/bin

# scripts/setup.sh configures and builds the folder: all of it, the runtime's
# objects (not instrumented) hitting ccache from the normal build, which
# keeps the instrumented ones apart (its key has the flags). cudnn-frontend's
# headers come from the normal build's folder when it has them.
FRONTEND=third_party/cudnn-frontend-1.32.0
if [[ -d "$ROOT/build/$FRONTEND" && ! -d "$ASAN_BUILD_DIR/$FRONTEND" ]]; then
  mkdir -p "$ASAN_BUILD_DIR/third_party"
  cp -r "$ROOT/build/$FRONTEND" "$ASAN_BUILD_DIR/$FRONTEND"
fi
BUILD_DIR="$ASAN_BUILD_DIR" CMAKE_BUILD_PARALLEL_LEVEL="$JOBS" \
  CMAKE_ARGS="-DCUDNN_MLIR_COMPILER_SANITIZERS=address,undefined" \
  "$ROOT/scripts/setup.sh"
# test/Docs/generated-docs-in-sync.test compares against it (not in `all`).
cmake --build "$ASAN_BUILD_DIR" --target mlir-doc

# Every report ends the process with SIGABRT, which lit's `not` and the fuzz
# test both count as a crash (a sanitizer's default exit code 1 would look
# like an ordinary diagnostic to them). Leaks are reported too, minus the
# suppressed ones in scripts/sanitize-compiler.supp (each with its reason).
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons the unused part of
# a slab when inlined into our instrumented code (a StorageUniquer's, say),
# and libMLIR.so's uninstrumented copy of it then hands that memory out
# without unpoisoning it: a false use-after-poison (docs/testing.md).
SUPP="$ROOT/scripts/sanitize-compiler.supp"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:allow_user_poisoning=0:external_symbolizer_path=$LLVM_BIN/llvm-symbolizer"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:external_symbolizer_path=$LLVM_BIN/llvm-symbolizer"
export LSAN_OPTIONS="suppressions=$SUPP:print_suppressions=0"

if (($#)); then
  paths=()
  for p in "$@"; do paths+=("$ASAN_BUILD_DIR/${p#"$ROOT"/}"); done
else
  paths=("$ASAN_BUILD_DIR/test")
fi
start=$(date +%s)
status=0
"$LLVM_BIN/lit" -sv -j"$JOBS" "${paths[@]}" || status=$?
echo "sanitize-compiler: lit finished in $(($(date +%s) - start)) s," \
     "exit status $status ($(date -u +%Y-%m-%d))"
exit $status
