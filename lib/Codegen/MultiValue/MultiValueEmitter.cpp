//===- MultiValueEmitter.cpp - what both multi-value mappings share -------===//
//
// The partial states of multi-value reductions and how they merge (Chan's
// formula for Welford, the combiners otherwise; across a warp, a block, or
// the blocks of a split reduction), the lanes a thread keeps, the final
// store with the epilogue, and the loop over a thread's trips newest first.
// The planes and columns mappings build their kernels from these.
//
//===----------------------------------------------------------------------===//

#include "MultiValueReduction.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen::multivalue {

State StateMerge::empty(ImplicitLocOpBuilder &b) const {
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

State StateMerge::merge(ImplicitLocOpBuilder &b, const State &lhs,
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

bool Emitter::countStepsInLockstep(linalg::GenericOp op) {
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

State Emitter::lane(ArrayRef<Value> lanes, int64_t l) const {
  size_t size = stateSize();
  if (!sharedCount)
    return State(lanes.slice(l * size, size));
  State state{lanes[0]};
  llvm::append_range(state, lanes.slice(1 + l * (size - 1), size - 1));
  return state;
}

SmallVector<Value> Emitter::packLanes(ArrayRef<State> states) const {
  SmallVector<Value> lanes;
  if (sharedCount)
    lanes.push_back(states.front()[0]);
  for (const State &state : states)
    llvm::append_range(lanes, sharedCount ? ArrayRef<Value>(state).drop_front()
                                          : ArrayRef<Value>(state));
  return lanes;
}

SmallVector<Value> Emitter::emptyLanes(int64_t width) {
  return packLanes(SmallVector<State>(width, merger.empty(b)));
}

State Emitter::collapseLanes(ArrayRef<Value> lanes, int64_t width) {
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

State Emitter::initialState(Value output) {
  SmallVector<Value> loops = loopsAt(output, Value());
  State values;
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
    values.push_back(initValues[i] ? initValues[i]
                                   : loadOperand(b, op, init, loops));
  return values;
}

void Emitter::storeFinal(Value output, const State &state) {
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

SmallVector<Value> Emitter::allocatePartials(int64_t split) {
  SmallVector<Value> partials;
  for (Type type : merger.types)
    partials.push_back(memref::AllocOp::create(
        b, MemRefType::get({split, numOutputs}, type)));
  return partials;
}

void Emitter::storePartial(ArrayRef<Value> partials, Value part,
                           Value output, const State &state) {
  for (auto [buffer, value] : llvm::zip(partials, state))
    memref::StoreOp::create(b, value, buffer, ValueRange{part, output});
}

KernelSummary Emitter::emitCombine(ArrayRef<Value> partials, int64_t split,
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

void Emitter::emitGridMerge(ArrayRef<Value> partials, Value split,
                            Value blockLinear, Value blocks, Value thread,
                            int64_t blockThreads, bool warpPerOutput,
                            ArrayRef<BlockArgument> shared) {
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

SmallVector<Type> Emitter::scratchArrays(ArrayRef<int64_t> shape) {
  SmallVector<Type> arrays;
  for (Type type : merger.types)
    arrays.push_back(MemRefType::get(
        shape, shuffleType(type), MemRefLayoutAttrInterface{},
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup)));
  return arrays;
}

std::string Emitter::describe() const {
  if (merger.welford)
    return "Welford";
  if (merger.types.size() == 1)
    return "reduction";
  return "reduction of " + std::to_string(merger.types.size()) + " values";
}

void Emitter::storeState(ArrayRef<Value> partials, Value part, Value output,
                         const State &state) {
  if (partials.empty())
    storeFinal(output, state);
  else
    storePartial(partials, part, output, state);
}

SmallVector<KernelSummary> Emitter::finish(StringRef name, StringRef mapping,
                                           const std::string &details,
                                           int64_t width,
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

} // namespace mlir::cudnn_mlir::codegen::multivalue
