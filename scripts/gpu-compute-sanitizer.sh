#!/usr/bin/env bash
# Runs NVIDIA compute-sanitizer over our GPU code on a GPU machine (CUDA
# toolkit with compute-sanitizer, cuDNN 9, PyTorch; no LLVM/MLIR):
# docs/testing.md, "compute-sanitizer". Carry build/third_party,
# build/gpu-suite.tgz (integration_test/build_suite.sh, then
# `tar -czf build/gpu-suite.tgz -C build gpu-suite`) and, for the e2e
# sample, build/e2e-cache-all.tgz (run_e2e.py --compile-only --cache
# build/e2e-cache-all, then tar -czf ... -C build e2e-cache-all).
#   1. memcheck (with the leak check: the GPU test binary shuts the runtime
#      down last) over the runtime's GPU tests;
#   2. racecheck and synccheck over the runtime's own kernel tests;
#   3. memcheck over every case of the GPU suite, synccheck over our
#      generated kernels in all of them, racecheck over our generated
#      kernels in the cases with shared memory or grid-wide barriers;
#   4. memcheck over a sample of the e2e suite (models and normalisations).
# API errors are not reported (--report-api-errors no): the runtime checks
# every CUDA call itself, and the only ones a full report lists are the
# kernel-parameter probe (cudaFuncGetParamInfo past the last parameter) and
# the tests that load bad PTX or ask for a missing kernel on purpose.
# Exits 1 if any run reports an error or a test fails; logs go to
# ${OUT:-build/compute-sanitizer}.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOGS="${OUT:-$ROOT/build/compute-sanitizer}"
mkdir -p "$LOGS"
CS="${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"
for archive in gpu-suite e2e-cache-all; do
  if [[ -f "$ROOT/build/$archive.tgz" ]]; then
    rm -rf "$ROOT/build/$archive"
    tar -xzf "$ROOT/build/$archive.tgz" -C "$ROOT/build"
  fi
done
bash "$ROOT/scripts/gpu-runtime-tests.sh" '-*' > "$LOGS/build.txt" 2>&1 || {
  echo "building the runtime's tests failed: $LOGS/build.txt"; exit 1; }
TESTS="$ROOT/build-gpu-runtime/unittests/CudnnMlirRuntimeGpuTests"
# Our generated kernels are named <function>_kernel<N>[...].
OURS="regex=_kernel[0-9]"
# Generated kernels with shared memory or grid-wide barriers.
SHARED="bn_codegen_eval_backward_bf16_channels_last bn_codegen_training_2d_f32
  bn_codegen_training_2d_wide_f16 bn_codegen_training_f16_channels_last
  bn_codegen_training_f32_channels_last
  bn_codegen_training_large_f16_channels_last bn_codegen_training_f32
  bn_codegen_training_planes_f16 codegen_reduce_f16 codegen_softmax_f32
  codegen_softmax_rows1024_f32 codegen_layer_norm_f16 layer_norm_training_f32"
E2E='resnet18|transformer_block|mobilenet_v2|lstm_model|gru_packed|conv2d_depthwise|layer_norm|softmax'
status=0
run() { # name, then the command under compute-sanitizer
  local name="$1"; shift
  local start=$SECONDS
  "$CS" --report-api-errors no --error-exitcode 9 "$@" > "$LOGS/$name.txt" 2>&1
  local rc=$?
  local summary
  summary="$(grep -E "(ERROR|RACECHECK|LEAK) SUMMARY" "$LOGS/$name.txt" | tr '\n' ' ')"
  echo "$([ $rc -eq 0 ] && echo PASS || echo FAIL) $name ($((SECONDS - start)) s): $summary"
  [ $rc -eq 0 ] || status=1
}
run memcheck-runtime-gpu-tests --tool memcheck --leak-check full "$TESTS"
run racecheck-runtime-kernels --tool racecheck "$TESTS" --gtest_filter='GpuKernel*'
run synccheck-runtime-kernels --tool synccheck "$TESTS" --gtest_filter='GpuKernel*'
source "$ROOT/scripts/gpu-runtime-env.sh" > /dev/null
SUITE="$ROOT/integration_test/run_gpu_suite.py"
run memcheck-gpu-suite --tool memcheck python3 "$SUITE" "$ROOT/build/gpu-suite"
run synccheck-gpu-suite --tool synccheck --kernel-name "$OURS" \
  python3 "$SUITE" "$ROOT/build/gpu-suite"
# shellcheck disable=SC2086
run racecheck-gpu-suite --tool racecheck --kernel-name "$OURS" \
  python3 "$SUITE" "$ROOT/build/gpu-suite" $SHARED
if [[ -d "$ROOT/build/e2e-cache-all" ]]; then
  run memcheck-e2e-sample --tool memcheck python3 \
    "$ROOT/integration_test/e2e/run_e2e.py" --cache "$ROOT/build/e2e-cache-all" \
    --dtypes f16,f32,bf16 --filter "$E2E"
fi
exit $status
