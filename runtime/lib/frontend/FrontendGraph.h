//===- FrontendGraph.h - described graph -> planned frontend graph -*- C++ -*-===//
//
// The only interface to the cudnn-frontend code (FrontendGraph.cpp and
// FrontendTranslate.cpp, compiled with exceptions and RTTI). Nothing here
// includes frontend headers; the frontend graph is type-erased in
// BuiltGraph::frontend.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_FRONTENDGRAPH_H
#define CUDNN_MLIR_RUNTIME_FRONTENDGRAPH_H

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphHash.h"
#include "graph/GraphSplit.h"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cmrt {
namespace blas {
struct LtPlan;
} // namespace blas

/// A graph with a built execution plan, as the cache holds it: either one
/// frontend graph, or (the split fallback) parts that run in order with
/// scratch tensors between them.
struct BuiltGraph {
  int device = 0;
  int64_t workspaceBytes = 0; // for split graphs: the largest part's
  std::string dump;           // dumpGraph() of the description
  std::string planName;       // the engine config that won ("" if split)
  cmrtPlanOrigin origin = CMRT_PLAN_HEURISTICS;
  /// The plan's engine is compiled at run time (cuDNN's runtime fusion
  /// engines), so fusion by timing judges it (FusionTiming.h).
  bool runtimeCompiled = false;
  /// Set when fusion by timing found the split form faster: the cache keeps
  /// the verdict (not the plan), and getting the graph fails with
  /// CMRT_ERROR_NOT_SUPPORTED and this reason, so the module runs its split
  /// form without timing the graph again.
  std::string refusal;
  double buildMilliseconds = 0;
  /// Tensors execute() needs a pointer for: (UID, promised alignment). A
  /// frontend graph lists them in cudnn-frontend's variant-pack order, so
  /// that executing hands it one pointer array and builds no map.
  std::vector<std::pair<int64_t, int64_t>> userTensors;
  std::shared_ptr<void> frontend; // cudnn_frontend::graph::Graph
  std::mutex executeMutex;        // the frontend graph is not re-entrant

  /// Set when one cuBLASLt matmul runs the graph instead of its frontend
  /// plan (frontend/BlasLtChoice.h); `ltOperands` are the userTensors
  /// indices of its a, b, bias (-1: none) and output.
  std::shared_ptr<blas::LtPlan> lt;
  int64_t ltOperands[4] = {-1, -1, -1, -1};

  std::vector<std::shared_ptr<BuiltGraph>> parts;
  std::vector<graph::ScratchTensor> scratch;
  int64_t scratchBytes = 0;
  /// Where a part's user tensor lives: the fused graph's user tensor
  /// `userIndex`, or (userIndex < 0) the scratch buffer at `scratchOffset`.
  struct PartOperand {
    int64_t userIndex = -1;
    int64_t scratchOffset = 0;
  };
  /// For each part, one entry per part->userTensors, in that order.
  std::vector<std::vector<PartOperand>> partOperands;
};

/// "heuristics", "autotuned", "disk cache", "split", "cuBLASLt".
const char *planOriginName(cmrtPlanOrigin origin);

/// What a build needs besides the description.
struct BuildRequest {
  const graph::GraphDescription &desc;
  uint64_t options = 0;
  graph::CacheKey key; // names the plan in the disk cache
  int device = 0;
  cudnnHandle_t handle = nullptr; // bound to `stream`
  cudaStream_t stream = nullptr;  // autotuning times candidates on it
};

/// Builds `request.desc` (already validated) into one frontend graph with a
/// plan. With CUDNN_MLIR_CACHE_DIR set, loads the plan from there if a
/// usable one is stored and stores a newly built one (a file that no longer
/// loads is rebuilt and overwritten, never an error). Otherwise heuristics
/// mode A then FALLBACK, filtered by the options; the first plan that builds
/// wins, or with CMRT_GRAPH_AUTOTUNE the fastest. Never throws. Kinds the
/// runtime cannot express give CMRT_ERROR_NOT_SUPPORTED naming the op, and
/// so does a graph no engine config takes.
graph::Status buildFrontendGraph(const BuildRequest &request,
                                 std::shared_ptr<BuiltGraph> &out);

/// Enqueues the plan on the handle's stream. `pointers[i]` is the device
/// pointer of graph.userTensors[i]. Never throws.
graph::Status executeFrontendGraph(BuiltGraph &graph, cudnnHandle_t handle,
                                   void *const *pointers, void *workspace);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_FRONTENDGRAPH_H
