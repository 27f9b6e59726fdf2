#!/usr/bin/env bash
# Sets up and builds like scripts/setup.sh, installs torch 2.x for the front
# end's tests (scripts/setup-torch2.sh), installs the build into
# <build>/install and builds examples/out-of-tree-pass-manager against it
# (docs/cmake-package.md), then runs every test that needs no GPU: the lit
# suite (ninja check-cudnn-mlir, which runs the example) and the GoogleTest
# tests (ctest), and between them the runtime, cudnn-run and their CPU
# GoogleTests built and run under ASan+UBSan (scripts/sanitize-runtime.sh
# asan, in <build>/asan-runtime; about 8 minutes from cold on 2 cores).
# The last lines are ctest's summary.
#
# With --sanitize it runs, after the setup, only the runtime's sanitizer
# builds instead (docs/testing.md#sanitizers): ASan+UBSan, then TSan.
#   scripts/test.sh [--sanitize]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "${1:-}" in
"" | --sanitize) ;;
*)
  echo "test.sh: expects no argument or --sanitize, but got '$1'" >&2
  exit 2
  ;;
esac
"$ROOT/scripts/setup.sh"
if [[ "${1:-}" == --sanitize ]]; then
  status=0
  "$ROOT/scripts/sanitize-runtime.sh" asan || status=$?
  "$ROOT/scripts/sanitize-runtime.sh" tsan || status=$?
  exit $status
fi
# torch 2.x for the front end's torch.export and TorchDynamo tests
# (test/Frontend/torch2-*.test).
"$ROOT/scripts/setup-torch2.sh" "$BUILD_DIR"

# The example's compile hits ccache from any clone, as the main build's do
# (scripts/setup.sh sets the same).
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}" CCACHE_BASEDIR="$ROOT"
status=0
cmake --build "$BUILD_DIR" --target cudnn-mlir-package-example || status=$?
cmake --build "$BUILD_DIR" --target check-cudnn-mlir || status=$?
BUILD_DIR="$BUILD_DIR" "$ROOT/scripts/sanitize-runtime.sh" asan || status=$?
# GPU tests carry the CTest label `gpu`; this command runs everywhere, so it
# leaves them out (the GPU machine runs `ctest -L gpu`).
(cd "$BUILD_DIR" && ctest -LE gpu --output-on-failure) || status=$?
exit $status
