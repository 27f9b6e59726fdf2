//===- GraphBuild.h - build with the split fallback, and execute -*- C++ -*-===//
//
// Between the C ABI (GraphExecAbi.cpp) and the frontend (FrontendGraph.cpp):
// a graph is built fused; if no engine config takes the fused graph, it is
// split into one graph per op (GraphSplit.h), each built on its own, and the
// reason is logged once. Execution runs either form on one stream with the
// workspace and the split form's scratch tensors from the per-stream pool.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GRAPHBUILD_H
#define CUDNN_MLIR_RUNTIME_GRAPHBUILD_H

#include "frontend/FrontendGraph.h"

namespace cmrt {

/// Builds the fused graph, falling back to the split form when cuDNN has no
/// engine for it (CMRT_ERROR_NOT_SUPPORTED from the plan steps) and the
/// graph has more than one op. If a part fails too, the error names the
/// fused graph's refusal and the part's.
graph::Status buildGraph(const BuildRequest &request,
                         std::shared_ptr<BuiltGraph> &out);

/// The request that builds `part` (a graph cut from `whole.desc`: one op of
/// its split) with `whole`'s options, device, handle and stream, keyed by
/// the part's own description. `part` must outlive the request.
BuildRequest partRequest(const BuildRequest &whole,
                         const graph::GraphDescription &part);

/// Enqueues `graph` on `stream` (the device is current). `pointers[i]` is
/// the device pointer of graph.userTensors[i].
graph::Status executeBuiltGraph(BuiltGraph &graph, cudaStream_t stream,
                                void *const *pointers);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_GRAPHBUILD_H
