#!/usr/bin/env bash
# The main job: set up, build, then take the example shipped in examples/ (a
# ResNet basic block in TCP) the whole way:
#   1. tcp-to-cudnn-pipeline with cudnn-opt (fusion grouping, isolation,
#      conversion to cuDNN graphs, layouts), printed with the remarks on what
#      stayed outside graphs;
#   2. cudnn-compile to a shared library (tcp-to-llvm-pipeline, LLVM IR,
#      object, linked against the runtime), and its manifest with cudnn-run;
#   3. with a GPU, cudnn-run runs it on seeded random inputs and times it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"

EXAMPLE="$ROOT/examples/resnet-basic-block.mlir"
MODEL="$BUILD_DIR/demo/resnet-basic-block.so"
echo "== cudnn-opt $("$BUILD_DIR/bin/cudnn-opt" --version | tail -1)"
echo "== cudnn-opt examples/resnet-basic-block.mlir --tcp-to-cudnn-pipeline=report"
"$BUILD_DIR/bin/cudnn-opt" "$EXAMPLE" --tcp-to-cudnn-pipeline=report
mkdir -p "$(dirname "$MODEL")"
echo "== cudnn-compile examples/resnet-basic-block.mlir -o $MODEL"
"$BUILD_DIR/bin/cudnn-compile" "$EXAMPLE" -o "$MODEL"
echo "== cudnn-run --list $MODEL"
"$BUILD_DIR/bin/cudnn-run" --list "$MODEL"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "== cudnn-run $MODEL --benchmark 100"
  "$BUILD_DIR/bin/cudnn-run" "$MODEL" --benchmark 100
else
  echo "== no GPU here: run $MODEL with cudnn-run on a GPU machine" \
       "(docs/testing.md)"
fi
