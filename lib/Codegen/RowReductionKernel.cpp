//===- RowReductionKernel.cpp - rows per block, fused with their readers --===//
//
// A row reduction reduces the trailing loops of its iteration space. A row
// goes to a group of threads: each accumulates a strided slice of the row in
// registers, then warp shuffles (and, for groups of more than a warp, a
// shared-memory step) combine the group's partials (every thread gets the
// total). A long row has a block of its own; short rows (a layer norm over
// 96 channels: 12 vectors) go to a few lanes each, many rows per block. The
// generics that follow it over the same rows and read only the row's reductions
// (softmax's second reduction and its division, a mean's division, a cast back
// to f16) join the same kernel: per-row values stay in registers, and a
// reduction only the group reads is never written to memory.
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

/// Whether the loops of `op` past the first `rowLoops` all run once (a
/// per-row op on keep_dims values: [N, 1, 1, 1] against rows of C*H*W).
bool onlyUnitLoopsAfter(linalg::GenericOp op, unsigned rowLoops) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return ranges.size() > rowLoops &&
         llvm::all_of(ArrayRef<int64_t>(ranges).drop_front(rowLoops),
                      [](int64_t range) { return range == 1; }) &&
         op.getNumReductionLoops() == 0;
}

/// `map` of `op` with the loops that run once read at 0.
AffineMap withUnitLoopsAtZero(linalg::GenericOp op, AffineMap map) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  MLIRContext *context = map.getContext();
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    dims.push_back(ranges[d] == 1 ? getAffineConstantExpr(0, context)
                                  : getAffineDimExpr(d, context));
  return map.replaceDimsAndSymbols(dims, {}, map.getNumDims(), 0);
}

MemberKind kindOf(linalg::GenericOp op, unsigned rowLoops) {
  if (op.getNumLoops() == rowLoops || onlyUnitLoopsAfter(op, rowLoops))
    return MemberKind::PerRow;
  return op.getNumReductionLoops() ? MemberKind::Reduction
                                   : MemberKind::Elementwise;
}

/// The map a group member reads a per-row value with, over the row loops
/// only (its results must not use the trailing loops).
std::optional<AffineMap> perRowMap(linalg::GenericOp op, AffineMap map,
                                   unsigned rowLoops) {
  map = withUnitLoopsAtZero(op, map);
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

/// The most row units (vectors or elements) a thread keeps in registers,
/// and the most elements.
constexpr int64_t kMaxCachedPerThread = 16;
constexpr int64_t kMaxCachedElements = 32;

/// Threads per row: enough for a few elements each, 32 to 1024.
int64_t blockSizeFor(int64_t rowLength) {
  int64_t threads = 32;
  while (threads < 1024 && threads * 4 < rowLength)
    threads *= 2;
  return threads;
}

/// Threads a block has when it takes several short rows.
constexpr int64_t kRowsBlockThreads = 256;

/// The most units a lane loops over when lanes share a row unevenly.
constexpr int64_t kMaxUnevenUnitsPerLane = 16;

/// How rows map to threads: `threadsPerRow` lanes take each row, and a
/// block takes `rowsPerBlock` rows.
struct RowMapping {
  int64_t threadsPerRow, rowsPerBlock;
};

/// A row of `units` vectors or elements gets a block of its own (32 to 1024
/// threads) unless it is short:
/// - shorter than 4 units a thread of a warp: the most lanes (a power of
///   two from 2 to 32) that split it evenly into 2 or more units each take
///   it, so that no lane idles and a lane can hold its units in registers;
/// - at most kMaxUnevenUnitsPerLane units a lane of a warp and no power of
///   two splits it evenly (attention's rows of 197, 7x7 windows of 49): a
///   warp, or the most lanes that get 2 or more units each, loops over it,
///   some lanes a unit fewer. A block of its own would spend more on block
///   barriers than on the row.
/// A block then takes as many rows (a power of two that divides `numRows`,
/// up to 256 threads), so that blocks are not a single warp. Rows that map
/// no such way keep a block each.
RowMapping rowMappingFor(int64_t units, int64_t numRows) {
  RowMapping ownBlock{blockSizeFor(units), 1};
  int64_t lanes = 0;
  if (units < 4 * 32) {
    lanes = 32;
    while (lanes > 1 && (units % lanes != 0 || units / lanes < 2))
      lanes /= 2;
  }
  // A lane alone on a row reads it with no neighbour in the same lines.
  if (lanes < 2 && units % 2 != 0 && units <= kMaxUnevenUnitsPerLane * 32) {
    lanes = 32;
    while (lanes > 2 && units / lanes < 2)
      lanes /= 2;
  }
  if (lanes < 2 || units / lanes < 2)
    return ownBlock;
  int64_t rows = kRowsBlockThreads / lanes;
  while (rows > 1 && numRows % rows != 0)
    rows /= 2;
  if (rows < 2)
    return ownBlock;
  return {lanes, rows};
}

/// The buffers a row group reads or writes with vector accesses.
SmallVector<Value> vectorAccessedBuffers(RowGroup &group) {
  unsigned rowLoops = group.rowSizes.size();
  unsigned innermost = rowLoops + group.innerSizes.size() - 1;
  DenseSet<Value> perRowValues;
  SmallVector<Value> buffers;
  for (linalg::GenericOp member : group.members) {
    MemberKind kind = kindOf(member, rowLoops);
    if (kind != MemberKind::PerRow)
      for (OpOperand &operand : member->getOpOperands())
        if (!perRowValues.contains(operand.get()) &&
            classifyLaneAccess(member, operand, innermost) ==
                LaneAccess::Vector &&
            !llvm::is_contained(buffers, operand.get()))
          buffers.push_back(operand.get());
    if (kind != MemberKind::Elementwise)
      for (Value init : member.getDpsInits())
        perRowValues.insert(init);
  }
  return buffers;
}

/// Row elements per vector access for the group: every buffer indexed by
/// the innermost loop must be a contiguous vector, and the row split evenly
/// into vectors; 1 otherwise.
int64_t rowVectorWidth(RowGroup &group) {
  unsigned rowLoops = group.rowSizes.size();
  unsigned innermost = rowLoops + group.innerSizes.size() - 1;
  DenseSet<Value> perRowValues;
  int64_t widestBytes = 0;
  for (linalg::GenericOp member : group.members) {
    MemberKind kind = kindOf(member, rowLoops);
    if (kind != MemberKind::PerRow) {
      for (OpOperand &operand : member->getOpOperands()) {
        if (perRowValues.contains(operand.get()))
          continue;
        bool isOutput = member.isDpsInit(&operand);
        if (kind == MemberKind::Reduction && isOutput)
          continue;
        LaneAccess access = classifyLaneAccess(member, operand, innermost);
        if (access == LaneAccess::Other ||
            (isOutput && access != LaneAccess::Vector))
          return 1;
        if (access != LaneAccess::Vector)
          continue;
        unsigned bits =
            getElementTypeOrSelf(operand.get()).getIntOrFloatBitWidth();
        if (bits < 8 || bits % 8 != 0)
          return 1;
        widestBytes = std::max<int64_t>(widestBytes, bits / 8);
      }
    }
    if (kind != MemberKind::Elementwise)
      for (Value init : member.getDpsInits())
        perRowValues.insert(init);
  }
  int64_t width = vectorWidthFor(widestBytes);
  if (group.innerSizes.back() % width != 0)
    return 1;
  return width;
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
        perRow[init.get()] =
            *perRowMap(member, member.getMatchingIndexingMap(&init), rowLoops);
    }
  };
  record(reduction);

  auto joins = [&](linalg::GenericOp op) {
    SmallVector<int64_t> opRanges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (opRanges.size() != rowLoops && opRanges != ranges &&
        !onlyUnitLoopsAfter(op, rowLoops))
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
    if (kind == MemberKind::PerRow &&
        llvm::any_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
          return !perRowMap(op, op.getMatchingIndexingMap(&init), rowLoops);
        }))
      return false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value buffer = input->get();
      if (!written.contains(buffer))
        continue;
      auto it = perRow.find(buffer);
      if (it == perRow.end())
        return false; // an elementwise member's output: not kept per row
      std::optional<AffineMap> map =
          perRowMap(op, op.getMatchingIndexingMap(input), rowLoops);
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

namespace {

/// One row group's kernel, one block per row, phase by phase: the
/// reductions' starting values from their fills, the ops between the
/// members moved before the kernel, the launch with the reductions'
/// scratch, then the members' code (MemberCode), vector code and scalar
/// code where the row is read as vectors.
struct RowGroupKernel {
  explicit RowGroupKernel(RowGroup &group);

  KernelSummary emit(StringRef name);

  void findInits();
  void hoistBetweenMembers();
  SmallVector<Type> scratchTypes();
  void launchKernel(StringRef name);
  bool mustStore(Value buffer);
  SmallVector<Value> rowLoopsAt(Value innerLinear);
  void storeFromFirstThread(linalg::GenericOp member, OpOperand &init,
                            Value value, ValueRange loops);
  bool emitMembers(int64_t width);

  RowGroup &group;
  linalg::GenericOp first;
  unsigned rowLoops;
  // blockSize: the threads that take one row (a whole block when
  // rowsPerBlock is 1).
  int64_t numRows, rowLength, blockSize, rowsPerBlock;
  unsigned innermost;
  ImplicitLocOpBuilder b;
  // Per member: a reduction's starting value and fill, from findFillInit.
  SmallVector<ReductionInit> inits;
  // The members and their fills.
  DenseSet<Operation *> groupOps;

  // The launch; `thread` is the thread's place among its row's threads.
  gpu::LaunchOp launchOp;
  Value thread, zero, isFirstThread;
  SmallVector<Value> rowCoords;
};

/// The members' code for units of `width` consecutive row elements per
/// access (1: scalar code), member by member. Where each thread's share of
/// the row is a small static number of units, the row loop is unrolled
/// and every unit a thread loads is kept in registers for the members
/// after it: the row is read from memory once. A share that is uneven
/// (softmax over 7x7 windows: rows of 49 on 16 lanes, 3 or 4 units each)
/// is unrolled to the most units a lane has; the last one is read at an
/// index clamped into the row, and past the row's end it changes no
/// reduction and is not stored. Otherwise, with an even share, loads are
/// issued in batches.
struct MemberCode {
  MemberCode(RowGroupKernel &kernel, int64_t width);

  /// Emits every member; returns whether the row is held in registers.
  bool emit();

  using RowBody = function_ref<SmallVector<Value>(Value, ValueRange, int64_t)>;
  SmallVector<Value> inputArguments(linalg::GenericOp member,
                                    ValueRange unitLoops, ValueRange laneLoops,
                                    int64_t lane, int64_t slot);
  SmallVector<Value> loopOverRow(ValueRange iterArgs, RowBody body);
  SmallVector<Value> laneLoopsAt(Value first, int64_t lane);
  void emitReduction(linalg::GenericOp member, const ReductionInit &init);
  void emitElementwise(linalg::GenericOp member);
  void emitPerRow(linalg::GenericOp member);

  RowGroupKernel &kernel;
  ImplicitLocOpBuilder &b;
  int64_t width;
  // Per-row values (reductions, per-row members) by their output buffer.
  DenseMap<Value, Value> rowValues;
  // share: the units every thread has; slots: the most any thread has.
  int64_t unitsPerRow, share, slots;
  bool evenShare, cacheRow;
  // While the unit being emitted may lie past the row's end: whether it
  // does not (stores are made under it).
  Value inRow;
  // Loads by (buffer, map, slot); slot -1 is this unit only.
  using LoadKey = std::tuple<Value, AffineMap, int64_t>;
  DenseMap<LoadKey, Value> cachedLoads;
};

RowGroupKernel::RowGroupKernel(RowGroup &group)
    : group(group), first(group.members.front()),
      rowLoops(group.rowSizes.size()), numRows(product(group.rowSizes)),
      rowLength(product(group.innerSizes)),
      innermost(rowLoops + group.innerSizes.size() - 1),
      b(first.getLoc(), first) {
  RowMapping mapping =
      rowMappingFor(rowLength / rowVectorWidth(group), numRows);
  blockSize = mapping.threadsPerRow;
  rowsPerBlock = mapping.rowsPerBlock;
}

KernelSummary RowGroupKernel::emit(StringRef name) {
  findInits();
  hoistBetweenMembers();
  launchKernel(name);
  int64_t width = rowVectorWidth(group);
  SmallVector<Value> vectorBuffers;
  if (width > 1)
    vectorBuffers = vectorAccessedBuffers(group);
  bool cached;
  if (width == 1) {
    cached = emitMembers(1);
  } else {
    // Vector code where the buffers are 16-byte aligned, scalar code
    // otherwise (the same for every thread: the barriers stay uniform).
    auto choose = scf::IfOp::create(b, allVectorAligned(b, vectorBuffers),
                                    /*withElseRegion=*/true);
    b.setInsertionPointToStart(&choose.getThenRegion().front());
    cached = emitMembers(width);
    b.setInsertionPointToStart(&choose.getElseRegion().front());
    emitMembers(1);
  }

  std::string strategy =
      rowsPerBlock == 1
          ? "row reduction (block of " + std::to_string(blockSize) + " per row"
          : "row reduction (" + std::to_string(blockSize) +
                " threads per row, " + std::to_string(rowsPerBlock) +
                " rows per block";
  if (width > 1)
    strategy += ", vector " + std::to_string(width);
  if (cached)
    strategy += ", row held in registers";
  if (group.members.size() > 1)
    strategy += ", " + std::to_string(group.members.size()) + " ops fused";
  strategy += ")";
  return {name.str(), strategy};
}

/// Reduction inits from their fills, computed on the host side.
void RowGroupKernel::findInits() {
  for (linalg::GenericOp member : group.members)
    inits.push_back(kindOf(member, rowLoops) == MemberKind::Reduction
                        ? findFillInit(member)
                        : ReductionInit{});
  for (auto [member, init] : llvm::zip(group.members, inits)) {
    groupOps.insert(member);
    if (init.fill)
      groupOps.insert(init.fill);
  }
}

/// What lies between the members (their outputs' allocations, constants,
/// the inits' values) must exist where the kernel is launched.
void RowGroupKernel::hoistBetweenMembers() {
  Operation *last = group.members.back();
  for (Operation *op = first->getNextNode(); last != first && op != last;) {
    Operation *next = op->getNextNode();
    if (!groupOps.contains(op))
      op->moveBefore(first);
    op = next;
  }
}

/// One scratch buffer per type the reductions stage.
SmallVector<Type> RowGroupKernel::scratchTypes() {
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  SmallVector<Type> types;
  for (linalg::GenericOp member : group.members) {
    if (kindOf(member, rowLoops) != MemberKind::Reduction)
      continue;
    Type type = shuffleType(getElementTypeOrSelf(member.getDpsInits()[0]));
    auto scratch = MemRefType::get({32}, type, MemRefLayoutAttrInterface{},
                                   workgroup);
    if (!llvm::is_contained(types, scratch))
      types.push_back(scratch);
  }
  return types;
}

/// The launch, `rowsPerBlock` rows a block, and the thread's row's
/// coordinates.
void RowGroupKernel::launchKernel(StringRef name) {
  launchOp = createLaunch(b, numRows / rowsPerBlock, {blockSize * rowsPerBlock},
                          scratchTypes(), name);
  Value row = launchOp.getBlockIds().x;
  thread = launchOp.getThreadIds().x;
  if (rowsPerBlock > 1) {
    Value threadsPerRow = indexConstant(b, blockSize);
    row = arith::AddIOp::create(
        b, arith::MulIOp::create(b, row, indexConstant(b, rowsPerBlock)),
        arith::DivUIOp::create(b, thread, threadsPerRow));
    thread = arith::RemUIOp::create(b, thread, threadsPerRow);
  }
  rowCoords = delinearize(b, row, group.rowSizes);
  zero = indexConstant(b, 0);
  isFirstThread =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, zero);
}

/// Whether a per-row buffer must still be written: it is read or written
/// anywhere else, or it is not a temporary.
bool RowGroupKernel::mustStore(Value buffer) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return true;
  for (Operation *user : buffer.getUsers())
    if (!groupOps.contains(user))
      return true;
  return false;
}

/// The loop coordinates of the row at inner position `innerLinear` (null:
/// the row loops only).
SmallVector<Value> RowGroupKernel::rowLoopsAt(Value innerLinear) {
  SmallVector<Value> loops(rowCoords);
  if (innerLinear)
    llvm::append_range(loops, delinearize(b, innerLinear, group.innerSizes));
  return loops;
}

void RowGroupKernel::storeFromFirstThread(linalg::GenericOp member,
                                          OpOperand &init, Value value,
                                          ValueRange loops) {
  auto guard = scf::IfOp::create(b, isFirstThread, false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  storeOperand(b, member, init, value, loops);
}

bool RowGroupKernel::emitMembers(int64_t width) {
  return MemberCode(*this, width).emit();
}

MemberCode::MemberCode(RowGroupKernel &kernel, int64_t width)
    : kernel(kernel), b(kernel.b), width(width),
      unitsPerRow(kernel.rowLength / width),
      share(unitsPerRow / kernel.blockSize),
      slots(llvm::divideCeil(unitsPerRow, kernel.blockSize)),
      evenShare(share == slots), cacheRow(slots <= kMaxCachedPerThread &&
                                          slots * width <= kMaxCachedElements) {
}

bool MemberCode::emit() {
  for (auto [member, init] : llvm::zip(kernel.group.members, kernel.inits)) {
    switch (kindOf(member, kernel.rowLoops)) {
    case MemberKind::Reduction:
      emitReduction(member, init);
      break;
    case MemberKind::Elementwise:
      emitElementwise(member);
      break;
    case MemberKind::PerRow:
      emitPerRow(member);
      break;
    }
  }
  return cacheRow;
}

/// The body's input arguments for lane `lane` of the unit at `unitLoops`.
SmallVector<Value> MemberCode::inputArguments(linalg::GenericOp member,
                                              ValueRange unitLoops,
                                              ValueRange laneLoops,
                                              int64_t lane, int64_t slot) {
  SmallVector<Value> arguments;
  for (OpOperand *input : member.getDpsInputOperands()) {
    auto it = rowValues.find(input->get());
    if (it != rowValues.end()) {
      arguments.push_back(it->second);
      continue;
    }
    LaneAccess access = classifyLaneAccess(member, *input, kernel.innermost);
    if (access == LaneAccess::Scalar) {
      arguments.push_back(input->get());
      continue;
    }
    bool isVector = width > 1 && access == LaneAccess::Vector;
    LoadKey key{input->get(), member.getMatchingIndexingMap(input), slot};
    Value &loaded = cachedLoads[key];
    if (!loaded) {
      if (isVector) {
        auto type =
            VectorType::get({width}, getElementTypeOrSelf(input->get()));
        loaded = vector::LoadOp::create(
            b, type, input->get(),
            applyMap(b, member.getMatchingIndexingMap(input), unitLoops),
            /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes));
      } else if ((width > 1 && access == LaneAccess::Uniform) ||
                 (width == 1 && slot >= 0)) {
        loaded = loadOperand(b, member, *input, unitLoops);
      } else {
        // A scalar load per lane: not shared between lanes.
        arguments.push_back(loadOperand(b, member, *input, laneLoops));
        cachedLoads.erase(key);
        continue;
      }
    }
    arguments.push_back(
        isVector ? Value(vector::ExtractOp::create(b, loaded, lane)) : loaded);
  }
  return arguments;
}

/// Runs `body(j, accs, slot)` for this thread's units of the row, j the
/// first element of the unit.
SmallVector<Value> MemberCode::loopOverRow(ValueRange iterArgs, RowBody body) {
  int64_t blockSize = kernel.blockSize;
  Value thread = kernel.thread;
  auto elementOf = [&](Value unit) -> Value {
    return width == 1
               ? unit
               : Value(arith::MulIOp::create(b, unit, indexConstant(b, width)));
  };
  auto unitAt = [&](Value base, int64_t k) -> Value {
    return arith::AddIOp::create(b, base, indexConstant(b, k * blockSize));
  };
  if (cacheRow) {
    SmallVector<Value> accs(iterArgs);
    for (int64_t k = 0; k < share; ++k)
      accs = body(elementOf(unitAt(thread, k)), accs, k);
    if (evenShare)
      return accs;
    // The last slot: only threads below the remainder have a unit there.
    Value unit = unitAt(thread, share);
    Value end = indexConstant(b, unitsPerRow);
    inRow = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, unit, end);
    Value clamped =
        arith::MinUIOp::create(b, unit, indexConstant(b, unitsPerRow - 1));
    SmallVector<Value> next = body(elementOf(clamped), accs, share);
    for (auto [acc, value] : llvm::zip(accs, next))
      acc = arith::SelectOp::create(b, inRow, value, acc);
    inRow = Value();
    return accs;
  }
  int64_t unroll = 1;
  if (evenShare)
    for (int64_t candidate : {8, 4, 2})
      if (share % candidate == 0) {
        unroll = candidate;
        break;
      }
  Value lower = evenShare ? kernel.zero : thread;
  Value upper = indexConstant(b, evenShare ? share : unitsPerRow);
  Value step = indexConstant(b, evenShare ? unroll : blockSize);
  auto loop = scf::ForOp::create(b, lower, upper, step, iterArgs);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> accs(loop.getRegionIterArgs());
  if (!evenShare) {
    accs = body(elementOf(loop.getInductionVar()), accs, -1);
  } else {
    // unit = thread + (chunk + k) * blockSize for the unrolled k.
    Value base = arith::AddIOp::create(
        b, thread,
        arith::MulIOp::create(b, loop.getInductionVar(),
                              indexConstant(b, blockSize)));
    for (int64_t k = 0; k < unroll; ++k) {
      accs = body(elementOf(unitAt(base, k)), accs, -1);
      // Loads of one unit are not reused by the next.
      cachedLoads.clear();
    }
  }
  cachedLoads.clear();
  // A loop without results already ends in its yield.
  if (!iterArgs.empty())
    scf::YieldOp::create(b, accs);
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> MemberCode::laneLoopsAt(Value first, int64_t lane) {
  return kernel.rowLoopsAt(lane == 0 ? first
                                     : Value(arith::AddIOp::create(
                                           b, first, indexConstant(b, lane))));
}

/// A row reduction: each thread folds its units, the block reduces the
/// partials (every thread gets the total), and the total is combined
/// with the starting value.
void MemberCode::emitReduction(linalg::GenericOp member,
                               const ReductionInit &init) {
  Combiner combiner = *matchCombiner(member);
  Value neutral = arith::ConstantOp::create(b, combiner.neutral);
  SmallVector<Value> partial =
      loopOverRow(neutral, [&](Value j, ValueRange accs, int64_t slot) {
        SmallVector<Value> unitLoops = kernel.rowLoopsAt(j);
        Value acc = accs.front();
        for (int64_t lane = 0; lane < width; ++lane) {
          SmallVector<Value> loops = laneLoopsAt(j, lane);
          SmallVector<Value> arguments =
              inputArguments(member, unitLoops, loops, lane, slot);
          arguments.push_back(acc);
          acc = emitBody(b, member, arguments, loops).front();
        }
        if (slot < 0)
          cachedLoads.clear();
        return SmallVector<Value>{acc};
      });
  Value scratch;
  Type type = shuffleType(combiner.neutral.getType());
  for (BlockArgument buffer : kernel.launchOp.getWorkgroupAttributions())
    if (cast<MemRefType>(buffer.getType()).getElementType() == type)
      scratch = buffer;
  Value total = blockReduce(b, combiner, partial.front(), kernel.thread,
                            kernel.blockSize, scratch);
  OpOperand &out = *member.getDpsInitOperand(0);
  SmallVector<Value> loops = kernel.rowLoopsAt(Value());
  for (size_t i = 0; i < kernel.group.innerSizes.size(); ++i)
    loops.push_back(kernel.zero);
  Value start = init.value ? init.value : loadOperand(b, member, out, loops);
  Value result = combine(b, combiner, start, total);
  rowValues[out.get()] = result;
  if (kernel.mustStore(out.get()))
    kernel.storeFromFirstThread(member, out, result, loops);
}

/// An elementwise member over the row: each thread computes and stores
/// its units, a vector store per output where width > 1.
void MemberCode::emitElementwise(linalg::GenericOp member) {
  loopOverRow(ValueRange{}, [&](Value j, ValueRange, int64_t slot) {
    SmallVector<Value> unitLoops = kernel.rowLoopsAt(j);
    SmallVector<SmallVector<Value>> lanes(member.getNumDpsInits());
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> loops = laneLoopsAt(j, lane);
      SmallVector<Value> arguments =
          inputArguments(member, unitLoops, loops, lane, slot);
      for (OpOperand &out : member.getDpsInitsMutable())
        arguments.push_back(initArgument(b, member, out, loops));
      for (auto [i, result] :
           llvm::enumerate(emitBody(b, member, arguments, loops)))
        lanes[i].push_back(result);
    }
    OpBuilder::InsertionGuard insertion(b);
    if (inRow)
      b.setInsertionPointToStart(
          &scf::IfOp::create(b, inRow, /*withElseRegion=*/false)
               .getThenRegion()
               .front());
    for (auto [out, values] : llvm::zip(member.getDpsInitsMutable(), lanes)) {
      if (width == 1) {
        storeOperand(b, member, out, values.front(), unitLoops);
        continue;
      }
      auto type = VectorType::get({width}, getElementTypeOrSelf(out.get()));
      vector::StoreOp::create(
          b, vector::FromElementsOp::create(b, type, values), out.get(),
          applyMap(b, member.getMatchingIndexingMap(&out), unitLoops),
          /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes));
    }
    if (slot < 0)
      cachedLoads.clear();
    return SmallVector<Value>{};
  });
}

/// A per-row member: computed by every thread (it is cheap), stored by one.
void MemberCode::emitPerRow(linalg::GenericOp member) {
  SmallVector<Value> loops = kernel.rowLoopsAt(Value());
  // A per-row op of the group's rank runs its unit loops at 0.
  loops.resize(member.getNumLoops(), kernel.zero);
  SmallVector<Value> arguments;
  for (OpOperand *input : member.getDpsInputOperands()) {
    auto it = rowValues.find(input->get());
    arguments.push_back(it != rowValues.end()
                            ? it->second
                            : loadOperand(b, member, *input, loops));
  }
  for (OpOperand &out : member.getDpsInitsMutable())
    arguments.push_back(initArgument(b, member, out, loops));
  SmallVector<Value> results = emitBody(b, member, arguments, loops);
  for (auto [out, result] : llvm::zip(member.getDpsInitsMutable(), results)) {
    rowValues[out.get()] = result;
    if (kernel.mustStore(out.get()))
      kernel.storeFromFirstThread(member, out, result, loops);
  }
}

} // namespace

KernelSummary emitRowGroupKernel(RowGroup &group, StringRef name) {
  return RowGroupKernel(group).emit(name);
}

} // namespace mlir::cudnn_mlir::codegen
