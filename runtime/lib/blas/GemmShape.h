//===- GemmShape.h - row-major GEMMs as cuBLAS calls ------------*- C++ -*-===//
//
// Compiled code describes a (batched, strided) fp32 GEMM on row-major
// buffers; cuBLAS takes column-major ones. A row-major matrix read
// column-major is its transpose, so C = op(A) x op(B) is computed as
// C^T = op(B)^T x op(A)^T: cuBLAS's first matrix is B, its second A, its m
// and n are swapped, and each transpose flag and leading dimension carries
// over unchanged. CUDA-free, so that the mapping and its checks are
// unit-tested on any machine.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GEMMSHAPE_H
#define CUDNN_MLIR_RUNTIME_GEMMSHAPE_H

#include "cudnn-mlir-runtime/Graph.h"

#include <cstdint>

namespace cmrt::blas {

/// C[i] = op(A[i]) x op(B[i]) for i < batch, on row-major matrices: op(A) is
/// m x k, op(B) k x n, C m x n. With transA the buffer holds A's transpose
/// (k x m), with transB B's (n x k). ld* is a stored row's stride and
/// stride* one matrix's stride (elements; 0 repeats one matrix for every i).
struct RowMajorGemm {
  bool transA = false;
  bool transB = false;
  int64_t m = 0, n = 0, k = 0, batch = 0;
  int64_t lda = 0, strideA = 0;
  int64_t ldb = 0, strideB = 0;
  int64_t ldc = 0, strideC = 0;
};

/// The arguments of cublasGemmStridedBatchedEx for the same product, in its
/// order: `first` is B's buffer, `second` A's.
struct ColumnMajorGemm {
  bool transFirst = false;
  bool transSecond = false;
  int m = 0, n = 0, k = 0;
  int ldFirst = 0, ldSecond = 0, ldc = 0;
  int64_t strideFirst = 0, strideSecond = 0, strideC = 0;
  int batch = 0;
};

/// Checks `g` (sizes at least 1, each leading dimension at least its stored
/// row, no stride negative, cuBLAS's int arguments in range) and maps it to
/// `out`; otherwise a CMRT_ERROR_INVALID_ARGUMENT naming the first bad
/// argument ("expects ..., but got ...").
graph::Status toColumnMajor(const RowMajorGemm &g, ColumnMajorGemm &out);

} // namespace cmrt::blas

#endif // CUDNN_MLIR_RUNTIME_GEMMSHAPE_H
