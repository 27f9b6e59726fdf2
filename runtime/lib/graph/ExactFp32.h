//===- ExactFp32.h - can cuDNN keep a graph's fp32 exact? -------*- C++ -*-===//
//
// CMRT_GRAPH_EXACT_FP32 promises fp32 arithmetic without TF32. The runtime
// keeps that promise by deselecting engine configs whose numerical notes say
// TENSOR_CORE or DOWN_CONVERT_INPUTS, which works for convolutions. It does
// not work for matmuls: on an H100 with cuDNN 9.14 every engine config cuDNN
// offers for an fp32 matmul (eng0, which carries no note at all, and the
// runtime-compiled eng4/eng7) reads its inputs as TF32, an error of 3e-4 of
// the output's magnitude at K = 32 where exact fp32 gives 2e-7. Only
// NVIDIA_TF32_OVERRIDE=0 in the environment, which cuDNN reads, makes eng0
// exact. So the runtime refuses such graphs by name instead of returning
// TF32 results as exact ones. CUDA-free, so that it is CPU-tested.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_EXACTFP32_H
#define CUDNN_MLIR_RUNTIME_EXACTFP32_H

#include "cudnn-mlir-runtime/Graph.h"

#include <string>

namespace cmrt::graph {

/// Why cuDNN cannot run `graph` with its fp32 kept exact on a device of
/// compute capability `computeCapability` (major * 10 + minor), given the
/// value of NVIDIA_TF32_OVERRIDE (null when unset); empty when it can.
/// TF32 exists from compute capability 8.0 on.
std::string whyFp32CannotBeExact(const GraphDescription &graph,
                                 int64_t computeCapability,
                                 const char *tf32Override);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_EXACTFP32_H
