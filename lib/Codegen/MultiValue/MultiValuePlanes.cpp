//===- MultiValuePlanes.cpp - multi-value reductions over planes ---------===//
//
// The planes mapping of multi-value reductions (the innermost memory
// dimension is reduced: NCHW batch norm): a block (or several) per output,
// threads along contiguous elements, each thread's units of `width`
// consecutive positions folded into as many lanes. With a follower (enough
// outputs for a block each) the block then normalises its own output.
//
//===----------------------------------------------------------------------===//

#include "MultiValueReduction.h"

#include "llvm/ADT/bit.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen::multivalue {

namespace {

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
  OpBuilder::InsertionGuard guard(b);
  Value tripFirst =
      newestTripFirst(b, thread, end, indexConstant(b, tripUnits)).second;
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

} // namespace

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

} // namespace mlir::cudnn_mlir::codegen::multivalue
