//===- WelfordKernel.cpp - per-channel mean and variance by Welford -------===//
//
// A generic marked `codegen.combiner = "welford"` reduces its input into a
// (count, mean, M2) state per output element, its body being one Welford
// update. The mark says that partial states may be merged with Chan's
// formula, so the reduction can be split: every thread folds its share of
// the elements into its own state, threads merge their states (warp
// shuffles and shared memory), and when the reduction is split across
// blocks a second kernel merges the blocks' states in order. Counts are
// 64-bit integers; mean and M2 stay in the state's float type.
//
// Two thread mappings, chosen by the input's memory layout:
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

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {

constexpr int64_t kPlaneThreads = 512;
constexpr int64_t kColumns = 32;
constexpr int64_t kRows = 16;
constexpr int64_t kTargetBlocks = 132 * 4;
constexpr int64_t kMinPerThread = 8;
constexpr int64_t kUnroll = 4; // positions per loop trip

/// A Welford state: element count, mean, sum of squared deviations.
struct State {
  Value count, mean, m2;
};

State emptyState(ImplicitLocOpBuilder &b, Type countType, Type floatType) {
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(floatType));
  return {arith::ConstantOp::create(b, b.getIntegerAttr(countType, 0)), zero,
          zero};
}

/// Chan et al.'s merge of two states (an empty state merges as identity).
State merge(ImplicitLocOpBuilder &b, State lhs, State rhs) {
  Type floatType = lhs.mean.getType();
  Value count = arith::AddIOp::create(b, lhs.count, rhs.count);
  Value countF = arith::SIToFPOp::create(b, floatType, count);
  Value lhsF = arith::SIToFPOp::create(b, floatType, lhs.count);
  Value rhsF = arith::SIToFPOp::create(b, floatType, rhs.count);
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(floatType));
  Value isEmpty = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq, count,
      arith::ConstantOp::create(b, b.getIntegerAttr(count.getType(), 0)));
  // rhs's share of the merged count (0 for two empty states).
  Value share = arith::SelectOp::create(
      b, isEmpty, zero, arith::DivFOp::create(b, rhsF, countF));
  Value delta = arith::SubFOp::create(b, rhs.mean, lhs.mean);
  Value mean = arith::AddFOp::create(
      b, lhs.mean, arith::MulFOp::create(b, delta, share));
  Value correction = arith::MulFOp::create(
      b, arith::MulFOp::create(b, delta, delta),
      arith::MulFOp::create(b, lhsF, share));
  Value m2 = arith::AddFOp::create(
      b, arith::AddFOp::create(b, lhs.m2, rhs.m2), correction);
  return {count, mean, m2};
}

State shuffleXor(ImplicitLocOpBuilder &b, State state, int32_t offset) {
  auto shuffle = [&](Value value) -> Value {
    return gpu::ShuffleOp::create(b, value, offset, /*width=*/32,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  return {shuffle(state.count), shuffle(state.mean), shuffle(state.m2)};
}

State warpMerge(ImplicitLocOpBuilder &b, State state) {
  for (int32_t offset = 16; offset >= 1; offset /= 2)
    state = merge(b, state, shuffleXor(b, state, offset));
  return state;
}

SmallVector<int64_t> sizesOf(linalg::GenericOp op, utils::IteratorType kind) {
  SmallVector<int64_t> sizes;
  for (auto [size, iterator] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
    if (iterator == kind)
      sizes.push_back(size);
  return sizes;
}

int64_t product(ArrayRef<int64_t> sizes) {
  int64_t result = 1;
  for (int64_t size : sizes)
    result *= size;
  return result;
}

/// What both mappings share: loop coordinates, the Welford update through
/// the op's body, the states the fills start the outputs with, and the
/// final store or the partial states of a split reduction.
struct WelfordEmitter {
  linalg::GenericOp op;
  ImplicitLocOpBuilder &b;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<int64_t> parallelSizes, reducedSizes;
  int64_t numOutputs, numReduced;
  Type countType, floatType;
  SmallVector<Value> initValues; // per output: the fill's value, or null

  WelfordEmitter(linalg::GenericOp op, ImplicitLocOpBuilder &b)
      : op(op), b(b), iterators(op.getIteratorTypesArray()),
        parallelSizes(sizesOf(op, utils::IteratorType::parallel)),
        reducedSizes(sizesOf(op, utils::IteratorType::reduction)),
        numOutputs(product(parallelSizes)), numReduced(product(reducedSizes)),
        countType(getElementTypeOrSelf(op.getDpsInits()[0])),
        floatType(getElementTypeOrSelf(op.getDpsInits()[1])) {}

  SmallVector<Value> loopsAt(Value output, Value reduced) {
    SmallVector<Value> parallel = delinearize(b, output, parallelSizes);
    SmallVector<Value> reducedCoords =
        reduced ? delinearize(b, reduced, reducedSizes)
                : SmallVector<Value>(reducedSizes.size(), indexConstant(b, 0));
    SmallVector<Value> loops;
    unsigned p = 0, r = 0;
    for (utils::IteratorType iterator : iterators)
      loops.push_back(iterator == utils::IteratorType::parallel
                          ? parallel[p++]
                          : reducedCoords[r++]);
    return loops;
  }

  /// The state after folding element `reduced` of output `output` in.
  State update(State state, Value output, Value reduced) {
    SmallVector<Value> loops = loopsAt(output, reduced);
    SmallVector<Value> arguments;
    for (OpOperand *input : op.getDpsInputOperands())
      arguments.push_back(loadOperand(b, op, *input, loops));
    arguments.append({state.count, state.mean, state.m2});
    SmallVector<Value> next = emitBody(b, op, arguments, loops);
    return {next[0], next[1], next[2]};
  }

  /// The outputs' starting state: their fills' values, or what they hold.
  State initialState(Value output) {
    SmallVector<Value> loops = loopsAt(output, Value());
    SmallVector<Value> values;
    for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
      values.push_back(initValues[i] ? initValues[i]
                                     : loadOperand(b, op, init, loops));
    return {values[0], values[1], values[2]};
  }

  void storeFinal(Value output, State state) {
    State merged = merge(b, initialState(output), state);
    SmallVector<Value> loops = loopsAt(output, Value());
    Value values[] = {merged.count, merged.mean, merged.m2};
    for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
      storeOperand(b, op, init, value, loops);
  }

  /// Per-block partial states, [split x outputs] each.
  SmallVector<Value> allocatePartials(int64_t split) {
    SmallVector<Value> partials;
    for (Type type : {countType, floatType, floatType})
      partials.push_back(memref::AllocOp::create(
          b, MemRefType::get({split, numOutputs}, type)));
    return partials;
  }

  void storePartial(ArrayRef<Value> partials, Value part, Value output,
                    State state) {
    Value values[] = {state.count, state.mean, state.m2};
    for (auto [buffer, value] : llvm::zip(partials, values))
      memref::StoreOp::create(b, value, buffer, ValueRange{part, output});
  }

  /// The second kernel: merges the blocks' states of each output in order.
  KernelSummary emitCombine(ArrayRef<Value> partials, int64_t split,
                            StringRef name) {
    int64_t blockSize = 256;
    gpu::LaunchOp launch =
        createLaunch(b, (numOutputs + blockSize - 1) / blockSize, {blockSize},
                     {}, name);
    Value output = arith::AddIOp::create(
        b,
        arith::MulIOp::create(b, launch.getBlockIds().x,
                              indexConstant(b, blockSize)),
        launch.getThreadIds().x);
    auto guard = scf::IfOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, output,
                              indexConstant(b, numOutputs)),
        false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    State state = emptyState(b, countType, floatType);
    for (int64_t p = 0; p < split; ++p) {
      Value part = indexConstant(b, p);
      SmallVector<Value> loaded;
      for (Value buffer : partials)
        loaded.push_back(
            memref::LoadOp::create(b, buffer, ValueRange{part, output}));
      state = merge(b, state, {loaded[0], loaded[1], loaded[2]});
    }
    storeFinal(output, state);
    return {name.str(), "Welford merge of " + std::to_string(split) +
                            " partial states per output"};
  }

  Type workgroupArray(ArrayRef<int64_t> shape, Type element) {
    return MemRefType::get(
        shape, element, MemRefLayoutAttrInterface{},
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup));
  }
};

/// Folds the positions start, start + step, ... (below `end`) into a state,
/// kUnroll positions per trip with loads in flight together; positions past
/// `end` in the last trip leave the state as it is.
State foldPositions(WelfordEmitter &e, Value output, Value start, Value end,
                    int64_t step) {
  ImplicitLocOpBuilder &b = e.b;
  State empty = emptyState(b, e.countType, e.floatType);
  auto loop = scf::ForOp::create(b, start, end,
                                 indexConstant(b, step * kUnroll),
                                 ValueRange{empty.count, empty.mean, empty.m2});
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(loop.getBody());
  ValueRange acc = loop.getRegionIterArgs();
  State state{acc[0], acc[1], acc[2]};
  for (int64_t k = 0; k < kUnroll; ++k) {
    Value position = arith::AddIOp::create(b, loop.getInductionVar(),
                                           indexConstant(b, k * step));
    if (k == 0) {
      state = e.update(state, output, position);
      continue;
    }
    Value inRange =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, position, end);
    State before = state;
    auto guarded = scf::IfOp::create(
        b, inRange,
        [&](OpBuilder &, Location) {
          State next = e.update(before, output, position);
          scf::YieldOp::create(b, ValueRange{next.count, next.mean, next.m2});
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(
              b, ValueRange{before.count, before.mean, before.m2});
        });
    state = {guarded.getResult(0), guarded.getResult(1), guarded.getResult(2)};
  }
  scf::YieldOp::create(b, ValueRange{state.count, state.mean, state.m2});
  return {loop.getResult(0), loop.getResult(1), loop.getResult(2)};
}

/// True when the input's innermost memory dimension is indexed by a
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

SmallVector<KernelSummary> emitPlanes(WelfordEmitter &e, StringRef name) {
  ImplicitLocOpBuilder &b = e.b;
  int64_t split = std::max<int64_t>(
      1, std::min((kTargetBlocks + e.numOutputs - 1) / e.numOutputs,
                  e.numReduced / (kPlaneThreads * kMinPerThread)));
  int64_t chunk = (e.numReduced + split - 1) / split;
  SmallVector<Value> partials;
  if (split > 1)
    partials = e.allocatePartials(split);

  SmallVector<KernelSummary> summaries;
  {
    OpBuilder::InsertionGuard insertion(b);
    SmallVector<Type> scratch = {e.workgroupArray({32}, e.countType),
                                 e.workgroupArray({32}, e.floatType),
                                 e.workgroupArray({32}, e.floatType)};
    gpu::LaunchOp launch =
        createLaunch(b, e.numOutputs * split, {kPlaneThreads}, scratch,
                     (name + "_planes").str());
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
    Value thread = launch.getThreadIds().x;
    Value output = arith::DivUIOp::create(b, launch.getBlockIds().x,
                                          indexConstant(b, split));
    Value part = arith::RemUIOp::create(b, launch.getBlockIds().x,
                                        indexConstant(b, split));
    Value begin =
        arith::MulIOp::create(b, part, indexConstant(b, chunk));
    Value end = arith::MinUIOp::create(
        b, arith::AddIOp::create(b, begin, indexConstant(b, chunk)),
        indexConstant(b, e.numReduced));
    State empty = emptyState(b, e.countType, e.floatType);
    State folded = foldPositions(e, output, arith::AddIOp::create(b, begin, thread),
                                 end, kPlaneThreads);
    State state = warpMerge(b, folded);
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
      Value values[] = {state.count, state.mean, state.m2};
      for (auto [buffer, value] : llvm::zip(shared, values))
        memref::StoreOp::create(b, value, buffer, ValueRange{warp});
    }
    gpu::BarrierOp::create(b);
    Value hasState =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lane,
                              indexConstant(b, kPlaneThreads / 32));
    SmallVector<Value> staged;
    Value emptyValues[] = {empty.count, empty.mean, empty.m2};
    for (auto [buffer, emptyValue] : llvm::zip(shared, emptyValues)) {
      auto read = scf::IfOp::create(
          b, hasState,
          [&](OpBuilder &nested, Location loc) {
            scf::YieldOp::create(
                nested, loc,
                ValueRange{memref::LoadOp::create(nested, loc, buffer,
                                                  ValueRange{lane})});
          },
          [&](OpBuilder &nested, Location loc) {
            scf::YieldOp::create(nested, loc, ValueRange{emptyValue});
          });
      staged.push_back(read.getResult(0));
    }
    state = warpMerge(b, {staged[0], staged[1], staged[2]});
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
         "Welford over planes (" + std::to_string(kPlaneThreads) +
             " threads per output" +
             (split > 1 ? ", split over " + std::to_string(split) + " blocks"
                        : std::string()) +
             ")"});
  }
  if (split > 1)
    summaries.push_back(
        e.emitCombine(partials, split, (name + "_combine").str()));
  return summaries;
}

SmallVector<KernelSummary> emitColumns(WelfordEmitter &e, StringRef name) {
  ImplicitLocOpBuilder &b = e.b;
  int64_t columnBlocks = (e.numOutputs + kColumns - 1) / kColumns;
  int64_t split = std::max<int64_t>(
      1, std::min((kTargetBlocks + columnBlocks - 1) / columnBlocks,
                  e.numReduced / (kRows * kMinPerThread)));
  SmallVector<Value> partials;
  if (split > 1)
    partials = e.allocatePartials(split);

  SmallVector<KernelSummary> summaries;
  {
    OpBuilder::InsertionGuard insertion(b);
    SmallVector<Type> scratch = {
        e.workgroupArray({kRows, kColumns}, e.countType),
        e.workgroupArray({kRows, kColumns}, e.floatType),
        e.workgroupArray({kRows, kColumns}, e.floatType)};
    gpu::LaunchOp launch =
        createLaunch(b, columnBlocks * split, {kColumns, kRows}, scratch,
                     (name + "_columns").str());
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
    Value tx = launch.getThreadIds().x;
    Value ty = launch.getThreadIds().y;
    Value column = arith::RemUIOp::create(b, launch.getBlockIds().x,
                                          indexConstant(b, columnBlocks));
    Value part = arith::DivUIOp::create(b, launch.getBlockIds().x,
                                        indexConstant(b, columnBlocks));
    Value output = arith::AddIOp::create(
        b, arith::MulIOp::create(b, column, indexConstant(b, kColumns)), tx);
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, output,
                                        indexConstant(b, e.numOutputs));
    State empty = emptyState(b, e.countType, e.floatType);
    auto accumulate = scf::IfOp::create(
        b, valid,
        [&](OpBuilder &, Location) {
          Value first = arith::AddIOp::create(
              b, arith::MulIOp::create(b, part, indexConstant(b, kRows)), ty);
          State folded = foldPositions(e, output, first,
                                       indexConstant(b, e.numReduced),
                                       kRows * split);
          scf::YieldOp::create(
              b, ValueRange{folded.count, folded.mean, folded.m2});
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b,
                               ValueRange{empty.count, empty.mean, empty.m2});
        });
    for (auto [buffer, value] : llvm::zip(shared, accumulate.getResults()))
      memref::StoreOp::create(b, value, buffer, ValueRange{ty, tx});
    gpu::BarrierOp::create(b);
    Value firstRow = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ty,
                                           indexConstant(b, 0));
    auto merging = scf::IfOp::create(
        b, arith::AndIOp::create(b, firstRow, valid), false);
    b.setInsertionPointToStart(&merging.getThenRegion().front());
    State state = empty;
    for (int64_t row = 0; row < kRows; ++row) {
      SmallVector<Value> loaded;
      for (Value buffer : shared)
        loaded.push_back(memref::LoadOp::create(
            b, buffer, ValueRange{indexConstant(b, row), tx}));
      state = merge(b, state, {loaded[0], loaded[1], loaded[2]});
    }
    if (split == 1)
      e.storeFinal(output, state);
    else
      e.storePartial(partials, part, output, state);
    summaries.push_back(
        {(name + "_columns").str(),
         "Welford over columns (32 columns x 16 warps per block" +
             (split > 1 ? ", split over " + std::to_string(split) + " blocks"
                        : std::string()) +
             ")"});
  }
  if (split > 1)
    summaries.push_back(
        e.emitCombine(partials, split, (name + "_combine").str()));
  return summaries;
}

} // namespace

bool isWelfordReduction(linalg::GenericOp op) {
  auto combiner = op->getAttrOfType<StringAttr>(kCombinerAttrName);
  if (!combiner || combiner.getValue() != "welford" ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 3 ||
      op.getNumReductionLoops() == 0 ||
      !isa<MemRefType>(op.getDpsInputOperand(0)->get().getType()))
    return false;
  Type count = getElementTypeOrSelf(op.getDpsInits()[0]);
  Type mean = getElementTypeOrSelf(op.getDpsInits()[1]);
  return isa<IntegerType>(count) && isa<FloatType>(mean) &&
         mean == getElementTypeOrSelf(op.getDpsInits()[2]);
}

SmallVector<KernelSummary> emitWelfordKernels(linalg::GenericOp op,
                                              StringRef name) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  WelfordEmitter emitter(op, b);
  for (unsigned i = 0; i < 3; ++i)
    emitter.initValues.push_back(findFillInit(op, i).value);
  return readsColumns(op) ? emitColumns(emitter, name)
                          : emitPlanes(emitter, name);
}

} // namespace mlir::cudnn_mlir::codegen
