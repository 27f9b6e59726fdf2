//===- LtMatmul.h - a matmul graph's form run on cuBLASLt -------*- C++ -*-===//
//
// Builds and runs the cuBLASLt matmul of a graph::BlasLtForm: its
// descriptors, the heuristics' candidate algorithms (the caller times them,
// frontend/BlasLtChoice.h, and selects one) and the call itself. fp32
// accumulation and scale; split-K never reduces in the output type.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_LTMATMUL_H
#define CUDNN_MLIR_RUNTIME_LTMATMUL_H

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/BlasLtForm.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

namespace cmrt::blas {

/// Descriptors and candidate algorithms of one form (cuBLASLt types kept
/// out of this header). Executions lock the plan: the bias pointer is an
/// attribute of its descriptor.
struct LtPlan;

/// Builds `form`'s plan on `device` with up to `maxCandidates` algorithms
/// from cuBLASLt's heuristics, each needing at most `maxWorkspaceBytes`.
/// CMRT_ERROR_NOT_SUPPORTED when the heuristics offer none; refused during
/// stream capture (creating the library handle allocates).
graph::Status buildLtPlan(int device, cudaStream_t stream,
                          const graph::BlasLtForm &form, int maxCandidates,
                          int64_t maxWorkspaceBytes,
                          std::shared_ptr<LtPlan> &out);

int ltCandidateCount(const LtPlan &plan);
/// Runs candidate `index` from now on.
void selectLtCandidate(LtPlan &plan, int index);
/// The selected candidate's workspace.
int64_t ltWorkspaceBytes(const LtPlan &plan);
/// "cublasLt algo 66 tile 7 stages 12 splitK 1" of the selected candidate.
std::string ltCandidateName(const LtPlan &plan);
const graph::BlasLtForm &ltForm(const LtPlan &plan);

/// Enqueues the selected candidate on `stream` (`device` current): d =
/// act(alpha * a x b + bias); `bias` null when the form has none,
/// `workspace` at least ltWorkspaceBytes.
graph::Status runLtPlan(LtPlan &plan, cudaStream_t stream, const void *a,
                        const void *b, const void *bias, void *d,
                        void *workspace);

/// Destroys the library handles (cmrtShutdown).
void releaseLtHandles();

} // namespace cmrt::blas

#endif // CUDNN_MLIR_RUNTIME_LTMATMUL_H
