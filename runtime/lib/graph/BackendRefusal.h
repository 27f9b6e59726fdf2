//===- BackendRefusal.h - cuDNN refusing a descriptor, told apart -*- C++
//-*-===//
//
// cudnn-frontend reports a cuDNN backend call that failed as
// CUDNN_BACKEND_API_FAILED, whatever cuDNN's status was; only the message
// names it. A descriptor cuDNN refuses with CUDNN_STATUS_NOT_SUPPORTED
// while the graph is built (ShuffleNetV2's fp32 conv + batch norm + ReLU +
// global-mean reduction at batch 1: "finalize(reduction_descriptor) ...
// CUDNN_STATUS_NOT_SUPPORTED", cuDNN 9.14, H100) is a graph cuDNN does not
// run, like one with no engine config: the module then runs its compiled
// split form instead of failing. CUDA-free, so that it is CPU-tested.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_BACKENDREFUSAL_H
#define CUDNN_MLIR_RUNTIME_BACKENDREFUSAL_H

#include <string>

namespace cmrt::graph {

/// Whether the message of a CUDNN_BACKEND_API_FAILED error says cuDNN
/// refused the descriptor as not supported (CUDNN_STATUS_NOT_SUPPORTED or
/// one of its CUDNN_STATUS_NOT_SUPPORTED_* kinds), not that it failed.
bool isBackendRefusal(const std::string &message);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_BACKENDREFUSAL_H
