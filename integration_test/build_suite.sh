#!/usr/bin/env bash
# Compiles every case of the GPU integration suite (integration_test/cases/
# *.mlir, and examples/resnet18.mlir) with cudnn-compile into $OUT_DIR
# (default build/gpu-suite): what
# scripts/gpu-integration-tests.sh then runs on a GPU machine. Needs a build
# (scripts/setup.sh); runs on a machine without a GPU.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT_DIR="${OUT_DIR:-$BUILD_DIR/gpu-suite}"
mkdir -p "$OUT_DIR"
# A case that fails to compile is reported and the others still compile;
# the script fails at the end.
failed=()
for mlir in "$ROOT"/integration_test/cases/*.mlir; do
  name="$(basename "$mlir" .mlir)"
  # A case may name its pipeline options: // COMPILE-OPTIONS: layout=...
  options="$(sed -n 's|^// COMPILE-OPTIONS: *||p' "$mlir" | head -1)"
  # ... and its pipeline: // COMPILE-PIPELINE: tcp (a module of cuDNN graphs
  # that wants tcp-to-llvm-pipeline's options, e.g. layout).
  pipeline="$(sed -n 's|^// COMPILE-PIPELINE: *||p' "$mlir" | head -1)"
  if "$BUILD_DIR/bin/cudnn-compile" "$mlir" -o "$OUT_DIR/$name.so" \
      ${pipeline:+--pipeline="$pipeline"} \
      ${options:+--pipeline-options="$options"}; then
    echo "compiled $name"
  else
    echo "FAILED to compile $name" >&2
    failed+=("$name")
  fi
done
# Modules whose call must fail with a clear error (no_engine_error_test.py).
mkdir -p "$OUT_DIR/errors"
for mlir in "$ROOT"/integration_test/errors/*.mlir; do
  name="$(basename "$mlir" .mlir)"
  if "$BUILD_DIR/bin/cudnn-compile" "$mlir" -o "$OUT_DIR/errors/$name.so"; then
    echo "compiled errors/$name"
  else
    echo "FAILED to compile errors/$name" >&2
    failed+=("errors/$name")
  fi
done
# The ResNet-18 example (examples/gen_resnet18_tcp.py) as it ships, and with
# the image and weights channels-last at the boundary (no conversions).
"$BUILD_DIR/bin/cudnn-compile" "$ROOT/examples/resnet18.mlir" \
  -o "$OUT_DIR/resnet18_f16.so"
echo "compiled resnet18_f16"
python3 "$ROOT/examples/gen_resnet18_tcp.py" --channels-last \
  > "$OUT_DIR/resnet18_f16_channels_last.mlir"
"$BUILD_DIR/bin/cudnn-compile" "$OUT_DIR/resnet18_f16_channels_last.mlir" \
  -o "$OUT_DIR/resnet18_f16_channels_last.so"
echo "compiled resnet18_f16_channels_last"
if ((${#failed[@]})); then
  echo "${#failed[@]} case(s) failed to compile: ${failed[*]}" >&2
  exit 1
fi
