//===- FoldBatchNorm.h - inference batch norm after a conv ------*- C++ -*-===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_FOLDBATCHNORM_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_FOLDBATCHNORM_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// Folds every inference `tcp.batch_norm` that follows a `tcp.conv2d` in
/// `root`, directly or after the conv's bias add (`tcp.add` of the conv):
/// y = x * s + (bias - mean * s) with s = scale / sqrt(var + eps).
/// With constant parameters, s and the new bias are computed now; if the
/// conv's weight is a constant used only there and no bias add comes
/// between, s is folded into it and only the bias add remains. Otherwise s
/// and the bias are computed by tcp ops on the C-element parameters, and the
/// conv gets a scale+bias epilogue that tcp-fuse-for-cudnn then fuses.
void foldBatchNormsAfterConvs(Operation *root);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_FOLDBATCHNORM_H
