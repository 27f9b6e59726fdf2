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

#include "Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/bit.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {

constexpr int64_t kMaxPlaneThreads = 512;
constexpr int64_t kMinPlaneThreads = 128;
constexpr int64_t kPlaneValuesPerThread = 64; // below: fewer threads
constexpr int64_t kColumnBlockThreads = 512;
constexpr int64_t kMaxColumnThreads = 32; // threads along the outputs
// Partial states per column in a column block's shared memory: 16 of the
// 64 rows of an 8-thread-wide block fold in four groups, which leaves a
// grid-sync kernel room for one more trip of x in shared memory.
constexpr int64_t kColumnScratchRows = 16;
// Blocks to aim for when splitting a reduction (H100: 132 SMs). Measured
// on the H100 with the batch-norm benchmark: planes do best with two waves
// of 512-thread blocks (f32 256x64x56x56: 94.6 us against 104 us with one),
// columns with one (their 8-lane blocks fit two per SM; f16 32x256x56x56:
// 31.0 + 7.6 us merge against 33.7 + 11.9 us with two).
constexpr int64_t kPlaneTargetBlocks = 132 * 4;
// A planes reduction with at least this many outputs (a block each fills
// an H100's 132 multiprocessors) runs the elementwise op after it in the
// same kernel, each block normalising its own output's plane.
constexpr int64_t kMinOutputsForPlaneFollower = 132;
constexpr int64_t kColumnTargetBlocks = 132 * 2;
constexpr int64_t kMinPerThread = 8;
constexpr int64_t kUnroll = 4; // positions per loop trip
constexpr int64_t kScalarLanes = 4; // lanes of a thread without vectors
constexpr int64_t kCombineThreads = 256; // per block of the merge kernel
// Measured on the H100 (batch-norm benchmark): a warp per output merges up
// to 64 partial states fastest (2048 outputs x 33: 5.2 us against 7.3 with a
// block each); above, a block per output (64 outputs x 264: 3.5 us against
// 7.0 with a warp each).
constexpr int64_t kWarpMergeSplit = 64;
constexpr int64_t kSharedMemoryBytes = 48 * 1024;
// Threads each multiprocessor must hold at once (half of an H100's 2048):
// the columns' block count assumes two 512-thread blocks per
// multiprocessor, which ptxas only leaves room for when told
// (nvvm.minctasm). Without it the f16 column kernel of 256x2048x7x7 got 76
// registers, one block per multiprocessor: 31.0 us against 27.6 us (H100,
// 2026-11-25). The plane kernels are not marked: they stay under 64
// registers, and a mark only lets ptxas take more (48 -> 64 for 7x7
// planes of 128 threads, fewer blocks per multiprocessor).
constexpr int64_t kMinThreadsPerMultiprocessor = 1024;

/// The blocks of `threads` threads each multiprocessor must hold at once.
int64_t minBlocksPerMultiprocessor(int64_t threads) {
  return std::max<int64_t>(1, kMinThreadsPerMultiprocessor / threads);
}

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

/// What both mappings share: loop coordinates, the per-element step through
/// the op's body, the state the fills start the outputs with, and the
/// final store or the partial states of a split reduction.
struct Emitter : ReductionSpace {
  linalg::GenericOp op;
  ImplicitLocOpBuilder &b;
  StateMerge merger;
  SmallVector<Value> initValues; // per output: the fill's value, or null
  linalg::GenericOp epilogue;     // run per finished output, or null

  /// Lanes share one count (Welford whose count update reads only the
  /// count); the flat lane layout is then [count, lane 0's other values,
  /// lane 1's, ...], otherwise every lane's whole state in turn.
  bool sharedCount = false;

  Emitter(linalg::GenericOp op, ImplicitLocOpBuilder &b, StateMerge merger)
      : ReductionSpace(op), op(op), b(b), merger(std::move(merger)) {
    sharedCount = this->merger.welford && countStepsInLockstep(op);
  }

  /// True when the yielded count depends on the count argument and
  /// constants only: every lane that folds one element per step then holds
  /// the same count.
  static bool countStepsInLockstep(linalg::GenericOp op) {
    Block *body = op.getBlock();
    BlockArgument count = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
    SmallVector<Value> work{body->getTerminator()->getOperand(0)};
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (auto argument = dyn_cast<BlockArgument>(value)) {
        if (argument != count)
          return false;
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (def->getBlock() != body)
        continue; // defined above the generic: the same for every element
      llvm::append_range(work, def->getOperands());
    }
    return true;
  }

  size_t stateSize() const { return merger.types.size(); }

  State lane(ArrayRef<Value> lanes, int64_t l) const {
    size_t size = stateSize();
    if (!sharedCount)
      return State(lanes.slice(l * size, size));
    State state{lanes[0]};
    llvm::append_range(state, lanes.slice(1 + l * (size - 1), size - 1));
    return state;
  }

  SmallVector<Value> packLanes(ArrayRef<State> states) const {
    SmallVector<Value> lanes;
    if (sharedCount)
      lanes.push_back(states.front()[0]);
    for (const State &state : states)
      llvm::append_range(lanes, sharedCount ? ArrayRef<Value>(state).drop_front()
                                            : ArrayRef<Value>(state));
    return lanes;
  }

  SmallVector<Value> emptyLanes(int64_t width) {
    return packLanes(SmallVector<State>(width, merger.empty(b)));
  }

  /// Merges `width` lanes into one state, pairwise.
  State collapseLanes(ArrayRef<Value> lanes, int64_t width) {
    SmallVector<State> states;
    for (int64_t l = 0; l < width; ++l)
      states.push_back(lane(lanes, l));
    while (states.size() > 1) {
      SmallVector<State> merged;
      for (size_t i = 0; i + 1 < states.size(); i += 2)
        merged.push_back(merger.merge(b, states[i], states[i + 1]));
      if (states.size() % 2)
        merged.push_back(states.back());
      states = std::move(merged);
    }
    return states.front();
  }

  SmallVector<Value> loopsAt(Value output, Value reduced) {
    return ReductionSpace::loopsAt(b, output, reduced);
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

  /// Stores output `output`'s final state, then runs the epilogue for that
  /// element (it reads what this thread just stored).
  void storeFinal(Value output, const State &state) {
    State merged = merger.merge(b, initialState(output), state);
    SmallVector<Value> loops = loopsAt(output, Value());
    for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), merged))
      storeOperand(b, op, init, value, loops);
    if (!epilogue)
      return;
    SmallVector<Value> points =
        delinearize(b, output, epilogue.getStaticLoopRanges());
    SmallVector<Value> arguments;
    for (OpOperand *input : epilogue.getDpsInputOperands())
      arguments.push_back(loadOperand(b, epilogue, *input, points));
    for (OpOperand &init : epilogue.getDpsInitsMutable())
      arguments.push_back(initArgument(b, epilogue, init, points));
    SmallVector<Value> results = emitBody(b, epilogue, arguments, points);
    for (auto [init, value] : llvm::zip(epilogue.getDpsInitsMutable(), results))
      storeOperand(b, epilogue, init, value, points);
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

  /// The second kernel merges each output's partial states: a warp per
  /// output (8 outputs per block) where there are at most kWarpMergeSplit,
  /// otherwise a block of up to kCombineThreads threads per output, merged
  /// by blockMerge. Thread t takes the states of blocks t, t + threads, ...
  /// (their loads first); the order is fixed. The first thread stores the
  /// result.
  KernelSummary emitCombine(ArrayRef<Value> partials, int64_t split,
                            StringRef name) {
    bool warpPerOutput = split <= kWarpMergeSplit;
    int64_t threads =
        warpPerOutput ? 32
                      : std::min<int64_t>(kCombineThreads,
                                          llvm::alignTo(split, 32));
    int64_t outputsPerBlock = warpPerOutput ? kCombineThreads / 32 : 1;
    gpu::LaunchOp launch = createLaunch(
        b, (numOutputs + outputsPerBlock - 1) / outputsPerBlock,
        {threads, outputsPerBlock},
        warpPerOutput ? SmallVector<Type>{} : scratchArrays({32}), name);
    Value thread = launch.getThreadIds().x;
    Value output = arith::AddIOp::create(
        b,
        arith::MulIOp::create(b, launch.getBlockIds().x,
                              indexConstant(b, outputsPerBlock)),
        launch.getThreadIds().y);
    if (warpPerOutput) {
      // The same for the warp's 32 lanes, which shuffle.
      auto guard = scf::IfOp::create(
          b,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, output,
                                indexConstant(b, numOutputs)),
          /*withElseRegion=*/false);
      b.setInsertionPointToStart(&guard.getThenRegion().front());
    }
    Value last = indexConstant(b, split - 1);
    SmallVector<std::pair<Value, State>> loadedParts;
    for (int64_t k = 0; k * threads < split; ++k) {
      Value p = arith::AddIOp::create(b, thread, indexConstant(b, threads * k));
      Value inRange = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, p,
                                            indexConstant(b, split));
      Value clamped = arith::MinUIOp::create(b, p, last);
      State loaded;
      for (Value buffer : partials)
        loaded.push_back(
            memref::LoadOp::create(b, buffer, ValueRange{clamped, output}));
      loadedParts.push_back({inRange, loaded});
    }
    State state = merger.empty(b);
    for (auto &[inRange, loaded] : loadedParts) {
      State merged = merger.merge(b, state, loaded);
      for (auto [value, updated] : llvm::zip(state, merged))
        value = arith::SelectOp::create(b, inRange, updated, value);
    }
    state = warpPerOutput
                ? warpMerge(b, merger, state)
                : blockMerge(b, merger, state,
                             launch.getWorkgroupAttributions(), thread,
                             threads);
    auto first = scf::IfOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread,
                              indexConstant(b, 0)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    storeFinal(output, state);
    return {name.str(),
            "merge of " + std::to_string(split) +
                " partial states per output (" +
                (warpPerOutput ? std::string("a warp each")
                               : "a block of " + std::to_string(threads) +
                                     " threads each") +
                ")"};
  }

  /// In a grid-sync kernel, after the blocks stored their `split` partial
  /// states per output and met at a grid barrier: merges each output's
  /// states and stores the final one (running the epilogue). The outputs go
  /// round the merge units, a warp each (`warpPerOutput`) or a block each
  /// (merged through blockMerge and `shared`); `thread` is the block's
  /// linear thread id. Every member takes states member, member + members,
  /// ... in a fixed order, so the result does not depend on timing.
  void emitGridMerge(ArrayRef<Value> partials, Value split, Value blockLinear,
                     Value blocks, Value thread, int64_t blockThreads,
                     bool warpPerOutput, ArrayRef<BlockArgument> shared) {
    int64_t members = warpPerOutput ? 32 : blockThreads;
    Value unit = blockLinear, units = blocks, member = thread;
    if (warpPerOutput) {
      Value warps = indexConstant(b, blockThreads / 32);
      unit = arith::AddIOp::create(
          b, arith::MulIOp::create(b, blockLinear, warps),
          arith::DivUIOp::create(b, thread, indexConstant(b, 32)));
      units = arith::MulIOp::create(b, blocks, warps);
      member = arith::RemUIOp::create(b, thread, indexConstant(b, 32));
    }
    auto outputs =
        scf::ForOp::create(b, unit, indexConstant(b, numOutputs), units);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outputs.getBody());
    Value output = outputs.getInductionVar();
    auto fold = scf::ForOp::create(b, member, split,
                                   indexConstant(b, members),
                                   asRange(merger.empty(b)));
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(fold.getBody());
      State loaded;
      for (Value buffer : partials)
        loaded.push_back(memref::LoadOp::create(
            b, buffer, ValueRange{fold.getInductionVar(), output}));
      scf::YieldOp::create(
          b, asRange(merger.merge(b, State(fold.getRegionIterArgs()),
                                  loaded)));
    }
    State state(fold.getResults());
    state = warpPerOutput
                ? warpMerge(b, merger, state)
                : blockMerge(b, merger, state, shared, thread, blockThreads);
    auto first = scf::IfOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, member,
                              indexConstant(b, 0)),
        /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      storeFinal(output, state);
    }
    // The next output's blockMerge reuses `shared`.
    if (!warpPerOutput)
      gpu::BarrierOp::create(b);
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

  /// Stores output `output`'s state: the final one, or block `part`'s
  /// partial state when the reduction is split (`partials` not empty).
  void storeState(ArrayRef<Value> partials, Value part, Value output,
                  const State &state) {
    if (partials.empty())
      storeFinal(output, state);
    else
      storePartial(partials, part, output, state);
  }

  /// The summary of the first kernel (`mapping`: "planes" or "columns",
  /// with `details`, lanes when `width` > 1), then, where the reduction is
  /// split (`partials` not empty), the merge kernel, emitted here.
  SmallVector<KernelSummary> finish(StringRef name, StringRef mapping,
                                    const std::string &details, int64_t width,
                                    ArrayRef<Value> partials) {
    int64_t split = partials.empty()
                        ? 1
                        : cast<MemRefType>(partials.front().getType())
                              .getDimSize(0);
    SmallVector<KernelSummary> summaries{
        {(name + "_" + mapping).str(),
         describe() + " over " + mapping.str() + " (" + details +
             (sharedCount && width > 1 ? ", shared count" : "") +
             (split > 1 ? ", split over " + std::to_string(split) + " blocks"
                        : std::string()) +
             ")"}};
    if (split > 1)
      summaries.push_back(
          emitCombine(partials, split, (name + "_combine").str()));
    return summaries;
  }
};

/// One trip of an unrolled loop: the kUnroll items `first + k * step` are
/// all loaded (`load`; an item past `end` reads item `end - 1` instead)
/// before any is folded into `lanes` (`fold`), so that the loads are in
/// flight together; the steps of items past `end` are discarded by a select
/// (not a branch, and for all lanes alike). `loaded`, if given, sees the
/// trip's loaded items first (an item past `end` holds item `end - 1`).
template <typename Loaded>
SmallVector<Value> foldUnrolledTrip(
    ImplicitLocOpBuilder &b, Value first, Value end, Value step,
    SmallVector<Value> lanes, function_ref<Loaded(Value)> load,
    function_ref<SmallVector<Value>(ArrayRef<Value>, const Loaded &)> fold,
    function_ref<void(ArrayRef<Loaded>)> loaded = {}) {
  Value last = arith::SubIOp::create(b, end, indexConstant(b, 1));
  SmallVector<Loaded> units;
  SmallVector<Value> inRange;
  for (int64_t k = 0; k < kUnroll; ++k) {
    Value item = arith::AddIOp::create(
        b, first,
        b.createOrFold<arith::MulIOp>(step, indexConstant(b, k)));
    inRange.push_back(
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, item, end));
    units.push_back(
        load(k == 0 ? item : arith::MinUIOp::create(b, item, last)));
  }
  if (loaded)
    loaded(units);
  for (int64_t k = 0; k < kUnroll; ++k) {
    SmallVector<Value> next = fold(lanes, units[k]);
    if (k == 0) {
      lanes = next;
      continue;
    }
    for (auto [value, updated] : llvm::zip(lanes, next))
      value = arith::SelectOp::create(b, inRange[k], updated, value);
  }
  return lanes;
}

/// The inputs of the `width` consecutive positions from `first`, one list
/// per lane, and each lane's loop coordinates. With `vectorLoads`, the
/// innermost reduced loop runs through the positions: inputs contiguous
/// along it are read as one vector and the others once for the unit.
/// Otherwise every position is read on its own (consecutive positions of
/// the reduced space, wherever they lie).
struct LoadedUnit {
  SmallVector<SmallVector<Value>> inputs, loops;
};

LoadedUnit loadUnit(Emitter &e, Value output, Value first, int64_t width,
                    unsigned innermost, bool vectorLoads) {
  ImplicitLocOpBuilder &b = e.b;
  linalg::GenericOp op = e.op;
  LoadedUnit unit;
  if (!vectorLoads || width == 1) {
    // The unit's positions are consecutive: the first one's coordinates
    // come from its linear index, each next one's by a carry.
    SmallVector<Value> loops;
    for (int64_t l = 0; l < width; ++l) {
      loops = l == 0 ? e.loopsAt(output, first) : e.nextReduced(b, loops);
      SmallVector<Value> inputs;
      for (OpOperand *input : op.getDpsInputOperands())
        inputs.push_back(loadOperand(b, op, *input, loops));
      unit.inputs.push_back(inputs);
      unit.loops.push_back(loops);
    }
    return unit;
  }
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
  for (int64_t l = 0; l < width; ++l) {
    SmallVector<Value> laneLoops(loops);
    laneLoops[innermost] =
        arith::AddIOp::create(b, loops[innermost], indexConstant(b, l));
    SmallVector<Value> inputs;
    for (auto [value, vector] : llvm::zip(loaded, isVector))
      inputs.push_back(
          vector ? Value(vector::ExtractOp::create(b, value, l)) : value);
    unit.inputs.push_back(inputs);
    unit.loops.push_back(laneLoops);
  }
  return unit;
}

/// The lanes after folding a loaded unit in, position l into lane l.
SmallVector<Value> foldUnit(Emitter &e, ArrayRef<Value> lanes,
                            const LoadedUnit &unit) {
  SmallVector<State> next;
  for (auto [l, inputs] : llvm::enumerate(unit.inputs)) {
    SmallVector<Value> arguments(inputs);
    llvm::append_range(arguments, e.lane(lanes, l));
    next.push_back(State(emitBody(e.b, e.op, arguments, unit.loops[l])));
  }
  return e.packLanes(next);
}

/// Folds the units start, start + step, ... (below `end`; a unit is `width`
/// consecutive positions, one per lane) into `width` lanes, kUnroll units
/// per trip (foldUnrolledTrip), and merges the lanes.
State foldUnits(Emitter &e, Value output, Value start, Value end, int64_t step,
                int64_t width, unsigned innermost, bool vectorLoads = true) {
  ImplicitLocOpBuilder &b = e.b;
  auto loop = scf::ForOp::create(b, start, end,
                                 indexConstant(b, step * kUnroll),
                                 e.emptyLanes(width));
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(loop.getBody());
    auto load = [&](Value unit) {
      Value first = width == 1 ? unit
                               : Value(arith::MulIOp::create(
                                     b, unit, indexConstant(b, width)));
      return loadUnit(e, output, first, width, innermost, vectorLoads);
    };
    auto fold = [&](ArrayRef<Value> lanes, const LoadedUnit &unit) {
      return foldUnit(e, lanes, unit);
    };
    scf::YieldOp::create(
        b, foldUnrolledTrip<LoadedUnit>(
               b, loop.getInductionVar(), end, indexConstant(b, step),
               SmallVector<Value>(loop.getRegionIterArgs()), load, fold));
  }
  return e.collapseLanes(SmallVector<Value>(loop.getResults()), width);
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

/// The elementwise generic after a multi-value reduction and its epilogue
/// that the reduction's kernel runs too (batch norm's normalisation): it
/// reads the reduction's input `x` element by element, other inputs only
/// per output (the epilogue's results, the affine parameters), and writes
/// one output, all seen here through the reduction's loops. Columns run it
/// after two grid-wide barriers (emitColumns), planes per output after the
/// output's statistics (emitPlanes).
struct Follower {
  linalg::GenericOp op;
  unsigned xInput = 0;         // the follower's input that reads x
  unsigned reductionInput = 0; // the reduction's input that is x
  SmallVector<AffineMap> maps; // per follower operand, on the reduction's loops
};

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

/// Phase two of a planes kernel with a follower: the block's threads
/// normalise their output's units (vectors of `width` positions along the
/// innermost reduced loop), the same ones they folded, the newest trip
/// first (the statistics read those last: some may still be in L2).
/// Without `vectors`, position by position through the loops'
/// coordinates.
void emitPlaneFollower(Emitter &e, const Follower &f, Value output,
                       Value thread, int64_t threads, int64_t width,
                       bool vectors) {
  ImplicitLocOpBuilder &b = e.b;
  linalg::GenericOp op = f.op;
  OpOperand &x = *e.op.getDpsInputOperand(f.reductionInput);
  Value y = op.getDpsInits()[0];
  AffineMap yMap = f.maps[op.getNumDpsInputs()];
  SmallVector<Value> invariants = followerInvariants(e, f, output);
  auto result = [&](Value xValue) {
    SmallVector<Value> arguments(invariants);
    arguments[f.xInput] = xValue;
    return emitBody(b, op, arguments, ValueRange{})[0];
  };
  Value zero = indexConstant(b, 0), one = indexConstant(b, 1);
  if (!vectors) {
    auto positions = scf::ForOp::create(b, thread,
                                        indexConstant(b, e.numReduced),
                                        indexConstant(b, threads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(positions.getBody());
    SmallVector<Value> loops =
        e.loopsAt(output, positions.getInductionVar());
    memref::StoreOp::create(b, result(loadOperand(b, e.op, x, loops)), y,
                            applyMap(b, yMap, loops));
    return;
  }
  Type xElement = getElementTypeOrSelf(x.get());
  Type yElement = getElementTypeOrSelf(y);
  VectorType xVector = VectorType::get({width}, xElement);
  VectorType yVector = VectorType::get({width}, yElement);
  int64_t units = e.numReduced / width;
  int64_t tripUnits = threads * kUnroll;
  Value end = indexConstant(b, units);
  Value remaining = arith::SelectOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, end),
      arith::SubIOp::create(b, end, thread), zero);
  Value trips = arith::DivUIOp::create(
      b, arith::AddIOp::create(b, remaining, indexConstant(b, tripUnits - 1)),
      indexConstant(b, tripUnits));
  auto tripLoop = scf::ForOp::create(b, zero, trips, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tripLoop.getBody());
  Value trip = arith::SubIOp::create(
      b, arith::SubIOp::create(b, trips, one), tripLoop.getInductionVar());
  Value tripFirst = arith::AddIOp::create(
      b, thread,
      arith::MulIOp::create(b, trip, indexConstant(b, tripUnits)));
  for (int64_t k = 0; k < kUnroll; ++k) {
    Value unit = arith::AddIOp::create(b, tripFirst,
                                       indexConstant(b, k * threads));
    auto inRange = scf::IfOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, unit, end),
        false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&inRange.getThenRegion().front());
    SmallVector<Value> loops = e.loopsAt(
        output, arith::MulIOp::create(b, unit, indexConstant(b, width)));
    Value loaded = vector::LoadOp::create(
        b, xVector, x.get(),
        applyMap(b, e.op.getMatchingIndexingMap(&x), loops),
        /*nontemporal=*/false,
        llvm::MaybeAlign(width * xElement.getIntOrFloatBitWidth() / 8));
    SmallVector<Value> results;
    for (int64_t l = 0; l < width; ++l)
      results.push_back(result(vector::ExtractOp::create(b, loaded, l)));
    vector::StoreOp::create(
        b, vector::FromElementsOp::create(b, yVector, results), y,
        applyMap(b, yMap, loops), /*nontemporal=*/false,
        llvm::MaybeAlign(width * yElement.getIntOrFloatBitWidth() / 8));
  }
}

/// The planes mapping. With a `follower` (enough outputs: one block each,
/// no split) the block then normalises its own output in the same kernel
/// (emitPlaneFollower), after a block barrier that publishes the
/// epilogue's per-output results. Keeping the first trips of x in shared
/// memory, as the columns do, did not pay here: f32 32x256x56x56 took
/// 107.1 us with three trips kept, 110.0 with two, 107.6 with none (H100,
/// 2026-11-26).
SmallVector<KernelSummary> emitPlanes(Emitter &e, StringRef name,
                                      const Follower *follower) {
  ImplicitLocOpBuilder &b = e.b;
  // Outputs with few values (planes of 7x7) take fewer threads, so that a
  // thread's share outweighs the merges every thread ends with.
  const int64_t planeThreads = std::clamp<int64_t>(
      llvm::bit_floor(static_cast<uint64_t>(std::max<int64_t>(
          1, e.numReduced / kPlaneValuesPerThread))),
      kMinPlaneThreads, kMaxPlaneThreads);
  int64_t split =
      follower
          ? 1
          : std::max<int64_t>(
                1, std::min((kPlaneTargetBlocks + e.numOutputs - 1) /
                                e.numOutputs,
                            e.numReduced / (planeThreads * kMinPerThread)));
  auto [innermost, vectorWidth] = planeVectorWidth(e);
  // Without vectors a thread still folds units of kScalarLanes consecutive
  // positions into as many lanes (each read on its own), where the
  // positions split into whole units.
  bool scalarLanes =
      vectorWidth == 1 && e.numReduced % kScalarLanes == 0;
  int64_t width = scalarLanes ? kScalarLanes : vectorWidth;
  // Chunks of whole units, so that both the vector and the scalar code
  // split the positions alike.
  int64_t units = e.numReduced / width;
  int64_t chunk = (units + split - 1) / split * width;
  SmallVector<Value> partials;
  if (split > 1)
    partials = e.allocatePartials(split);
  {
    OpBuilder::InsertionGuard insertion(b);
    gpu::LaunchOp launch =
        createLaunch(b, e.numOutputs * split, {planeThreads},
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
    Value aligned;
    State folded;
    if (width == 1) {
      folded = foldPositions(e, output, arith::AddIOp::create(b, begin, thread),
                             end, planeThreads);
    } else if (scalarLanes) {
      Value unitBegin =
          arith::DivUIOp::create(b, begin, indexConstant(b, width));
      Value unitEnd = arith::DivUIOp::create(b, end, indexConstant(b, width));
      folded = foldUnits(e, output, arith::AddIOp::create(b, unitBegin, thread),
                         unitEnd, planeThreads, width, innermost,
                         /*vectorLoads=*/false);
    } else {
      // Vectors of `width` positions where the vector-read buffers are
      // 16-byte aligned; one position at a time otherwise.
      SmallVector<Value> vectorBuffers;
      for (OpOperand *input : e.op.getDpsInputOperands())
        if (classifyLaneAccess(e.op, *input, innermost) == LaneAccess::Vector)
          vectorBuffers.push_back(input->get());
      if (follower)
        vectorBuffers.push_back(
            linalg::GenericOp(follower->op).getDpsInits()[0]);
      aligned = allVectorAligned(b, vectorBuffers);
      auto choose = scf::IfOp::create(
          b, aligned,
          [&](OpBuilder &, Location) {
            Value unitBegin = arith::DivUIOp::create(
                b, begin, indexConstant(b, width));
            Value unitEnd =
                arith::DivUIOp::create(b, end, indexConstant(b, width));
            scf::YieldOp::create(
                b, asRange(foldUnits(
                       e, output, arith::AddIOp::create(b, unitBegin, thread),
                       unitEnd, planeThreads, width, innermost)));
          },
          [&](OpBuilder &, Location) {
            scf::YieldOp::create(
                b, asRange(foldPositions(
                       e, output, arith::AddIOp::create(b, begin, thread), end,
                       planeThreads)));
          });
      folded = State(choose.getResults());
    }
    State state = blockMerge(b, e.merger, folded, shared, thread,
                             planeThreads);
    Value zero = indexConstant(b, 0);
    auto first = scf::IfOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, zero),
        false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      e.storeState(partials, part, output, state);
    }
    if (follower) {
      // The epilogue's results (thread 0 stored them) for every thread.
      gpu::BarrierOp::create(b);
      auto choose = scf::IfOp::create(b, aligned, true);
      b.setInsertionPointToStart(&choose.getThenRegion().front());
      emitPlaneFollower(e, *follower, output, thread, planeThreads, width,
                        /*vectors=*/true);
      b.setInsertionPointToStart(&choose.getElseRegion().front());
      emitPlaneFollower(e, *follower, output, thread, planeThreads, width,
                        /*vectors=*/false);
    }
  }
  std::string details =
      std::to_string(planeThreads) + " threads per output" +
      (width > 1 ? (scalarLanes ? ", " : ", vector ") +
                       std::to_string(width) + (scalarLanes ? " lanes" : "")
                 : std::string());
  if (!follower)
    return e.finish(name, "planes", details, width, partials);
  return {{(name + "_planes").str(),
           e.describe() + " over planes (" + details +
               (e.sharedCount ? ", shared count" : "") +
               "), then per output the elementwise op after it"}};
}

/// The element offset of `buffer` (static strides) at the indices `map`
/// gives for `loops`.
Value flatOffset(ImplicitLocOpBuilder &b, Value buffer, AffineMap map,
                 ValueRange loops) {
  auto strides =
      cast<MemRefType>(buffer.getType()).getStridesAndOffset().first;
  Value offset = indexConstant(b, 0);
  for (auto [index, stride] : llvm::zip(applyMap(b, map, loops), strides))
    offset = b.createOrFold<arith::AddIOp>(
        offset,
        b.createOrFold<arith::MulIOp>(index, indexConstant(b, stride)));
  return offset;
}

/// The block of the columns mapping: `threads` along the outputs (a power
/// of two up to 32, fewer where there are few outputs), each with `width`
/// consecutive outputs, and `rows` threads splitting the rows.
struct ColumnBlock {
  int64_t width = 1, threads = kMaxColumnThreads,
          rows = kColumnBlockThreads / kMaxColumnThreads;
  int64_t outputsPerBlock() const { return threads * width; }
  /// The partial states per column that shared memory holds at once: the
  /// rows fold into them a group at a time, then a tree merges them.
  int64_t scratchRows() const { return std::min(rows, kColumnScratchRows); }
};

/// Shared memory for one partial state per warp row and lane: the count
/// once per thread where the lanes share it, every other value per lane.
int64_t columnScratchBytes(const Emitter &e, const ColumnBlock &block) {
  int64_t bytes = 0;
  for (auto [i, type] : llvm::enumerate(e.merger.types)) {
    int64_t perThread = (i == 0 && e.sharedCount) ? 1 : block.width;
    bytes += perThread * shuffleType(type).getIntOrFloatBitWidth() / 8;
  }
  return bytes * block.threads * block.scratchRows();
}

/// Outputs per thread for the columns mapping with vector loads: one
/// parallel loop, every input contiguous along it (or not moving with it),
/// whole vectors that stay 16-byte aligned, and shared memory for the
/// block's states.
ColumnBlock columnBlockFor(const Emitter &e) {
  linalg::GenericOp op = e.op;
  auto shaped = [&](int64_t width) {
    ColumnBlock block;
    block.width = width;
    block.threads = std::min<int64_t>(
        kMaxColumnThreads,
        llvm::PowerOf2Ceil((e.numOutputs + width - 1) / width));
    block.rows = kColumnBlockThreads / block.threads;
    return block;
  };
  if (e.parallelSizes.size() != 1)
    return shaped(1);
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
        return shaped(1);
      continue;
    }
    unsigned bits = getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth();
    if (bits < 8 || bits % 8 != 0)
      return shaped(1);
    widestBytes = std::max<int64_t>(widestBytes, bits / 8);
    vectors.push_back({input, *dim});
  }
  if (vectors.empty())
    return shaped(1);
  int64_t width = vectorWidthFor(widestBytes);
  while (width > 1 &&
         (e.numOutputs % width != 0 ||
          columnScratchBytes(e, shaped(width)) > kSharedMemoryBytes ||
          llvm::any_of(vectors, [&](auto vector) {
            return !vectorsStayAligned(vector.first->get(), vector.second, width);
          })))
    width /= 2;
  return shaped(width);
}

/// Rows of the follower whose loads a grid-sync kernel issues together
/// before computing them. Measured on an H200 (f16 NHWC batch norm,
/// 2026-11-26): one row at a time, 88.8 / 52.3 / 50.9 us for 256x64x56x56,
/// 256x2048x7x7 and 32x256x56x56; two rows 98.4 / 57.0 / 57.9 us and four
/// 111.3 / 65.7 / 64.8 us, as holding the loaded rows on top of the
/// per-output inputs (4 x 8 lanes for batch norm) makes ptxas spill within
/// its 64 registers (80 and 156 bytes).
constexpr int64_t kFollowerBatch = 1;

/// Phase three of a grid-sync kernel: one thread's rows of the follower,
/// the newest trip first; with `vectors` x comes from the cache or one
/// vector load per row and y goes out as one vector store, otherwise both
/// go lane by lane through the loops' coordinates.
struct FollowerRows {
  Emitter &e;
  const Follower &f;
  Value base;
  int64_t width;
  unsigned loop; // the reduction's parallel loop
  Value first, rowStep, tripStep, cache;
  // x's flat view and its column's offset, with the stride per row.
  Value xView, xColumnOffset;
  int64_t xStride;
  // The cache holds the trips below cachedTrips; the index of row k of
  // trip `trip` there.
  int64_t cachedTrips;
  function_ref<Value(Value, int64_t)> cacheIndex;

  void emit(bool vectors) {
    ImplicitLocOpBuilder &b = e.b;
    linalg::GenericOp op = f.op;
    Value y = op.getDpsInits()[0];
    AffineMap yMap = f.maps[op.getNumDpsInputs()];
    // The follower's per-output inputs, per lane.
    SmallVector<SmallVector<Value>> invariants;
    for (int64_t l = 0; l < width; ++l)
      invariants.push_back(followerInvariants(
          e, f, arith::AddIOp::create(b, base, indexConstant(b, l))));
    Value yView, yColumnOffset;
    int64_t yStride = 0;
    if (vectors) {
      yView = linearElementView(b, y);
      yColumnOffset = flatOffset(b, y, yMap, e.loopsAt(base, Value()));
      yStride = *e.linearReducedStride(y, yMap);
    }
    Value end = indexConstant(b, e.numReduced);
    Value zero = indexConstant(b, 0), one = indexConstant(b, 1);
    Value remaining = arith::SelectOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, first, end),
        arith::SubIOp::create(b, end, first), zero);
    Value trips = arith::DivUIOp::create(
        b,
        arith::AddIOp::create(b, remaining,
                              arith::SubIOp::create(b, tripStep, one)),
        tripStep);
    auto tripLoop = scf::ForOp::create(b, zero, trips, one);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tripLoop.getBody());
    Value trip = arith::SubIOp::create(
        b, arith::SubIOp::create(b, trips, one), tripLoop.getInductionVar());
    Value tripFirst =
        arith::AddIOp::create(b, first, arith::MulIOp::create(b, trip, tripStep));
    if (vectors)
      emitVectorTrip(trip, tripFirst, end, yView, yColumnOffset, yStride,
                     invariants);
    else
      emitScalarTrip(tripFirst, end, invariants);
  }

  /// The trip's rows in batches of kFollowerBatch: all of a batch's loads
  /// (rows past the end read the last row; from the cache if the trip is
  /// in it), then its rows' results, then their stores, so that the loads
  /// are in flight together.
  void emitVectorTrip(Value trip, Value tripFirst, Value end, Value yView,
                      Value yColumnOffset, int64_t yStride,
                      ArrayRef<SmallVector<Value>> invariants) {
    ImplicitLocOpBuilder &b = e.b;
    linalg::GenericOp op = f.op;
    Type xElement = getElementTypeOrSelf(
        e.op.getDpsInputOperand(f.reductionInput)->get());
    Type yElement = getElementTypeOrSelf(op.getDpsInits()[0]);
    VectorType xVector = VectorType::get({width}, xElement);
    VectorType yVector = VectorType::get({width}, yElement);
    int64_t xBytes = width * xElement.getIntOrFloatBitWidth() / 8;
    int64_t yBytes = width * yElement.getIntOrFloatBitWidth() / 8;
    Value last = arith::SubIOp::create(b, end, indexConstant(b, 1));
    Value cached;
    if (cache)
      cached = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, trip,
                                     indexConstant(b, cachedTrips));
    for (int64_t batch = 0; batch < kUnroll; batch += kFollowerBatch) {
      SmallVector<int64_t> ks;
      for (int64_t k = batch; k < std::min(kUnroll, batch + kFollowerBatch);
           ++k)
        ks.push_back(k);
      SmallVector<Value> rows, inRange;
      for (int64_t k : ks) {
        rows.push_back(arith::AddIOp::create(
            b, tripFirst,
            b.createOrFold<arith::MulIOp>(rowStep, indexConstant(b, k))));
        inRange.push_back(arith::CmpIOp::create(
            b, arith::CmpIPredicate::ult, rows.back(), end));
      }
      auto loadGlobal = [&]() {
        SmallVector<Value> loaded;
        for (Value row : rows) {
          Value index = arith::AddIOp::create(
              b, xColumnOffset,
              arith::MulIOp::create(b, arith::MinUIOp::create(b, row, last),
                                    indexConstant(b, xStride)));
          loaded.push_back(vector::LoadOp::create(
              b, xVector, xView, ValueRange{index}, /*nontemporal=*/false,
              llvm::MaybeAlign(std::min<int64_t>(xBytes, kVectorBytes))));
        }
        return loaded;
      };
      SmallVector<Value> loaded;
      if (cache) {
        auto choose = scf::IfOp::create(
            b, cached,
            [&](OpBuilder &, Location) {
              SmallVector<Value> fromCache;
              for (int64_t k : ks)
                fromCache.push_back(vector::LoadOp::create(
                    b, xVector, cache, ValueRange{cacheIndex(trip, k)}));
              scf::YieldOp::create(b, fromCache);
            },
            [&](OpBuilder &, Location) {
              scf::YieldOp::create(b, loadGlobal());
            });
        loaded = SmallVector<Value>(choose.getResults());
      } else {
        loaded = loadGlobal();
      }
      for (auto [row, inside, x] : llvm::zip(rows, inRange, loaded)) {
        SmallVector<Value> results;
        for (int64_t l = 0; l < width; ++l) {
          SmallVector<Value> arguments(invariants[l]);
          arguments[f.xInput] = vector::ExtractOp::create(b, x, l);
          results.push_back(emitBody(b, op, arguments, ValueRange{})[0]);
        }
        Value result = vector::FromElementsOp::create(b, yVector, results);
        auto store = scf::IfOp::create(b, inside, false);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(&store.getThenRegion().front());
        Value index = arith::AddIOp::create(
            b, yColumnOffset,
            arith::MulIOp::create(b, row, indexConstant(b, yStride)));
        vector::StoreOp::create(
            b, result, yView, ValueRange{index}, /*nontemporal=*/false,
            llvm::MaybeAlign(std::min<int64_t>(yBytes, kVectorBytes)));
      }
    }
  }

  /// Lane by lane, row by row, through the loops' coordinates.
  void emitScalarTrip(Value tripFirst, Value end,
                      ArrayRef<SmallVector<Value>> invariants) {
    ImplicitLocOpBuilder &b = e.b;
    linalg::GenericOp op = f.op;
    linalg::GenericOp reduction = e.op;
    OpOperand &x = *reduction.getDpsInputOperand(f.reductionInput);
    Value y = op.getDpsInits()[0];
    AffineMap yMap = f.maps[op.getNumDpsInputs()];
    for (int64_t k = 0; k < kUnroll; ++k) {
      Value row = arith::AddIOp::create(
          b, tripFirst,
          b.createOrFold<arith::MulIOp>(rowStep, indexConstant(b, k)));
      auto inRange = scf::IfOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, end),
          false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&inRange.getThenRegion().front());
      SmallVector<Value> loops = e.loopsAt(base, row);
      for (int64_t l = 0; l < width; ++l) {
        SmallVector<Value> laneLoops(loops);
        laneLoops[loop] =
            arith::AddIOp::create(b, loops[loop], indexConstant(b, l));
        SmallVector<Value> arguments(invariants[l]);
        arguments[f.xInput] = loadOperand(b, reduction, x, laneLoops);
        memref::StoreOp::create(b, emitBody(b, op, arguments, ValueRange{})[0],
                                y, applyMap(b, yMap, laneLoops));
      }
    }
  }
};

/// Dynamic shared memory a grid-sync kernel may give each block to keep
/// the first trips of x on chip: two blocks of 512 threads share an H100
/// or H200 multiprocessor's 228 KiB (227 KiB usable, 1 KiB per block
/// reserved), less their static shared memory.
constexpr int64_t kSharedBytesPerGridSyncBlock = 112 * 1024;

/// The columns mapping: threads along x take consecutive outputs, `width`
/// each (read with one vector load per input and row where width > 1, one
/// state per lane), the block's threads along y split the rows, and a
/// shared-memory tree merges their states.
///
/// With a `follower` it is one kernel that waits at grid-wide barriers
/// (kGridSyncSuffix): the blocks store their partial states, and after a
/// grid barrier they merge every output's states (a warp or a block each)
/// and run the epilogue; after a second barrier every thread normalises
/// its rows (the follower's body), newest trip first, so that the rows
/// the statistics read last come from L2, and the first trips come from
/// shared memory, where phase one kept them. grid.y is the split and may
/// be lowered by the runtime (gridDim.y is read, not assumed).
SmallVector<KernelSummary> emitColumns(Emitter &e, StringRef name,
                                       const ColumnBlock &block,
                                       const Follower *follower) {
  ImplicitLocOpBuilder &b = e.b;
  linalg::GenericOp op = e.op;
  int64_t width = block.width;
  unsigned loop = 0;
  for (auto [dim, iterator] : llvm::enumerate(e.iterators))
    if (iterator == utils::IteratorType::parallel)
      loop = dim;
  int64_t perBlock = block.outputsPerBlock();
  int64_t columnBlocks = (e.numOutputs + perBlock - 1) / perBlock;
  int64_t split = std::max<int64_t>(
      1, std::min((kColumnTargetBlocks + columnBlocks - 1) / columnBlocks,
                  e.numReduced / (block.rows * kMinPerThread)));
  SmallVector<Value> partials;
  if (split > 1 || follower)
    partials = e.allocatePartials(split);
  int64_t vectorBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    if (unitStrideDim(op, *input, loop))
      vectorBytes = std::max<int64_t>(
          vectorBytes,
          width * getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth() /
              8);
  // Per state value: [rows, threads] for a shared count, else
  // [rows, threads * width].
  SmallVector<Type> scratch;
  for (auto [i, type] : llvm::enumerate(e.merger.types)) {
    int64_t columns = (i == 0 && e.sharedCount) ? block.threads : perBlock;
    scratch.push_back(MemRefType::get(
        {block.scratchRows(), columns}, shuffleType(type),
        MemRefLayoutAttrInterface{},
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup)));
  }
  int64_t blockThreads = block.threads * block.rows;
  // The grid-sync kernel's merge scratch (blockMerge) and its cache of x:
  // `cachedTrips` trips of kUnroll rows per thread.
  int64_t cachedTrips = 0, tripBytes = 0;
  Type xElement;
  if (follower) {
    llvm::append_range(scratch, e.scratchArrays({32}));
    xElement = getElementTypeOrSelf(
        op.getDpsInputOperand(follower->reductionInput)->get());
    tripBytes = blockThreads * kUnroll * width *
                xElement.getIntOrFloatBitWidth() / 8;
    int64_t staticBytes = columnScratchBytes(e, block);
    for (Type type : e.merger.types)
      staticBytes += 32 * shuffleType(type).getIntOrFloatBitWidth() / 8;
    int64_t tripsPerThread =
        (e.numReduced + block.rows * split * kUnroll - 1) /
        (block.rows * split * kUnroll);
    cachedTrips = std::clamp<int64_t>(
        (kSharedBytesPerGridSyncBlock - staticBytes) / tripBytes, 0,
        tripsPerThread);
  }

  {
    OpBuilder::InsertionGuard insertion(b);
    gpu::LaunchOp launch =
        follower
            ? createLaunch(b, columnBlocks, {block.threads, block.rows},
                           scratch,
                           (name + "_columns" + kGridSyncSuffix).str(),
                           minBlocksPerMultiprocessor(blockThreads),
                           /*gridY=*/split, cachedTrips * tripBytes)
            : createLaunch(b, columnBlocks * split,
                           {block.threads, block.rows}, scratch,
                           (name + "_columns").str(),
                           minBlocksPerMultiprocessor(blockThreads));
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
    ArrayRef<BlockArgument> mergeShared;
    if (follower) {
      mergeShared = shared.drop_front(e.merger.types.size());
      shared = shared.take_front(e.merger.types.size());
    }
    Value tx = launch.getThreadIds().x;
    Value ty = launch.getThreadIds().y;
    Value column, part, splitValue;
    if (follower) {
      column = launch.getBlockIds().x;
      part = launch.getBlockIds().y;
      splitValue = launch.getGridSize().y;
    } else {
      column = arith::RemUIOp::create(b, launch.getBlockIds().x,
                                      indexConstant(b, columnBlocks));
      part = arith::DivUIOp::create(b, launch.getBlockIds().x,
                                    indexConstant(b, columnBlocks));
      splitValue = indexConstant(b, split);
    }
    Value tid = arith::AddIOp::create(
        b, tx, arith::MulIOp::create(b, ty, indexConstant(b, block.threads)));
    // The cache of x: [trip * kUnroll + k][thread] vectors of `width`.
    Value cache;
    if (cachedTrips > 0) {
      auto workgroup = gpu::AddressSpaceAttr::get(
          b.getContext(), gpu::AddressSpace::Workgroup);
      Value bytes = gpu::DynamicSharedMemoryOp::create(
          b, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                             MemRefLayoutAttrInterface{}, workgroup));
      cache = memref::ViewOp::create(
          b,
          MemRefType::get({cachedTrips * kUnroll * blockThreads * width},
                          xElement, MemRefLayoutAttrInterface{}, workgroup),
          bytes, indexConstant(b, 0), ValueRange{});
    }
    Value threadColumn = arith::AddIOp::create(
        b, arith::MulIOp::create(b, column, indexConstant(b, block.threads)),
        tx);
    Value base =
        arith::MulIOp::create(b, threadColumn, indexConstant(b, width));
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, base,
                                        indexConstant(b, e.numOutputs));
    SmallVector<Value> emptyLanes = e.emptyLanes(width);

    // A row's loads: with `useVectors` each contiguous input is one vector
    // load, otherwise one load per lane.
    bool useVectors = true;
    struct Row {
      SmallVector<Value> loops, loaded;
    };
    SmallVector<bool> isVector;
    for (OpOperand *input : op.getDpsInputOperands())
      isVector.push_back(unitStrideDim(op, *input, loop).has_value() &&
                         width > 1);
    // A vector input whose reduced loops are row-major in memory (NHWC's
    // n, h, w) is read through a flat view at its column's offset plus the
    // row times one stride: no coordinates are divided out per row.
    struct LinearInput {
      Value view, columnOffset;
      int64_t stride;
    };
    SmallVector<std::optional<LinearInput>> linear;
    SmallVector<Value> columnLoops = e.loopsAt(base, Value());
    for (auto [input, vector] : llvm::zip(op.getDpsInputOperands(), isVector)) {
      std::optional<int64_t> stride =
          vector ? e.linearReducedStride(op, *input) : std::nullopt;
      if (!stride) {
        linear.push_back(std::nullopt);
        continue;
      }
      linear.push_back(LinearInput{
          linearElementView(b, input->get()),
          flatOffset(b, input->get(), op.getMatchingIndexingMap(input),
                     columnLoops),
          *stride});
    }
    // Loop coordinates per row only where something reads them: an input
    // loaded through them, or linalg.index in the body.
    bool needsLoops =
        llvm::any_of(linear, [](const auto &flat) { return !flat; }) ||
        !op.getBody()->getOps<linalg::IndexOp>().empty();
    auto loadRow = [&](Value reduced) {
      Row row{needsLoops || !useVectors ? e.loopsAt(base, reduced)
                                        : SmallVector<Value>(),
              {}};
      for (auto [input, vector, flat] :
           llvm::zip(op.getDpsInputOperands(), isVector, linear)) {
        if (!vector) {
          row.loaded.push_back(loadOperand(b, op, *input, row.loops));
          continue;
        }
        if (useVectors && flat) {
          Value index = arith::AddIOp::create(
              b, flat->columnOffset,
              arith::MulIOp::create(b, reduced,
                                    indexConstant(b, flat->stride)));
          row.loaded.push_back(vector::LoadOp::create(
              b, VectorType::get({width}, getElementTypeOrSelf(input->get())),
              flat->view, ValueRange{index}, /*nontemporal=*/false,
              llvm::MaybeAlign(vectorBytes)));
          continue;
        }
        if (!useVectors) {
          SmallVector<Value> values;
          for (int64_t l = 0; l < width; ++l) {
            SmallVector<Value> laneLoops(row.loops);
            laneLoops[loop] = arith::AddIOp::create(b, row.loops[loop],
                                                    indexConstant(b, l));
            values.push_back(loadOperand(b, op, *input, laneLoops));
          }
          row.loaded.push_back(vector::FromElementsOp::create(
              b, VectorType::get({width}, getElementTypeOrSelf(input->get())),
              values));
          continue;
        }
        auto [view, indices] = vectorViewAt(
            b, op, *input, *unitStrideDim(op, *input, loop), row.loops);
        row.loaded.push_back(vector::LoadOp::create(
            b, VectorType::get({width}, getElementTypeOrSelf(input->get())),
            view, indices, /*nontemporal=*/false,
            llvm::MaybeAlign(vectorBytes)));
      }
      return row;
    };
    // The lanes after folding a loaded row in.
    auto foldRow = [&](ArrayRef<Value> lanes, const Row &row) {
      SmallVector<State> next;
      for (int64_t l = 0; l < width; ++l) {
        SmallVector<Value> laneLoops(row.loops);
        if (!laneLoops.empty())
          laneLoops[loop] =
              arith::AddIOp::create(b, row.loops[loop], indexConstant(b, l));
        SmallVector<Value> arguments;
        for (auto [value, vector] : llvm::zip(row.loaded, isVector))
          arguments.push_back(
              vector ? Value(vector::ExtractOp::create(b, value, l)) : value);
        llvm::append_range(arguments, e.lane(lanes, l));
        next.push_back(State(emitBody(b, op, arguments, laneLoops)));
      }
      return e.packLanes(next);
    };

    // kUnroll rows per trip (foldUnrolledTrip).
    Value first = arith::AddIOp::create(
        b, arith::MulIOp::create(b, part, indexConstant(b, block.rows)), ty);
    Value rowStep = b.createOrFold<arith::MulIOp>(
        indexConstant(b, block.rows), splitValue);
    Value tripStep =
        b.createOrFold<arith::MulIOp>(rowStep, indexConstant(b, kUnroll));
    // Row k of the thread's trip `trip` (0 for its first) in the cache,
    // which holds trips below cachedTrips.
    auto cacheIndex = [&](Value trip, int64_t k) -> Value {
      Value slot = arith::AddIOp::create(
          b, arith::MulIOp::create(b, trip, indexConstant(b, kUnroll)),
          indexConstant(b, k));
      return arith::MulIOp::create(
          b,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, slot, indexConstant(b, blockThreads)),
              tid),
          indexConstant(b, width));
    };
    auto foldRows = [&]() -> SmallVector<Value> {
      Value end = indexConstant(b, e.numReduced);
      // Caching rows counts the trips too (the last iteration argument).
      bool caching = cache && useVectors;
      SmallVector<Value> initial(emptyLanes);
      if (caching)
        initial.push_back(indexConstant(b, 0));
      auto rows = scf::ForOp::create(b, first, end, tripStep, initial);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(rows.getBody());
      SmallVector<Value> lanes(rows.getRegionIterArgs());
      Value trip;
      if (caching)
        trip = lanes.pop_back_val();
      // One branch per trip, after all its loads: a store per row in its
      // own branch would wait for that row's load before the next load
      // issues. A row past the end stores the last row's copy into a slot
      // that phase three never reads.
      auto keep = [&](ArrayRef<Row> units) {
        if (!caching)
          return;
        auto store = scf::IfOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, trip,
                                  indexConstant(b, cachedTrips)),
            false);
        OpBuilder::InsertionGuard inIf(b);
        b.setInsertionPointToStart(&store.getThenRegion().front());
        for (auto [k, row] : llvm::enumerate(units))
          vector::StoreOp::create(b, row.loaded[follower->reductionInput],
                                  cache,
                                  ValueRange{cacheIndex(trip, k)});
      };
      SmallVector<Value> folded = foldUnrolledTrip<Row>(
          b, rows.getInductionVar(), end, rowStep, lanes, loadRow, foldRow,
          keep);
      if (caching)
        folded.push_back(arith::AddIOp::create(b, trip, indexConstant(b, 1)));
      scf::YieldOp::create(b, folded);
      SmallVector<Value> results(rows.getResults());
      if (caching)
        results.pop_back();
      return results;
    };
    // Vector loads where the vector-read buffers are 16-byte aligned, one
    // load per lane otherwise (the same threads and outputs either way).
    SmallVector<Value> vectorBuffers;
    for (OpOperand *input : op.getDpsInputOperands())
      if (unitStrideDim(op, *input, loop))
        vectorBuffers.push_back(input->get());
    if (follower)
      vectorBuffers.push_back(
          linalg::GenericOp(follower->op).getDpsInits()[0]);
    Value aligned = width > 1 ? allVectorAligned(b, vectorBuffers) : Value();
    auto accumulate = scf::IfOp::create(
        b, valid,
        [&](OpBuilder &, Location) {
          if (width == 1) {
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
        [&](OpBuilder &, Location) { scf::YieldOp::create(b, emptyLanes); });
    SmallVector<Value> lanes(accumulate.getResults());

    // Lane l's state of the thread in row `row`: a shared count sits once
    // per thread, every other value at the lane's slot.
    auto slotOf = [&](int64_t l) -> Value {
      return arith::AddIOp::create(
          b, arith::MulIOp::create(b, tx, indexConstant(b, width)),
          indexConstant(b, l));
    };
    auto slotFor = [&](size_t value, int64_t l) -> Value {
      return (value == 0 && e.sharedCount) ? tx : slotOf(l);
    };
    auto storeLanes = [&](Value row, ArrayRef<State> states) {
      for (auto [l, state] : llvm::enumerate(states))
        for (auto [i, buffer] : llvm::enumerate(shared)) {
          if (i == 0 && e.sharedCount && l > 0)
            continue;
          memref::StoreOp::create(b, widenForShuffle(b, state[i]), buffer,
                                  ValueRange{row, slotFor(i, l)});
        }
    };
    auto loadLane = [&](Value row, int64_t l) {
      State loaded;
      for (auto [i, buffer] : llvm::enumerate(shared))
        loaded.push_back(narrowFromShuffle(
            b,
            memref::LoadOp::create(b, buffer, ValueRange{row, slotFor(i, l)}),
            e.merger.types[i]));
      return loaded;
    };
    SmallVector<State> own;
    for (int64_t l = 0; l < width; ++l)
      own.push_back(e.lane(lanes, l));
    // The rows fold into scratchRows slots a group at a time, the last
    // group first (each row merges its slot's state with its own), then a
    // tree merges the slots. The order is fixed.
    int64_t slots = block.scratchRows();
    Value slot = arith::RemUIOp::create(b, ty, indexConstant(b, slots));
    Value group = arith::DivUIOp::create(b, ty, indexConstant(b, slots));
    for (int64_t g = block.rows / slots - 1; g >= 0; --g) {
      auto turn = scf::IfOp::create(
          b,
          arith::AndIOp::create(
              b, valid,
              arith::CmpIOp::create(b, arith::CmpIPredicate::eq, group,
                                    indexConstant(b, g))),
          false);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(&turn.getThenRegion().front());
        if (g == block.rows / slots - 1) {
          storeLanes(slot, own);
        } else {
          SmallVector<State> merged;
          for (int64_t l = 0; l < width; ++l)
            merged.push_back(e.merger.merge(b, own[l], loadLane(slot, l)));
          storeLanes(slot, merged);
        }
      }
      gpu::BarrierOp::create(b);
    }
    Value firstGroup = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                             group, indexConstant(b, 0));
    // A tree over the slots: log2(slots) merges per lane and thread rather
    // than `slots` in one thread.
    for (int64_t stride = block.scratchRows() / 2; stride >= 1; stride /= 2) {
      Value active = arith::AndIOp::create(
          b, arith::AndIOp::create(b, valid, firstGroup),
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, slot,
                                indexConstant(b, stride)));
      auto step = scf::IfOp::create(b, active, false);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(&step.getThenRegion().front());
        Value other =
            arith::AddIOp::create(b, slot, indexConstant(b, stride));
        SmallVector<State> merged;
        for (int64_t l = 0; l < width; ++l)
          merged.push_back(e.merger.merge(b, loadLane(slot, l),
                                          loadLane(other, l)));
        storeLanes(slot, merged);
      }
      gpu::BarrierOp::create(b);
    }
    Value firstRow = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ty,
                                           indexConstant(b, 0));
    auto merging = scf::IfOp::create(
        b, arith::AndIOp::create(b, firstRow, valid), false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&merging.getThenRegion().front());
      for (int64_t l = 0; l < width; ++l) {
        State state = loadLane(indexConstant(b, 0), l);
        Value output = arith::AddIOp::create(b, base, indexConstant(b, l));
        e.storeState(partials, part, output, state);
      }
    }
    if (follower) {
      emitGridBarrier(b);
      Value blockLinear = arith::AddIOp::create(
          b, column,
          arith::MulIOp::create(b, part, indexConstant(b, columnBlocks)));
      Value blocks = arith::MulIOp::create(
          b, indexConstant(b, columnBlocks), splitValue);
      e.emitGridMerge(partials, splitValue, blockLinear, blocks, tid,
                      blockThreads, split <= kWarpMergeSplit, mergeShared);
      emitGridBarrier(b);
      auto normalize = scf::IfOp::create(b, valid, false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&normalize.getThenRegion().front());
      // x is read through its flat view (checked by analyzeFollower).
      const LinearInput &flatX = *linear[follower->reductionInput];
      FollowerRows rows{e,        *follower,         base,         width,
                        loop,     first,             rowStep,      tripStep,
                        cache,    flatX.view,        flatX.columnOffset,
                        flatX.stride, cachedTrips, cacheIndex};
      if (width == 1) {
        rows.emit(/*vectors=*/false);
      } else {
        auto choose = scf::IfOp::create(b, aligned, true);
        b.setInsertionPointToStart(&choose.getThenRegion().front());
        rows.emit(/*vectors=*/true);
        b.setInsertionPointToStart(&choose.getElseRegion().front());
        rows.emit(/*vectors=*/false);
      }
    }
  }
  std::string details =
      std::to_string(block.threads) +
      (width > 1 ? " x " + std::to_string(width) : "") + " columns x " +
      std::to_string(block.rows) + " rows per block" +
      (width > 1 ? ", vector " + std::to_string(width) : "");
  if (!follower)
    return e.finish(name, "columns", details, width, partials);
  return {{(name + "_columns" + kGridSyncSuffix).str(),
           e.describe() + " over columns (" + details +
               (e.sharedCount && width > 1 ? ", shared count" : "") +
               ", up to " + std::to_string(split) +
               " blocks per column), then after grid barriers the merge (" +
               (split <= kWarpMergeSplit ? "a warp" : "a block") +
               " per output) and the elementwise op after it" +
               (cachedTrips > 0 ? " (" + std::to_string(cachedTrips) +
                                      " trips of x kept in shared memory)"
                                : std::string())}};
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
/// Follower): x and the output are read and written as vectors of
/// the columns mapping (flat, aligned whenever the buffers are).
std::optional<Follower> analyzeFollower(const Emitter &e,
                                                linalg::GenericOp epilogue) {
  linalg::GenericOp op = e.op;
  if (!readsColumns(op) || e.parallelSizes.size() != 1)
    return std::nullopt;
  ColumnBlock block = columnBlockFor(e);
  if (block.width < 2)
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
  if (readsColumns(op) || e.numOutputs < kMinOutputsForPlaneFollower)
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
  std::optional<Follower> follower = readsColumns(op)
                                         ? analyzeFollower(emitter, epilogue)
                                         : analyzePlaneFollower(emitter, epilogue);
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
    fused = readsColumns(op) ? analyzeFollower(emitter, epilogue)
                             : analyzePlaneFollower(emitter, epilogue);
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
