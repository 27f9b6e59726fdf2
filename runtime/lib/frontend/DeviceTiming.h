//===- DeviceTiming.h - how long a candidate takes on a stream --*- C++ -*-===//
//
// The timing every build-time choice uses (fusion by timing, the cuBLASLt
// choice): a few warm-up calls, then CUDA events around a few more on the
// stream. No frontend headers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_DEVICETIMING_H
#define CUDNN_MLIR_RUNTIME_DEVICETIMING_H

#include "core/Context.h"
#include "graph/GraphValidation.h"

#include <cuda_runtime_api.h>

namespace cmrt {

/// Warm-up and timed executions of each candidate.
inline constexpr int kTimingWarmups = 2;
inline constexpr int kTimedRuns = 5;

/// Microseconds per call of `run` (returning a graph::Status) on `stream`,
/// after kTimingWarmups calls.
template <typename Run>
graph::Status timeOnStream(cudaStream_t stream, Run &&run, double &us) {
  for (int i = 0; i < kTimingWarmups; ++i)
    CMRT_TRY(run());
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaError_t err = cudaEventCreate(&start);
  if (err == cudaSuccess)
    err = cudaEventCreate(&stop);
  graph::Status s = graph::Status::success();
  if (err == cudaSuccess)
    err = cudaEventRecord(start, stream);
  for (int i = 0; err == cudaSuccess && s.ok() && i < kTimedRuns; ++i)
    s = run();
  if (err == cudaSuccess && s.ok())
    err = cudaEventRecord(stop, stream);
  if (err == cudaSuccess && s.ok())
    err = cudaEventSynchronize(stop);
  float ms = 0;
  if (err == cudaSuccess && s.ok())
    err = cudaEventElapsedTime(&ms, start, stop);
  if (start)
    (void)cudaEventDestroy(start);
  if (stop)
    (void)cudaEventDestroy(stop);
  if (!s.ok())
    return s;
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return {CMRT_ERROR_CUDA, cudaErrorText("timing a candidate plan", err)};
  }
  us = 1000.0 * ms / kTimedRuns;
  return graph::Status::success();
}

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_DEVICETIMING_H
