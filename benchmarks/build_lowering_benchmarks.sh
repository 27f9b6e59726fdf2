#!/usr/bin/env bash
# Generates and compiles the lowering benchmark's modules here (no GPU
# needed): conv fusions at ResNet-50 shapes (gen_conv_fusions.py) and a
# batch-32 channels-last ResNet-18 (examples/gen_resnet18_tcp.py), into
# $OUT_DIR (default build/gpu-suite/bench, modules) and $OUT_DIR-mlir (the
# TCP). Then, on a GPU machine, with the runtime built there:
#   python3 benchmarks/run_lowering_benchmarks.py build/gpu-suite/bench \
#       build/gpu-suite/bench-mlir
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT_DIR="${OUT_DIR:-$BUILD_DIR/gpu-suite/bench}"
MLIR_DIR="$OUT_DIR-mlir"
mkdir -p "$OUT_DIR" "$MLIR_DIR"
python3 "$ROOT/benchmarks/gen_conv_fusions.py" "$MLIR_DIR"
for mlir in "$MLIR_DIR"/*.mlir; do
  "$BUILD_DIR/bin/cudnn-compile" "$mlir" -o "$OUT_DIR/$(basename "$mlir" .mlir).so"
done
python3 "$ROOT/examples/gen_resnet18_tcp.py" --batch 32 --channels-last \
  > "$OUT_DIR/resnet18_b32_cl.mlir"
"$BUILD_DIR/bin/cudnn-compile" "$OUT_DIR/resnet18_b32_cl.mlir" \
  -o "$OUT_DIR/resnet18_b32_cl.so"
echo "compiled $(ls "$OUT_DIR"/*.so | wc -l) benchmark modules into $OUT_DIR"
