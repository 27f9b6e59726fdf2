//===- PackRnnWeightsOnce.cpp - RNN weight spaces the runtime keeps -------===//
//
// A call-local weight space (alloc, pack, reads, dealloc) becomes
// cudnn.rnn_weight_space, which the runtime fills only when the parameters
// changed.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::cudnn {
#define GEN_PASS_DEF_CUDNNPACKRNNWEIGHTSONCEPASS
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"
} // namespace mlir::cudnn

using namespace mlir;
using namespace mlir::cudnn;

namespace {

/// How many of `op`'s operands are `value`.
int64_t timesPassed(Operation *op, Value value) {
  return llvm::count(op->getOperands(), value);
}

/// Why `user` cannot stay a reader of the runtime's weight space, or ""
/// when it only reads `weights` as the weight space of a forward or
/// backward-data call after `pack` in its block.
std::string whyNotAReader(Operation *user, Value weights, RnnExecuteOp pack) {
  auto call = dyn_cast<RnnExecuteOp>(user);
  if (!call || call.getWeights() != weights)
    return "it is used by '" + user->getName().getStringRef().str() +
           "', not only as an RNN call's weights";
  if (call->getBlock() != pack->getBlock() || !pack->isBeforeInBlock(call))
    return "an RNN call reads it outside the pack's block or before the pack";
  switch (call.getCall()) {
  case RnnCall::forward_inference:
  case RnnCall::forward_training:
  case RnnCall::backward_data:
    break;
  default:
    return "a " + stringifyRnnCall(call.getCall()).str() +
           " call takes it as an operand";
  }
  if (timesPassed(call, weights) != 1)
    return "an RNN call takes it as more than its weights";
  return "";
}

/// The deallocations of `pack`'s weight space if the pass may take it over;
/// otherwise std::nullopt and the reason in `why`.
std::optional<SmallVector<memref::DeallocOp>>
takeableWeightSpace(RnnExecuteOp pack, std::string &why) {
  Value weights = pack.getWeights();
  auto alloc = weights.getDefiningOp<memref::AllocOp>();
  if (!alloc) {
    why = "it is not an allocation of the function";
    return std::nullopt;
  }
  MemRefType type = alloc.getType();
  if (alloc->getBlock() != pack->getBlock() || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || type.getMemorySpace()) {
    why = "its allocation is not a static, identity-layout buffer in the "
          "pack's block";
    return std::nullopt;
  }
  if (timesPassed(pack, weights) != 1) {
    why = "the pack also takes it as a parameter";
    return std::nullopt;
  }
  SmallVector<memref::DeallocOp> deallocs;
  for (Operation *user : weights.getUsers()) {
    if (user == pack)
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      deallocs.push_back(dealloc);
      continue;
    }
    why = whyNotAReader(user, weights, pack);
    if (!why.empty())
      return std::nullopt;
  }
  return deallocs;
}

struct CudnnPackRnnWeightsOncePass
    : public cudnn::impl::CudnnPackRnnWeightsOncePassBase<
          CudnnPackRnnWeightsOncePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<RnnExecuteOp> packs;
    getOperation().walk([&](RnnExecuteOp op) {
      if (op.getCall() == RnnCall::pack_weights)
        packs.push_back(op);
    });
    for (RnnExecuteOp pack : packs) {
      std::string why;
      std::optional<SmallVector<memref::DeallocOp>> deallocs =
          takeableWeightSpace(pack, why);
      if (!deallocs) {
        if (report)
          pack.emitRemark("weight space packed on every call: ") << why;
        continue;
      }
      Value weights = pack.getWeights();
      Operation *alloc = weights.getDefiningOp();
      OpBuilder builder(pack);
      auto space = RnnWeightSpaceOp::create(
          builder, pack.getLoc(), weights.getType(), pack.getHandle(),
          pack.getConfig(), pack.getParams());
      if (report)
        space.emitRemark("weight space kept by the runtime, packed once per "
                         "parameter set");
      for (memref::DeallocOp dealloc : *deallocs)
        dealloc.erase();
      pack.erase();
      weights.replaceAllUsesWith(space.getWeights());
      alloc->erase();
    }
  }
};

} // namespace
