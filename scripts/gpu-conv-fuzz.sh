#!/usr/bin/env bash
# Runs the convolution fuzzer (integration_test/fuzz/conv_fuzz.py,
# docs/testing.md "Convolution fuzzer") on a GPU machine (CUDA, cuDNN 9,
# PyTorch 2.x; no LLVM/MLIR): builds the runtime there, then runs each seed's
# case on the artifacts in build/fuzz-cache (made here by
# `conv_fuzz.py --compile-only`, carried over as the folder or as
# build/fuzz-cache.tar.gz, which then replaces the folder: a warm machine
# keeps ignored files between calls, and an older cache there would lack
# the new artifacts) against a float64 reference. Arguments go to
# conv_fuzz.py:
#   bash scripts/gpu-conv-fuzz.sh                  # seeds 0:500
#   bash scripts/gpu-conv-fuzz.sh --seeds 0:250    # a range
#   bash scripts/gpu-conv-fuzz.sh --seed 17        # one case alone
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${FUZZ_CACHE:-$ROOT/build/fuzz-cache}"
if [[ -f "$CACHE.tar.gz" ]]; then
  rm -rf "$CACHE"
  tar -xzf "$CACHE.tar.gz" -C "$(dirname "$CACHE")"
fi
source "$ROOT/scripts/gpu-runtime-env.sh"
exec python3 "$ROOT/integration_test/fuzz/conv_fuzz.py" --cache "$CACHE" "$@"
