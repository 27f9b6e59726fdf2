//===- BlasLtChoice.h - cuDNN's matmul plan or one cuBLASLt call -*- C++
//-*-===//
//
// Issue 27's "matmuls on the faster library": after a graph that has the
// cuBLASLt form (graph/BlasLtForm.h) gets its cuDNN plan, the build times
// that plan against cuBLASLt's heuristic candidates on zero-filled scratch
// tensors, off capture, and keeps the fastest; cuBLASLt must win by
// kBlasLtMargin. CUDNN_MLIR_CUBLASLT=0 turns the choice off, =always takes
// cuBLASLt whenever the form fits (its first candidate, untimed: tests).
// Each choice is logged (CUDNN_MLIR_LOG). No frontend headers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_BLASLTCHOICE_H
#define CUDNN_MLIR_RUNTIME_BLASLTCHOICE_H

#include "frontend/FrontendGraph.h"

namespace cmrt {

/// cuBLASLt runs the graph when it takes at most this fraction of the
/// cuDNN plan's time (a few executions on zeros are noisy).
inline constexpr double kBlasLtMargin = 0.95;

/// How CUDNN_MLIR_CUBLASLT sets the choice.
enum class BlasLtMode { Off, Timed, Always };
BlasLtMode blasLtMode();

/// Sets `built.lt` (and its origin, engine name and workspace) when the
/// graph has the cuBLASLt form and cuBLASLt wins; otherwise leaves `built`
/// as it is. A failure to build or time the cuBLASLt candidates keeps the
/// cuDNN plan: it is logged, not returned.
void chooseBlasLt(const BuildRequest &request, BuiltGraph &built);

/// Enqueues `built.lt` on `stream` with `pointers` in userTensors order.
graph::Status executeBlasLt(BuiltGraph &built, cudaStream_t stream,
                            void *const *pointers, void *workspace);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_BLASLTCHOICE_H
