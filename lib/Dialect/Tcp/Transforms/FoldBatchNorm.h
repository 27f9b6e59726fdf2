//===- FoldBatchNorm.h - inference batch norm after a conv ------*- C++ -*-===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_FOLDBATCHNORM_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_FOLDBATCHNORM_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// How a batch norm with run-time parameters becomes a conv's epilogue.
enum class BatchNormFoldForm {
  /// y = x * s + (bias - mean * s): two epilogue ops, the fastest.
  Scaled,
  /// y = (x - mean) * s + bias: three epilogue ops, as precise as
  /// PyTorch's batch norm in f16/bf16 (cuDNN's fused epilogue rounds x * s
  /// and the shift, which nearly cancel).
  Centered,
};

/// Folds every inference `tcp.batch_norm` that follows a `tcp.conv2d` or `tcp.conv3d`
/// in `root`, directly or after the conv's bias add (`tcp.add` of the conv):
/// y = x * s + (bias - mean * s) with s = scale / sqrt(var + eps).
/// With constant parameters, s and the new bias are computed now; if the
/// conv's weight is a constant used only there and no bias add comes
/// between, s is folded into it and only the bias add remains. Otherwise s
/// and the bias are computed by tcp ops on the C-element parameters, and the
/// conv gets the epilogue `form` says, which tcp-fuse-for-cudnn then fuses.
void foldBatchNormsAfterConvs(Operation *root, BatchNormFoldForm form);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_FOLDBATCHNORM_H
