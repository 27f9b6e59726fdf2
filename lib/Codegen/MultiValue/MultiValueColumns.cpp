//===- MultiValueColumns.cpp - multi-value reductions over columns -------===//
//
// The columns mapping of multi-value reductions (the innermost memory
// dimension is an output's: NHWC batch norm): consecutive outputs per
// block along x, `width` per thread read as one vector per row, the
// block's other threads splitting the rows. With a follower, one kernel
// with grid-wide barriers: statistics, merge and epilogue, normalisation.
//
//===----------------------------------------------------------------------===//

#include "MultiValueReduction.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen::multivalue {

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

/// Outputs per thread for the columns mapping with vector loads: every
/// input contiguous along the innermost parallel loop (or not moving with
/// it), whole vectors within that loop's rows (a thread's lanes are
/// consecutive outputs: with [N, C] outputs they stay in one n) that stay
/// 16-byte aligned, and shared memory for the block's states.
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
         (e.parallelSizes.back() % width != 0 ||
          columnScratchBytes(e, shaped(width)) > kSharedMemoryBytes ||
          llvm::any_of(vectors, [&](auto vector) {
            return !vectorsStayAligned(vector.first->get(), vector.second, width);
          })))
    width /= 2;
  return shaped(width);
}

namespace {

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
    OpBuilder::InsertionGuard guard(b);
    auto [trip, tripFirst] = newestTripFirst(b, first, end, tripStep);
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

/// A row's loads (a vector per contiguous input where the lanes read
/// vectors) and its loop coordinates, where something reads them.
struct Row {
  SmallVector<Value> loops, loaded;
};

/// A vector input whose reduced loops are row-major in memory (NHWC's
/// n, h, w) is read through a flat view at its column's offset plus the
/// row times one stride: no coordinates are divided out per row.
struct LinearInput {
  Value view, columnOffset;
  int64_t stride;
};

/// One columns kernel, phase by phase: the plan (the split, shared memory,
/// the cache of x), the launch, the rows folded into lanes (phase one), the
/// block's merge through shared memory and the store of its states, and
/// with a follower the grid-wide merge (phase two) and the normalisation
/// (phase three).
class ColumnsKernel {
public:
  ColumnsKernel(Emitter &e, const ColumnBlock &block, const Follower *follower);

  SmallVector<KernelSummary> emit(StringRef name);

private:
  void planScratch();
  void launchKernel(StringRef name);
  void planInputs();
  Row loadRow(Value reduced);
  SmallVector<Value> foldRow(ArrayRef<Value> lanes, const Row &row);
  Value cacheIndex(Value trip, int64_t k);
  void keepTrip(Value trip, ArrayRef<Row> rows);
  SmallVector<Value> foldRows();
  SmallVector<Value> foldColumns();
  Value slotOf(int64_t l);
  Value slotFor(size_t value, int64_t l);
  void storeLanes(Value row, ArrayRef<State> states);
  State loadLane(Value row, int64_t l);
  void foldIntoSlots(ArrayRef<State> own);
  void mergeSlots();
  void storeStates();
  void runFollower();
  SmallVector<KernelSummary> summarize(StringRef name);

  Emitter &e;
  ImplicitLocOpBuilder &b;
  linalg::GenericOp op;
  const ColumnBlock &block;
  const Follower *follower;

  // The plan.
  int64_t width;
  unsigned loop = 0; // the reduction's parallel loop
  int64_t perBlock, columnBlocks, split, blockThreads;
  int64_t vectorBytes = 0; // of the widest vector load
  // Per state value: [rows, threads] for a shared count, else
  // [rows, threads * width]; with a follower the merge scratch after them.
  SmallVector<Type> scratch;
  // The grid-sync kernel's cache of x: `cachedTrips` trips of kUnroll rows
  // per thread, `tripBytes` each.
  int64_t cachedTrips = 0, tripBytes = 0;
  Type xElement;
  SmallVector<Value> partials;

  // The launch.
  ArrayRef<BlockArgument> shared, mergeShared;
  Value tx, ty, column, part, splitValue, tid, cache, base, valid;
  SmallVector<Value> emptyLanes;

  // The rows: with `useVectors` each contiguous input is one vector load,
  // otherwise one load per lane.
  bool useVectors = true;
  SmallVector<bool> isVector;
  SmallVector<std::optional<LinearInput>> linear;
  bool needsLoops = false;
  Value first, rowStep, tripStep, aligned;

  // The block's merge: a thread's slot and group of rows.
  Value slot, group;
};

ColumnsKernel::ColumnsKernel(Emitter &e, const ColumnBlock &block,
                             const Follower *follower)
    : e(e), b(e.b), op(e.op), block(block), follower(follower),
      width(block.width) {
  for (auto [dim, iterator] : llvm::enumerate(e.iterators))
    if (iterator == utils::IteratorType::parallel)
      loop = dim;
  perBlock = block.outputsPerBlock();
  columnBlocks = (e.numOutputs + perBlock - 1) / perBlock;
  split = std::max<int64_t>(
      1, std::min((kColumnTargetBlocks + columnBlocks - 1) / columnBlocks,
                  e.numReduced / (block.rows * kMinPerThread)));
  for (OpOperand *input : op.getDpsInputOperands())
    if (unitStrideDim(op, *input, loop))
      vectorBytes = std::max<int64_t>(
          vectorBytes,
          width * getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth() /
              8);
  blockThreads = block.threads * block.rows;
  planScratch();
}

/// The shared-memory arrays and, with a follower, how many trips of x fit
/// beside them.
void ColumnsKernel::planScratch() {
  for (auto [i, type] : llvm::enumerate(e.merger.types)) {
    int64_t columns = (i == 0 && e.sharedCount) ? block.threads : perBlock;
    scratch.push_back(MemRefType::get(
        {block.scratchRows(), columns}, shuffleType(type),
        MemRefLayoutAttrInterface{},
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup)));
  }
  if (!follower)
    return;
  llvm::append_range(scratch, e.scratchArrays({32}));
  xElement = getElementTypeOrSelf(
      op.getDpsInputOperand(follower->reductionInput)->get());
  tripBytes =
      blockThreads * kUnroll * width * xElement.getIntOrFloatBitWidth() / 8;
  int64_t staticBytes = columnScratchBytes(e, block);
  for (Type type : e.merger.types)
    staticBytes += 32 * shuffleType(type).getIntOrFloatBitWidth() / 8;
  int64_t tripsPerThread = (e.numReduced + block.rows * split * kUnroll - 1) /
                           (block.rows * split * kUnroll);
  cachedTrips = std::clamp<int64_t>(
      (kSharedBytesPerGridSyncBlock - staticBytes) / tripBytes, 0,
      tripsPerThread);
}

SmallVector<KernelSummary> ColumnsKernel::emit(StringRef name) {
  if (split > 1 || follower)
    partials = e.allocatePartials(split);
  {
    OpBuilder::InsertionGuard insertion(b);
    launchKernel(name);
    planInputs();
    SmallVector<Value> lanes = foldColumns();
    SmallVector<State> own;
    for (int64_t l = 0; l < width; ++l)
      own.push_back(e.lane(lanes, l));
    foldIntoSlots(own);
    mergeSlots();
    storeStates();
    if (follower)
      runFollower();
  }
  return summarize(name);
}

/// The launch (a 2-D grid with the split along y for the grid-sync
/// kernel, the split folded into x otherwise) and what every phase reads
/// of it: the thread's column and part of the rows, the cache of x, and
/// the thread's first output `base`.
void ColumnsKernel::launchKernel(StringRef name) {
  gpu::LaunchOp launch =
      follower
          ? createLaunch(b, columnBlocks, {block.threads, block.rows}, scratch,
                         (name + "_columns" + kGridSyncSuffix).str(),
                         minBlocksPerMultiprocessor(blockThreads),
                         /*gridY=*/split, cachedTrips * tripBytes)
          : createLaunch(b, columnBlocks * split, {block.threads, block.rows},
                         scratch, (name + "_columns").str(),
                         minBlocksPerMultiprocessor(blockThreads));
  shared = launch.getWorkgroupAttributions();
  if (follower) {
    mergeShared = shared.drop_front(e.merger.types.size());
    shared = shared.take_front(e.merger.types.size());
  }
  tx = launch.getThreadIds().x;
  ty = launch.getThreadIds().y;
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
  tid = arith::AddIOp::create(
      b, tx, arith::MulIOp::create(b, ty, indexConstant(b, block.threads)));
  // The cache of x: [trip * kUnroll + k][thread] vectors of `width`.
  if (cachedTrips > 0) {
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
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
      b, arith::MulIOp::create(b, column, indexConstant(b, block.threads)), tx);
  base = arith::MulIOp::create(b, threadColumn, indexConstant(b, width));
  valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, base,
                                indexConstant(b, e.numOutputs));
  emptyLanes = e.emptyLanes(width);
}

/// Which inputs are vectors, which of those are read through a flat view
/// (LinearInput), and whether the rows need their loop coordinates.
void ColumnsKernel::planInputs() {
  for (OpOperand *input : op.getDpsInputOperands())
    isVector.push_back(unitStrideDim(op, *input, loop).has_value() &&
                       width > 1);
  SmallVector<Value> columnLoops = e.loopsAt(base, Value());
  for (auto [input, vector] : llvm::zip(op.getDpsInputOperands(), isVector)) {
    std::optional<int64_t> stride =
        vector ? e.linearReducedStride(op, *input) : std::nullopt;
    if (!stride) {
      linear.push_back(std::nullopt);
      continue;
    }
    linear.push_back(
        LinearInput{linearElementView(b, input->get()),
                    flatOffset(b, input->get(),
                               op.getMatchingIndexingMap(input), columnLoops),
                    *stride});
  }
  // Loop coordinates per row only where something reads them: an input
  // loaded through them, or linalg.index in the body.
  needsLoops = llvm::any_of(linear, [](const auto &flat) { return !flat; }) ||
               !op.getBody()->getOps<linalg::IndexOp>().empty();
}

/// Row `reduced`'s loads for the thread's `width` columns.
Row ColumnsKernel::loadRow(Value reduced) {
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
          arith::MulIOp::create(b, reduced, indexConstant(b, flat->stride)));
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
        laneLoops[loop] =
            arith::AddIOp::create(b, row.loops[loop], indexConstant(b, l));
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
        b, VectorType::get({width}, getElementTypeOrSelf(input->get())), view,
        indices, /*nontemporal=*/false, llvm::MaybeAlign(vectorBytes)));
  }
  return row;
}

/// The lanes after folding a loaded row in.
SmallVector<Value> ColumnsKernel::foldRow(ArrayRef<Value> lanes,
                                          const Row &row) {
  SmallVector<State> next;
  for (int64_t l = 0; l < width; ++l) {
    SmallVector<Value> laneLoops(row.loops);
    if (!laneLoops.empty())
      laneLoops[loop] =
          arith::AddIOp::create(b, row.loops[loop], indexConstant(b, l));
    SmallVector<Value> arguments;
    for (auto [value, vector] : llvm::zip(row.loaded, isVector))
      arguments.push_back(vector ? Value(vector::ExtractOp::create(b, value, l))
                                 : value);
    llvm::append_range(arguments, e.lane(lanes, l));
    next.push_back(State(emitBody(b, op, arguments, laneLoops)));
  }
  return e.packLanes(next);
}

/// Row k of the thread's trip `trip` (0 for its first) in the cache,
/// which holds trips below cachedTrips.
Value ColumnsKernel::cacheIndex(Value trip, int64_t k) {
  Value slot = arith::AddIOp::create(
      b, arith::MulIOp::create(b, trip, indexConstant(b, kUnroll)),
      indexConstant(b, k));
  return arith::MulIOp::create(
      b,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, slot, indexConstant(b, blockThreads)),
          tid),
      indexConstant(b, width));
}

/// Stores trip `trip`'s x into the cache if it is one the cache holds. One
/// branch per trip, after all its loads: a store per row in its own
/// branch would wait for that row's load before the next load issues. A
/// row past the end stores the last row's copy into a slot that phase
/// three never reads.
void ColumnsKernel::keepTrip(Value trip, ArrayRef<Row> rows) {
  auto store = scf::IfOp::create(
      b,
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, trip,
                            indexConstant(b, cachedTrips)),
      false);
  OpBuilder::InsertionGuard inIf(b);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  for (auto [k, row] : llvm::enumerate(rows))
    vector::StoreOp::create(b, row.loaded[follower->reductionInput], cache,
                            ValueRange{cacheIndex(trip, k)});
}

/// The loop over the thread's rows, kUnroll per trip (foldUnrolledTrip);
/// returns the lanes.
SmallVector<Value> ColumnsKernel::foldRows() {
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
  auto keep = [&](ArrayRef<Row> units) {
    if (caching)
      keepTrip(trip, units);
  };
  auto load = [&](Value reduced) { return loadRow(reduced); };
  auto fold = [&](ArrayRef<Value> lanes, const Row &row) {
    return foldRow(lanes, row);
  };
  SmallVector<Value> folded = foldUnrolledTrip<Row>(
      b, rows.getInductionVar(), end, rowStep, lanes, load, fold, keep);
  if (caching)
    folded.push_back(arith::AddIOp::create(b, trip, indexConstant(b, 1)));
  scf::YieldOp::create(b, folded);
  SmallVector<Value> results(rows.getResults());
  if (caching)
    results.pop_back();
  return results;
}

/// Phase one: the thread's lanes after folding its rows, with vector loads
/// where the vector-read buffers are 16-byte aligned, one load per lane
/// otherwise (the same threads and outputs either way).
SmallVector<Value> ColumnsKernel::foldColumns() {
  first = arith::AddIOp::create(
      b, arith::MulIOp::create(b, part, indexConstant(b, block.rows)), ty);
  rowStep =
      b.createOrFold<arith::MulIOp>(indexConstant(b, block.rows), splitValue);
  tripStep = b.createOrFold<arith::MulIOp>(rowStep, indexConstant(b, kUnroll));
  SmallVector<Value> vectorBuffers;
  for (OpOperand *input : op.getDpsInputOperands())
    if (unitStrideDim(op, *input, loop))
      vectorBuffers.push_back(input->get());
  if (follower)
    vectorBuffers.push_back(linalg::GenericOp(follower->op).getDpsInits()[0]);
  aligned = width > 1 ? allVectorAligned(b, vectorBuffers) : Value();
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
  return SmallVector<Value>(accumulate.getResults());
}

/// Lane l's slot in a shared-memory row: a shared count sits once per
/// thread, every other value at the lane's slot.
Value ColumnsKernel::slotOf(int64_t l) {
  return arith::AddIOp::create(
      b, arith::MulIOp::create(b, tx, indexConstant(b, width)),
      indexConstant(b, l));
}

Value ColumnsKernel::slotFor(size_t value, int64_t l) {
  return (value == 0 && e.sharedCount) ? tx : slotOf(l);
}

void ColumnsKernel::storeLanes(Value row, ArrayRef<State> states) {
  for (auto [l, state] : llvm::enumerate(states))
    for (auto [i, buffer] : llvm::enumerate(shared)) {
      if (i == 0 && e.sharedCount && l > 0)
        continue;
      memref::StoreOp::create(b, widenForShuffle(b, state[i]), buffer,
                              ValueRange{row, slotFor(i, l)});
    }
}

State ColumnsKernel::loadLane(Value row, int64_t l) {
  State loaded;
  for (auto [i, buffer] : llvm::enumerate(shared))
    loaded.push_back(narrowFromShuffle(
        b, memref::LoadOp::create(b, buffer, ValueRange{row, slotFor(i, l)}),
        e.merger.types[i]));
  return loaded;
}

/// The rows fold into scratchRows slots a group at a time, the last group
/// first (each row merges its slot's state with its own, `own`). The
/// order is fixed.
void ColumnsKernel::foldIntoSlots(ArrayRef<State> own) {
  int64_t slots = block.scratchRows();
  slot = arith::RemUIOp::create(b, ty, indexConstant(b, slots));
  group = arith::DivUIOp::create(b, ty, indexConstant(b, slots));
  for (int64_t g = block.rows / slots - 1; g >= 0; --g) {
    auto turn = scf::IfOp::create(
        b,
        arith::AndIOp::create(b, valid,
                              arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                                    group,
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
}

/// A tree over the slots: log2(slots) merges per lane and thread rather
/// than `slots` in one thread.
void ColumnsKernel::mergeSlots() {
  Value firstGroup = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, group,
                                           indexConstant(b, 0));
  for (int64_t stride = block.scratchRows() / 2; stride >= 1; stride /= 2) {
    Value active = arith::AndIOp::create(
        b, arith::AndIOp::create(b, valid, firstGroup),
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, slot,
                              indexConstant(b, stride)));
    auto step = scf::IfOp::create(b, active, false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&step.getThenRegion().front());
      Value other = arith::AddIOp::create(b, slot, indexConstant(b, stride));
      SmallVector<State> merged;
      for (int64_t l = 0; l < width; ++l)
        merged.push_back(
            e.merger.merge(b, loadLane(slot, l), loadLane(other, l)));
      storeLanes(slot, merged);
    }
    gpu::BarrierOp::create(b);
  }
}

/// The block's first row stores each lane's state: the output's final
/// state, or the block's partial state when the reduction is split.
void ColumnsKernel::storeStates() {
  Value firstRow = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ty,
                                         indexConstant(b, 0));
  auto merging =
      scf::IfOp::create(b, arith::AndIOp::create(b, firstRow, valid), false);
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(&merging.getThenRegion().front());
  for (int64_t l = 0; l < width; ++l) {
    State state = loadLane(indexConstant(b, 0), l);
    Value output = arith::AddIOp::create(b, base, indexConstant(b, l));
    e.storeState(partials, part, output, state);
  }
}

/// Phases two and three of the grid-sync kernel: after a grid barrier
/// every output's partial states are merged and the epilogue runs; after
/// a second one every thread normalises its rows (FollowerRows).
void ColumnsKernel::runFollower() {
  emitGridBarrier(b);
  Value blockLinear = arith::AddIOp::create(
      b, column,
      arith::MulIOp::create(b, part, indexConstant(b, columnBlocks)));
  Value blocks =
      arith::MulIOp::create(b, indexConstant(b, columnBlocks), splitValue);
  e.emitGridMerge(partials, splitValue, blockLinear, blocks, tid, blockThreads,
                  split <= kWarpMergeSplit, mergeShared);
  emitGridBarrier(b);
  auto normalize = scf::IfOp::create(b, valid, false);
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(&normalize.getThenRegion().front());
  // x is read through its flat view (checked by analyzeFollower).
  const LinearInput &flatX = *linear[follower->reductionInput];
  auto index = [&](Value trip, int64_t k) { return cacheIndex(trip, k); };
  FollowerRows rows{e,
                    *follower,
                    base,
                    width,
                    loop,
                    first,
                    rowStep,
                    tripStep,
                    cache,
                    flatX.view,
                    flatX.columnOffset,
                    flatX.stride,
                    cachedTrips,
                    index};
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

/// The kernel's summary, and without a follower the merge kernel of a
/// split reduction (Emitter::finish).
SmallVector<KernelSummary> ColumnsKernel::summarize(StringRef name) {
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

} // namespace

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
  return ColumnsKernel(e, block, follower).emit(name);
}

} // namespace mlir::cudnn_mlir::codegen::multivalue
