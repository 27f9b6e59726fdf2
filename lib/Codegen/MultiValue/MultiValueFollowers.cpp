//===- MultiValueFollowers.cpp - elementwise ops a reduction's kernel runs -===//
//
// Which elementwise generic after a multi-value reduction and its epilogue
// (batch norm's normalisation) the reduction's kernel can run as well, seen
// through the reduction's loops, and its per-output inputs.
//
//===----------------------------------------------------------------------===//

#include "MultiValueReduction.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen::multivalue {

/// The follower's per-output inputs at output `output` (the reduction's
/// loops at reduced position 0), x's place left empty, then a zero for
/// the output's argument (which the body does not read).
SmallVector<Value> followerInvariants(Emitter &e, const Follower &f,
                                      Value output) {
  ImplicitLocOpBuilder &b = e.b;
  linalg::GenericOp op = f.op;
  SmallVector<Value> loops = e.loopsAt(output, Value());
  SmallVector<Value> arguments;
  for (auto [i, input] : llvm::enumerate(op.getDpsInputOperands())) {
    if (i == f.xInput)
      arguments.push_back(Value());
    else if (!isa<MemRefType>(input->get().getType()))
      arguments.push_back(input->get());
    else
      arguments.push_back(memref::LoadOp::create(
          b, input->get(), applyMap(b, f.maps[i], loops)));
  }
  arguments.push_back(arith::ConstantOp::create(
      b, b.getZeroAttr(getElementTypeOrSelf(op.getDpsInits()[0]))));
  return arguments;
}

namespace {

/// The elementwise generic right after `e`'s reduction and its `epilogue`
/// (allocations between them aside) that could run in the reduction's
/// kernel: all parallel over the same loops, one output, no linalg.index,
/// no read of its output; one input is an input x of the reduction (for
/// which `xFits` holds) through a permutation, as the reduction reads it;
/// the others do not move with the reduced loops; the output is no buffer
/// the reduction, the epilogue or the follower's inputs use.
std::optional<Follower>
matchFollower(const Emitter &e, linalg::GenericOp epilogue,
              function_ref<bool(OpOperand &)> xFits) {
  linalg::GenericOp op = e.op;
  if (!epilogue)
    return std::nullopt;
  Operation *next = epilogue->getNextNode();
  while (next && isa<memref::AllocOp>(next))
    next = next->getNextNode();
  auto follower = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!follower || !follower.hasPureBufferSemantics() ||
      follower.getNumReductionLoops() != 0 ||
      follower.getNumLoops() != op.getNumLoops() ||
      follower.getNumDpsInits() != 1 ||
      !follower.getRegionOutputArgs()[0].use_empty() ||
      !follower.getBody()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  Follower found;
  found.op = follower;
  std::optional<AffineMap> toFollower;
  for (auto [i, input] : llvm::enumerate(follower.getDpsInputOperands())) {
    for (auto [r, reduced] : llvm::enumerate(op.getDpsInputOperands())) {
      AffineMap followerMap = follower.getMatchingIndexingMap(input);
      AffineMap reductionMap = op.getMatchingIndexingMap(reduced);
      if (input->get() != reduced->get() || !followerMap.isPermutation() ||
          !reductionMap.isPermutation() || !xFits(*reduced))
        continue;
      toFollower = inversePermutation(followerMap).compose(reductionMap);
      found.xInput = i;
      found.reductionInput = r;
      break;
    }
    if (toFollower)
      break;
  }
  if (!toFollower)
    return std::nullopt;
  for (OpOperand &operand : follower->getOpOperands())
    found.maps.push_back(
        follower.getMatchingIndexingMap(&operand).compose(*toFollower));
  for (auto [i, input] : llvm::enumerate(follower.getDpsInputOperands())) {
    if (i == found.xInput || !isa<ShapedType>(input->get().getType()))
      continue;
    if (!isa<MemRefType>(input->get().getType()))
      return std::nullopt;
    for (auto [dim, iterator] : llvm::enumerate(e.iterators))
      if (iterator == utils::IteratorType::reduction &&
          found.maps[i].isFunctionOfDim(dim))
        return std::nullopt;
  }
  Value y = follower.getDpsInits()[0];
  if (getElementTypeOrSelf(y).getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  for (Operation *user : {op.getOperation(), epilogue.getOperation()})
    for (Value operand : user->getOperands())
      if (operand == y)
        return std::nullopt;
  for (OpOperand *input : follower.getDpsInputOperands())
    if (input->get() == y)
      return std::nullopt;
  return found;
}

/// The follower a grid-sync kernel can run after a columns reduction (see
/// Follower): at most kMaxGridSyncColumnBlocks column blocks, x and the
/// output read and written as vectors of the columns mapping (flat,
/// aligned whenever the buffers are).
std::optional<Follower> analyzeColumnFollower(const Emitter &e,
                                              linalg::GenericOp epilogue) {
  linalg::GenericOp op = e.op;
  if (e.parallelSizes.size() != 1)
    return std::nullopt;
  ColumnBlock block = columnBlockFor(e);
  int64_t columnBlocks =
      (e.numOutputs + block.outputsPerBlock() - 1) / block.outputsPerBlock();
  if (block.width < 2 || columnBlocks > kMaxGridSyncColumnBlocks)
    return std::nullopt;
  unsigned loop = 0;
  for (auto [dim, iterator] : llvm::enumerate(e.iterators))
    if (iterator == utils::IteratorType::parallel)
      loop = dim;
  std::optional<Follower> found =
      matchFollower(e, epilogue, [&](OpOperand &reduced) {
        return unitStrideDim(op, reduced, loop) &&
               e.linearReducedStride(op, reduced);
      });
  if (!found)
    return std::nullopt;
  Value y = linalg::GenericOp(found->op).getDpsInits()[0];
  AffineMap yMap = found->maps[found->op.getNumDpsInputs()];
  std::optional<unsigned> yDim = unitStrideDim(y, yMap, loop);
  if (!yDim || !e.linearReducedStride(y, yMap) ||
      !vectorsStayAligned(y, *yDim, block.width))
    return std::nullopt;
  return found;
}

/// The follower a planes kernel can run per output after the output's
/// statistics (see emitPlanes): outputs enough for a block each to fill
/// the GPU, x read as vectors along the innermost reduced loop, and the
/// output written alike (that loop indexing its last, unit-stride
/// dimension, vectors staying aligned).
std::optional<Follower> analyzePlaneFollower(const Emitter &e,
                                             linalg::GenericOp epilogue) {
  linalg::GenericOp op = e.op;
  if (e.numOutputs < kMinOutputsForPlaneFollower)
    return std::nullopt;
  auto [innermost, width] = planeVectorWidth(e);
  if (width < 2)
    return std::nullopt;
  std::optional<Follower> found =
      matchFollower(e, epilogue, [&](OpOperand &reduced) {
        return classifyLaneAccess(op, reduced, innermost) == LaneAccess::Vector;
      });
  if (!found)
    return std::nullopt;
  Value y = linalg::GenericOp(found->op).getDpsInits()[0];
  AffineMap yMap = found->maps[found->op.getNumDpsInputs()];
  std::optional<unsigned> yDim = unitStrideDim(y, yMap, innermost);
  if (!yDim || *yDim != cast<MemRefType>(y.getType()).getRank() - 1 ||
      !vectorsStayAligned(y, *yDim, width))
    return std::nullopt;
  return found;
}

} // namespace

std::optional<Follower> analyzeFollower(const Emitter &e,
                                        linalg::GenericOp epilogue) {
  return readsColumns(e.op) ? analyzeColumnFollower(e, epilogue)
                            : analyzePlaneFollower(e, epilogue);
}

} // namespace mlir::cudnn_mlir::codegen::multivalue
