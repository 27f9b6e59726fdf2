#!/usr/bin/env bash
# Runs the PyTorch end-to-end suite (integration_test/e2e) on a GPU machine
# (CUDA, cuDNN 9, PyTorch 2.x with torchvision; no LLVM/MLIR): builds the
# runtime there, then runs every e2e test on the artifacts in
# build/e2e-cache (made here by `run_e2e.py --compile-only`, carried over),
# first through cudnn_mlir.compile, then through
# torch.compile(backend="cudnn_mlir"), then imported from torch.export; then
# the dynamic-shape, RNN-dropout and CUDA-graph tests (their artifacts from their own
# --compile-only into the same cache; docs/frontend.md, "Tests").
# The artifacts of all three paths can be made here with torch 2.x
# (scripts/setup-torch2.sh): `run_e2e.py --compile-only`, with --aten, and
# with --torch-compile. Graphs still without an artifact are written to
# $CUDNN_MLIR_EXPORT_DIR (default build/e2e-export) for
# `python3 -m cudnn_mlir.compile_exported` here.
#   bash scripts/gpu-e2e-tests.sh [--filter REGEX]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${E2E_CACHE:-$ROOT/build/e2e-cache}"
source "$ROOT/scripts/gpu-runtime-env.sh"
export CUDNN_MLIR_EXPORT_DIR="${CUDNN_MLIR_EXPORT_DIR:-$ROOT/build/e2e-export}"
status=0
echo "== cudnn_mlir.compile"
python3 "$ROOT/integration_test/e2e/run_e2e.py" --cache "$CACHE" "$@" || status=1
echo "== torch.compile(backend=\"cudnn_mlir\")"
python3 "$ROOT/integration_test/e2e/run_e2e.py" --torch-compile --cache "$CACHE" "$@" || status=1
echo "== torch.export"
python3 "$ROOT/integration_test/e2e/run_e2e.py" --aten --cache "$CACHE" "$@" || status=1
echo "== dynamic shapes"
python3 "$ROOT/integration_test/e2e/dynamic_shapes_test.py" --cache "$CACHE" || status=1
echo "== RNN dropout"
python3 "$ROOT/integration_test/e2e/rnn_dropout_test.py" --cache "$CACHE" || status=1
echo "== CUDA graphs"
python3 "$ROOT/integration_test/e2e/cuda_graph_test.py" --cache "$CACHE" || status=1
exit "$status"
