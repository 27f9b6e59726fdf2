//===- KernelBuilder.h - pieces every generated kernel is made of -*- C++ -*-===//
//
// Index arithmetic, loads and stores through a linalg op's indexing maps, the
// op's body cloned at one iteration point, block-wide reductions, and the
// launch itself. The strategies (ElementwiseKernel.cpp, ...) compose these.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CODEGEN_KERNELBUILDER_H
#define CUDNN_MLIR_LIB_CODEGEN_KERNELBUILDER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::cudnn_mlir::codegen {

/// An `index` constant.
Value indexConstant(ImplicitLocOpBuilder &b, int64_t value);

/// Splits `linear` into row-major coordinates of `sizes` (static).
SmallVector<Value> delinearize(ImplicitLocOpBuilder &b, Value linear,
                               ArrayRef<int64_t> sizes);

/// The results of `map` at the loop coordinates `loops`, as index values.
SmallVector<Value> applyMap(ImplicitLocOpBuilder &b, AffineMap map,
                            ValueRange loops);

/// Loads the element of `operand` (a buffer or a scalar) the op reads at
/// loop coordinates `loops`. A scalar operand is returned as it is.
Value loadOperand(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                  OpOperand &operand, ValueRange loops);

/// Stores `value` into the output `operand` at loop coordinates `loops`.
void storeOperand(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                  OpOperand &operand, Value value, ValueRange loops);

/// The body argument of output `init` at loop coordinates `loops`: its
/// current value if the body reads it, otherwise a zero that nothing uses.
Value initArgument(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                   OpOperand &init, ValueRange loops);

/// Clones the op's body at one iteration point: block arguments take
/// `arguments` (inputs then outputs), `linalg.index d` takes `loops[d]`.
/// Returns the yielded values.
SmallVector<Value> emitBody(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                            ValueRange arguments, ValueRange loops);

/// Bytes per vector access of generated kernels.
constexpr int64_t kVectorBytes = 16;

/// How the lanes of a thread that handles consecutive positions of loop
/// `dim` access an operand: a scalar operand, one element for all lanes
/// (the map does not use `dim`), one contiguous vector (`dim` indexes the
/// innermost dimension of an identity-layout buffer, and nothing else), or
/// anything else.
enum class LaneAccess { Scalar, Uniform, Vector, Other };
LaneAccess classifyLaneAccess(linalg::GenericOp op, OpOperand &operand,
                              unsigned dim);

/// Lanes per vector access for elements of `widestBytes` bytes (at most 8;
/// 1 if none fits).
int64_t vectorWidthFor(int64_t widestBytes);

/// An i1 that is true when every buffer's base pointer is aligned for
/// vector accesses; buffers aligned by construction (views of aligned
/// allocations) are not tested, so the i1 is the constant true when all
/// are, and canonicalization drops the scalar code.
Value allVectorAligned(ImplicitLocOpBuilder &b, ArrayRef<Value> buffers);

/// The memory dimension of `operand` that loop `dim` runs along with unit
/// stride, when `dim` indexes exactly that one dimension of a buffer with
/// static strides: consecutive `dim` positions are consecutive elements.
std::optional<unsigned> unitStrideDim(linalg::GenericOp op, OpOperand &operand,
                                      unsigned dim);
/// The same for `buffer` read through `map` (from some op's loops).
std::optional<unsigned> unitStrideDim(Value buffer, AffineMap map,
                                      unsigned dim);

/// True when `operand`'s vectors of `width` elements along its unit-stride
/// dimension `dim` start 16-byte aligned whenever the buffer does: every
/// other stride and the offset are multiples of `width`.
bool vectorsStayAligned(Value buffer, unsigned dim, int64_t width);

/// The buffer and indices for a vector access to `operand` at loop
/// coordinates `loops` along its unit-stride memory dimension `dim`: the
/// buffer itself when `dim` is its last dimension, otherwise a transposed
/// view whose last dimension `dim` is (channels-last buffers).
std::pair<Value, SmallVector<Value>>
vectorViewAt(ImplicitLocOpBuilder &b, linalg::GenericOp op, OpOperand &operand,
             unsigned dim, ValueRange loops);

/// Creates `gpu.launch` with a 1-D grid and the given block, named
/// `kernelName` for outlining, and sets the builder inside its body.
///
/// With `minBlocksPerMultiprocessor` > 0 the launch is marked
/// `nvvm.minctasm`: ptxas then keeps the kernel's registers low enough for
/// that many blocks per multiprocessor (codegen-outline-kernels carries the
/// mark to the kernel).
///
/// `gridY` blocks along y and `dynamicSharedBytes` of dynamic shared memory
/// (gpu.dynamic_shared_memory) are for kernels that need them.
gpu::LaunchOp createLaunch(ImplicitLocOpBuilder &b, int64_t gridSize,
                           ArrayRef<int64_t> blockSize,
                           TypeRange workgroupBuffers, StringRef kernelName,
                           int64_t minBlocksPerMultiprocessor = 0,
                           int64_t gridY = 1, int64_t dynamicSharedBytes = 0);

/// The suffix of a kernel that waits at grid-wide barriers: the runtime
/// launches it cooperatively (all blocks resident at once) and may lower
/// its grid's y size to the blocks the device holds at once, so such a
/// kernel must work for any gridDim.y.
constexpr llvm::StringLiteral kGridSyncSuffix = "_grid_sync";

/// A barrier across every block of the grid (inside a launch named with
/// kGridSyncSuffix): the block's threads meet, its first thread arrives at
/// the driver's grid workspace (%envreg1:%envreg2, high:low; set for cooperative launches)
/// with release semantics and spins with acquire loads until the
/// barrier's top bit flips, then the block's threads meet again: what any
/// thread wrote before is visible to every thread after. The same
/// protocol as CUDA's cooperative_groups grid.sync().
void emitGridBarrier(ImplicitLocOpBuilder &b);

/// A reduction's iteration space as two linear indices: the output (over
/// the parallel loops, row-major) and the position among the reduced loops.
struct ReductionSpace {
  explicit ReductionSpace(linalg::GenericOp op);

  /// Loop coordinates for output `output` at reduced position `reduced`
  /// (null: the reduced loops at 0).
  SmallVector<Value> loopsAt(ImplicitLocOpBuilder &b, Value output,
                             Value reduced) const;

  /// The loop coordinates of the next reduced position (row-major over the
  /// reduced loops) after those in `loops`, by carrying from the innermost
  /// reduced loop outwards instead of dividing a linear index again; the
  /// parallel loops stay. The next position must exist.
  SmallVector<Value> nextReduced(ImplicitLocOpBuilder &b,
                                 ArrayRef<Value> loops) const;

  /// The element stride of `operand`'s buffer per step of the linear
  /// reduced position, when the reduced loops are row-major in its memory
  /// (each indexes one buffer dimension of its own, and each stride is the
  /// next inner one's times that loop's size; NHWC's n, h, w): the reduced
  /// position's share of the element offset is then that stride times the
  /// position, and no coordinate needs dividing out. Static strides only.
  std::optional<int64_t> linearReducedStride(linalg::GenericOp op,
                                             OpOperand &operand) const;
  /// The same for `buffer` read through `map` (from the reduction's loops).
  std::optional<int64_t> linearReducedStride(Value buffer,
                                             AffineMap map) const;

  SmallVector<utils::IteratorType> iterators;
  SmallVector<int64_t> parallelSizes, reducedSizes;
  int64_t numOutputs = 1, numReduced = 1;
};

/// `buffer` (static strides and offset) as a 1-D memref from its first
/// element on, for loads at element offsets computed from its strides.
Value linearElementView(ImplicitLocOpBuilder &b, Value buffer);

/// Launches one thread per element of `count` (blocks of 256) and sets the
/// builder inside `if (element < count)`; returns the element's index.
Value createElementLaunch(ImplicitLocOpBuilder &b, int64_t count,
                          StringRef kernelName);

/// The reduction step of a generic with one output whose body is
/// `acc' = combiner(acc, f(inputs))` with a combiner that has a neutral
/// element (add, mul, max, min, and, or, xor).
struct Combiner {
  Operation *op = nullptr;   // the combining op in the body
  unsigned accOperand = 0;   // which of its operands is the accumulator
  TypedAttr neutral;         // its neutral element
};
std::optional<Combiner> matchCombiner(linalg::GenericOp op);

/// The combiners of a reduction with several outputs, each yielded value
/// `combiner_i(acc_i, f_i(inputs))` with acc_i used only there.
std::optional<SmallVector<Combiner>> matchCombiners(linalg::GenericOp op);

/// combiner(lhs, rhs), a clone of the body's combining op.
Value combine(ImplicitLocOpBuilder &b, const Combiner &combiner, Value lhs,
              Value rhs);

/// Combines `value` across the threads of a block of `blockSize` threads
/// (a multiple of 32) with warp shuffles and the `scratch` workgroup buffer
/// (one f32/f64/i32/i64 slot per warp); every thread gets the total. Values
/// narrower than 32 bits travel widened. A `blockSize` of 32 or less (a
/// power of two) combines each aligned segment of that many lanes of a warp
/// with shuffles alone: several rows of a block, one per segment.
Value blockReduce(ImplicitLocOpBuilder &b, const Combiner &combiner,
                  Value value, Value threadId, int64_t blockSize,
                  Value scratch);

/// The type a value of `type` is shuffled and staged as.
Type shuffleType(Type type);

/// `value` converted to shuffleType(value's type), and back to `type`.
Value widenForShuffle(ImplicitLocOpBuilder &b, Value value);
Value narrowFromShuffle(ImplicitLocOpBuilder &b, Value value, Type type);

/// The value a reduction output starts from: the constant a
/// `linalg.fill`-like generic wrote into it just before (that fill is then
/// redundant), if there is one.
struct ReductionInit {
  Value value;                        // the fill value, or null
  linalg::GenericOp fill;             // the fill it came from
};
ReductionInit findFillInit(linalg::GenericOp reduction, unsigned output = 0);

/// True for an all-parallel generic that only writes one value (a scalar
/// input or a constant) into its output.
bool isFill(linalg::GenericOp op);

} // namespace mlir::cudnn_mlir::codegen

#endif // CUDNN_MLIR_LIB_CODEGEN_KERNELBUILDER_H
