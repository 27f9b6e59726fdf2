//===- CudnnOps.h - cudnn dialect ops ---------------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H
#define CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnEnums.h.inc"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"

#define GET_ATTRDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.h.inc"

namespace mlir::cudnn {
/// cuDNN's pointwise broadcast rule, checked by the PointwiseBroadcast trait.
LogicalResult verifyPointwiseBroadcast(Operation *op);

/// The shapes of the tensors of one RNN call of `config`, given x's (or y's)
/// [seq, batch, vector] or [batch, seq, vector] shape.
struct RnnShapes {
  SmallVector<int64_t> x, y, h, c;
};
RnnShapes getRnnShapes(RnnConfigAttr config, ArrayRef<int64_t> seq);

/// Gates per cell (rows per unit of hidden_size in weight_ih and weight_hh):
/// 4 (LSTM), 3 (GRU), 1 (vanilla RNN).
int64_t getRnnGateCount(RnnCellMode cell);

/// How many parameters PyTorch gives an RNN: per layer and direction two
/// weights, two biases with `hasBiases`, weight_hr when `projected` (LSTM
/// only); INT64_MAX when that overflows.
int64_t getRnnParamCount(RnnCellMode cell, int64_t numLayers,
                         bool bidirectional, bool hasBiases, bool projected);

/// Checks PyTorch parameter types (`what` #i: "parameter", "result")
/// against the parameters an RNN of `config` takes (the runtime's
/// describeWeights: count, torch.nn names, shapes), and that they share one
/// float element type. Returns the 1-D weight space they pack into.
FailureOr<RankedTensorType>
verifyRnnParams(RnnConfigAttr config, TypeRange params, StringRef what,
                function_ref<InFlightDiagnostic()> emitError);
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
