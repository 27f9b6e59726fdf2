//===- FusionCost.h - fused graphs that lose to their split form -*- C++
//-*-===//
//
// A fused cuDNN graph is not always faster than its split form (the anchor
// alone on a precompiled engine, its prologue and epilogue as generated
// kernels). For some graphs cuDNN's only fused engines are runtime-compiled
// ones that run far slower than the conv alone; for those, when the module
// has a compiled split form to fall back on, the runtime deselects the
// runtime-compiled engines (as engine errata do), so the graph has a fused
// plan only if a precompiled engine takes it, and otherwise runs its split
// form, without paying for the runtime compilation. Each rule names its
// measurement. CUDA-free, so that it is CPU-tested.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_FUSIONCOST_H
#define CUDNN_MLIR_RUNTIME_FUSIONCOST_H

#include "cudnn-mlir-runtime/Graph.h"

#include <cstdint>
#include <string>

namespace cmrt::graph {

/// Why `graph`'s runtime-compiled fused engines lose to its split form;
/// empty when they may run it. Only graphs of more than one op with an
/// f16/bf16 convolution are judged. Measured on an H100 with cuDNN 9.14,
/// fp16 NHWC, each fused graph on the heuristics' engine against the conv
/// alone on its own (benchmarks/fusion_engine_probe.cpp; results in
/// benchmarks/results/fusion-engine-probe-h100-2026-11-26.txt); a split
/// form adds one pass over the conv's output per generated kernel.
///
/// Rule 1, a grouped convolution (more than one group, more than one input
/// channel per group: not depthwise) with a fused prologue or epilogue.
/// With a scale, bias and ReLU epilogue, batch 32: ResNeXt-50's 3x3 conv
/// (32 groups of 8 channels) at 56x56 943 us fused (eng8, the FFMA engine;
/// eng4 and eng7 910-1300 us) against 98 us alone, 16-channel groups at
/// 28x28 101 against 40 us, RegNetY-400MF's (8-channel groups) at 28x28 98
/// against 27 us and at 7x7 36 against 8 us, batch 1 at 56x56 32 against
/// 8 us; only 32-channel groups at 14x14 and 7x7 came close (35 against 25,
/// 12.9 against 12.1 us). Depthwise convs fuse well (39.8 us fused, 34.2
/// alone, 144 channels at 56x56) and are not judged.
///
/// Rule 2, a pointwise prologue (ops on the conv's input inside the graph).
/// VGG's 3x3 convs with a scale, bias and ReLU prologue and the same
/// epilogue, batch 32: 64 to 128 channels at 112x112 510 us fused against
/// 101 us alone (120 with the epilogue alone fused), 128 to 256 at 56x56 300
/// against 83 (90), 64 to 64 at 224x224 919 against 258 (300); batch 1 at
/// 112x112 26 against 11 us.
std::string whyRuntimeCompiledFusionLosesToSplit(const GraphDescription &graph);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_FUSIONCOST_H
