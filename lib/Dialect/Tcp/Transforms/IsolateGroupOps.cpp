//===- IsolateGroupOps.cpp - tcp.group to tcp.isolated_group --------------===//

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tcp {
#define GEN_PASS_DEF_TCPISOLATEGROUPOPSPASS
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h.inc"
} // namespace mlir::tcp

using namespace mlir;
using namespace mlir::tcp;

namespace {

/// A constant small enough to copy into every group that uses it.
bool isInlinableConstant(Value value, int64_t maxElements) {
  Operation *def = value.getDefiningOp();
  if (!def || !isa<tcp::ConstOp, arith::ConstantOp>(def))
    return false;
  auto shaped = dyn_cast<ShapedType>(value.getType());
  if (!shaped)
    return true; // A scalar (index or number).
  return shaped.hasStaticShape() && shaped.getNumElements() <= maxElements;
}

void isolate(GroupOp group, int64_t maxInlineConstantElements) {
  Region &body = group.getBody();
  // Captured values in order of first use (ops in order, operands in order),
  // so the operand order is deterministic.
  llvm::SetVector<Value> captured;
  body.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!body.isAncestor(operand.getParentRegion()))
        captured.insert(operand);
  });

  OpBuilder builder(group);
  IRMapping inside;
  SmallVector<Value> operands;
  for (Value value : captured)
    if (!isInlinableConstant(value, maxInlineConstantElements))
      operands.push_back(value);

  auto isolated = IsolatedGroupOp::create(builder, group.getLoc(),
                                          group.getResultTypes(), operands);
  isolated->setAttrs(group->getAttrs());
  Region &newBody = isolated.getBody();
  newBody.takeBody(body);
  Block &block = newBody.front();

  // Clone small constants at the top of the body; everything else captured
  // becomes a block argument.
  OpBuilder inner = OpBuilder::atBlockBegin(&block);
  for (Value value : captured) {
    Value replacement;
    if (isInlinableConstant(value, maxInlineConstantElements))
      replacement = inner.clone(*value.getDefiningOp())->getResult(0);
    else
      replacement = block.addArgument(value.getType(), value.getLoc());
    replaceAllUsesInRegionWith(value, replacement, newBody);
  }
  group.replaceAllUsesWith(isolated.getResults());
  group.erase();
}

struct TcpIsolateGroupOpsPass
    : public tcp::impl::TcpIsolateGroupOpsPassBase<TcpIsolateGroupOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxInlineConstantElements < 0) {
      getOperation().emitError("tcp-isolate-group-ops expects "
                               "max-inline-constant-elements >= 0, but got ")
          << static_cast<int64_t>(maxInlineConstantElements);
      return signalPassFailure();
    }
    SmallVector<GroupOp> groups;
    getOperation().walk([&](GroupOp group) { groups.push_back(group); });
    // Walk order is post-order: inner groups are isolated before the groups
    // that contain them, so an outer group captures what its inner ones do.
    for (GroupOp group : groups)
      isolate(group, maxInlineConstantElements);
  }
};

} // namespace
