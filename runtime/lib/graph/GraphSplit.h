//===- GraphSplit.h - one graph per op, for the split fallback --*- C++ -*-===//
//
// When no engine config finalizes for a fused graph, the runtime runs it op
// by op: each op becomes a graph of its own (an anchor op with no fused
// pointwise, each pointwise op alone), and every virtual tensor that links
// two ops becomes a real one, backed by scratch memory from the per-stream
// pool at execute time. Pure description surgery: no CUDA here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GRAPHSPLIT_H
#define CUDNN_MLIR_RUNTIME_GRAPHSPLIT_H

#include "cudnn-mlir-runtime/Graph.h"

#include <vector>

namespace cmrt::graph {

/// Where a split graph's scratch tensor lives inside one scratch buffer.
struct ScratchTensor {
  int64_t uid = 0;
  int64_t offset = 0; // bytes from the start of the scratch buffer
  int64_t bytes = 0;
};

struct SplitGraph {
  /// One single-op graph per op of the fused graph, in execution order.
  std::vector<GraphDescription> parts;
  /// The fused graph's virtual tensors, each made real in the parts.
  std::vector<ScratchTensor> scratch;
  /// Size of the scratch buffer that holds all of them.
  int64_t scratchBytes = 0;
};

/// Alignment of every scratch tensor (and of the buffer itself): what
/// cudaMallocAsync guarantees, and more than any tensor promises.
inline constexpr int64_t kScratchAlignment = 256;

/// Splits a validated graph. Each part holds the op's own tensors (by-value
/// ones stay by-value); the fused graph's virtual tensors become non-virtual
/// with alignment kScratchAlignment. The parts of a valid graph are valid.
SplitGraph splitPerOp(const GraphDescription &fused);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_GRAPHSPLIT_H
