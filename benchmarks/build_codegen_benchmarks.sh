#!/usr/bin/env bash
# Compiles the general-codegen benchmark's TCP modules (benchmarks/codegen/
# *.mlir: an elementwise chain, softmax, a column reduction, a transpose,
# batch norm training) with cudnn-compile into $OUT_DIR (default
# build/codegen-bench), each with the pipeline options of its
# `// COMPILE-OPTIONS: ...` line if it has one (as
# integration_test/build_suite.sh does). No GPU needed. Then, on a GPU
# machine, with the runtime built there and CUDNN_MLIR_RUNTIME_LIB pointing
# at it:
#   python3 benchmarks/run_codegen_benchmarks.py build/codegen-bench \
#       --out benchmarks/results/codegen-<gpu>-<date>.txt
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT_DIR="${OUT_DIR:-$BUILD_DIR/codegen-bench}"
mkdir -p "$OUT_DIR"
for mlir in "$ROOT"/benchmarks/codegen/*.mlir; do
  name="$(basename "$mlir" .mlir)"
  options="$(sed -n 's|^// COMPILE-OPTIONS: *||p' "$mlir" | head -1)"
  "$BUILD_DIR/bin/cudnn-compile" "$mlir" -o "$OUT_DIR/$name.so" \
    ${options:+--pipeline-options="$options"}
  echo "compiled $name"
done
echo "compiled $(ls "$OUT_DIR"/*.so | wc -l) codegen benchmark modules into $OUT_DIR"
