//===- SplitForm.cpp - a fused group's split form, for groups cuDNN refuses ===//

#include "SplitForm.h"

#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::cudnn_mlir;

namespace {

/// Ops that cuDNN runs as a graph of their own: the split form keeps them
/// in cuDNN. Everything else of a group is generated code in the split form.
bool runsAlone(Operation *op) {
  std::optional<tcp::CudnnOpSupport> row = tcp::lookupCudnnSupport(op);
  return row && (row->role == tcp::CudnnRole::Anchor ||
                 row->role == tcp::CudnnRole::Norm ||
                 row->role == tcp::CudnnRole::Pooling);
}

bool isConstant(Operation *op) {
  return isa<tcp::ConstOp, arith::ConstantOp>(op);
}

/// Wraps the clone of `anchor` (already in the split form, its operands
/// mapped) in a cuDNN group of its own: constants it reads are cloned in, as
/// tcp-isolate-group-ops does, everything else becomes a block argument.
tcp::IsolatedGroupOp isolateAnchor(RewriterBase &rewriter, Operation *anchor) {
  SmallVector<Value> ins;
  for (Value operand : anchor->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!(def && isConstant(def)) && !llvm::is_contained(ins, operand))
      ins.push_back(operand);
  }
  rewriter.setInsertionPoint(anchor);
  auto group = tcp::IsolatedGroupOp::create(
      rewriter, anchor->getLoc(), anchor->getResultTypes(), ins);
  group->setAttr(tcp::kGroupTypeAttrName,
                 rewriter.getStringAttr(tcp::kCudnnGroupType));
  Block *body = rewriter.createBlock(&group.getBody());
  IRMapping inside;
  for (Value in : ins)
    inside.map(in, body->addArgument(in.getType(), in.getLoc()));
  for (Value operand : anchor->getOperands())
    if (!inside.contains(operand))
      inside.map(operand,
                 rewriter.clone(*operand.getDefiningOp())->getResult(0));
  Operation *clone = rewriter.clone(*anchor, inside);
  tcp::YieldOp::create(rewriter, anchor->getLoc(), clone->getResults());
  rewriter.replaceOp(anchor, group.getResults());
  return group;
}

} // namespace

bool mlir::cudnn_mlir::hasSplitForm(tcp::IsolatedGroupOp group) {
  bool alone = false, generated = false;
  for (Operation &op : group.getBody().front().without_terminator()) {
    if (isConstant(&op))
      continue;
    if (runsAlone(&op))
      alone = true;
    else
      generated = true;
  }
  return alone && generated;
}

bool mlir::cudnn_mlir::hasGeneratedForm(tcp::IsolatedGroupOp group) {
  int transposed = 0, others = 0;
  for (Operation &op : group.getBody().front().without_terminator()) {
    if (isConstant(&op))
      continue;
    (tcp::isTransposedConvolution(&op) ? transposed : others) += 1;
  }
  return transposed == 1 && others == 0;
}

FailureOr<scf::IfOp>
mlir::cudnn_mlir::buildSplitForm(RewriterBase &rewriter,
                                 tcp::IsolatedGroupOp group, Value ran,
                                 ValueRange fused, ConvertAnchorGroup convert,
                                 bool generated) {
  Location loc = group.getLoc();
  auto ifOp = scf::IfOp::create(rewriter, loc, group.getResultTypes(), ran,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, fused);

  // The group's body, cloned with its block arguments read from its
  // operands; then each anchor in a group of its own.
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  Block &body = group.getBody().front();
  IRMapping outside;
  for (auto [arg, in] : llvm::zip(body.getArguments(), group.getIns()))
    outside.map(arg, in);
  SmallVector<Operation *> anchors;
  for (Operation &op : body.without_terminator()) {
    Operation *clone = rewriter.clone(op, outside);
    if (runsAlone(clone) && !generated)
      anchors.push_back(clone);
  }
  // Into the fused graph's results: both branches then yield the same
  // buffers, which keeps deallocation static after bufferization.
  SmallVector<Value> results;
  for (auto [value, into] :
       llvm::zip(body.getTerminator()->getOperands(), fused))
    results.push_back(bufferization::MaterializeInDestinationOp::create(
                          rewriter, loc, into.getType(),
                          outside.lookupOrDefault(value), into)
                          .getResult());
  scf::YieldOp::create(rewriter, loc, results);

  for (Operation *anchor : anchors) {
    tcp::IsolatedGroupOp anchorGroup = isolateAnchor(rewriter, anchor);
    if (failed(convert(anchorGroup))) {
      rewriter.eraseOp(ifOp);
      return failure();
    }
  }
  return ifOp;
}
