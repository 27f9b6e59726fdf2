//===- ElementwiseBeforeExpand.h - elementwise ops before reshapes -*- C++ -*-===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_ELEMENTWISEBEFOREEXPAND_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_ELEMENTWISEBEFOREEXPAND_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// Moves every tcp elementwise op in `root` whose tensor operands are all
/// `tensor.expand_shape`s of the same shape by the same reassociation before
/// the reshape: op(expand(x), expand(y)) becomes expand(op(x, y)). A linear
/// layer's activation written on the (N, H, W, C) view of its 2-D matmul
/// (ConvNeXt's GELU) then follows the matmul directly, and fuses into its
/// graph as an epilogue.
void moveElementwiseBeforeExpandShapes(Operation *root);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_ELEMENTWISEBEFOREEXPAND_H
