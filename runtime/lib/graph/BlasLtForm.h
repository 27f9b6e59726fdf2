//===- BlasLtForm.h - a matmul graph as one cuBLASLt call -------*- C++ -*-===//
//
// Issue 27's "matmuls on the faster library": a cuDNN graph that is a
// matmul with at most a scalar scale, a bias add and a ReLU or tanh-GELU
// after it is also one cuBLASLt matmul with an epilogue, and for some
// shapes (skinny batch-1 and batch-32 linears, some transformer GEMMs)
// cuBLASLt's kernels are faster than cuDNN's matmul engines. This header
// recognises that form; blas/LtMatmul.h runs it and frontend/
// BlasLtChoice.h times it against the cuDNN plan. CUDA-free, so that the
// recognition is unit-tested on any machine.
//
// The form is in row-major terms, as the description is: D[i] =
// act(alpha * op(A)[i] x op(B)[i] + bias) for i < batch, op(A) m x k,
// op(B) k x n, D m x n, bias one value per column of D.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_BLASLTFORM_H
#define CUDNN_MLIR_RUNTIME_BLASLTFORM_H

#include "cudnn-mlir-runtime/GraphDescription.h"

#include <cstdint>
#include <string>

namespace cmrt::graph {

/// What follows the product; ReLU and GELU apply after the bias.
enum class LtActivation { None, Relu, GeluTanh };

/// One matrix operand (or the result) of the form.
struct LtMatrix {
  int64_t uid = 0;
  int64_t dataType = 0;
  int64_t alignment = 0;
  int64_t rows = 0, cols = 0; // of the logical (row-major) matrix
  /// Stored with its rows contiguous (row-major) or, when `columnMajor`,
  /// its columns; `ld` is the stride between them, in elements.
  bool columnMajor = false;
  int64_t ld = 0;
  int64_t batchStride = 0; // elements; 0: one matrix for every i
};

struct BlasLtForm {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  LtMatrix a, b, d;
  double alpha = 1.0;
  int64_t biasUid = 0; // 0: no bias
  int64_t biasAlignment = 0;
  LtActivation activation = LtActivation::None;
};

/// Whether `graph` (validated) has the form, filling `form`; otherwise
/// `whyNot` names the first thing that does not fit. Fits: one matmul of
/// f16 or bf16 operands with float compute, followed only by (in this
/// order, each optional) a multiply or divide by a by-value scalar, an add
/// of a bias of shape [1, ..., 1, n] in the output's data type, a ReLU
/// (no clipping, no slope) or tanh-approximated GELU, and an identity
/// (a cast); each intermediate tensor virtual, the last one the only
/// output, row-major. A batch whose matrices lie end to end, against one
/// shared B, is folded into m (one larger GEMM).
bool blasLtFormOf(const GraphDescription &graph, BlasLtForm &form,
                  std::string &whyNot);

/// "matmul 32x4096x9216 (x1) half + bias + relu": for logs.
std::string describeBlasLtForm(const BlasLtForm &form);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_BLASLTFORM_H
