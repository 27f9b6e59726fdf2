//===- MultiValueReductionKernel.cpp - reductions into several values -----===//
//
// A reduction generic with several outputs reduces its inputs into a state
// of several values per output element: Welford's (count, mean, M2) for a
// generic marked `codegen.combiner = "welford"` (batch-norm statistics),
// or one value per output, each with its own combiner (the sums of
// batch-norm backward). Partial states merge value by value through the
// combiners, or, for Welford, with Chan's formula. So the reduction can be
// split: every thread folds its share of the elements into its own state
// (the generic's body is the per-element step), threads merge their states
// (warp shuffles and shared memory), and when the reduction is split across
// blocks a second kernel merges the blocks' states in order.
//
// Two thread mappings, chosen by the first input's memory layout:
// - *planes*: the innermost memory dimension is reduced (NCHW batch norm):
//   one block (or several) per output, threads along contiguous elements;
// - *columns*: the innermost memory dimension is an output's (NHWC):
//   consecutive outputs per block along x, the block's other threads
//   splitting the rows.
//
// A thread reads vectors and keeps one state per vector lane, so its lanes
// step independently. Where Welford's count moves in lockstep (its update
// reads nothing but the count), the lanes share one count: the count's
// increment, its conversion and its reciprocal happen once per vector
// rather than once per value. When a reduction is split across blocks, the
// merge kernel gives each output a warp, or a block when the states are
// many.
//
//===----------------------------------------------------------------------===//

#include "MultiValueReduction.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {
namespace multivalue {

State warpMerge(ImplicitLocOpBuilder &b, const StateMerge &merger,
                State state) {
  for (int32_t offset = 16; offset >= 1; offset /= 2) {
    State other;
    for (Value value : state) {
      Value shuffled =
          gpu::ShuffleOp::create(b, widenForShuffle(b, value), offset,
                                 /*width=*/32, gpu::ShuffleMode::XOR)
              .getShuffleResult();
      other.push_back(narrowFromShuffle(b, shuffled, value.getType()));
    }
    state = merger.merge(b, state, other);
  }
  return state;
}

/// Merges the states of a block's `threads` threads (`thread` is the
/// linear thread id, a multiple of 32 threads): within each warp by
/// shuffles, then one state per warp through `shared` (32 slots per state
/// value), merged by every warp. Every thread ends with the block's state.
State blockMerge(ImplicitLocOpBuilder &b, const StateMerge &merger,
                 State state, ArrayRef<BlockArgument> shared, Value thread,
                 int64_t threads) {
  state = warpMerge(b, merger, state);
  Value c32 = indexConstant(b, 32);
  Value lane = arith::RemUIOp::create(b, thread, c32);
  Value warp = arith::DivUIOp::create(b, thread, c32);
  Value zero = indexConstant(b, 0);
  auto laneZero = scf::IfOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, zero),
      false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&laneZero.getThenRegion().front());
    for (auto [buffer, value] : llvm::zip(shared, state))
      memref::StoreOp::create(b, widenForShuffle(b, value), buffer,
                              ValueRange{warp});
  }
  gpu::BarrierOp::create(b);
  Value hasState = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lane,
                                         indexConstant(b, threads / 32));
  State staged;
  for (auto [buffer, emptyValue] : llvm::zip(shared, merger.empty(b))) {
    Value wideEmpty = widenForShuffle(b, emptyValue);
    auto read = scf::IfOp::create(
        b, hasState,
        [&](OpBuilder &nested, Location loc) {
          scf::YieldOp::create(
              nested, loc,
              ValueRange{memref::LoadOp::create(nested, loc, buffer,
                                                ValueRange{lane})});
        },
        [&](OpBuilder &nested, Location loc) {
          scf::YieldOp::create(nested, loc, ValueRange{wideEmpty});
        });
    staged.push_back(
        narrowFromShuffle(b, read.getResult(0), emptyValue.getType()));
  }
  return warpMerge(b, merger, staged);
}

std::pair<Value, Value> newestTripFirst(ImplicitLocOpBuilder &b, Value first,
                                        Value end, Value tripStep) {
  Value zero = indexConstant(b, 0), one = indexConstant(b, 1);
  Value remaining = arith::SelectOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, first, end),
      arith::SubIOp::create(b, end, first), zero);
  Value trips = arith::DivUIOp::create(
      b,
      arith::AddIOp::create(b, remaining,
                            b.createOrFold<arith::SubIOp>(tripStep, one)),
      tripStep);
  auto tripLoop = scf::ForOp::create(b, zero, trips, one);
  b.setInsertionPointToStart(tripLoop.getBody());
  Value trip = arith::SubIOp::create(
      b, arith::SubIOp::create(b, trips, one), tripLoop.getInductionVar());
  return {trip, arith::AddIOp::create(
                    b, first, arith::MulIOp::create(b, trip, tripStep))};
}

/// The innermost reduced loop, and the number of its consecutive positions
/// the planes mapping reads as one vector: every input is either contiguous
/// along that loop (a vector) or does not move with it, and its size splits
/// into whole vectors. 1 when that does not hold.
std::pair<unsigned, int64_t> planeVectorWidth(const Emitter &e) {
  linalg::GenericOp op = e.op;
  unsigned innermost = 0;
  for (auto [dim, iterator] : llvm::enumerate(e.iterators))
    if (iterator == utils::IteratorType::reduction)
      innermost = dim;
  int64_t widestBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    LaneAccess access = classifyLaneAccess(op, *input, innermost);
    if (access == LaneAccess::Other)
      return {innermost, 1};
    if (access != LaneAccess::Vector)
      continue;
    unsigned bits = getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth();
    if (bits < 8 || bits % 8 != 0)
      return {innermost, 1};
    widestBytes = std::max<int64_t>(widestBytes, bits / 8);
  }
  int64_t width = vectorWidthFor(widestBytes);
  int64_t size = op.getStaticLoopRanges()[innermost];
  if (width < 2 || size % width != 0)
    return {innermost, 1};
  return {innermost, width};
}

/// True when the first input's innermost memory dimension is indexed by a
/// parallel loop (the statistics are per column of memory).
bool readsColumns(linalg::GenericOp op) {
  OpOperand *input = op.getDpsInputOperand(0);
  auto type = cast<MemRefType>(input->get().getType());
  auto [strides, offset] = type.getStridesAndOffset();
  (void)offset;
  AffineMap map = op.getMatchingIndexingMap(input);
  for (auto [dim, stride] : llvm::enumerate(strides)) {
    if (stride != 1)
      continue;
    auto loop = dyn_cast<AffineDimExpr>(map.getResult(dim));
    return loop && op.getIteratorTypesArray()[loop.getPosition()] ==
                       utils::IteratorType::parallel;
  }
  return false;
}

namespace {

bool isWelford(linalg::GenericOp op) {
  auto mark = op->getAttrOfType<StringAttr>(kCombinerAttrName);
  if (!mark || mark.getValue() != "welford" || op.getNumDpsInits() != 3)
    return false;
  Type count = getElementTypeOrSelf(op.getDpsInits()[0]);
  Type mean = getElementTypeOrSelf(op.getDpsInits()[1]);
  return isa<IntegerType>(count) && isa<FloatType>(mean) &&
         mean == getElementTypeOrSelf(op.getDpsInits()[2]);
}

/// How `op`'s partial states merge, if it is a multi-value reduction.
std::optional<StateMerge> stateMergeOf(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() == 0 ||
      !isa<MemRefType>(op.getDpsInputOperand(0)->get().getType()))
    return std::nullopt;
  StateMerge merger;
  for (Value init : op.getDpsInits())
    merger.types.push_back(getElementTypeOrSelf(init));
  if (isWelford(op)) {
    merger.welford = true;
    return merger;
  }
  if (op.getNumDpsInits() < 2)
    return std::nullopt;
  std::optional<SmallVector<Combiner>> combiners = matchCombiners(op);
  if (!combiners)
    return std::nullopt;
  merger.combiners = std::move(*combiners);
  return merger;
}

} // namespace
} // namespace multivalue

using namespace multivalue;

bool isMultiValueReduction(linalg::GenericOp op) {
  return stateMergeOf(op).has_value();
}

linalg::GenericOp findOutputEpilogue(linalg::GenericOp op) {
  Operation *next = op->getNextNode();
  while (next && isa<memref::AllocOp>(next))
    next = next->getNextNode();
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumReductionLoops() != 0)
    return {};
  // The reduction's outputs: the parallel loops, in order.
  ReductionSpace space(op);
  SmallVector<AffineExpr> parallel;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      parallel.push_back(getAffineDimExpr(dim, op.getContext()));
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.getMatchingIndexingMap(&init).getResults() !=
        ArrayRef<AffineExpr>(parallel))
      return {};
  if (epilogue.getStaticLoopRanges() != ArrayRef<int64_t>(space.parallelSizes))
    return {};
  for (AffineMap map : epilogue.getIndexingMapsArray())
    if (!map.isIdentity())
      return {};
  // Other threads still read the reduction's inputs while one runs the
  // epilogue: it must not write them.
  for (OpOperand &init : epilogue.getDpsInitsMutable())
    for (OpOperand *input : op.getDpsInputOperands())
      if (init.get() == input->get())
        return {};
  return epilogue;
}

linalg::GenericOp findFollower(linalg::GenericOp op,
                                       linalg::GenericOp epilogue) {
  std::optional<StateMerge> merger = stateMergeOf(op);
  if (!merger || !epilogue)
    return {};
  ImplicitLocOpBuilder b(op.getLoc(), op.getContext());
  Emitter emitter(op, b, *merger);
  std::optional<Follower> follower = analyzeFollower(emitter, epilogue);
  return follower ? follower->op : linalg::GenericOp();
}

SmallVector<KernelSummary>
emitMultiValueReductionKernels(linalg::GenericOp op, linalg::GenericOp epilogue,
                               linalg::GenericOp follower, StringRef name) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  Emitter emitter(op, b, *stateMergeOf(op));
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i)
    emitter.initValues.push_back(findFillInit(op, i).value);
  emitter.epilogue = epilogue;
  std::optional<Follower> fused;
  if (follower) {
    fused = analyzeFollower(emitter, epilogue);
    // Unreachable: the caller found the follower with the same analysis.
    assert(fused && fused->op == follower && "follower no longer fits");
  }
  // The allocations between the three (the epilogue's and the follower's
  // outputs) move before the kernels, which use them.
  if (epilogue) {
    Operation *last = follower ? follower.getOperation()
                               : epilogue.getOperation();
    SmallVector<Operation *> allocations;
    for (Operation *it = op->getNextNode(); it != last; it = it->getNextNode())
      if (it != epilogue.getOperation())
        allocations.push_back(it);
    for (Operation *allocation : allocations)
      allocation->moveBefore(op);
  }
  SmallVector<KernelSummary> kernels =
      readsColumns(op)
          ? emitColumns(emitter, name, columnBlockFor(emitter),
                        fused ? &*fused : nullptr)
          : emitPlanes(emitter, name, fused ? &*fused : nullptr);
  if (epilogue && !follower)
    kernels.back().strategy += ", with the elementwise op after it";
  return kernels;
}

} // namespace mlir::cudnn_mlir::codegen
