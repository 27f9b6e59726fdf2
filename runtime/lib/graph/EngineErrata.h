//===- EngineErrata.h - engine configs that compute a graph wrongly -*- C++ -*-===//
//
// cuDNN sometimes offers an engine config for a graph and then computes it
// wrongly. Each erratum here names the graphs it covers and the engine
// configs the runtime deselects for them before check_support; when nothing
// is left, the graph has "no engine" and the module runs its compiled split
// form (or, without one, fails with the reason), never a wrong answer. Each
// entry says which cuDNN and GPU showed it and which test finds it. CUDA-free,
// so that it is CPU-tested.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_ENGINEERRATA_H
#define CUDNN_MLIR_RUNTIME_ENGINEERRATA_H

#include "cudnn-mlir-runtime/Graph.h"

#include <string>

namespace cmrt::graph {

/// Why the runtime-compiled engine configs (behavior note
/// RUNTIME_COMPILATION: eng4, eng7 on Hopper) must not run `graph`; empty
/// when they may.
///
/// Erratum 1 (cuDNN 9.14, H100; the convolution fuzzer's seeds 9 and 457):
/// for an fp32 convolution whose output is 1x1 in space while its input is
/// not, run with TF32 allowed and fused with pointwise ops (bias, ReLU,
/// SiLU, batch norm), eng4 and eng7 return wrong values (a normalized error
/// near 1) at batch > 1, in NCHW and NHWC, grouped or not, and one such
/// graph (groups 2) stopped on cudaErrorMisalignedAddress. The same
/// convolutions with a 2x1 output, at batch 1, or in fp16 were right.
std::string whyRuntimeCompiledEnginesAreDeselected(
    const GraphDescription &graph);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_ENGINEERRATA_H
