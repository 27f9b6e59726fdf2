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
  std::optional<SmallVector<Combiner>> combiners = matchCombiners(op);
  if (!combiners)
    return std::nullopt;
  merger.combiners = std::move(*combiners);
  if (op.getNumDpsInits() >= 2)
    return merger;
  // One output: a column reduction (a global average pool over NHWC's h
  // and w, a column sum) takes this mapping where its lanes read vectors;
  // ColumnReductionKernel.cpp reads one element per thread and row.
  if (!readsColumns(op))
    return std::nullopt;
  ImplicitLocOpBuilder b(op.getLoc(), op.getContext());
  Emitter emitter(op, b, merger);
  if (columnBlockFor(emitter).width < 2)
    return std::nullopt;
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
  // The reduction's outputs: the parallel loops, in order, with unit dims
  // between them (a keep_dims mean's [N, 1, 1, C]), which leave the
  // outputs' linear order as it is.
  ReductionSpace space(op);
  SmallVector<AffineExpr> parallel;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      parallel.push_back(getAffineDimExpr(dim, op.getContext()));
  for (OpOperand &init : op.getDpsInitsMutable()) {
    ArrayRef<int64_t> shape = cast<ShapedType>(init.get().getType()).getShape();
    SmallVector<AffineExpr> results;
    for (auto [size, result] :
         llvm::zip(shape, op.getMatchingIndexingMap(&init).getResults())) {
      auto constant = dyn_cast<AffineConstantExpr>(result);
      if (!(size == 1 && constant && constant.getValue() == 0))
        results.push_back(result);
    }
    if (results != parallel)
      return {};
  }
  auto withoutUnits = [](ArrayRef<int64_t> sizes) {
    return llvm::to_vector(
        llvm::make_filter_range(sizes, [](int64_t size) { return size != 1; }));
  };
  if (withoutUnits(epilogue.getStaticLoopRanges()) !=
      withoutUnits(space.parallelSizes))
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
