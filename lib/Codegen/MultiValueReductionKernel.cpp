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
// - *columns*: the innermost memory dimension is an output's (NHWC): 32
//   consecutive outputs per block along x, 16 warps splitting the rows.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {

constexpr int64_t kPlaneThreads = 512;
constexpr int64_t kColumns = 32;
constexpr int64_t kRows = 16;
constexpr int64_t kTargetBlocks = 132 * 4;
constexpr int64_t kMinPerThread = 8;
constexpr int64_t kUnroll = 4; // positions per loop trip
constexpr int64_t kMinVectorColumnBlocks = 8;

/// A partial result: one value per output of the generic.
using State = SmallVector<Value, 4>;

/// How partial states merge: Chan's formula for Welford (count, mean, M2)
/// states, otherwise each value through its output's combiner.
struct StateMerge {
  bool welford = false;
  SmallVector<Combiner> combiners; // one per output, when not Welford
  SmallVector<Type> types;         // the state's value types

  State empty(ImplicitLocOpBuilder &b) const {
    State state;
    if (welford) {
      state.push_back(
          arith::ConstantOp::create(b, b.getIntegerAttr(types[0], 0)));
      for (Type type : ArrayRef<Type>(types).drop_front())
        state.push_back(arith::ConstantOp::create(b, b.getZeroAttr(type)));
      return state;
    }
    for (const Combiner &combiner : combiners)
      state.push_back(arith::ConstantOp::create(b, combiner.neutral));
    return state;
  }

  State merge(ImplicitLocOpBuilder &b, const State &lhs,
              const State &rhs) const {
    if (!welford) {
      State merged;
      for (auto [combiner, l, r] : llvm::zip(combiners, lhs, rhs))
        merged.push_back(combine(b, combiner, l, r));
      return merged;
    }
    // Chan et al.: an empty state merges as the identity.
    Type floatType = lhs[1].getType();
    Value count = arith::AddIOp::create(b, lhs[0], rhs[0]);
    Value countF = arith::SIToFPOp::create(b, floatType, count);
    Value lhsF = arith::SIToFPOp::create(b, floatType, lhs[0]);
    Value rhsF = arith::SIToFPOp::create(b, floatType, rhs[0]);
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(floatType));
    Value isEmpty = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, count,
        arith::ConstantOp::create(b, b.getIntegerAttr(count.getType(), 0)));
    // rhs's share of the merged count (0 for two empty states).
    Value share = arith::SelectOp::create(
        b, isEmpty, zero, arith::DivFOp::create(b, rhsF, countF));
    Value delta = arith::SubFOp::create(b, rhs[1], lhs[1]);
    Value mean = arith::AddFOp::create(
        b, lhs[1], arith::MulFOp::create(b, delta, share));
    Value correction = arith::MulFOp::create(
        b, arith::MulFOp::create(b, delta, delta),
        arith::MulFOp::create(b, lhsF, share));
    Value m2 = arith::AddFOp::create(
        b, arith::AddFOp::create(b, lhs[2], rhs[2]), correction);
    return {count, mean, m2};
  }
};

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

ValueRange asRange(const State &state) { return ValueRange(state); }

/// What both mappings share: loop coordinates, the per-element step through
/// the op's body, the state the fills start the outputs with, and the
/// final store or the partial states of a split reduction.
struct Emitter : ReductionSpace {
  linalg::GenericOp op;
  ImplicitLocOpBuilder &b;
  StateMerge merger;
  SmallVector<Value> initValues; // per output: the fill's value, or null

  Emitter(linalg::GenericOp op, ImplicitLocOpBuilder &b, StateMerge merger)
      : ReductionSpace(op), op(op), b(b), merger(std::move(merger)) {}

  SmallVector<Value> loopsAt(Value output, Value reduced) {
    return ReductionSpace::loopsAt(b, output, reduced);
  }

  /// The state after folding element `reduced` of output `output` in.
  State update(const State &state, Value output, Value reduced) {
    SmallVector<Value> loops = loopsAt(output, reduced);
    SmallVector<Value> arguments;
    for (OpOperand *input : op.getDpsInputOperands())
      arguments.push_back(loadOperand(b, op, *input, loops));
    llvm::append_range(arguments, state);
    return State(emitBody(b, op, arguments, loops));
  }

  /// The outputs' starting state: their fills' values, or what they hold.
  State initialState(Value output) {
    SmallVector<Value> loops = loopsAt(output, Value());
    State values;
    for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
      values.push_back(initValues[i] ? initValues[i]
                                     : loadOperand(b, op, init, loops));
    return values;
  }

  void storeFinal(Value output, const State &state) {
    State merged = merger.merge(b, initialState(output), state);
    SmallVector<Value> loops = loopsAt(output, Value());
    for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), merged))
      storeOperand(b, op, init, value, loops);
  }

  /// Per-block partial states, [split x outputs] per value.
  SmallVector<Value> allocatePartials(int64_t split) {
    SmallVector<Value> partials;
    for (Type type : merger.types)
      partials.push_back(memref::AllocOp::create(
          b, MemRefType::get({split, numOutputs}, type)));
    return partials;
  }

  void storePartial(ArrayRef<Value> partials, Value part, Value output,
                    const State &state) {
    for (auto [buffer, value] : llvm::zip(partials, state))
      memref::StoreOp::create(b, value, buffer, ValueRange{part, output});
  }

  /// The second kernel: merges the blocks' states of each output in order.
  KernelSummary emitCombine(ArrayRef<Value> partials, int64_t split,
                            StringRef name) {
    Value output = createElementLaunch(b, numOutputs, name);
    State state = merger.empty(b);
    for (int64_t p = 0; p < split; ++p) {
      Value part = indexConstant(b, p);
      State loaded;
      for (Value buffer : partials)
        loaded.push_back(
            memref::LoadOp::create(b, buffer, ValueRange{part, output}));
      state = merger.merge(b, state, loaded);
    }
    storeFinal(output, state);
    return {name.str(), "merge of " + std::to_string(split) +
                            " partial states per output"};
  }

  /// One shared-memory array of `shape` per state value.
  SmallVector<Type> scratchArrays(ArrayRef<int64_t> shape) {
    SmallVector<Type> arrays;
    for (Type type : merger.types)
      arrays.push_back(MemRefType::get(
          shape, shuffleType(type), MemRefLayoutAttrInterface{},
          gpu::AddressSpaceAttr::get(b.getContext(),
                                     gpu::AddressSpace::Workgroup)));
    return arrays;
  }

  std::string describe() const {
    return merger.welford ? "Welford" : "reduction of " +
                                            std::to_string(
                                                merger.types.size()) +
                                            " values";
  }
};

/// The state after folding the `width` consecutive positions from `first`
/// (the innermost reduced loop runs through them; width 1: one position).
/// Inputs contiguous along that loop are read as one vector; the others
/// once for the unit.
State updateUnit(Emitter &e, const State &state, Value output, Value first,
                 int64_t width, unsigned innermost) {
  ImplicitLocOpBuilder &b = e.b;
  if (width == 1)
    return e.update(state, output, first);
  linalg::GenericOp op = e.op;
  SmallVector<Value> loops = e.loopsAt(output, first);
  SmallVector<Value> loaded;
  SmallVector<bool> isVector;
  for (OpOperand *input : op.getDpsInputOperands()) {
    bool vector =
        classifyLaneAccess(op, *input, innermost) == LaneAccess::Vector;
    isVector.push_back(vector);
    if (!vector) {
      loaded.push_back(loadOperand(b, op, *input, loops));
      continue;
    }
    auto type = VectorType::get({width}, getElementTypeOrSelf(input->get()));
    loaded.push_back(vector::LoadOp::create(
        b, type, input->get(),
        applyMap(b, op.getMatchingIndexingMap(input), loops),
        /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes)));
  }
  State current = state;
  for (int64_t lane = 0; lane < width; ++lane) {
    SmallVector<Value> laneLoops(loops);
    laneLoops[innermost] = arith::AddIOp::create(b, loops[innermost],
                                                 indexConstant(b, lane));
    SmallVector<Value> arguments;
    for (auto [value, vector] : llvm::zip(loaded, isVector))
      arguments.push_back(
          vector ? Value(vector::ExtractOp::create(b, value, lane)) : value);
    llvm::append_range(arguments, current);
    current = State(emitBody(b, op, arguments, laneLoops));
  }
  return current;
}

/// Folds the units start, start + step, ... (below `end`; a unit is `width`
/// consecutive positions) into a state, kUnroll units per trip. A unit past
/// `end` in the last trip reads the last unit instead and its steps are
/// discarded (a select, not a branch), so the trip's loads are independent
/// of the state and issue together.
State foldUnits(Emitter &e, Value output, Value start, Value end, int64_t step,
                int64_t width, unsigned innermost) {
  ImplicitLocOpBuilder &b = e.b;
  State empty = e.merger.empty(b);
  auto loop = scf::ForOp::create(b, start, end,
                                 indexConstant(b, step * kUnroll), empty);
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(loop.getBody());
  State state(loop.getRegionIterArgs());
  Value last = arith::SubIOp::create(b, end, indexConstant(b, 1));
  auto firstPosition = [&](Value unit) -> Value {
    return width == 1 ? unit
                      : Value(arith::MulIOp::create(
                            b, unit, indexConstant(b, width)));
  };
  for (int64_t k = 0; k < kUnroll; ++k) {
    Value unit = arith::AddIOp::create(b, loop.getInductionVar(),
                                       indexConstant(b, k * step));
    if (k == 0) {
      state = updateUnit(e, state, output, firstPosition(unit), width,
                         innermost);
      continue;
    }
    Value inRange =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, unit, end);
    Value clamped = arith::MinUIOp::create(b, unit, last);
    State next = updateUnit(e, state, output, firstPosition(clamped), width,
                            innermost);
    for (auto [value, updated] : llvm::zip(state, next))
      value = arith::SelectOp::create(b, inRange, updated, value);
  }
  scf::YieldOp::create(b, asRange(state));
  return State(loop.getResults());
}

State foldPositions(Emitter &e, Value output, Value start, Value end,
                    int64_t step) {
  return foldUnits(e, output, start, end, step, /*width=*/1,
                   /*innermost=*/0);
}

/// The innermost reduced loop, and the number of its consecutive positions
/// the planes mapping reads as one vector: every input is either contiguous
/// along that loop (a vector) or does not move with it, and its size splits
/// into whole vectors. 1 when that does not hold.
std::pair<unsigned, int64_t> planeVectorWidth(Emitter &e) {
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

SmallVector<KernelSummary> emitPlanes(Emitter &e, StringRef name) {
  ImplicitLocOpBuilder &b = e.b;
  int64_t split = std::max<int64_t>(
      1, std::min((kTargetBlocks + e.numOutputs - 1) / e.numOutputs,
                  e.numReduced / (kPlaneThreads * kMinPerThread)));
  auto [innermost, width] = planeVectorWidth(e);
  // Chunks of whole vectors, so that both the vector and the scalar code
  // split the positions alike.
  int64_t units = e.numReduced / width;
  int64_t chunk = (units + split - 1) / split * width;
  SmallVector<Value> partials;
  if (split > 1)
    partials = e.allocatePartials(split);

  SmallVector<KernelSummary> summaries;
  {
    OpBuilder::InsertionGuard insertion(b);
    gpu::LaunchOp launch =
        createLaunch(b, e.numOutputs * split, {kPlaneThreads},
                     e.scratchArrays({32}), (name + "_planes").str());
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
    Value thread = launch.getThreadIds().x;
    Value output = arith::DivUIOp::create(b, launch.getBlockIds().x,
                                          indexConstant(b, split));
    Value part = arith::RemUIOp::create(b, launch.getBlockIds().x,
                                        indexConstant(b, split));
    Value begin = arith::MulIOp::create(b, part, indexConstant(b, chunk));
    Value end = arith::MinUIOp::create(
        b, arith::AddIOp::create(b, begin, indexConstant(b, chunk)),
        indexConstant(b, e.numReduced));
    State empty = e.merger.empty(b);
    State folded;
    if (width == 1) {
      folded = foldPositions(e, output, arith::AddIOp::create(b, begin, thread),
                             end, kPlaneThreads);
    } else {
      // Vectors of `width` positions where the vector-read buffers are
      // 16-byte aligned; one position at a time otherwise.
      SmallVector<Value> vectorBuffers;
      for (OpOperand *input : e.op.getDpsInputOperands())
        if (classifyLaneAccess(e.op, *input, innermost) == LaneAccess::Vector)
          vectorBuffers.push_back(input->get());
      auto choose = scf::IfOp::create(
          b, allVectorAligned(b, vectorBuffers),
          [&](OpBuilder &, Location) {
            Value unitBegin = arith::DivUIOp::create(
                b, begin, indexConstant(b, width));
            Value unitEnd =
                arith::DivUIOp::create(b, end, indexConstant(b, width));
            scf::YieldOp::create(
                b, asRange(foldUnits(
                       e, output, arith::AddIOp::create(b, unitBegin, thread),
                       unitEnd, kPlaneThreads, width, innermost)));
          },
          [&](OpBuilder &, Location) {
            scf::YieldOp::create(
                b, asRange(foldPositions(
                       e, output, arith::AddIOp::create(b, begin, thread), end,
                       kPlaneThreads)));
          });
      folded = State(choose.getResults());
    }
    State state = warpMerge(b, e.merger, folded);
    // One state per warp through shared memory; every warp merges them.
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
    Value hasState =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lane,
                              indexConstant(b, kPlaneThreads / 32));
    State staged;
    for (auto [buffer, emptyValue] : llvm::zip(shared, empty)) {
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
    state = warpMerge(b, e.merger, staged);
    auto first = scf::IfOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, zero),
        false);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    if (split == 1)
      e.storeFinal(output, state);
    else
      e.storePartial(partials, part, output, state);
    summaries.push_back(
        {(name + "_planes").str(),
         e.describe() + " over planes (" + std::to_string(kPlaneThreads) +
             " threads per output" +
             (width > 1 ? ", vector " + std::to_string(width) : std::string()) +
             (split > 1 ? ", split over " + std::to_string(split) + " blocks"
                        : std::string()) +
             ")"});
  }
  if (split > 1)
    summaries.push_back(
        e.emitCombine(partials, split, (name + "_combine").str()));
  return summaries;
}

/// Outputs per thread for the columns mapping with vector loads: one
/// parallel loop, every input contiguous along it (or not moving with it),
/// whole vectors, and shared memory for 16 rows of 32 threads' states.
int64_t columnVectorWidth(Emitter &e) {
  linalg::GenericOp op = e.op;
  if (e.parallelSizes.size() != 1)
    return 1;
  unsigned loop = 0;
  for (auto [dim, iterator] : llvm::enumerate(e.iterators))
    if (iterator == utils::IteratorType::parallel)
      loop = dim;
  int64_t widestBytes = 0;
  SmallVector<std::pair<OpOperand *, unsigned>> vectors;
  for (OpOperand *input : op.getDpsInputOperands()) {
    std::optional<unsigned> dim = unitStrideDim(op, *input, loop);
    if (!dim) {
      if (op.getMatchingIndexingMap(input).isFunctionOfDim(loop))
        return 1;
      continue;
    }
    unsigned bits = getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth();
    if (bits < 8 || bits % 8 != 0)
      return 1;
    widestBytes = std::max<int64_t>(widestBytes, bits / 8);
    vectors.push_back({input, *dim});
  }
  int64_t stateBytes = 0;
  for (Type type : e.merger.types)
    stateBytes += shuffleType(type).getIntOrFloatBitWidth() / 8;
  int64_t width = vectorWidthFor(widestBytes);
  while (width > 1 && (e.numOutputs % width != 0 ||
                       stateBytes * kRows * kColumns * width > 48 * 1024))
    width /= 2;
  if (width < 2 || vectors.empty())
    return 1;
  // With few outputs the reduction is split across many blocks and each
  // thread folds few rows: its `width` states and their merges then cost
  // more than wider loads save (measured on the H100: C = 256 and 64 were
  // slower with vectors, C = 2048 faster).
  if (e.numOutputs < kMinVectorColumnBlocks * kColumns * width)
    return 1;
  for (auto [operand, dim] : vectors)
    if (!vectorsStayAligned(*operand, dim, width))
      return 1;
  return width;
}

/// The columns mapping: threads along x take consecutive outputs, `width`
/// each (read with one vector load per input and row where width > 1), the
/// 16 warps of a block split the rows, and a shared-memory tree merges them.
SmallVector<KernelSummary> emitColumns(Emitter &e, StringRef name,
                                       int64_t width) {
  ImplicitLocOpBuilder &b = e.b;
  linalg::GenericOp op = e.op;
  unsigned loop = 0;
  for (auto [dim, iterator] : llvm::enumerate(e.iterators))
    if (iterator == utils::IteratorType::parallel)
      loop = dim;
  int64_t perBlock = kColumns * width;
  int64_t columnBlocks = (e.numOutputs + perBlock - 1) / perBlock;
  int64_t split = std::max<int64_t>(
      1, std::min((kTargetBlocks + columnBlocks - 1) / columnBlocks,
                  e.numReduced / (kRows * kMinPerThread)));
  SmallVector<Value> partials;
  if (split > 1)
    partials = e.allocatePartials(split);
  size_t stateSize = e.merger.types.size();
  int64_t vectorBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    if (unitStrideDim(op, *input, loop))
      vectorBytes = std::max<int64_t>(
          vectorBytes,
          width * getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth() /
              8);

  SmallVector<KernelSummary> summaries;
  {
    OpBuilder::InsertionGuard insertion(b);
    gpu::LaunchOp launch = createLaunch(
        b, columnBlocks * split, {kColumns, kRows},
        e.scratchArrays({kRows, perBlock}), (name + "_columns").str());
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
    Value tx = launch.getThreadIds().x;
    Value ty = launch.getThreadIds().y;
    Value column = arith::RemUIOp::create(b, launch.getBlockIds().x,
                                          indexConstant(b, columnBlocks));
    Value part = arith::DivUIOp::create(b, launch.getBlockIds().x,
                                        indexConstant(b, columnBlocks));
    Value threadColumn = arith::AddIOp::create(
        b, arith::MulIOp::create(b, column, indexConstant(b, kColumns)), tx);
    Value base =
        arith::MulIOp::create(b, threadColumn, indexConstant(b, width));
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, base,
                                        indexConstant(b, e.numOutputs));
    State empty = e.merger.empty(b);
    SmallVector<Value> emptyAll;
    for (int64_t l = 0; l < width; ++l)
      llvm::append_range(emptyAll, empty);

    // Per lane, the state after one row `reduced`; with `useVectors` each
    // contiguous input is one vector load, otherwise one load per lane.
    bool useVectors = true;
    auto updateRow = [&](ArrayRef<Value> states, Value reduced) {
      SmallVector<Value> loops = e.loopsAt(base, reduced);
      SmallVector<Value> loaded;
      SmallVector<bool> isVector;
      for (OpOperand *input : op.getDpsInputOperands()) {
        std::optional<unsigned> dim = unitStrideDim(op, *input, loop);
        isVector.push_back(dim.has_value());
        if (!dim) {
          loaded.push_back(loadOperand(b, op, *input, loops));
          continue;
        }
        if (!useVectors) {
          SmallVector<Value> lanes;
          for (int64_t l = 0; l < width; ++l) {
            SmallVector<Value> laneLoops(loops);
            laneLoops[loop] =
                arith::AddIOp::create(b, loops[loop], indexConstant(b, l));
            lanes.push_back(loadOperand(b, op, *input, laneLoops));
          }
          loaded.push_back(vector::FromElementsOp::create(
              b, VectorType::get({width}, getElementTypeOrSelf(input->get())),
              lanes));
          continue;
        }
        auto [view, indices] = vectorViewAt(b, op, *input, *dim, loops);
        loaded.push_back(vector::LoadOp::create(
            b, VectorType::get({width}, getElementTypeOrSelf(input->get())),
            view, indices, /*nontemporal=*/false,
            llvm::MaybeAlign(vectorBytes)));
      }
      SmallVector<Value> next;
      for (int64_t l = 0; l < width; ++l) {
        SmallVector<Value> laneLoops(loops);
        laneLoops[loop] =
            arith::AddIOp::create(b, loops[loop], indexConstant(b, l));
        SmallVector<Value> arguments;
        for (auto [value, vector] : llvm::zip(loaded, isVector))
          arguments.push_back(
              vector ? Value(vector::ExtractOp::create(b, value, l)) : value);
        llvm::append_range(arguments,
                           states.slice(l * stateSize, stateSize));
        llvm::append_range(next, emitBody(b, op, arguments, laneLoops));
      }
      return next;
    };

    auto foldRows = [&]() -> SmallVector<Value> {
      Value first = arith::AddIOp::create(
          b, arith::MulIOp::create(b, part, indexConstant(b, kRows)), ty);
      Value end = indexConstant(b, e.numReduced);
      int64_t step = kRows * split;
      auto rows = scf::ForOp::create(b, first, end,
                                     indexConstant(b, step * kUnroll),
                                     emptyAll);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(rows.getBody());
      SmallVector<Value> states(rows.getRegionIterArgs());
      Value last = arith::SubIOp::create(b, end, indexConstant(b, 1));
      for (int64_t k = 0; k < kUnroll; ++k) {
        Value row = arith::AddIOp::create(b, rows.getInductionVar(),
                                          indexConstant(b, k * step));
        if (k == 0) {
          states = updateRow(states, row);
          continue;
        }
        Value inRange =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, end);
        SmallVector<Value> next =
            updateRow(states, arith::MinUIOp::create(b, row, last));
        for (auto [value, updated] : llvm::zip(states, next))
          value = arith::SelectOp::create(b, inRange, updated, value);
      }
      scf::YieldOp::create(b, states);
      return SmallVector<Value>(rows.getResults());
    };
    // Vector loads where the vector-read buffers are 16-byte aligned, one
    // load per lane otherwise (the same threads and outputs either way).
    SmallVector<Value> vectorBuffers;
    for (OpOperand *input : op.getDpsInputOperands())
      if (unitStrideDim(op, *input, loop))
        vectorBuffers.push_back(input->get());
    Value aligned = width > 1 ? allVectorAligned(b, vectorBuffers) : Value();
    auto accumulate = scf::IfOp::create(
        b, valid,
        [&](OpBuilder &, Location) {
          if (width == 1) {
            useVectors = false;
            scf::YieldOp::create(b, foldRows());
            return;
          }
          auto choose = scf::IfOp::create(
              b, aligned,
              [&](OpBuilder &, Location) {
                useVectors = true;
                scf::YieldOp::create(b, foldRows());
              },
              [&](OpBuilder &, Location) {
                useVectors = false;
                scf::YieldOp::create(b, foldRows());
              });
          scf::YieldOp::create(b, choose.getResults());
        },
        [&](OpBuilder &, Location) { scf::YieldOp::create(b, emptyAll); });

    for (int64_t l = 0; l < width; ++l) {
      Value slot = arith::AddIOp::create(
          b, arith::MulIOp::create(b, tx, indexConstant(b, width)),
          indexConstant(b, l));
      for (auto [i, buffer] : llvm::enumerate(shared))
        memref::StoreOp::create(
            b,
            widenForShuffle(b, accumulate.getResult(l * stateSize + i)),
            buffer, ValueRange{ty, slot});
    }
    gpu::BarrierOp::create(b);
    // A tree over the 16 rows of partial states: log2(16) merges per lane
    // and thread rather than 16 in one thread.
    auto slotOf = [&](int64_t l) -> Value {
      return arith::AddIOp::create(
          b, arith::MulIOp::create(b, tx, indexConstant(b, width)),
          indexConstant(b, l));
    };
    auto loadState = [&](Value row, Value slot) {
      State loaded;
      for (auto [buffer, type] : llvm::zip(shared, e.merger.types))
        loaded.push_back(narrowFromShuffle(
            b, memref::LoadOp::create(b, buffer, ValueRange{row, slot}),
            type));
      return loaded;
    };
    for (int64_t stride = kRows / 2; stride >= 1; stride /= 2) {
      Value active = arith::AndIOp::create(
          b, valid,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ty,
                                indexConstant(b, stride)));
      auto step = scf::IfOp::create(b, active, false);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(&step.getThenRegion().front());
        Value other = arith::AddIOp::create(b, ty, indexConstant(b, stride));
        for (int64_t l = 0; l < width; ++l) {
          Value slot = slotOf(l);
          State merged = e.merger.merge(b, loadState(ty, slot),
                                        loadState(other, slot));
          for (auto [buffer, value] : llvm::zip(shared, merged))
            memref::StoreOp::create(b, widenForShuffle(b, value), buffer,
                                    ValueRange{ty, slot});
        }
      }
      gpu::BarrierOp::create(b);
    }
    Value firstRow = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ty,
                                           indexConstant(b, 0));
    auto merging = scf::IfOp::create(
        b, arith::AndIOp::create(b, firstRow, valid), false);
    b.setInsertionPointToStart(&merging.getThenRegion().front());
    for (int64_t l = 0; l < width; ++l) {
      State state = loadState(indexConstant(b, 0), slotOf(l));
      Value output = arith::AddIOp::create(b, base, indexConstant(b, l));
      if (split == 1)
        e.storeFinal(output, state);
      else
        e.storePartial(partials, part, output, state);
    }
    summaries.push_back(
        {(name + "_columns").str(),
         e.describe() + " over columns (" +
             (width > 1 ? "32 x " + std::to_string(width) +
                              " columns x 16 warps per block, vector " +
                              std::to_string(width)
                        : std::string("32 columns x 16 warps per block")) +
             (split > 1 ? ", split over " + std::to_string(split) + " blocks"
                        : std::string()) +
             ")"});
  }
  if (split > 1)
    summaries.push_back(
        e.emitCombine(partials, split, (name + "_combine").str()));
  return summaries;
}

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

bool isMultiValueReduction(linalg::GenericOp op) {
  return stateMergeOf(op).has_value();
}

SmallVector<KernelSummary> emitMultiValueReductionKernels(linalg::GenericOp op,
                                                          StringRef name) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  Emitter emitter(op, b, *stateMergeOf(op));
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i)
    emitter.initValues.push_back(findFillInit(op, i).value);
  if (!readsColumns(op))
    return emitPlanes(emitter, name);
  return emitColumns(emitter, name, columnVectorWidth(emitter));
}

} // namespace mlir::cudnn_mlir::codegen
