//===- TcpOps.h - tcp ops, enums and attributes -----------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_TCP_IR_TCPOPS_H
#define CUDNN_MLIR_DIALECT_TCP_IR_TCPOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "cudnn-mlir/Dialect/Tcp/IR/TcpAttrs.h.inc"

#define GET_OP_CLASSES
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h.inc"

namespace mlir::tcp {
/// The attribute of tcp.group / tcp.isolated_group that says what the group
/// is for, and its value for groups that become cuDNN graphs.
inline constexpr llvm::StringLiteral kGroupTypeAttrName = "group_type";
inline constexpr llvm::StringLiteral kCudnnGroupType = "cudnn";

/// `value`, a ranked float tensor, with `elementType` elements: a tcp.cast,
/// or `value` itself when it already has them.
Value castElementsTo(OpBuilder &b, Location loc, Value value, Type elementType);

/// The input of `value` when `value` is a tcp.transpose that swaps the last
/// two dims and keeps the others (rank >= 2): a matmul operand that cuBLAS
/// and cuDNN read transposed instead of copying it. Null otherwise.
Value getLastDimsTransposeSource(Value value);

/// True for the transposed convolutions, tcp.conv_transpose2d and
/// tcp.conv_transpose3d.
inline bool isTransposedConvolution(Operation *op) {
  return isa<ConvTranspose2DOp, ConvTranspose3DOp>(op);
}

/// True for the forward convolutions, tcp.conv2d and tcp.conv3d.
inline bool isConvolution(Operation *op) {
  return isa<Conv2DOp, Conv3DOp>(op);
}

/// The group count of `op`, a tcp.conv2d or tcp.conv3d.
inline int64_t getConvolutionGroupCount(Operation *op) {
  if (auto conv = dyn_cast<Conv3DOp>(op))
    return conv.getGroupCount();
  return cast<Conv2DOp>(op).getGroupCount();
}
} // namespace mlir::tcp

#endif // CUDNN_MLIR_DIALECT_TCP_IR_TCPOPS_H
