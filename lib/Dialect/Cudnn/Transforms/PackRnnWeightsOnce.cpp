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

/// Whether `user` only reads `weights` as the weight space of an RNN call
/// after `pack` in its block.
bool readsAsWeights(Operation *user, Value weights, RnnExecuteOp pack) {
  auto call = dyn_cast<RnnExecuteOp>(user);
  if (!call || call.getWeights() != weights ||
      call->getBlock() != pack->getBlock() || !pack->isBeforeInBlock(call))
    return false;
  switch (call.getCall()) {
  case RnnCall::forward_inference:
  case RnnCall::forward_training:
  case RnnCall::backward_data:
    break;
  default:
    return false;
  }
  // Passed once, as `weights` and as nothing else.
  return llvm::count_if(call->getOperands(),
                        [&](Value v) { return v == weights; }) == 1;
}

/// The deallocations of `pack`'s weight space if the pass may take it over;
/// std::nullopt otherwise.
std::optional<SmallVector<memref::DeallocOp>>
takeableWeightSpace(RnnExecuteOp pack) {
  Value weights = pack.getWeights();
  auto alloc = weights.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != pack->getBlock() ||
      !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity() ||
      alloc.getType().getMemorySpace())
    return std::nullopt;
  if (llvm::count_if(pack->getOperands(),
                     [&](Value v) { return v == weights; }) != 1)
    return std::nullopt;
  SmallVector<memref::DeallocOp> deallocs;
  for (Operation *user : weights.getUsers()) {
    if (user == pack)
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      deallocs.push_back(dealloc);
      continue;
    }
    if (!readsAsWeights(user, weights, pack))
      return std::nullopt;
  }
  return deallocs;
}

struct CudnnPackRnnWeightsOncePass
    : public cudnn::impl::CudnnPackRnnWeightsOncePassBase<
          CudnnPackRnnWeightsOncePass> {
  void runOnOperation() override {
    SmallVector<RnnExecuteOp> packs;
    getOperation().walk([&](RnnExecuteOp op) {
      if (op.getCall() == RnnCall::pack_weights)
        packs.push_back(op);
    });
    for (RnnExecuteOp pack : packs) {
      std::optional<SmallVector<memref::DeallocOp>> deallocs =
          takeableWeightSpace(pack);
      if (!deallocs)
        continue;
      Value weights = pack.getWeights();
      Operation *alloc = weights.getDefiningOp();
      OpBuilder builder(pack);
      auto space = RnnWeightSpaceOp::create(
          builder, pack.getLoc(), weights.getType(), pack.getHandle(),
          pack.getConfig(), pack.getParams());
      for (memref::DeallocOp dealloc : *deallocs)
        dealloc.erase();
      pack.erase();
      weights.replaceAllUsesWith(space.getWeights());
      alloc->erase();
    }
  }
};

} // namespace
