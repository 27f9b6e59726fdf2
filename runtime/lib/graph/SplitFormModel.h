//===- SplitFormModel.h - what a fused graph's split form costs -*- C++ -*-===//
//
// Fusion by timing (the second half of fusion by cost, FusionCost.h): when a
// fused graph that has a compiled split form gets a runtime-compiled engine,
// the runtime times that plan against a model of the split form and runs the
// split form when it is clearly faster. The model: each anchor (every op
// that is not pointwise or a reduction: convs, matmuls, norms, pooling)
// alone in a cuDNN graph, timed for real, plus the generated kernels of the
// rest, which are memory-bound, priced as a device-to-device copy of the
// bytes they move. Pure description surgery and arithmetic: no CUDA here
// (frontend/FusionTiming.cpp does the timing).
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_SPLITFORMMODEL_H
#define CUDNN_MLIR_RUNTIME_SPLITFORMMODEL_H

#include "cudnn-mlir-runtime/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cmrt::graph {

struct SplitFormModel {
  /// One single-op graph per anchor, in order. A virtual tensor of the
  /// fused graph becomes real, in the data type of the fused graph's
  /// output (what the compiled split form stores between its kernels, not
  /// the fused graph's compute type).
  std::vector<GraphDescription> anchors;
  /// Bytes the split form's generated kernels read and write: every tensor
  /// a non-anchor op touches once, except the virtual tensors between two
  /// non-anchor ops (they stay in registers in one generated kernel).
  int64_t generatedBytes = 0;
  /// Generated kernels: one for the ops before the first anchor, one for
  /// those after it.
  int generatedKernels = 0;
};

/// The split form of `fused` (a validated graph). No anchors when every op
/// is pointwise or a reduction.
SplitFormModel modelSplitForm(const GraphDescription &fused);

/// Times measured on the device, in microseconds per execution.
struct FusionTiming {
  double fusedUs = 0;     // the fused graph on its runtime-compiled plan
  double anchorsUs = 0;   // the anchors alone, together
  double generatedUs = 0; // the generated kernels' estimate
};

/// The split form runs when the fused plan takes more than kSplitMargin
/// times the split form's estimate and at least kSplitMinSavingUs longer:
/// timings of a few executions on zeros are noisy, and the estimate leaves
/// out the launch gaps of a CUDA graph.
inline constexpr double kSplitMargin = 1.25;
inline constexpr double kSplitMinSavingUs = 4.0;

/// Why the split form wins, with the numbers; empty when the fused plan
/// stays.
std::string whySplitFormWinsByTiming(const FusionTiming &timing);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_SPLITFORMMODEL_H
