//===- ElementwiseKernel.cpp - one thread per output element(s) -----------===//
//
// The default strategy. Threads cover the op's parallel loops in row-major
// order, so consecutive threads touch consecutive elements of anything
// indexed by the innermost loop. When every buffer indexed by the innermost
// loop is contiguous along it, each thread handles 16 bytes' worth of
// elements with vector loads and stores, provided the buffers turn out
// 16-byte aligned at run time (scalar code otherwise). Where the innermost
// loop's size is no multiple of the vector width (NCHW planes of 7x7), a
// vector may instead run across the innermost loops, when every output lays
// them out contiguously and in order ("flat" vectors); inputs laid out the
// same way are vectors too, the others are read lane by lane. Reduction
// loops, if the op has any, run serially inside the thread.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {

constexpr int64_t kBlockSize = 256;
Value zeroOf(ImplicitLocOpBuilder &b, Type type) {
  return arith::ConstantOp::create(b, b.getZeroAttr(type));
}

/// The body's arguments at one point; outputs are loaded only if the body
/// reads them.
SmallVector<Value> loadArguments(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                                 ValueRange loops) {
  SmallVector<Value> arguments;
  for (OpOperand *input : op.getDpsInputOperands())
    arguments.push_back(loadOperand(b, op, *input, loops));
  for (OpOperand &init : op.getDpsInitsMutable())
    arguments.push_back(initArgument(b, op, init, loops));
  return arguments;
}

/// The parallel loops, outermost first, in the order consecutive threads
/// walk them: the loop order, unless the first output is a strided buffer
/// (channels-last), whose memory order it follows instead so that
/// consecutive threads write consecutive addresses.
SmallVector<unsigned> threadOrder(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      order.push_back(dim);
  // A generic that only checks its inputs (tcp.gather's bounds assertion,
  // left alone when the gather fused into a reduction) writes nothing.
  if (op.getNumDpsInits() == 0)
    return order;
  OpOperand *init = op.getDpsInitOperand(0);
  auto type = cast<MemRefType>(init->get().getType());
  if (type.getLayout().isIdentity())
    return order;
  auto [strides, offset] = type.getStridesAndOffset();
  (void)offset;
  AffineMap map = op.getMatchingIndexingMap(init);
  auto strideOf = [&](unsigned dim) -> int64_t {
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (expr == getAffineDimExpr(dim, op.getContext()))
        return strides[position];
    return std::numeric_limits<int64_t>::max();
  };
  llvm::stable_sort(order, [&](unsigned lhs, unsigned rhs) {
    return strideOf(lhs) > strideOf(rhs);
  });
  return order;
}

/// The innermost loop of the thread order: consecutive lanes step it.
unsigned laneLoop(linalg::GenericOp op) { return threadOrder(op).back(); }

/// The operands read or written as vectors along the lane loop.
SmallVector<OpOperand *> vectorOperands(linalg::GenericOp op) {
  unsigned lane = laneLoop(op);
  SmallVector<OpOperand *> operands;
  for (OpOperand &operand : op->getOpOperands())
    if (unitStrideDim(op, operand, lane))
      operands.push_back(&operand);
  return operands;
}

/// Scalar code for the point with linear index `point` over the parallel
/// loops; reduction loops are looped over here.
void emitScalarPoint(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                     Value point) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order = threadOrder(op);
  SmallVector<int64_t> parallelSizes;
  for (unsigned dim : order)
    parallelSizes.push_back(ranges[dim]);
  SmallVector<Value> parallel = delinearize(b, point, parallelSizes);
  Value zero = indexConstant(b, 0);
  SmallVector<Value> loops(ranges.size(), zero);
  for (auto [dim, coord] : llvm::zip(order, parallel))
    loops[dim] = coord;

  if (op.getNumReductionLoops() == 0) {
    SmallVector<Value> results =
        emitBody(b, op, loadArguments(b, op, loops), loops);
    for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results))
      storeOperand(b, op, init, result, loops);
    return;
  }

  // Outputs of a reduction do not depend on its reduction loops (checked by
  // the pass): they are accumulated in registers.
  SmallVector<Value> accumulators;
  for (OpOperand &init : op.getDpsInitsMutable())
    accumulators.push_back(loadOperand(b, op, init, loops));
  std::function<SmallVector<Value>(unsigned, ValueRange)> loopNest =
      [&](unsigned dim, ValueRange accs) -> SmallVector<Value> {
    while (dim < iterators.size() &&
           iterators[dim] == utils::IteratorType::parallel)
      ++dim;
    if (dim == iterators.size()) {
      SmallVector<Value> arguments;
      for (OpOperand *input : op.getDpsInputOperands())
        arguments.push_back(loadOperand(b, op, *input, loops));
      llvm::append_range(arguments, accs);
      return emitBody(b, op, arguments, loops);
    }
    auto loop = scf::ForOp::create(b, zero, indexConstant(b, ranges[dim]),
                                   indexConstant(b, 1), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    loops[dim] = loop.getInductionVar();
    SmallVector<Value> inner = loopNest(dim + 1, loop.getRegionIterArgs());
    scf::YieldOp::create(b, inner);
    loops[dim] = zero;
    return SmallVector<Value>(loop.getResults());
  };
  SmallVector<Value> results = loopNest(0, accumulators);
  for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results))
    storeOperand(b, op, init, result, loops);
}

/// Vector code for the `width` consecutive points starting at `first` in
/// thread order (the lane loop's size is a multiple of `width`). A vector
/// along a buffer's last dimension is loaded as it is; along another
/// (channels-last) through a transposed view whose last dimension it is.
void emitVectorPoints(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                      Value first, int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> order = threadOrder(op);
  unsigned lane = order.back();
  SmallVector<int64_t> orderedSizes;
  for (unsigned dim : order)
    orderedSizes.push_back(ranges[dim]);
  SmallVector<Value> coords = delinearize(b, first, orderedSizes);
  SmallVector<Value> loops(ranges.size());
  for (auto [dim, coord] : llvm::zip(order, coords))
    loops[dim] = coord;
  auto laneLoops = [&](int64_t l) {
    SmallVector<Value> shifted(loops);
    shifted[lane] =
        arith::AddIOp::create(b, loops[lane], indexConstant(b, l));
    return shifted;
  };
  auto vectorType = [&](Value buffer) {
    return VectorType::get({width}, getElementTypeOrSelf(buffer));
  };
  auto vectorView = [&](OpOperand &operand, unsigned dim) {
    return vectorViewAt(b, op, operand, dim, loops);
  };

  // Per operand: one vector or one value for all lanes.
  SmallVector<Value> loaded;
  SmallVector<bool> isVector;
  for (OpOperand &operand : op->getOpOperands()) {
    bool isInit = op.isDpsInit(&operand);
    std::optional<unsigned> dim = unitStrideDim(op, operand, lane);
    if (isInit && !op.payloadUsesValueFromOperand(&operand)) {
      loaded.push_back(zeroOf(b, getElementTypeOrSelf(operand.get())));
      isVector.push_back(false);
    } else if (dim) {
      auto [view, indices] = vectorView(operand, *dim);
      loaded.push_back(vector::LoadOp::create(
          b, vectorType(operand.get()), view, indices,
          /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes)));
      isVector.push_back(true);
    } else {
      loaded.push_back(loadOperand(b, op, operand, loops));
      isVector.push_back(false);
    }
  }
  SmallVector<SmallVector<Value>> lanesPerResult(op.getNumDpsInits());
  for (int64_t l = 0; l < width; ++l) {
    SmallVector<Value> arguments;
    for (auto [value, vector] : llvm::zip(loaded, isVector))
      arguments.push_back(vector ? Value(vector::ExtractOp::create(b, value, l))
                                 : value);
    SmallVector<Value> results = emitBody(b, op, arguments, laneLoops(l));
    for (auto [i, result] : llvm::enumerate(results))
      lanesPerResult[i].push_back(result);
  }
  for (auto [init, lanes] : llvm::zip(op.getDpsInitsMutable(), lanesPerResult)) {
    Value vector =
        vector::FromElementsOp::create(b, vectorType(init.get()), lanes);
    auto [view, indices] = vectorView(init, *unitStrideDim(op, init, lane));
    vector::StoreOp::create(b, vector, view, indices,
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(kVectorBytes));
  }
}

/// How an operand takes part in flat vectors over the innermost loops
/// `inner` (thread order).
enum class FlatAccess { Vector, Uniform, PerLane };

/// Vector: the operand's trailing dims are indexed by `inner`, in order,
/// laid out contiguously, and no other dim moves with them. Uniform: no
/// index moves with them. PerLane: anything else.
FlatAccess classifyFlatAccess(linalg::GenericOp op, OpOperand &operand,
                              ArrayRef<unsigned> inner) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto movesWithInner = [&](AffineExpr expr) {
    return llvm::any_of(inner, [&](unsigned dim) {
      return expr.isFunctionOfDim(dim);
    });
  };
  if (!llvm::any_of(map.getResults(), movesWithInner))
    return FlatAccess::Uniform;
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  int64_t k = inner.size();
  if (!type || type.getRank() < k)
    return FlatAccess::PerLane;
  int64_t rank = type.getRank();
  auto [strides, offset] = type.getStridesAndOffset();
  (void)offset;
  for (int64_t i = 0; i < rank - k; ++i)
    if (movesWithInner(map.getResult(i)))
      return FlatAccess::PerLane;
  int64_t expected = 1;
  for (int64_t i = rank - 1; i >= rank - k; --i) {
    if (map.getResult(i) !=
            getAffineDimExpr(inner[i - (rank - k)], op.getContext()) ||
        strides[i] != expected)
      return FlatAccess::PerLane;
    expected *= type.getDimSize(i);
  }
  return FlatAccess::Vector;
}

/// Flat vectors: `width` points of the linearized innermost `inner` loops
/// (thread order) per thread.
struct FlatVectors {
  int64_t width = 1;
  SmallVector<unsigned> inner;
};

/// The fewest innermost loops whose points split into whole 16-byte
/// vectors in every output (and every input laid out like them) and keep
/// them aligned; width 1 when there are none.
FlatVectors flatVectorsFor(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0 || op.getNumLoops() == 0)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> order = threadOrder(op);
  for (size_t k = 2; k <= order.size(); ++k) {
    ArrayRef<unsigned> inner = ArrayRef<unsigned>(order).take_back(k);
    int64_t points = 1;
    for (unsigned dim : inner)
      points *= ranges[dim];
    int64_t widestBytes = 0;
    SmallVector<OpOperand *> vectors;
    bool usable = true;
    for (OpOperand &operand : op->getOpOperands()) {
      FlatAccess access = classifyFlatAccess(op, operand, inner);
      if (op.isDpsInit(&operand) && access != FlatAccess::Vector)
        usable = false;
      if (access != FlatAccess::Vector)
        continue;
      unsigned bits =
          getElementTypeOrSelf(operand.get()).getIntOrFloatBitWidth();
      if (bits < 8 || bits % 8 != 0)
        usable = false;
      widestBytes = std::max<int64_t>(widestBytes, bits / 8);
      vectors.push_back(&operand);
    }
    if (!usable)
      return {};
    int64_t width = vectorWidthFor(widestBytes);
    if (width < 2 || points % width != 0)
      continue;
    // The outer dims' strides and the offset keep every vector aligned.
    bool aligned = llvm::all_of(vectors, [&](OpOperand *operand) {
      auto type = cast<MemRefType>(operand->get().getType());
      auto [strides, offset] = type.getStridesAndOffset();
      if (ShapedType::isDynamic(offset) || offset % width != 0)
        return false;
      for (int64_t i = 0; i < type.getRank() - static_cast<int64_t>(k); ++i)
        if (ShapedType::isDynamic(strides[i]) || strides[i] % width != 0)
          return false;
      return true;
    });
    if (!aligned)
      return {};
    return {width, SmallVector<unsigned>(inner)};
  }
  return {};
}

/// The operands a flat-vector kernel reads or writes as vectors.
SmallVector<OpOperand *> flatVectorOperands(linalg::GenericOp op,
                                            const FlatVectors &plan) {
  SmallVector<OpOperand *> operands;
  for (OpOperand &operand : op->getOpOperands())
    if (classifyFlatAccess(op, operand, plan.inner) == FlatAccess::Vector)
      operands.push_back(&operand);
  return operands;
}

/// Flat-vector code for the `width` consecutive points from `first` in
/// thread order: vector operands through a view that collapses their
/// trailing (innermost-loop) dims, per-lane operands at each lane's own
/// point.
void emitFlatVectorPoints(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                          Value first, const FlatVectors &plan) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> order = threadOrder(op);
  SmallVector<int64_t> orderedSizes;
  for (unsigned dim : order)
    orderedSizes.push_back(ranges[dim]);
  auto loopsAt = [&](Value point) {
    SmallVector<Value> coords = delinearize(b, point, orderedSizes);
    SmallVector<Value> loops(ranges.size());
    for (auto [dim, coord] : llvm::zip(order, coords))
      loops[dim] = coord;
    return loops;
  };
  SmallVector<Value> loops = loopsAt(first);
  SmallVector<SmallVector<Value>> laneLoops{loops};
  for (int64_t l = 1; l < plan.width; ++l)
    laneLoops.push_back(
        loopsAt(arith::AddIOp::create(b, first, indexConstant(b, l))));
  int64_t innerPoints = 1;
  for (unsigned dim : plan.inner)
    innerPoints *= ranges[dim];
  Value innerIndex =
      arith::RemUIOp::create(b, first, indexConstant(b, innerPoints));
  int64_t k = plan.inner.size();
  // The collapsed view and its indices at the vector's first point.
  auto flatView = [&](OpOperand &operand) {
    auto type = cast<MemRefType>(operand.get().getType());
    int64_t rank = type.getRank();
    SmallVector<ReassociationIndices> groups;
    for (int64_t i = 0; i < rank - k; ++i)
      groups.push_back({i});
    ReassociationIndices last;
    for (int64_t i = rank - k; i < rank; ++i)
      last.push_back(i);
    groups.push_back(last);
    Value view = memref::CollapseShapeOp::create(b, operand.get(), groups);
    SmallVector<Value> indices =
        applyMap(b, op.getMatchingIndexingMap(&operand), loops);
    indices.resize(rank - k);
    indices.push_back(innerIndex);
    return std::make_pair(view, indices);
  };
  auto vectorType = [&](Value buffer) {
    return VectorType::get({plan.width}, getElementTypeOrSelf(buffer));
  };

  // Per operand: a vector, one value for all lanes, or a value per lane.
  SmallVector<SmallVector<Value>> perLane(op->getNumOperands());
  for (OpOperand &operand : op->getOpOperands()) {
    SmallVector<Value> &lanes = perLane[operand.getOperandNumber()];
    bool isInit = op.isDpsInit(&operand);
    FlatAccess access = classifyFlatAccess(op, operand, plan.inner);
    if (isInit && !op.payloadUsesValueFromOperand(&operand)) {
      lanes.assign(plan.width, zeroOf(b, getElementTypeOrSelf(operand.get())));
    } else if (access == FlatAccess::Vector) {
      auto [view, indices] = flatView(operand);
      Value vector = vector::LoadOp::create(
          b, vectorType(operand.get()), view, indices,
          /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes));
      for (int64_t l = 0; l < plan.width; ++l)
        lanes.push_back(vector::ExtractOp::create(b, vector, l));
    } else if (access == FlatAccess::Uniform) {
      lanes.assign(plan.width, loadOperand(b, op, operand, loops));
    } else {
      for (int64_t l = 0; l < plan.width; ++l)
        lanes.push_back(loadOperand(b, op, operand, laneLoops[l]));
    }
  }
  SmallVector<SmallVector<Value>> lanesPerResult(op.getNumDpsInits());
  for (int64_t l = 0; l < plan.width; ++l) {
    SmallVector<Value> arguments;
    for (SmallVector<Value> &lanes : perLane)
      arguments.push_back(lanes[l]);
    SmallVector<Value> results = emitBody(b, op, arguments, laneLoops[l]);
    for (auto [i, result] : llvm::enumerate(results))
      lanesPerResult[i].push_back(result);
  }
  for (auto [init, lanes] : llvm::zip(op.getDpsInitsMutable(), lanesPerResult)) {
    Value vector =
        vector::FromElementsOp::create(b, vectorType(init.get()), lanes);
    auto [view, indices] = flatView(init);
    vector::StoreOp::create(b, vector, view, indices, /*nontemporal=*/false,
                            llvm::MaybeAlign(kVectorBytes));
  }
}

} // namespace

int64_t elementwiseVectorWidth(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0 || op.getNumLoops() == 0)
    return 1;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned lane = laneLoop(op);
  int64_t widestBytes = 0;
  SmallVector<std::pair<OpOperand *, unsigned>> vectors;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    std::optional<unsigned> dim = unitStrideDim(op, operand, lane);
    bool uniform =
        !op.getMatchingIndexingMap(&operand).isFunctionOfDim(lane);
    // Every output is written with vector stores; inputs are vectors or
    // one value for all lanes.
    if (!dim && (op.isDpsInit(&operand) || !uniform))
      return 1;
    if (!dim)
      continue;
    unsigned bits = getElementTypeOrSelf(operand.get()).getIntOrFloatBitWidth();
    if (bits < 8 || bits % 8 != 0)
      return 1;
    widestBytes = std::max<int64_t>(widestBytes, bits / 8);
    vectors.push_back({&operand, *dim});
  }
  int64_t width = vectorWidthFor(widestBytes);
  if (width < 2 || ranges[lane] % width != 0)
    return 1;
  for (auto [operand, dim] : vectors)
    if (!vectorsStayAligned(operand->get(), dim, width))
      return 1;
  return width;
}

KernelSummary emitPointwiseKernel(linalg::GenericOp op, StringRef name) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  int64_t points = 1;
  for (auto [size, iterator] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      points *= size;
  int64_t width = elementwiseVectorWidth(op);
  FlatVectors flat;
  if (width == 1) {
    flat = flatVectorsFor(op);
    width = flat.width;
  }
  int64_t threads = points / width;
  int64_t blockSize =
      std::min<int64_t>(kBlockSize, std::max<int64_t>(32, (threads + 31) / 32 * 32));
  int64_t gridSize = std::max<int64_t>(1, (threads + blockSize - 1) / blockSize);

  gpu::LaunchOp launch = createLaunch(b, gridSize, {blockSize}, {}, name);
  Value thread = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, launch.getBlockIds().x,
                            indexConstant(b, blockSize)),
      launch.getThreadIds().x);
  Value inRange = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread,
                                        indexConstant(b, threads));
  auto guard = scf::IfOp::create(b, inRange, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&guard.getThenRegion().front());

  KernelSummary summary{name.str(), op.getNumReductionLoops()
                                        ? "pointwise (serial reduction)"
                                        : "elementwise"};
  if (width == 1) {
    emitScalarPoint(b, op, thread);
    return summary;
  }
  summary.strategy += " (vector " + std::to_string(width) +
                      (flat.width > 1 ? " across the innermost " +
                                            std::to_string(flat.inner.size()) +
                                            " loops"
                                      : "") +
                      ")";

  // Vector code only where every vector-accessed buffer is 16-byte aligned.
  SmallVector<Value> vectorBuffers;
  for (OpOperand *operand :
       flat.width > 1 ? flatVectorOperands(op, flat) : vectorOperands(op))
    vectorBuffers.push_back(operand->get());
  Value aligned = allVectorAligned(b, vectorBuffers);
  Value zero = indexConstant(b, 0);
  Value first = arith::MulIOp::create(b, thread, indexConstant(b, width));
  auto emitVectors = [&] {
    if (flat.width > 1)
      emitFlatVectorPoints(b, op, first, flat);
    else
      emitVectorPoints(b, op, first, width);
  };
  // Every vector buffer aligned by construction: no scalar code.
  if (matchPattern(aligned, m_One())) {
    emitVectors();
    return summary;
  }
  auto choose = scf::IfOp::create(b, aligned, /*withElseRegion=*/true);
  b.setInsertionPointToStart(&choose.getThenRegion().front());
  emitVectors();
  b.setInsertionPointToStart(&choose.getElseRegion().front());
  auto lanes = scf::ForOp::create(b, zero, indexConstant(b, width),
                                  indexConstant(b, 1));
  b.setInsertionPointToStart(lanes.getBody());
  emitScalarPoint(b, op,
                  arith::AddIOp::create(b, first, lanes.getInductionVar()));
  return summary;
}

} // namespace mlir::cudnn_mlir::codegen
