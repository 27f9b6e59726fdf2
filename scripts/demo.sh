#!/usr/bin/env bash
# The main job: set up, build, and run cudnn-opt on the example shipped in
# examples/, printing the result.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"

EXAMPLE="$ROOT/examples/resnet-basic-block.mlir"
echo "== cudnn-opt $("$BUILD_DIR/bin/cudnn-opt" --version | tail -1)"
echo "== cudnn-opt examples/resnet-basic-block.mlir"
"$BUILD_DIR/bin/cudnn-opt" "$EXAMPLE"
