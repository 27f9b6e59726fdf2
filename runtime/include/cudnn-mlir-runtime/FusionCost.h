//===- FusionCost.h - fused graphs that lose to the split form -*- C++ -*-===//
//
// A fused cuDNN graph is not always faster than its split form (the anchor
// alone on a precompiled engine, its prologue and epilogue as generated
// kernels). For some graphs cuDNN's only fused engines are runtime-compiled
// ones that run far slower than the conv alone; for those, when the module
// has a compiled split form to fall back on, the runtime deselects the
// runtime-compiled engines (as engine errata do), so the graph has a fused
// plan only if a precompiled engine takes it, and otherwise runs its split
// form, without paying for the runtime compilation. Each rule names its
// measurement. CUDA-free, so that it is CPU-tested, and public, so that the
// compiler's `report` judges graphs with the same rules (implemented in
// runtime/lib/graph, the static library CudnnMlirRuntimeGraph).
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
/// Not a rule: a conv with a pointwise prologue. Alone such graphs lose
/// too (VGG's 3x3 convs with a scale, bias and ReLU prologue and the same
/// epilogue, batch 32: 64 to 128 channels at 112x112 510 us fused against
/// 101 us alone), but in whole models their split forms lost more
/// (torchvision, batch 32, ours replayed with the rule and without it:
/// DenseNet-121 8.02 against 4.95 ms, MobileNetV2 1.57 against 1.13,
/// MNASNet 1.57 against 1.15; benchmarks/results/
/// fusion-by-cost-ab-h100-2026-11-26.txt): the prologue's generated
/// kernels and their layout conversions cost more than the fused engine's
/// loss. Rule 1 alone held: RegNetY-400MF 1.88 against 2.52 ms,
/// ResNeXt-50 2.21 against 2.85 ms. (Since generated kernels run on
/// channels-last bytes, the compile-time option prologues=false keeps
/// prologues out of graphs instead: DenseNet-121 4.74 against 4.96 ms,
/// docs/fusion.md.) convert-cudnn-to-llvm's `report` calls this function
/// on every graph with a split form.
std::string whyRuntimeCompiledFusionLosesToSplit(const GraphDescription &graph);

/// How every refusal by cost starts (a rule above, or fusion by timing at
/// build time, runtime/lib/frontend/FusionTiming.h): the module then runs
/// its split form, which is the faster one, so the runtime logs the switch
/// rather than warning about it.
inline constexpr const char *kFusionByCostPrefix = "fusion by cost: ";

/// Whether the runtime judges fused graphs by cost (the rules above and
/// fusion by timing): yes unless the environment sets
/// CUDNN_MLIR_FUSION_BY_COST=0 (to measure what they gain on a model, or to
/// rule them out when a graph misbehaves).
bool fusionByCostEnabled();

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_FUSIONCOST_H
