//===- PlanTiming.h - graphs whose plans are timed --------------*- C++ -*-===//
//
// cuDNN's heuristics rank the engine configs of a graph; the runtime builds
// the first (BuildPlanPolicy HEURISTICS_CHOICE) unless the graph is built
// with CMRT_GRAPH_AUTOTUNE. For some graphs the heuristics' first choice is
// several times slower than an engine further down the list. Those graphs
// are timed by default: every candidate that builds is run on zero-filled
// scratch tensors and the fastest kept, and stored with the plan in the
// disk cache, so a machine pays for the timing once. Each rule names its
// measurement. CUDA-free, so that it is CPU-tested.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_PLANTIMING_H
#define CUDNN_MLIR_RUNTIME_PLANTIMING_H

#include "cudnn-mlir-runtime/Graph.h"

#include <string>

namespace cmrt::graph {

/// Why `graph`'s plan is chosen by timing its candidates rather than taken
/// from the heuristics; empty when the heuristics' choice is kept (and when
/// CUDNN_MLIR_PLAN_TIMING=0).
///
/// Rule 1, a grouped convolution alone (one op; more than one group and
/// more than one channel per group: not depthwise). Such graphs are the
/// split forms of grouped convolutions with a fused epilogue (FusionCost.h,
/// rule 1) and the plain ones. Measured on an H200 with cuDNN 9.14, fp16
/// NHWC, batch 32, RegNetY-1.6GF's 3x3 convs (24 channels a group), every
/// candidate of heuristics A and FALLBACK timed by cudnn-frontend's
/// autotune: 5 groups from 56x56 at stride 2, the heuristics' eng62 214 us
/// against 57 us for eng71 (a FALLBACK candidate); 5 groups at 28x28 140
/// against 65 us; 14 groups at 14x14 115 against 74 us; 37 groups at 7x7
/// eng22 86 against 37 us. The heuristics' engines pad each group with
/// tensorTransformGeneric kernels around the conv (75 of them, 1.8 ms of
/// RegNetY-1.6GF's 4.0 ms of kernels per call). With 2 groups of 24 the
/// heuristics' eng45 was the fastest (84 us; eng71 91 us), which timing
/// keeps. Building every candidate took 68 to 140 ms a graph.
std::string whyPlansAreTimed(const GraphDescription &graph);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_PLANTIMING_H
