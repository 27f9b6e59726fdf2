//===- FrontendGraph.h - described graph -> cudnn-frontend graph -*- C++ -*-===//
//
// The only interface to the cudnn-frontend code (FrontendGraph.cpp, compiled
// with exceptions and RTTI). Nothing here includes frontend headers; the
// frontend graph is type-erased in BuiltGraph::frontend.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_FRONTENDGRAPH_H
#define CUDNN_MLIR_RUNTIME_FRONTENDGRAPH_H

#include "Graph.h"

#include <cudnn.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace cmrt {

/// A graph with a built execution plan, as the cache holds it.
struct BuiltGraph {
  int device = 0;
  int64_t workspaceBytes = 0;
  std::string dump;     // dumpGraph() of the description
  std::string planName; // the engine config that won
  /// Tensors execute() needs a pointer for: UID -> promised alignment.
  std::vector<std::pair<int64_t, int64_t>> userTensors;
  std::shared_ptr<void> frontend; // cudnn_frontend::graph::Graph
  std::mutex executeMutex;        // the frontend graph is not re-entrant
};

/// Builds `desc` (already validated) into a frontend graph with a plan:
/// heuristics mode A then FALLBACK, filtered by `options`, first plan that
/// builds wins. Never throws. Kinds not supported yet give
/// CMRT_ERROR_NOT_SUPPORTED naming the op.
graph::Status buildFrontendGraph(const graph::GraphDescription &desc,
                                 uint64_t options, int device,
                                 cudnnHandle_t handle,
                                 std::shared_ptr<BuiltGraph> &out);

/// Enqueues the plan on the handle's stream. `pointers` maps every user
/// tensor UID to its device pointer. Never throws.
graph::Status executeFrontendGraph(BuiltGraph &graph, cudnnHandle_t handle,
                                   std::unordered_map<int64_t, void *> &pointers,
                                   void *workspace);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_FRONTENDGRAPH_H
