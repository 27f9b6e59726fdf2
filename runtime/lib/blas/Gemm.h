//===- Gemm.h - exact fp32 GEMMs on cuBLAS ----------------------*- C++ -*-===//
//
// The fp32 matmuls that must stay exact (PyTorch's default matmul
// precision) run here, not in cuDNN: every cuDNN 9.14 fp32 matmul engine
// computes in TF32 on the H100 (graph/ExactFp32.h). cuBLAS in its default
// math mode with CUBLAS_COMPUTE_32F never uses TF32 and is what PyTorch
// eager calls for the same matmul.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GEMM_H
#define CUDNN_MLIR_RUNTIME_GEMM_H

#include "blas/GemmShape.h"

#include <cuda_runtime_api.h>

namespace cmrt::blas {

/// Enqueues `g` on `stream` of the current device `device` (a, b, c device
/// pointers to fp32) with cublasGemmStridedBatchedEx, no host
/// synchronisation. The cuBLAS handle is the calling thread's for `device`,
/// created on first use (refused while a stream is being captured into a
/// CUDA graph: it allocates), bound to `stream` and to a 32 MiB workspace
/// from `stream`'s workspace pool (core/Context.h), the one cuDNN graphs on
/// that stream use.
graph::Status runGemm(int device, cudaStream_t stream, const RowMajorGemm &g,
                      const float *a, const float *b, float *c);

/// Destroys the calling thread's cuBLAS handles (cmrtShutdown); later GEMMs
/// create new ones.
void releaseBlasHandles();

} // namespace cmrt::blas

#endif // CUDNN_MLIR_RUNTIME_GEMM_H
