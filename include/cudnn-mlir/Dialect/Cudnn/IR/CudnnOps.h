//===- CudnnOps.h - cudnn dialect ops ---------------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H
#define CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnEnums.h.inc"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"

#define GET_ATTRDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.h.inc"

namespace mlir::cudnn {
/// cuDNN's pointwise broadcast rule, checked by the PointwiseBroadcast trait.
LogicalResult verifyPointwiseBroadcast(Operation *op);
} // namespace mlir::cudnn

namespace mlir::OpTrait::cudnn {
/// Every tensor_desc operand has the result's rank and each of its dimensions
/// equals the result's or is 1.
template <typename ConcreteType>
class PointwiseBroadcast
    : public ::mlir::OpTrait::TraitBase<ConcreteType, PointwiseBroadcast> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::cudnn::verifyPointwiseBroadcast(op);
  }
};
} // namespace mlir::OpTrait::cudnn

#define GET_OP_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h.inc"

#endif // CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H
