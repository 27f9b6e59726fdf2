//===- FrontendFloor.h - host cost of cudnn-frontend alone ------*- C++ -*-===//
//
// What one execute costs the host with no cudnn-mlir code in the way: the
// graph RuntimeBench times through cmrtGraphExecute, built here on
// cudnn-frontend directly, executed the two ways the frontend offers. The
// difference to cmrtGraphExecute is the runtime's own cost.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_BENCHMARKS_FRONTENDFLOOR_H
#define CUDNN_MLIR_RUNTIME_BENCHMARKS_FRONTENDFLOOR_H

#include "HostTiming.h"

#include <cuda_runtime_api.h>

#include <string>

namespace cmrt::bench {

struct FrontendFloor {
  std::string engine;         // the plan the frontend's heuristics chose
  HostCost mapExecute;        // execute(handle, UID -> pointer map, ...)
  HostCost arrayExecute;      // execute(handle, sorted pointer array, ...)
};

/// relu(conv 3x3(x, w) + bias), fp16 NHWC, N = 2, C = K = 32, 16x16, float
/// intermediates: RuntimeGraphs.h's convBiasReluGraph with its default
/// shape. Exits with a message if cuDNN refuses it.
FrontendFloor measureFrontendFloor(cudaStream_t stream);

} // namespace cmrt::bench

#endif // CUDNN_MLIR_RUNTIME_BENCHMARKS_FRONTENDFLOOR_H
