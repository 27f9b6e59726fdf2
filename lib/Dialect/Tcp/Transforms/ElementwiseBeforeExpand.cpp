//===- ElementwiseBeforeExpand.cpp - elementwise ops before reshapes ------===//

#include "ElementwiseBeforeExpand.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace {

/// The expand_shape every tensor operand of `op` comes from, all of one
/// source shape and reassociation; null if `op` is not such an op.
SmallVector<tensor::ExpandShapeOp> commonExpands(Operation *op) {
  if (!isa<tcp::TcpDialect>(op->getDialect()) ||
      !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
      op->getNumOperands() == 0 || op->getNumRegions() != 0)
    return {};
  SmallVector<tensor::ExpandShapeOp> expands;
  for (Value operand : op->getOperands()) {
    auto expand = operand.getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand || !expand.getSrcType().hasStaticShape())
      return {};
    if (!expands.empty() &&
        (expand.getSrcType().getShape() !=
             expands.front().getSrcType().getShape() ||
         expand.getReassociationIndices() !=
             expands.front().getReassociationIndices()))
      return {};
    expands.push_back(expand);
  }
  return expands;
}

} // namespace

void tcp::moveElementwiseBeforeExpandShapes(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (!commonExpands(op).empty())
      ops.push_back(op);
  });
  // Program order: an op moved before its expand can make its user's
  // operands expands of one shape too.
  for (Operation *op : ops) {
    SmallVector<tensor::ExpandShapeOp> expands = commonExpands(op);
    if (expands.empty())
      continue;
    tensor::ExpandShapeOp first = expands.front();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    OpBuilder b(op);
    Operation *moved = b.clone(*op);
    for (auto [i, expand] : llvm::enumerate(expands))
      moved->setOperand(i, expand.getSrc());
    moved->getResult(0).setType(RankedTensorType::get(
        first.getSrcType().getShape(), resultType.getElementType()));
    auto expanded = tensor::ExpandShapeOp::create(
        b, op->getLoc(), resultType, moved->getResult(0),
        first.getReassociationIndices());
    op->getResult(0).replaceAllUsesWith(expanded.getResult());
    op->erase();
    // An expand left without users would keep its source's producer from
    // fusing the moved op (a second user of its result).
    for (tensor::ExpandShapeOp expand : expands)
      if (expand->use_empty())
        expand->erase();
  }
}
