//===- RowReductionKernel.cpp - one block per row, fused with its readers -===//
//
// A row reduction reduces the trailing loops of its iteration space. One
// block takes one row: each thread accumulates a strided slice of the row in
// registers, then warp shuffles and a shared-memory step combine the block's
// partials (every thread gets the total). The generics that follow it over
// the same rows and read only the row's reductions (softmax's second
// reduction and its division, a mean's division, a cast back to f16) join
// the same kernel: per-row values stay in registers, and a reduction only
// the group reads is never written to memory.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {

/// How a group member iterates.
enum class MemberKind {
  Reduction,   // leading loops parallel, trailing loops reduced
  Elementwise, // leading and trailing loops, all parallel
  PerRow,      // only the leading loops
};

/// Number of leading parallel loops of a row reduction.
unsigned numRowLoops(linalg::GenericOp op) {
  return op.getNumLoops() - op.getNumReductionLoops();
}

bool outputsIndependentOf(linalg::GenericOp op, unsigned firstDim) {
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    for (unsigned dim = firstDim; dim < op.getNumLoops(); ++dim)
      if (map.isFunctionOfDim(dim))
        return false;
  }
  return true;
}

MemberKind kindOf(linalg::GenericOp op, unsigned rowLoops) {
  if (op.getNumLoops() == rowLoops)
    return MemberKind::PerRow;
  return op.getNumReductionLoops() ? MemberKind::Reduction
                                   : MemberKind::Elementwise;
}

/// The map a group member reads a per-row value with, over the row loops
/// only (its results must not use the trailing loops).
std::optional<AffineMap> perRowMap(AffineMap map, unsigned rowLoops) {
  for (unsigned dim = rowLoops; dim < map.getNumDims(); ++dim)
    if (map.isFunctionOfDim(dim))
      return std::nullopt;
  return AffineMap::get(rowLoops, 0, map.getResults(), map.getContext());
}

int64_t product(ArrayRef<int64_t> sizes) {
  int64_t result = 1;
  for (int64_t size : sizes)
    result *= size;
  return result;
}

/// The most row elements a thread keeps in registers.
constexpr int64_t kMaxCachedPerThread = 16;

/// Threads per row: enough for a few elements each, 32 to 1024.
int64_t blockSizeFor(int64_t rowLength) {
  int64_t threads = 32;
  while (threads < 1024 && threads * 4 < rowLength)
    threads *= 2;
  return threads;
}

} // namespace

bool isRowReduction(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 ||
      !matchCombiner(op))
    return false;
  unsigned rowLoops = numRowLoops(op);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned dim = 0; dim < iterators.size(); ++dim)
    if ((dim < rowLoops) != (iterators[dim] == utils::IteratorType::parallel))
      return false;
  return outputsIndependentOf(op, rowLoops);
}

RowGroup formRowGroup(linalg::GenericOp reduction) {
  RowGroup group;
  group.members.push_back(reduction);
  SmallVector<int64_t> ranges = reduction.getStaticLoopRanges();
  unsigned rowLoops = numRowLoops(reduction);
  group.rowSizes.assign(ranges.begin(), ranges.begin() + rowLoops);
  group.innerSizes.assign(ranges.begin() + rowLoops, ranges.end());

  // Buffers holding per-row values (outputs of reductions and per-row
  // members), with the map over the row loops they were written with.
  DenseMap<Value, AffineMap> perRow;
  DenseSet<Value> written;
  auto record = [&](linalg::GenericOp member) {
    for (OpOperand &init : member.getDpsInitsMutable()) {
      written.insert(init.get());
      if (kindOf(member, rowLoops) != MemberKind::Elementwise)
        perRow[init.get()] = *perRowMap(member.getMatchingIndexingMap(&init),
                                        rowLoops);
    }
  };
  record(reduction);

  auto joins = [&](linalg::GenericOp op) {
    SmallVector<int64_t> opRanges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (opRanges.size() != rowLoops && opRanges != ranges)
      return false;
    if (ArrayRef<int64_t>(opRanges).take_front(rowLoops) !=
        ArrayRef<int64_t>(group.rowSizes))
      return false;
    for (unsigned dim = 0; dim < rowLoops; ++dim)
      if (iterators[dim] != utils::IteratorType::parallel)
        return false;
    MemberKind kind = kindOf(op, rowLoops);
    if (kind == MemberKind::Reduction &&
        (!isRowReduction(op) || numRowLoops(op) != rowLoops))
      return false;
    if (kind == MemberKind::Elementwise) {
      for (OpOperand &init : op.getDpsInitsMutable())
        if (!op.getMatchingIndexingMap(&init).isPermutation())
          return false;
    }
    if (kind == MemberKind::PerRow && !outputsIndependentOf(op, rowLoops))
      return false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value buffer = input->get();
      if (!written.contains(buffer))
        continue;
      auto it = perRow.find(buffer);
      if (it == perRow.end())
        return false; // an elementwise member's output: not kept per row
      std::optional<AffineMap> map =
          perRowMap(op.getMatchingIndexingMap(input), rowLoops);
      if (!map || *map != it->second)
        return false;
    }
    // A member must not overwrite what an earlier member reads.
    for (OpOperand &init : op.getDpsInitsMutable())
      for (linalg::GenericOp member : group.members)
        for (OpOperand *input : member.getDpsInputOperands())
          if (input->get() == init.get())
            return false;
    return true;
  };

  for (Operation *next = reduction->getNextNode(); next;
       next = next->getNextNode()) {
    if (isa<memref::AllocOp, arith::ConstantOp>(next))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(next);
    if (!generic)
      break;
    // A fill that only initialises the next reduction moves with it.
    if (isFill(generic)) {
      Value buffer = generic.getDpsInitOperand(0)->get();
      bool feedsNextReduction = false;
      for (Operation *after = next->getNextNode(); after;
           after = after->getNextNode()) {
        auto candidate = dyn_cast<linalg::GenericOp>(after);
        if (!candidate || isFill(candidate))
          continue;
        feedsNextReduction = isRowReduction(candidate) &&
                             candidate.getDpsInitOperand(0)->get() == buffer &&
                             findFillInit(candidate).fill == generic;
        break;
      }
      if (feedsNextReduction)
        continue;
      break;
    }
    if (!joins(generic))
      break;
    group.members.push_back(generic);
    record(generic);
  }
  return group;
}

KernelSummary emitRowGroupKernel(RowGroup &group, StringRef name) {
  linalg::GenericOp first = group.members.front();
  unsigned rowLoops = group.rowSizes.size();
  int64_t numRows = product(group.rowSizes);
  int64_t rowLength = product(group.innerSizes);
  int64_t blockSize = blockSizeFor(rowLength);
  ImplicitLocOpBuilder b(first.getLoc(), first);

  // Reduction inits from their fills, computed on the host side.
  SmallVector<ReductionInit> inits;
  for (linalg::GenericOp member : group.members)
    inits.push_back(kindOf(member, rowLoops) == MemberKind::Reduction
                        ? findFillInit(member)
                        : ReductionInit{});

  // What lies between the members (their outputs' allocations, constants,
  // the inits' values) must exist where the kernel is launched.
  DenseSet<Operation *> stay;
  for (auto [member, init] : llvm::zip(group.members, inits)) {
    stay.insert(member);
    if (init.fill)
      stay.insert(init.fill);
  }
  for (Operation *op = first->getNextNode();
       op && op != group.members.back().getOperation();) {
    Operation *next = op->getNextNode();
    if (!stay.contains(op))
      op->moveBefore(first);
    op = next;
  }

  // One scratch buffer per type the reductions stage.
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  SmallVector<Type> scratchTypes;
  for (linalg::GenericOp member : group.members) {
    if (kindOf(member, rowLoops) != MemberKind::Reduction)
      continue;
    Type type = shuffleType(getElementTypeOrSelf(member.getDpsInits()[0]));
    auto scratch = MemRefType::get({32}, type, MemRefLayoutAttrInterface{},
                                   workgroup);
    if (!llvm::is_contained(scratchTypes, scratch))
      scratchTypes.push_back(scratch);
  }

  // Which per-row buffers must still be written: those read or written
  // anywhere else, and any that is not a temporary.
  DenseSet<Operation *> groupOps;
  for (auto [member, init] : llvm::zip(group.members, inits)) {
    groupOps.insert(member);
    if (init.fill)
      groupOps.insert(init.fill);
  }
  auto mustStore = [&](Value buffer) {
    if (!buffer.getDefiningOp<memref::AllocOp>())
      return true;
    for (Operation *user : buffer.getUsers())
      if (!groupOps.contains(user))
        return true;
    return false;
  };

  gpu::LaunchOp launch =
      createLaunch(b, numRows, {blockSize}, scratchTypes, name);
  Value thread = launch.getThreadIds().x;
  SmallVector<Value> rowCoords =
      delinearize(b, launch.getBlockIds().x, group.rowSizes);
  Value zero = indexConstant(b, 0);
  Value isFirstThread =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, zero);
  DenseMap<Value, Value> rowValues;

  auto rowLoopsAt = [&](Value innerLinear) {
    SmallVector<Value> loops(rowCoords);
    if (innerLinear)
      llvm::append_range(loops, delinearize(b, innerLinear, group.innerSizes));
    return loops;
  };
  // Where each thread's share of the row is a small static number of
  // elements, the row loop is unrolled and every element a thread loads is
  // kept in registers for the members after it: the row is read from memory
  // once. Otherwise, with an even share, loads are issued in batches.
  bool evenShare = rowLength % blockSize == 0;
  int64_t share = rowLength / blockSize;
  bool cacheRow = evenShare && share <= kMaxCachedPerThread;
  DenseMap<std::tuple<Value, AffineMap, int64_t>, Value> cachedLoads;

  // `slot` numbers a thread's elements when the row is cached (else -1).
  auto inputArguments = [&](linalg::GenericOp member, ValueRange loops,
                            int64_t slot) {
    SmallVector<Value> arguments;
    for (OpOperand *input : member.getDpsInputOperands()) {
      auto it = rowValues.find(input->get());
      if (it != rowValues.end()) {
        arguments.push_back(it->second);
        continue;
      }
      if (slot < 0 || !isa<MemRefType>(input->get().getType())) {
        arguments.push_back(loadOperand(b, member, *input, loops));
        continue;
      }
      auto key = std::make_tuple(input->get(),
                                 member.getMatchingIndexingMap(input), slot);
      Value &cached = cachedLoads[key];
      if (!cached)
        cached = loadOperand(b, member, *input, loops);
      arguments.push_back(cached);
    }
    return arguments;
  };
  auto storeFromFirstThread = [&](linalg::GenericOp member, OpOperand &init,
                                  Value value, ValueRange loops) {
    auto guard = scf::IfOp::create(b, isFirstThread, false);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    storeOperand(b, member, init, value, loops);
  };
  using RowBody =
      function_ref<SmallVector<Value>(Value, ValueRange, int64_t)>;
  // Runs `body(j, accs, slot)` for this thread's positions j of the row.
  auto loopOverRow = [&](ValueRange iterArgs,
                         RowBody body) -> SmallVector<Value> {
    auto position = [&](Value base, int64_t k) -> Value {
      return arith::AddIOp::create(b, base, indexConstant(b, k * blockSize));
    };
    if (cacheRow) {
      SmallVector<Value> accs(iterArgs);
      for (int64_t k = 0; k < share; ++k)
        accs = body(position(thread, k), accs, k);
      return accs;
    }
    int64_t unroll = 1;
    if (evenShare)
      for (int64_t candidate : {8, 4, 2})
        if (share % candidate == 0) {
          unroll = candidate;
          break;
        }
    Value lower = evenShare ? zero : thread;
    Value upper = indexConstant(b, evenShare ? share : rowLength);
    Value step = indexConstant(b, evenShare ? unroll : blockSize);
    auto loop = scf::ForOp::create(b, lower, upper, step, iterArgs);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> accs(loop.getRegionIterArgs());
    if (!evenShare) {
      accs = body(loop.getInductionVar(), accs, -1);
    } else {
      // j = thread + (chunk + k) * blockSize for the unrolled k.
      Value base = arith::AddIOp::create(
          b, thread,
          arith::MulIOp::create(b, loop.getInductionVar(),
                                indexConstant(b, blockSize)));
      for (int64_t k = 0; k < unroll; ++k)
        accs = body(position(base, k), accs, -1);
    }
    // A loop without results already ends in its yield.
    if (!iterArgs.empty())
      scf::YieldOp::create(b, accs);
    return SmallVector<Value>(loop.getResults());
  };

  for (auto [member, init] : llvm::zip(group.members, inits)) {
    switch (kindOf(member, rowLoops)) {
    case MemberKind::Reduction: {
      Combiner combiner = *matchCombiner(member);
      Value neutral = arith::ConstantOp::create(b, combiner.neutral);
      SmallVector<Value> partial = loopOverRow(
          neutral, [&](Value j, ValueRange accs, int64_t slot) {
            SmallVector<Value> loops = rowLoopsAt(j);
            SmallVector<Value> arguments = inputArguments(member, loops, slot);
            arguments.push_back(accs.front());
            return emitBody(b, member, arguments, loops);
          });
      Value scratch;
      Type type = shuffleType(combiner.neutral.getType());
      for (BlockArgument buffer : launch.getWorkgroupAttributions())
        if (cast<MemRefType>(buffer.getType()).getElementType() == type)
          scratch = buffer;
      Value total = blockReduce(b, combiner, partial.front(), thread,
                                blockSize, scratch);
      OpOperand &out = *member.getDpsInitOperand(0);
      SmallVector<Value> loops = rowLoopsAt(Value());
      for (size_t i = 0; i < group.innerSizes.size(); ++i)
        loops.push_back(zero);
      Value start = init.value ? init.value : loadOperand(b, member, out, loops);
      Value result = combine(b, combiner, start, total);
      rowValues[out.get()] = result;
      if (mustStore(out.get()))
        storeFromFirstThread(member, out, result, loops);
      break;
    }
    case MemberKind::Elementwise: {
      loopOverRow(ValueRange{}, [&](Value j, ValueRange, int64_t slot) {
        SmallVector<Value> loops = rowLoopsAt(j);
        SmallVector<Value> arguments = inputArguments(member, loops, slot);
        for (OpOperand &out : member.getDpsInitsMutable())
          arguments.push_back(initArgument(b, member, out, loops));
        SmallVector<Value> results = emitBody(b, member, arguments, loops);
        for (auto [out, result] :
             llvm::zip(member.getDpsInitsMutable(), results))
          storeOperand(b, member, out, result, loops);
        return SmallVector<Value>{};
      });
      break;
    }
    case MemberKind::PerRow: {
      // Computed by every thread (it is cheap), stored by one.
      SmallVector<Value> loops = rowLoopsAt(Value());
      SmallVector<Value> arguments = inputArguments(member, loops, -1);
      for (OpOperand &out : member.getDpsInitsMutable())
        arguments.push_back(initArgument(b, member, out, loops));
      SmallVector<Value> results = emitBody(b, member, arguments, loops);
      for (auto [out, result] :
           llvm::zip(member.getDpsInitsMutable(), results)) {
        rowValues[out.get()] = result;
        if (mustStore(out.get()))
          storeFromFirstThread(member, out, result, loops);
      }
      break;
    }
    }
  }
  std::string strategy = "row reduction (block of " +
                         std::to_string(blockSize) + " per row";
  if (cacheRow)
    strategy += ", row held in registers";
  if (group.members.size() > 1)
    strategy += ", " + std::to_string(group.members.size()) + " ops fused";
  strategy += ")";
  return {name.str(), strategy};
}

} // namespace mlir::cudnn_mlir::codegen
