//===- MultiValueReduction.h - the emitter of multi-value reductions -*- C++ -*-===//
//
// What the kernels of multi-value reductions (MultiValueReductionKernel.cpp)
// share across the files of this folder: the constants of both thread
// mappings, the partial state and how it merges, the Emitter (loop
// coordinates, the per-element step, the final store and the merge
// kernels; MultiValueEmitter.cpp), the unrolled loop trip, the column
// block, and the follower (the elementwise op a reduction's kernel runs as
// well). Planes are in MultiValuePlanes.cpp, columns in
// MultiValueColumns.cpp, the follower analysis in MultiValueFollowers.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CODEGEN_MULTIVALUE_MULTIVALUEREDUCTION_H
#define CUDNN_MLIR_LIB_CODEGEN_MULTIVALUE_MULTIVALUEREDUCTION_H

#include "../Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <optional>

namespace mlir::cudnn_mlir::codegen::multivalue {

inline constexpr int64_t kMaxPlaneThreads = 512;
inline constexpr int64_t kMinPlaneThreads = 128;
inline constexpr int64_t kPlaneValuesPerThread = 64; // below: fewer threads
inline constexpr int64_t kColumnBlockThreads = 512;
inline constexpr int64_t kMaxColumnThreads = 32; // threads along the outputs
// Partial states per column in a column block's shared memory: 16 of the
// 64 rows of an 8-thread-wide block fold in four groups, which leaves a
// grid-sync kernel room for one more trip of x in shared memory.
inline constexpr int64_t kColumnScratchRows = 16;
// Blocks to aim for when splitting a reduction (H100: 132 SMs). Measured
// on the H100 with the batch-norm benchmark: planes do best with two waves
// of 512-thread blocks (f32 256x64x56x56: 94.6 us against 104 us with one),
// columns with one (their 8-lane blocks fit two per SM; f16 32x256x56x56:
// 31.0 + 7.6 us merge against 33.7 + 11.9 us with two).
inline constexpr int64_t kPlaneTargetBlocks = 132 * 4;
// A planes reduction with at least this many outputs (a block each fills
// an H100's 132 multiprocessors) runs the elementwise op after it in the
// same kernel, each block normalising its own output's plane.
inline constexpr int64_t kMinOutputsForPlaneFollower = 132;
inline constexpr int64_t kColumnTargetBlocks = 132 * 2;
// A grid-sync kernel needs a row of its column blocks resident at once
// wherever it runs (the runtime lowers only grid.y): at most this many,
// which two blocks per multiprocessor fit on any GPU with 16 or more.
// Wider reductions (more than 8192 f16 or 4096 f32 channels) keep their
// separate kernels.
inline constexpr int64_t kMaxGridSyncColumnBlocks = 32;
inline constexpr int64_t kMinPerThread = 8;
inline constexpr int64_t kUnroll = 4; // positions per loop trip
inline constexpr int64_t kScalarLanes = 4; // lanes of a thread without vectors
inline constexpr int64_t kCombineThreads = 256; // per block of the merge kernel
// Measured on the H100 (batch-norm benchmark): a warp per output merges up
// to 64 partial states fastest (2048 outputs x 33: 5.2 us against 7.3 with a
// block each); above, a block per output (64 outputs x 264: 3.5 us against
// 7.0 with a warp each).
inline constexpr int64_t kWarpMergeSplit = 64;
inline constexpr int64_t kSharedMemoryBytes = 48 * 1024;
// Threads each multiprocessor must hold at once (half of an H100's 2048):
// the columns' block count assumes two 512-thread blocks per
// multiprocessor, which ptxas only leaves room for when told
// (nvvm.minctasm). Without it the f16 column kernel of 256x2048x7x7 got 76
// registers, one block per multiprocessor: 31.0 us against 27.6 us (H100,
// 2026-11-25). The plane kernels are not marked: they stay under 64
// registers, and a mark only lets ptxas take more (48 -> 64 for 7x7
// planes of 128 threads, fewer blocks per multiprocessor).
inline constexpr int64_t kMinThreadsPerMultiprocessor = 1024;

/// The blocks of `threads` threads each multiprocessor must hold at once.
inline int64_t minBlocksPerMultiprocessor(int64_t threads) {
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

  /// The state that merges as the identity.
  State empty(ImplicitLocOpBuilder &b) const;
  State merge(ImplicitLocOpBuilder &b, const State &lhs,
              const State &rhs) const;
};

/// Merges the states of a warp's 32 lanes (XOR shuffles); every lane ends
/// with the warp's state.
State warpMerge(ImplicitLocOpBuilder &b, const StateMerge &merger,
                State state);

inline ValueRange asRange(const State &state) { return ValueRange(state); }

/// Merges the states of a block's `threads` threads (`thread` is the
/// linear thread id, a multiple of 32 threads): within each warp by
/// shuffles, then one state per warp through `shared` (32 slots per state
/// value), merged by every warp. Every thread ends with the block's state.
State blockMerge(ImplicitLocOpBuilder &b, const StateMerge &merger,
                 State state, ArrayRef<BlockArgument> shared, Value thread,
                 int64_t threads);

/// What both mappings share: loop coordinates, the per-element step through
/// the op's body, the state the fills start the outputs with, and the
/// final store or the partial states of a split reduction
/// (MultiValueEmitter.cpp).
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
  static bool countStepsInLockstep(linalg::GenericOp op);

  size_t stateSize() const { return merger.types.size(); }

  /// Lane `l`'s state in the flat lane layout `lanes`.
  State lane(ArrayRef<Value> lanes, int64_t l) const;
  /// The flat lane layout of `states`, one per lane.
  SmallVector<Value> packLanes(ArrayRef<State> states) const;
  SmallVector<Value> emptyLanes(int64_t width);

  /// Merges `width` lanes into one state, pairwise.
  State collapseLanes(ArrayRef<Value> lanes, int64_t width);

  SmallVector<Value> loopsAt(Value output, Value reduced) {
    return ReductionSpace::loopsAt(b, output, reduced);
  }

  /// The outputs' starting state: their fills' values, or what they hold.
  State initialState(Value output);

  /// Stores output `output`'s final state, then runs the epilogue for that
  /// element (it reads what this thread just stored).
  void storeFinal(Value output, const State &state);

  /// Per-block partial states, [split x outputs] per value.
  SmallVector<Value> allocatePartials(int64_t split);

  void storePartial(ArrayRef<Value> partials, Value part, Value output,
                    const State &state);

  /// The second kernel merges each output's partial states: a warp per
  /// output (8 outputs per block) where there are at most kWarpMergeSplit,
  /// otherwise a block of up to kCombineThreads threads per output, merged
  /// by blockMerge. Thread t takes the states of blocks t, t + threads, ...
  /// (their loads first); the order is fixed. The first thread stores the
  /// result.
  KernelSummary emitCombine(ArrayRef<Value> partials, int64_t split,
                            StringRef name);

  /// In a grid-sync kernel, after the blocks stored their `split` partial
  /// states per output and met at a grid barrier: merges each output's
  /// states and stores the final one (running the epilogue). The outputs go
  /// round the merge units, a warp each (`warpPerOutput`) or a block each
  /// (merged through blockMerge and `shared`); `thread` is the block's
  /// linear thread id. Every member takes states member, member + members,
  /// ... in a fixed order, so the result does not depend on timing.
  void emitGridMerge(ArrayRef<Value> partials, Value split, Value blockLinear,
                     Value blocks, Value thread, int64_t blockThreads,
                     bool warpPerOutput, ArrayRef<BlockArgument> shared);

  /// One shared-memory array of `shape` per state value.
  SmallVector<Type> scratchArrays(ArrayRef<int64_t> shape);

  /// "Welford" or "reduction of N values", for kernel summaries.
  std::string describe() const;

  /// Stores output `output`'s state: the final one, or block `part`'s
  /// partial state when the reduction is split (`partials` not empty).
  void storeState(ArrayRef<Value> partials, Value part, Value output,
                  const State &state);

  /// The summary of the first kernel (`mapping`: "planes" or "columns",
  /// with `details`, lanes when `width` > 1), then, where the reduction is
  /// split (`partials` not empty), the merge kernel, emitted here.
  SmallVector<KernelSummary> finish(StringRef name, StringRef mapping,
                                    const std::string &details, int64_t width,
                                    ArrayRef<Value> partials);
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

/// A loop over the trips of a thread whose first item is `first` through
/// the items below `end`, `tripStep` apart, the newest trip first (a
/// follower reads what the statistics read last while it may still be in
/// L2). Sets the builder inside the loop (the caller restores it) and
/// returns the trip's number (0 for the thread's first) and its first item.
std::pair<Value, Value> newestTripFirst(ImplicitLocOpBuilder &b, Value first,
                                        Value end, Value tripStep);

/// The innermost reduced loop, and the number of its consecutive positions
/// the planes mapping reads as one vector (1 when it reads none).
std::pair<unsigned, int64_t> planeVectorWidth(const Emitter &e);

/// True when the first input's innermost memory dimension is indexed by a
/// parallel loop (the statistics are per column of memory).
bool readsColumns(linalg::GenericOp op);

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
                                      Value output);

/// The follower `e`'s kernel can run after its reduction and `epilogue`:
/// one grid-sync kernel for columns, per output for planes.
std::optional<Follower> analyzeFollower(const Emitter &e,
                                        linalg::GenericOp epilogue);

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

/// Shared memory for one partial state per slot and lane.
int64_t columnScratchBytes(const Emitter &e, const ColumnBlock &block);

/// Outputs per thread for the columns mapping with vector loads.
ColumnBlock columnBlockFor(const Emitter &e);

/// The planes mapping (MultiValuePlanes.cpp).
SmallVector<KernelSummary> emitPlanes(Emitter &e, StringRef name,
                                      const Follower *follower);

/// The columns mapping (MultiValueColumns.cpp).
SmallVector<KernelSummary> emitColumns(Emitter &e, StringRef name,
                                       const ColumnBlock &block,
                                       const Follower *follower);

} // namespace mlir::cudnn_mlir::codegen::multivalue

#endif // CUDNN_MLIR_LIB_CODEGEN_MULTIVALUE_MULTIVALUEREDUCTION_H
