//===- FuseElementwise.cpp - linalg fusion with a GPU cost model ----------===//
//
// Upstream's elementwise fusion, driven by a control function that fuses an
// all-parallel producer into every consumer: on a GPU limited by memory
// bandwidth, recomputing a producer's few arithmetic ops in each consumer is
// cheaper than writing its result and reading it back. Upstream's own pass
// fuses only single-use producers, which would leave softmax's shared
// `exp(x - max)` as a kernel of its own. A producer read through a
// broadcasting map is fused only when that removes its kernel. A producer
// that several reductions read (a split conv's bias before a layer norm's
// two sums) is first copied, one copy per reduction, so that each fuses.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENFUSEELEMENTWISEPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

/// Whether `op` reads nothing but its function's arguments and constants
/// (through its operands and its body).
bool readsOnlyArgumentsAndConstants(linalg::GenericOp op) {
  llvm::SetVector<Value> read;
  for (Value input : op.getDpsInputs())
    read.insert(input);
  getUsedValuesDefinedAbove(op->getRegions(), read);
  auto func = op->getParentOfType<FunctionOpInterface>();
  return func && llvm::all_of(read, [&](Value value) {
           if (matchPattern(value, m_Constant()))
             return true;
           // A reshape of an argument (a parameter seen as 1x1x1xC).
           while (Operation *def = value.getDefiningOp()) {
             if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
               return false;
             value = def->getOperand(0);
           }
           auto arg = dyn_cast<BlockArgument>(value);
           return arg && arg.getOwner()->isEntryBlock() &&
                  arg.getOwner()->getParentOp() == func.getOperation();
         });
}

/// How many tensors of the producer's full size it reads: operands read
/// through a permutation of its loops, and tensors at least as large as its
/// iteration space that its body reads through `tensor.extract` (a concat's
/// or a slice's sources).
int64_t fullSizeReads(linalg::GenericOp producer) {
  int64_t count = 0;
  for (OpOperand *input : producer.getDpsInputOperands())
    if (producer.getMatchingIndexingMap(input).isPermutation())
      ++count;
  std::optional<int64_t> space;
  if (auto type = dyn_cast<RankedTensorType>(producer->getResult(0).getType());
      type && type.hasStaticShape())
    space = type.getNumElements();
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(producer->getRegions(), captured);
  for (Value value : captured) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (type && type.hasStaticShape() && space &&
        type.getNumElements() >= *space)
      ++count;
  }
  return count;
}

/// Fuses a producer generic whose iterators are all parallel. Producers that
/// read other tensors through `tensor.extract` (gathers, slices, pooling)
/// are fused too: the reads move with them.
bool shouldFuse(OpOperand *fusedOperand) {
  auto producer = fusedOperand->get().getDefiningOp<linalg::GenericOp>();
  if (!producer)
    return false;
  // A consumer whose reduction merges by a named rule (Welford states) keeps
  // its form: the fused op would lose the mark that allows the merge.
  auto consumer = cast<linalg::GenericOp>(fusedOperand->getOwner());
  if (consumer->hasAttr("codegen.combiner"))
    return false;
  if (producer.getNumParallelLoops() != producer.getNumLoops())
    return false;
  // A reduction's outputs are its accumulators. Fusion keeps a producer
  // result as an extra output of the fused op while the result has other
  // users (a consumer already fused but not yet erased counts: the greedy
  // driver tries again once it is gone) or when the producer's output is the
  // only operand left that sizes some loop (a generated conv reads its data
  // through `tensor.extract`, a batch norm its parameters through
  // broadcasts). In a reduction that output would move with the reduced
  // loops, which no kernel strategy writes; the producer stays a kernel of
  // its own and the reduction reads its result.
  if (consumer.getNumReductionLoops() != 0 &&
      !linalg::getPreservedProducerResults(producer, consumer, fusedOperand)
           .empty())
    return false;
  // Through a broadcasting map every producer element would be recomputed
  // once per consumer element it feeds (batch norm's per-channel inverse
  // deviation, a division and a square root, once per activation). That
  // only pays when it removes the producer's kernel: when the producer has
  // other users, it runs anyway and the consumer reads its result.
  //
  // Through a permutation map, recomputing removes the producer's kernel
  // when the consumer is its only user. When it has other users it runs
  // anyway, and recomputing pays only while it reads no more than one
  // full-size tensor (its result read back would cost as much): a
  // residual add `x + f(x)` that feeds both the next block and the next
  // add would otherwise be recomputed from every earlier block's output in
  // each later one (ViT-B/16: 12 chained adds, the last kernel reading 25
  // tensors).
  if (consumer.getMatchingIndexingMap(fusedOperand).isPermutation()) {
    bool onlyUser = llvm::all_of(producer->getUsers(), [&](Operation *user) {
      return user == consumer.getOperation();
    });
    // Parameter computations (a folded batch norm's scale, read by the
    // weights and the shift) keep being recomputed: they run on per-channel
    // vectors, where a separate kernel costs more than the reads.
    return onlyUser || fullSizeReads(producer) <= 1 ||
           readsOnlyArgumentsAndConstants(producer);
  }
  // A producer on the function's arguments and constants only (a batch
  // norm's scale and shift from its parameters) is hoisted and merged with
  // the other parameter kernels into one launch
  // (codegen-hoist-parameter-kernels, codegen-merge-launches): its kernel
  // costs next to nothing, its recomputation per element does not.
  if (readsOnlyArgumentsAndConstants(producer))
    return false;
  return llvm::all_of(producer->getUsers(), [&](Operation *user) {
    return user == consumer.getOperation();
  });
}

/// Whether `consumer` takes `use` in through its loops' permutation (no
/// broadcast, no merge rule), so that a producer of it can fuse.
bool readsWholeThroughLoops(OpOperand &use) {
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  return consumer && !consumer->hasAttr("codegen.combiner") &&
         consumer.isDpsInput(&use) &&
         consumer.getMatchingIndexingMap(&use).isPermutation();
}

/// Whether `producer`'s body is a few plain arithmetic ops (a bias add, a
/// scale, a mask), cheap enough to compute once per reader: no math-dialect
/// function (exp, erf, tanh...), whose copies in a norm's three generics
/// could make a memory-bound kernel compute-bound.
bool isCheapToRecompute(linalg::GenericOp producer) {
  constexpr int64_t kMaxCopiedOps = 16;
  int64_t count = 0;
  WalkResult walk = producer.getRegion().walk([&](Operation *op) {
    if (isa<linalg::YieldOp>(op))
      return WalkResult::advance();
    if (op->getDialect() && op->getDialect()->getNamespace() ==
                                math::MathDialect::getDialectNamespace())
      return WalkResult::interrupt();
    return ++count > kMaxCopiedOps ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// A reduction cannot keep a producer's result as an extra output, so a
/// producer that a reduction reads beside other consumers stays a kernel of
/// its own (a depthwise conv's bias, split from the conv by cost, before a
/// layer norm's sum, sum of squares and normalisation: the bias kernel wrote
/// and the norm read back the whole activation). Where every reader takes
/// the producer in whole (so that, fused everywhere, its kernel goes) and
/// it reads at most one full-size tensor (so that each reader reads that
/// tensor instead of the result: the same bytes), each reduction gets a copy
/// of its own, which then fuses as a single-use producer; only a cheap one
/// (isCheapToRecompute).
bool copyProducersForReductions(Operation *root) {
  bool copied = false;
  SmallVector<linalg::GenericOp> producers;
  root->walk([&](linalg::GenericOp op) {
    if (op->getNumResults() == 1 &&
        op.getNumParallelLoops() == op.getNumLoops())
      producers.push_back(op);
  });
  for (linalg::GenericOp producer : producers) {
    Value result = producer->getResult(0);
    if (result.hasOneUse() || fullSizeReads(producer) > 1 ||
        readsOnlyArgumentsAndConstants(producer) ||
        !isCheapToRecompute(producer) ||
        !llvm::all_of(result.getUses(), readsWholeThroughLoops))
      continue;
    SmallVector<OpOperand *> reductionUses;
    for (OpOperand &use : result.getUses())
      if (cast<linalg::GenericOp>(use.getOwner()).getNumReductionLoops() != 0)
        reductionUses.push_back(&use);
    for (OpOperand *use : reductionUses) {
      OpBuilder b(use->getOwner());
      use->set(b.clone(*producer)->getResult(0));
      copied = true;
    }
  }
  return copied;
}

struct CodegenFuseElementwisePass
    : public cudnn_mlir::impl::CodegenFuseElementwisePassBase<
          CodegenFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::FillOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Fusion first folds broadcasts into their readers, so that a bias add
    // reads one full-size tensor; the copies for reductions then fuse in a
    // second round (a copy fuses as soon as it exists: the rounds are
    // bounded only for safety).
    for (int round = 0; round < 4; ++round) {
      if (failed(applyPatternsGreedily(getOperation(), frozen)))
        return signalPassFailure();
      if (!copyProducersForReductions(getOperation()))
        break;
    }
  }
};

} // namespace
