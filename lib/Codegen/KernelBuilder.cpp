//===- KernelBuilder.cpp - pieces every generated kernel is made of -------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

Value indexConstant(ImplicitLocOpBuilder &b, int64_t value) {
  return arith::ConstantIndexOp::create(b, value);
}

namespace {

/// Arithmetic on loop coordinates: in 32 bits where they stay below 2^31
/// (GPUs have 32-bit integer units; 64-bit ones are emulated), otherwise
/// on `index`. `toCoordinate` and `toIndex` move values between the two.
struct CoordinateArith {
  ImplicitLocOpBuilder &b;
  bool narrow;

  Type type() const {
    return narrow ? Type(b.getI32Type()) : Type(b.getIndexType());
  }
  Value constant(int64_t value) const {
    return arith::ConstantOp::create(b, b.getIntegerAttr(type(), value));
  }
  Value toCoordinate(Value index) const {
    return narrow ? Value(arith::IndexCastUIOp::create(b, type(), index))
                  : index;
  }
  Value toIndex(Value coordinate) const {
    return narrow ? Value(arith::IndexCastUIOp::create(b, b.getIndexType(),
                                                       coordinate))
                  : coordinate;
  }
};

constexpr int64_t kNarrowExtent = int64_t(1) << 31;

} // namespace

SmallVector<Value> delinearize(ImplicitLocOpBuilder &b, Value linear,
                               ArrayRef<int64_t> sizes) {
  SmallVector<Value> coords(sizes.size());
  if (sizes.empty())
    return coords;
  // Below 2^31 elements the divisions (by constants: a multiply-high each)
  // are done in 32 bits.
  int64_t extent = 1;
  for (int64_t size : sizes)
    extent = extent > kNarrowExtent ? extent : extent * size;
  CoordinateArith math{b, extent < kNarrowExtent && sizes.size() > 1};
  Value current = math.toCoordinate(linear);
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    if (i == 0) {
      coords[i] = current;
      break;
    }
    Value size = math.constant(sizes[i]);
    coords[i] = arith::RemUIOp::create(b, current, size);
    current = arith::DivUIOp::create(b, current, size);
  }
  for (Value &coord : coords)
    coord = math.toIndex(coord);
  return coords;
}

SmallVector<Value> applyMap(ImplicitLocOpBuilder &b, AffineMap map,
                            ValueRange loops) {
  SmallVector<Value> results;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      results.push_back(loops[dim.getPosition()]);
    else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      results.push_back(indexConstant(b, constant.getValue()));
    else
      results.push_back(
          affine::expandAffineExpr(b, b.getLoc(), expr, loops, ValueRange{}));
  }
  return results;
}

Value loadOperand(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                  OpOperand &operand, ValueRange loops) {
  Value source = operand.get();
  if (!isa<MemRefType>(source.getType()))
    return source;
  SmallVector<Value> indices =
      applyMap(b, op.getMatchingIndexingMap(&operand), loops);
  return memref::LoadOp::create(b, source, indices);
}

void storeOperand(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                  OpOperand &operand, Value value, ValueRange loops) {
  SmallVector<Value> indices =
      applyMap(b, op.getMatchingIndexingMap(&operand), loops);
  memref::StoreOp::create(b, value, operand.get(), indices);
}

Value initArgument(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                   OpOperand &init, ValueRange loops) {
  if (op.payloadUsesValueFromOperand(&init))
    return loadOperand(b, op, init, loops);
  return arith::ConstantOp::create(
      b, b.getZeroAttr(getElementTypeOrSelf(init.get())));
}

SmallVector<Value> emitBody(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                            ValueRange arguments, ValueRange loops) {
  Block &body = op.getRegion().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), arguments);
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> yielded;
  for (Value value : body.getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

LaneAccess classifyLaneAccess(linalg::GenericOp op, OpOperand &operand,
                              unsigned dim) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (!type)
    return LaneAccess::Scalar;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isFunctionOfDim(dim))
    return LaneAccess::Uniform;
  if (map.getNumResults() == 0 || !type.getLayout().isIdentity() ||
      map.getResults().back() != getAffineDimExpr(dim, op.getContext()))
    return LaneAccess::Other;
  for (AffineExpr expr : map.getResults().drop_back())
    if (expr.isFunctionOfDim(dim))
      return LaneAccess::Other;
  return LaneAccess::Vector;
}

int64_t vectorWidthFor(int64_t widestBytes) {
  if (widestBytes <= 0)
    return 1;
  int64_t width = std::min<int64_t>(kVectorBytes / widestBytes, 8);
  return width < 2 ? 1 : width;
}

/// Whether `buffer`'s aligned pointer is a multiple of kVectorBytes by
/// construction: a view that keeps its source's aligned pointer (a
/// subview, reshape or reinterpret_cast; their offsets are checked where
/// the vector width is chosen) of an allocation aligned at least that
/// much. Device allocations are 256-byte aligned, and the temporaries
/// cudnn-pack-temporaries packs later keep 256-byte offsets.
static bool alignedByConstruction(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return alloc.getAlignment().value_or(0) >= kVectorBytes;
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::ReinterpretCastOp>(def))
      return false;
    buffer = def->getOperand(0);
  }
  return false;
}

Value allVectorAligned(ImplicitLocOpBuilder &b, ArrayRef<Value> buffers) {
  Value aligned = arith::ConstantIntOp::create(b, 1, 1);
  Value bytes = indexConstant(b, kVectorBytes);
  Value zero = indexConstant(b, 0);
  for (Value buffer : buffers) {
    if (alignedByConstruction(buffer))
      continue;
    Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, buffer);
    Value isAligned = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, arith::RemUIOp::create(b, pointer, bytes),
        zero);
    aligned = arith::AndIOp::create(b, aligned, isAligned);
  }
  return aligned;
}

namespace {
/// A buffer dimension that loop `dim` alone indexes (the map's only result
/// using `dim`, and that result is `dim` itself), with its stride.
struct IndexedDim {
  unsigned position;
  int64_t stride;
};
} // namespace

/// The dimension of `buffer` (static strides and offset), read through
/// `map`, that loop `dim` indexes, if it indexes exactly one, directly.
static std::optional<IndexedDim> indexedDim(Value buffer, AffineMap map,
                                            unsigned dim) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type)
    return std::nullopt;
  auto [strides, offset] = type.getStridesAndOffset();
  if (ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  std::optional<unsigned> found;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(dim))
      continue;
    if (found || expr != getAffineDimExpr(dim, map.getContext()))
      return std::nullopt;
    found = position;
  }
  if (!found)
    return std::nullopt;
  return IndexedDim{*found, strides[*found]};
}

static std::optional<IndexedDim>
indexedDim(linalg::GenericOp op, OpOperand &operand, unsigned dim) {
  return indexedDim(operand.get(), op.getMatchingIndexingMap(&operand), dim);
}

std::optional<unsigned> unitStrideDim(linalg::GenericOp op, OpOperand &operand,
                                      unsigned dim) {
  return unitStrideDim(operand.get(), op.getMatchingIndexingMap(&operand),
                       dim);
}

std::optional<unsigned> unitStrideDim(Value buffer, AffineMap map,
                                      unsigned dim) {
  std::optional<IndexedDim> indexed = indexedDim(buffer, map, dim);
  if (!indexed || indexed->stride != 1)
    return std::nullopt;
  return indexed->position;
}

bool vectorsStayAligned(Value buffer, unsigned dim, int64_t width) {
  auto type = cast<MemRefType>(buffer.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  if (offset % width != 0 || type.getDimSize(dim) % width != 0)
    return false;
  for (auto [position, stride] : llvm::enumerate(strides))
    if (position != dim && stride % width != 0)
      return false;
  return true;
}

std::pair<Value, SmallVector<Value>>
vectorViewAt(ImplicitLocOpBuilder &b, linalg::GenericOp op, OpOperand &operand,
             unsigned dim, ValueRange loops) {
  SmallVector<Value> indices =
      applyMap(b, op.getMatchingIndexingMap(&operand), loops);
  auto type = cast<MemRefType>(operand.get().getType());
  unsigned rank = type.getRank();
  if (dim == rank - 1)
    return {operand.get(), indices};
  SmallVector<unsigned> permutation;
  for (unsigned d = 0; d < rank; ++d)
    if (d != dim)
      permutation.push_back(d);
  permutation.push_back(dim);
  AffineMap map = AffineMap::getPermutationMap(permutation, b.getContext());
  Value view =
      memref::TransposeOp::create(b, operand.get(), AffineMapAttr::get(map));
  SmallVector<Value> permuted;
  for (unsigned d : permutation)
    permuted.push_back(indices[d]);
  return {view, permuted};
}

gpu::LaunchOp createLaunch(ImplicitLocOpBuilder &b, int64_t gridSize,
                           ArrayRef<int64_t> blockSize,
                           TypeRange workgroupBuffers, StringRef kernelName,
                           int64_t minBlocksPerMultiprocessor, int64_t gridY,
                           int64_t dynamicSharedBytes) {
  Value one = indexConstant(b, 1);
  Value grid = indexConstant(b, gridSize);
  SmallVector<Value, 3> block;
  for (int64_t i = 0; i < 3; ++i)
    block.push_back(i < static_cast<int64_t>(blockSize.size())
                        ? indexConstant(b, blockSize[i])
                        : one);
  auto launch = gpu::LaunchOp::create(
      b, b.getLoc(), grid, indexConstant(b, gridY), one, block[0], block[1],
      block[2],
      dynamicSharedBytes > 0
          ? Value(arith::ConstantOp::create(
                b, b.getI32IntegerAttr(static_cast<int32_t>(dynamicSharedBytes))))
          : Value(),
      /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupBuffers, /*privateAttributions=*/{},
      nullptr, nullptr, nullptr, /*module=*/nullptr,
      FlatSymbolRefAttr::get(b.getContext(), kernelName));
  if (minBlocksPerMultiprocessor > 0)
    launch->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(minBlocksPerMultiprocessor));
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(b);
  b.setInsertionPoint(terminator);
  return launch;
}

Value createElementLaunch(ImplicitLocOpBuilder &b, int64_t count,
                          StringRef kernelName) {
  constexpr int64_t blockSize = 256;
  gpu::LaunchOp launch = createLaunch(
      b, (count + blockSize - 1) / blockSize, {blockSize}, {}, kernelName);
  Value element = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, launch.getBlockIds().x,
                            indexConstant(b, blockSize)),
      launch.getThreadIds().x);
  auto guard = scf::IfOp::create(
      b,
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, element,
                            indexConstant(b, count)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  return element;
}

/// One PTX instruction with side effects and a memory clobber.
static Value inlinePtx(ImplicitLocOpBuilder &b, Type result, ValueRange operands,
                       StringRef ptx, StringRef constraints) {
  return LLVM::InlineAsmOp::create(
             b, result ? TypeRange{result} : TypeRange{}, operands, ptx,
             constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

void emitGridBarrier(ImplicitLocOpBuilder &b) {
  gpu::BarrierOp::create(b);
  auto isZero = [&](gpu::Dimension dim, bool block) -> Value {
    Value id = block ? Value(gpu::BlockIdOp::create(b, dim))
                     : Value(gpu::ThreadIdOp::create(b, dim));
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, id,
                                 indexConstant(b, 0));
  };
  auto all = [&](bool block) {
    return arith::AndIOp::create(
        b, isZero(gpu::Dimension::x, block),
        arith::AndIOp::create(b, isZero(gpu::Dimension::y, block),
                              isZero(gpu::Dimension::z, block)));
  };
  auto master = scf::IfOp::create(b, all(/*block=*/false), false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&master.getThenRegion().front());
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto envreg = [&](int n) {
      return arith::ExtUIOp::create(
          b, i64,
          inlinePtx(b, i32, {}, "mov.u32 $0, %envreg" + std::to_string(n) + ";",
                    "=r"));
    };
    // The workspace's {u32 size; u32 barrier}, its address's high half in
    // %envreg1 and low half in %envreg2: the barrier at byte 4.
    Value workspace = arith::OrIOp::create(
        b, envreg(2),
        arith::ShLIOp::create(b, envreg(1),
                              arith::ConstantOp::create(
                                  b, b.getI64IntegerAttr(32))));
    Value barrier = arith::AddIOp::create(
        b, workspace, arith::ConstantOp::create(b, b.getI64IntegerAttr(4)));
    Value blocks = indexConstant(b, 1);
    for (gpu::Dimension dim :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      blocks = arith::MulIOp::create(b, blocks, gpu::GridDimOp::create(b, dim));
    Value expected = arith::IndexCastOp::create(b, i32, blocks);
    // Block 0 adds 2^31 - (blocks - 1), the others 1: the sum flips bit 31.
    Value one = arith::ConstantOp::create(b, b.getI32IntegerAttr(1));
    Value top = arith::ConstantOp::create(
        b, b.getI32IntegerAttr(static_cast<int32_t>(0x80000000u)));
    Value firstAdds = arith::SubIOp::create(
        b, top, arith::SubIOp::create(b, expected, one));
    Value add =
        arith::SelectOp::create(b, all(/*block=*/true), firstAdds, one);
    Value old = inlinePtx(b, i32, {barrier, add},
                          "atom.add.release.gpu.u32 $0, [$1], $2;",
                          "=r,l,r,~{memory}");
    auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    {
      Block *before = b.createBlock(&spin.getBefore());
      Value now = inlinePtx(b, i32, {barrier}, "ld.acquire.gpu.u32 $0, [$1];",
                            "=r,l,~{memory}");
      Value flipped = arith::AndIOp::create(
          b, arith::XOrIOp::create(b, old, now), top);
      Value waiting = arith::CmpIOp::create(
          b, arith::CmpIPredicate::eq, flipped,
          arith::ConstantOp::create(b, b.getI32IntegerAttr(0)));
      scf::ConditionOp::create(b, waiting, ValueRange{});
      (void)before;
      Block *after = b.createBlock(&spin.getAfter());
      scf::YieldOp::create(b, ValueRange{});
      (void)after;
    }
  }
  b.setInsertionPointAfter(master);
  gpu::BarrierOp::create(b);
}

ReductionSpace::ReductionSpace(linalg::GenericOp op)
    : iterators(op.getIteratorTypesArray()) {
  for (auto [size, iterator] : llvm::zip(op.getStaticLoopRanges(), iterators)) {
    if (iterator == utils::IteratorType::parallel) {
      parallelSizes.push_back(size);
      numOutputs *= size;
    } else {
      reducedSizes.push_back(size);
      numReduced *= size;
    }
  }
}

SmallVector<Value> ReductionSpace::loopsAt(ImplicitLocOpBuilder &b,
                                           Value output, Value reduced) const {
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

SmallVector<Value> ReductionSpace::nextReduced(ImplicitLocOpBuilder &b,
                                               ArrayRef<Value> loops) const {
  SmallVector<unsigned> reduced;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      reduced.push_back(dim);
  SmallVector<Value> next(loops);
  // An increment, a compare and a select per loop, where delinearize costs
  // a multiply-high and a remainder per loop.
  CoordinateArith math{b, numReduced < kNarrowExtent};
  Value carry; // null: the innermost loop always steps
  for (size_t i = reduced.size(); i-- > 0;) {
    unsigned dim = reduced[i];
    Value current = math.toCoordinate(loops[dim]);
    Value stepped = arith::AddIOp::create(b, current, math.constant(1));
    if (carry)
      stepped = arith::SelectOp::create(b, carry, stepped, current);
    if (i == 0) {
      next[dim] = math.toIndex(stepped);
      break;
    }
    Value wraps = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, stepped,
                                        math.constant(reducedSizes[i]));
    next[dim] = math.toIndex(
        arith::SelectOp::create(b, wraps, math.constant(0), stepped));
    carry = wraps;
  }
  return next;
}

std::optional<int64_t>
ReductionSpace::linearReducedStride(linalg::GenericOp op,
                                    OpOperand &operand) const {
  return linearReducedStride(operand.get(), op.getMatchingIndexingMap(&operand));
}

std::optional<int64_t> ReductionSpace::linearReducedStride(Value buffer,
                                                           AffineMap map) const {
  // The stride of the buffer dimension each reduced loop indexes, the
  // innermost loop last.
  SmallVector<int64_t> reducedStrides;
  for (auto [dim, iterator] : llvm::enumerate(iterators)) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    std::optional<IndexedDim> indexed = indexedDim(buffer, map, dim);
    if (!indexed)
      return std::nullopt;
    reducedStrides.push_back(indexed->stride);
  }
  if (reducedStrides.empty())
    return std::nullopt;
  for (size_t i = 0; i + 1 < reducedStrides.size(); ++i)
    if (reducedStrides[i] != reducedStrides[i + 1] * reducedSizes[i + 1])
      return std::nullopt;
  return reducedStrides.back();
}

Value linearElementView(ImplicitLocOpBuilder &b, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  int64_t extent = 1; // one past the last element's offset
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    extent += (size - 1) * stride;
  auto flat = MemRefType::get(
      {extent}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), offset, {1}),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, flat, buffer, offset,
                                           ArrayRef<int64_t>{extent},
                                           ArrayRef<int64_t>{1});
}

/// The combiner of output `index`: its yielded value must be
/// combiner(acc, other) with acc that output's block argument, used once.
static std::optional<Combiner> matchOutputCombiner(linalg::GenericOp op,
                                                   unsigned index) {
  Block &body = op.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(index);
  Operation *combining = yielded.getDefiningOp();
  if (!combining || combining->getBlock() != &body ||
      combining->getNumOperands() != 2 || combining->getNumResults() != 1)
    return std::nullopt;
  BlockArgument acc = op.getRegionOutputArgs()[index];
  if (!acc.hasOneUse() || combining->getOperand(0) == combining->getOperand(1))
    return std::nullopt;
  Combiner combiner;
  combiner.op = combining;
  if (combining->getOperand(0) == acc)
    combiner.accOperand = 0;
  else if (combining->getOperand(1) == acc)
    combiner.accOperand = 1;
  else
    return std::nullopt;
  // The other operand must not read any accumulator.
  Value other = combining->getOperand(1 - combiner.accOperand);
  for (BlockArgument out : op.getRegionOutputArgs())
    if (other == out)
      return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combining);
  if (!neutral)
    return std::nullopt;
  combiner.neutral = *neutral;
  return combiner;
}

std::optional<Combiner> matchCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  return matchOutputCombiner(op, 0);
}

std::optional<SmallVector<Combiner>> matchCombiners(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0)
    return std::nullopt;
  SmallVector<Combiner> combiners;
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
    std::optional<Combiner> combiner = matchOutputCombiner(op, i);
    if (!combiner)
      return std::nullopt;
    combiners.push_back(*combiner);
  }
  return combiners;
}

Value combine(ImplicitLocOpBuilder &b, const Combiner &combiner, Value lhs,
              Value rhs) {
  IRMapping mapping;
  mapping.map(combiner.op->getOperand(combiner.accOperand), lhs);
  mapping.map(combiner.op->getOperand(1 - combiner.accOperand), rhs);
  return b.clone(*combiner.op, mapping)->getResult(0);
}

Type shuffleType(Type type) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type))
    return width <= 32 ? Type(Float32Type::get(type.getContext())) : type;
  return width <= 32 ? IntegerType::get(type.getContext(), 32) : type;
}


Value widenForShuffle(ImplicitLocOpBuilder &b, Value value) {
  Type wide = shuffleType(value.getType());
  if (wide == value.getType())
    return value;
  if (isa<FloatType>(wide))
    return arith::ExtFOp::create(b, wide, value);
  return arith::ExtSIOp::create(b, wide, value);
}

Value narrowFromShuffle(ImplicitLocOpBuilder &b, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, type, value);
  return arith::TruncIOp::create(b, type, value);
}

/// A butterfly over aligned segments of `lanes` lanes of a warp (a power of
/// two, at most 32): every lane ends with its segment's total.
static Value warpReduce(ImplicitLocOpBuilder &b, const Combiner &combiner,
                        Value value, int32_t lanes = 32) {
  for (int32_t offset = lanes / 2; offset >= 1; offset /= 2) {
    auto shuffle = gpu::ShuffleOp::create(b, widenForShuffle(b, value), offset,
                                          /*width=*/32, gpu::ShuffleMode::XOR);
    value = combine(b, combiner, value,
                    narrowFromShuffle(b, shuffle.getShuffleResult(), value.getType()));
  }
  return value;
}

Value blockReduce(ImplicitLocOpBuilder &b, const Combiner &combiner,
                  Value value, Value threadId, int64_t blockSize,
                  Value scratch) {
  Type type = value.getType();
  if (blockSize <= 32)
    return warpReduce(b, combiner, value, blockSize);
  value = warpReduce(b, combiner, value);
  Value c32 = indexConstant(b, 32);
  Value lane = arith::RemUIOp::create(b, threadId, c32);
  Value warp = arith::DivUIOp::create(b, threadId, c32);
  Value zero = indexConstant(b, 0);
  Value isLaneZero =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, zero);
  Value wide = widenForShuffle(b, value);
  scf::IfOp::create(b, isLaneZero, [&](OpBuilder &nested, Location loc) {
    memref::StoreOp::create(nested, loc, wide, scratch, ValueRange{warp});
    scf::YieldOp::create(nested, loc);
  });
  gpu::BarrierOp::create(b);
  // Every warp reads the per-warp partials and reduces them again, so every
  // thread has the total without a second broadcast.
  Value numWarps = indexConstant(b, blockSize / 32);
  Value hasPartial =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, lane, numWarps);
  Value neutral = widenForShuffle(b, arith::ConstantOp::create(b, combiner.neutral));
  auto partial = scf::IfOp::create(
      b, hasPartial,
      [&](OpBuilder &nested, Location loc) {
        Value loaded =
            memref::LoadOp::create(nested, loc, scratch, ValueRange{lane});
        scf::YieldOp::create(nested, loc, loaded);
      },
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, neutral);
      });
  value = warpReduce(b, combiner, narrowFromShuffle(b, partial.getResult(0), type));
  // The scratch buffer may be reused by the next reduction.
  gpu::BarrierOp::create(b);
  return value;
}

bool isFill(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation())
    return false;
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()))
      return false;
  Block &body = op.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  if (yielded == op.getRegionOutputArgs().front())
    return false;
  if (auto arg = dyn_cast<BlockArgument>(yielded))
    return arg.getOwner() == &body;
  Operation *def = yielded.getDefiningOp();
  return def->getBlock() != &body || isa<arith::ConstantOp>(def);
}

/// The value a fill generic writes, usable outside it (a constant in its
/// body is cloned before `before`).
static Value fillValue(linalg::GenericOp fill, Operation *before) {
  Block &body = fill.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  if (auto arg = dyn_cast<BlockArgument>(yielded))
    return fill.getDpsInputOperand(arg.getArgNumber())->get();
  Operation *def = yielded.getDefiningOp();
  if (def->getBlock() != &body)
    return yielded;
  OpBuilder builder(before);
  return builder.clone(*def)->getResult(0);
}

/// `buffer` and every view of it.
static SmallVector<Value> aliasesOf(Value buffer) {
  SmallVector<Value> aliases{buffer};
  for (size_t i = 0; i < aliases.size(); ++i)
    for (Operation *user : aliases[i].getUsers())
      if (isa<ViewLikeOpInterface>(user))
        llvm::append_range(aliases, user->getResults());
  return aliases;
}

ReductionInit findFillInit(linalg::GenericOp reduction, unsigned output) {
  Value buffer = reduction.getDpsInitOperand(output)->get();
  SmallVector<Value> aliases = aliasesOf(buffer);
  auto touches = [&](Operation *op) {
    for (Value operand : op->getOperands())
      if (llvm::is_contained(aliases, operand))
        return true;
    return false;
  };
  for (Operation *prev = reduction->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    auto generic = dyn_cast<linalg::GenericOp>(prev);
    if (generic && isFill(generic) &&
        generic.getDpsInitOperand(0)->get() == buffer)
      return {fillValue(generic, reduction), generic};
    // Generics write only their outputs; any other op with a region or a
    // call may write anything.
    if (touches(prev) ||
        (!isa<linalg::LinalgOp>(prev) &&
         (prev->getNumRegions() != 0 || isa<CallOpInterface>(prev))))
      return {};
  }
  return {};
}

} // namespace mlir::cudnn_mlir::codegen
