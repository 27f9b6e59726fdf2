#!/usr/bin/env bash
# The main job: set up, build, and run the TCP -> cuDNN pipeline
# (tcp-to-cudnn-pipeline: fusion grouping, isolation, conversion to cuDNN
# graphs) with cudnn-opt on the example shipped in examples/, printing the
# result and what was left out of cuDNN graphs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"

EXAMPLE="$ROOT/examples/resnet-basic-block.mlir"
echo "== cudnn-opt $("$BUILD_DIR/bin/cudnn-opt" --version | tail -1)"
echo "== cudnn-opt examples/resnet-basic-block.mlir --tcp-to-cudnn-pipeline=report"
"$BUILD_DIR/bin/cudnn-opt" "$EXAMPLE" --tcp-to-cudnn-pipeline=report
