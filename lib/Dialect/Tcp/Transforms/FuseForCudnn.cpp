//===- FuseForCudnn.cpp - group tcp ops into cuDNN graphs -----------------===//
//
// For each anchor (conv2d, matmul) in block order, a group is grown:
//  - backwards through a prologue: single-use pointwise ops on the anchor's
//    input that the support table allows before an anchor;
//  - forwards through an epilogue, scanning the ops after the anchor in block
//    order: an op that uses a value of the group joins it if the table allows
//    it after an anchor. The first op that uses a group value but cannot
//    join ends the epilogue: every later op would have to move past it, and
//    it needs the group's value before the group would produce it (the
//    multi-use interleaving upstream mlir-tcp's fuser got wrong).
// A group is materialised after its last op, so every group op's operands
// still dominate it, and every outside use of a group value comes after it.
// Values used outside become the group's results. Broadcasts feeding grouped
// pointwise ops are cloned into the group (cuDNN broadcasts by itself; the
// clone is free), never materialised as graph inputs. Norms and pools are
// groups of one op; the batch-norm policy decides which batch norms become
// groups, and one it requires on cuDNN but cuDNN cannot take is an error.
// Before all that, each attention chain (AttentionPattern.h) that cuDNN's
// attention engines run becomes a group of its own.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseBeforeExpand.h"
#include "FoldBatchNorm.h"
#include "GlobalAveragePool.h"
#include "PatchConv.h"
#include "PoolBeforeEpilogue.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/AttentionPattern.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h"
#include "cudnn-mlir/Support/OpsByReason.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tcp {
#define GEN_PASS_DEF_TCPFUSEFORCUDNNPASS
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h.inc"
} // namespace mlir::tcp

using namespace mlir;
using namespace mlir::tcp;

namespace {

/// One group being formed: its ops (without absorbed broadcasts) and the
/// broadcasts to clone into it.
struct PlannedGroup {
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<Operation *> broadcasts;
  bool hasReduction = false;
};

class GroupPlanner {
public:
  GroupPlanner(Block &block, const CudnnFusionPolicy &policy)
      : block(block), policy(policy) {}

  /// Plans every group of the block, in block order; fails (with an error)
  /// when an op the policy requires on cuDNN cannot run there.
  LogicalResult plan();

  ArrayRef<PlannedGroup> getGroups() const { return groups; }
  /// Why an op was left out, if a specific reason was recorded.
  StringRef getReason(Operation *op) const {
    auto it = reasons.find(op);
    return it == reasons.end() ? StringRef() : StringRef(it->second);
  }

private:
  /// Plans a group for each attention chain cuDNN's attention runs.
  void planAttention();
  void growPrologue(PlannedGroup &group, Operation *anchor);
  void growEpilogue(PlannedGroup &group, Operation *anchor);
  /// Checks `op` against the table and policy for a place in `group`;
  /// records the reason and returns false when it may not join.
  bool mayJoin(PlannedGroup &group, Operation *op, bool asPrologue);
  /// The absorbable broadcast that defines `value`, if any.
  Operation *absorbableBroadcast(Value value) const;
  /// True when `op` or an op nested in it uses a value of `group` (absorbed
  /// broadcasts do not count: the originals stay outside).
  bool usesGroupValue(Operation *op, const PlannedGroup &group) const;
  void addOp(PlannedGroup &group, Operation *op);
  /// Records why `op` stays out (the first reason wins); false when it
  /// already had one.
  bool leaveOut(Operation *op, const Twine &why) {
    return reasons.try_emplace(op, why.str()).second;
  }

  Block &block;
  const CudnnFusionPolicy &policy;
  SmallVector<PlannedGroup> groups;
  DenseSet<Operation *> grouped; // ops in some group
  DenseMap<Operation *, std::string> reasons;
  /// The epilogue chains of anchors that run alone: they stay generated
  /// kernels rather than become the next anchor's prologue.
  DenseSet<Operation *> afterLoneAnchor;
};

bool GroupPlanner::usesGroupValue(Operation *op,
                                  const PlannedGroup &group) const {
  WalkResult result = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && group.ops.contains(def))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

Operation *GroupPlanner::absorbableBroadcast(Value value) const {
  auto broadcast = value.getDefiningOp<BroadcastOp>();
  if (!broadcast || broadcast->getBlock() != &block)
    return nullptr;
  return whyCudnnCannotRun(broadcast, CudnnRole::Broadcast, policy)
                 .empty()
             ? broadcast.getOperation()
             : nullptr;
}

void GroupPlanner::addOp(PlannedGroup &group, Operation *op) {
  group.ops.insert(op);
  grouped.insert(op);
  // Operands of a pointwise op that come from a broadcast are absorbed into
  // the group.
  if (absorbsBroadcasts(op))
    for (Value operand : op->getOperands())
      if (Operation *broadcast = absorbableBroadcast(operand))
        group.broadcasts.insert(broadcast);
  if (lookupCudnnSupport(op)->role == CudnnRole::Reduction)
    group.hasReduction = true;
}

bool GroupPlanner::mayJoin(PlannedGroup &group, Operation *op,
                           bool asPrologue) {
  if (grouped.contains(op))
    return false; // Already in another group (which keeps it).
  std::optional<CudnnOpSupport> row = lookupCudnnSupport(op);
  if (!row) {
    leaveOut(op, "not an op cuDNN graphs run (see the support table)");
    return false;
  }
  bool placeOk = asPrologue ? row->inPrologue : row->inEpilogue;
  if (!placeOk || row->role == CudnnRole::Broadcast) {
    leaveOut(op, Twine("cuDNN fusion allows no ") + op->getName().getStringRef() +
                     (asPrologue ? " before" : " after") + " a conv/matmul");
    return false;
  }
  std::string typeReason = whyCudnnCannotRun(op, row->role, policy);
  if (!typeReason.empty()) {
    leaveOut(op, typeReason);
    return false;
  }
  if (group.hasReduction) {
    leaveOut(op, "follows the graph's reduction, which ends its epilogue");
    return false;
  }
  if (group.ops.size() >= policy.maxOps) {
    leaveOut(op, Twine("the graph already has max-ops = ") +
                     Twine(policy.maxOps) + " ops");
    return false;
  }
  return true;
}

/// The dimension of the anchor's input (operand 0) that cuDNN's prologue
/// scales and biases per channel: C of a conv's NCHW input, K (the last) of
/// a matmul's.
static int64_t prologueChannelDim(Operation *anchor) {
  return isConvolution(anchor)
             ? 1
             : cast<RankedTensorType>(anchor->getOperand(0).getType())
                       .getRank() -
                   1;
}

/// True when `broadcast` (of the anchor's input shape) replicates a tensor
/// with one value per channel: every dimension but the channel's is 1 in
/// its source. A per-sample scale (N x C x 1 x 1, a squeeze-and-excitation
/// block's) is not: cuDNN's prologue finds no engine for it.
static bool isPerChannel(Operation *broadcast, int64_t channelDim) {
  auto source = cast<RankedTensorType>(broadcast->getOperand(0).getType());
  auto result = cast<RankedTensorType>(broadcast->getResult(0).getType());
  for (int64_t d = 0; d < source.getRank(); ++d) {
    int64_t size = source.getDimSize(d);
    if (d == channelDim ? size != result.getDimSize(d) : size != 1)
      return false;
  }
  return true;
}

void GroupPlanner::growPrologue(PlannedGroup &group, Operation *anchor) {
  // cuDNN's runtime fusion runs a prologue on the anchor's input (operand 0):
  // per-channel scale, bias, ReLU. Each prologue op must feed only the
  // group.
  // Measured on an H100 (docs/fusion.md, "Fusion by cost"): cuDNN's
  // prologue engines run a conv several times slower than its precompiled
  // engines (VGG's 3x3 convs at 224x224: 851 us fused against about 100 us
  // alone), so the chain left by an anchor that runs alone (a stem's bias
  // and ReLU) stays a generated kernel, and prologues=false keeps every
  // prologue out.
  int64_t channelDim = prologueChannelDim(anchor);
  Value chain = anchor->getOperand(0);
  while (Operation *op = chain.getDefiningOp()) {
    if (op->getBlock() != &block || !op->hasOneUse() ||
        afterLoneAnchor.contains(op))
      return;
    if (!policy.prologues) {
      std::optional<CudnnOpSupport> row = lookupCudnnSupport(op);
      if (row && row->inPrologue)
        leaveOut(op, "prologues=false keeps pointwise ops out of the graph "
                     "of the conv/matmul they feed");
      return;
    }
    if (!mayJoin(group, op, /*asPrologue=*/true))
      return;
    // Unary ops continue through their input; binary ones through the
    // operand that is not a per-channel broadcast (scale * x, x + bias).
    Value next = op->getOperand(0);
    if (op->getNumOperands() == 2) {
      Operation *lhsBroadcast = absorbableBroadcast(op->getOperand(0));
      Operation *rhsBroadcast = absorbableBroadcast(op->getOperand(1));
      if (!lhsBroadcast == !rhsBroadcast) {
        leaveOut(op, "a binary prologue op needs one per-channel broadcast "
                     "operand (scale or bias)");
        return;
      }
      Operation *broadcast = lhsBroadcast ? lhsBroadcast : rhsBroadcast;
      if (!isPerChannel(broadcast, channelDim)) {
        leaveOut(op, Twine("a binary prologue op needs a per-channel "
                           "operand (1 except in dim ") +
                         Twine(channelDim) + "), but its broadcast is of " +
                         llvm::formatv("{0}", broadcast->getOperand(0).getType())
                             .str());
        return;
      }
      next = lhsBroadcast ? op->getOperand(1) : op->getOperand(0);
    }
    addOp(group, op);
    chain = next;
  }
}

void GroupPlanner::growEpilogue(PlannedGroup &group, Operation *anchor) {
  for (Operation *op = anchor->getNextNode(); op; op = op->getNextNode()) {
    if (!usesGroupValue(op, group))
      continue;
    if (!mayJoin(group, op, /*asPrologue=*/false))
      return;
    addOp(group, op);
  }
}

void GroupPlanner::planAttention() {
  // Swin's shifted windows add two biases at two batch groupings; as one
  // bias the chain is one cuDNN attention graph.
  mergeWindowAttentionBiases(block);
  for (Operation &op : block) {
    std::optional<AttentionMatch> match = matchAttention(&op);
    if (!match)
      continue;
    std::string why = whyCudnnCannotRunAttention(*match);
    if (why.empty() && policy.targetSm < 80)
      why = "cuDNN's attention engines need sm_80 or later, but target-sm "
            "is " +
            std::to_string(policy.targetSm);
    int64_t keys =
        cast<RankedTensorType>(match->value.getType()).getShape().end()[-2];
    if (why.empty() && keys < policy.attentionMinKeys)
      why = llvm::formatv("{0} keys: cuDNN's flash attention is slower than "
                          "the matmuls and a softmax below {1} "
                          "(attention-min-keys)",
                          keys, policy.attentionMinKeys)
                .str();
    if (!why.empty()) {
      // The matmuls may still anchor graphs of their own; the softmax
      // between them stays generated code, for this reason.
      for (Operation *member : match->ops)
        if (!isa<BatchMatmulOp>(member))
          leaveOut(member, "not fused as attention: " + why);
      continue;
    }
    PlannedGroup &group = groups.emplace_back();
    for (Operation *member : match->ops) {
      group.ops.insert(member);
      grouped.insert(member);
    }
    for (Operation *broadcast : match->broadcasts)
      group.broadcasts.insert(broadcast);
  }
}

LogicalResult GroupPlanner::plan() {
  planAttention();
  for (Operation &op : block) {
    if (grouped.contains(&op))
      continue;
    std::optional<CudnnOpSupport> row = lookupCudnnSupport(&op);
    if (!row || !buildsGraph(row->role))
      continue;
    std::string typeReason = whyCudnnCannotRun(&op, row->role, policy);
    if (!typeReason.empty() && isCudnnRequired(&op, policy))
      return op.emitOpError("cannot run on cuDNN, which batch-norm=cudnn "
                            "asks for: ")
             << typeReason;
    if (!typeReason.empty()) {
      leaveOut(&op, typeReason);
      continue;
    }
    groups.emplace_back();
    PlannedGroup &group = groups.back();
    addOp(group, &op);
    if (row->role == CudnnRole::Norm || row->role == CudnnRole::Pooling)
      continue; // A norm or resample graph of its own.
    if (std::string alone = whyAnchorRunsAlone(&op); !alone.empty()) {
      // The reason goes to every op the epilogue could have taken (the
      // chain of epilogue-capable users, also after a max pool moved before
      // them: PoolBeforeEpilogue.h) and to the input's producer.
      SmallVector<Operation *> worklist(op.getUsers().begin(),
                                        op.getUsers().end());
      while (!worklist.empty()) {
        Operation *user = worklist.pop_back_val();
        if (isa<MaxPool2DOp>(user) && user->getBlock() == &block &&
            afterLoneAnchor.insert(user).second) {
          worklist.append(user->getUsers().begin(), user->getUsers().end());
          continue;
        }
        std::optional<CudnnOpSupport> userRow = lookupCudnnSupport(user);
        if (user->getBlock() != &block || !userRow || !userRow->inEpilogue ||
            !afterLoneAnchor.insert(user).second)
          continue;
        leaveOut(user, alone);
        worklist.append(user->getUsers().begin(), user->getUsers().end());
      }
      if (Operation *producer = op.getOperand(0).getDefiningOp())
        leaveOut(producer, alone);
      continue;
    }
    growPrologue(group, &op);
    growEpilogue(group, &op);
  }
  return success();
}

/// Replaces the planned ops by one tcp.group after the last of them.
void materialize(const PlannedGroup &planned, MLIRContext *ctx) {
  SmallVector<Operation *> ops(planned.ops.begin(), planned.ops.end());
  llvm::sort(ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());

  // Results used outside the group, in op order, become its results.
  SmallVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *inBlock = ops.front()->getBlock()->findAncestorOpInBlock(*user);
            return !inBlock || !members.contains(inBlock);
          }))
        escaping.push_back(result);

  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(ops.back());
  auto group = GroupOp::create(builder, ops.back()->getLoc(),
                               ValueRange(escaping).getTypes());
  group->setAttr(kGroupTypeAttrName, builder.getStringAttr(kCudnnGroupType));
  Block *body = builder.createBlock(&group.getBody());

  // Broadcasts are cloned (the originals may have other users).
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (Operation *broadcast : planned.broadcasts)
    mapping.map(broadcast->getResult(0),
                builder.clone(*broadcast)->getResult(0));
  for (Operation *op : ops) {
    op->moveBefore(body, body->end());
    if (!absorbsBroadcasts(op))
      continue;
    for (OpOperand &operand : op->getOpOperands())
      if (Value clone = mapping.lookupOrNull(operand.get()))
        operand.set(clone);
  }
  builder.setInsertionPointToEnd(body);
  YieldOp::create(builder, group.getLoc(), escaping);

  for (auto [value, result] : llvm::zip(escaping, group.getResults()))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !group->isProperAncestor(use.getOwner());
    });
  for (Operation *broadcast : planned.broadcasts)
    if (broadcast->use_empty())
      broadcast->erase();
}

/// Why `op`, a tcp op outside every group, is not in a cuDNN graph.
std::string whyLeftOut(Operation &op, const GroupPlanner &planner) {
  StringRef reason = planner.getReason(&op);
  if (!reason.empty())
    return reason.str();
  std::optional<CudnnOpSupport> row = lookupCudnnSupport(&op);
  if (!row)
    return "not an op cuDNN graphs run (see the support table)";
  if (row->role == CudnnRole::Reduction)
    return "a reduction with no conv/matmul epilogue to end (cuDNN graphs "
           "reduce only there); a generated reduction kernel runs it";
  if (row->role != CudnnRole::Broadcast)
    return "no conv/matmul anchor it could join (cuDNN runs no "
           "pointwise-only graph on sm_90)";
  auto needsTensor = llvm::find_if(
      op.getUsers(), [](Operation *user) { return !absorbsBroadcasts(user); });
  if (needsTensor == op.getUsers().end())
    return "feeds no grouped pointwise op";
  return "feeds '" + (*needsTensor)->getName().getStringRef().str() +
         "', which takes the broadcast tensor (only pointwise ops broadcast "
         "in cuDNN graphs)";
}

/// One remark per reason a tcp op was left outside cuDNN graphs, on the
/// first such op, with how many ops share it: a model's report is a line
/// per reason, not per op.
void reportLeftOut(Block &block, const GroupPlanner &planner) {
  cudnn_mlir::OpsByReason byReason;
  for (Operation &op : block) {
    if (op.getDialect() == nullptr ||
        op.getDialect()->getNamespace() != TcpDialect::getDialectNamespace() ||
        isa<ConstOp, GroupOp, IsolatedGroupOp, YieldOp>(op))
      continue;
    byReason.add(whyLeftOut(op, planner), &op);
  }
  for (const auto &[reason, ops] : byReason.getGroups()) {
    if (ops.size() == 1)
      ops.front()->emitRemark("left out of cuDNN graphs: ") << reason;
    else
      ops.front()->emitRemark("left out of cuDNN graphs, ")
          << ops.size() << " ops (the first here): " << reason;
  }
}

struct TcpFuseForCudnnPass
    : public tcp::impl::TcpFuseForCudnnPassBase<TcpFuseForCudnnPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<CudnnFusionPolicy> policy =
        makeCudnnFusionPolicy(getOperation(), getArgument(), targetSm, fuseFp32,
                              maxOps, batchNorm, allowTf32Matmul);
    if (failed(policy))
      return signalPassFailure();
    policy->prologues = prologues;
    policy->attentionMinKeys = attentionMinKeys;
    if (globalPool != "cudnn" && globalPool != "codegen") {
      getOperation()->emitError()
          << getArgument() << " expects global-pool=cudnn or codegen, but got '"
          << globalPool << "'";
      return signalPassFailure();
    }
    if (batchNormFold != "scaled" && batchNormFold != "centered") {
      getOperation()->emitError()
          << getArgument()
          << " expects batch-norm-fold=scaled or centered, but got '"
          << batchNormFold << "'";
      return signalPassFailure();
    }
    if (foldBatchNorm)
      foldBatchNormsAfterConvs(getOperation(),
                               batchNormFold == "centered"
                                   ? BatchNormFoldForm::Centered
                                   : BatchNormFoldForm::Scaled);
    moveElementwiseBeforeExpandShapes(getOperation());
    movePoolsBeforeLoneConvEpilogues(getOperation());
    if (patchConvAsMatmul)
      rewritePatchConvsAsMatmuls(getOperation());
    if (globalPool == "cudnn")
      rewriteGlobalAveragePools(getOperation());
    else
      rewriteGlobalAveragePoolsAsMeans(getOperation());
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) {
      Operation *parent = block->getParentOp();
      if (!isa<GroupOp, IsolatedGroupOp>(parent))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      GroupPlanner planner(*block, *policy);
      if (failed(planner.plan()))
        return signalPassFailure();
      for (const PlannedGroup &group : planner.getGroups())
        materialize(group, &getContext());
      // After materialising, the block's tcp ops are exactly those left out
      // (absorbed broadcasts with no other user are gone).
      if (report)
        reportLeftOut(*block, planner);
    }
  }
};

} // namespace
