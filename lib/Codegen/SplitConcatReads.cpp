//===- SplitConcatReads.cpp - concat and slice reads as plain inputs ------===//
//
// tcp.concat and tcp.slice lower to generics that read their inputs with
// tensor.extract at computed indices; fused into their consumers (a
// DenseNet layer's batch norm over the concat of every earlier feature),
// every element then loads from each concat input and selects one, one
// scalar at a time: a fifth of copy bandwidth or less. This pass splits
// such a generic along the axis its index comparisons cut, so that in each
// piece every comparison is decided and every read is at `loop index +
// constant`; those reads become inputs (slices of the read tensors)
// through indexing maps, which the elementwise kernels vectorise. The
// pieces write slices of the one result tensor, which bufferize into
// views of one buffer; codegen-merge-launches joins their launches.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <set>

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENSPLITCONCATREADSPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

/// More pieces than this stay one generic (each piece is a launch and its
/// buffers' descriptors; DenseNet-201's largest concat has 49 inputs).
constexpr size_t kMaxPieces = 64;

/// An index value of a generic's body as `loop index `dim` + offset`, or
/// the constant `offset` when `dim` is negative.
struct AffineIndex {
  int64_t dim = -1;
  int64_t offset = 0;
};

/// A closed interval of index values.
struct Range {
  int64_t min, max;
};

/// What one box of the iteration space (bounds [lo, hi) per loop, in the
/// original generic's coordinates) makes of its body: the index values
/// that are a loop index plus a constant, the comparisons that are decided
/// everywhere in the box, and the selects and min/max ops that equal one
/// of their operands there.
class BoxAnalysis {
public:
  BoxAnalysis(linalg::GenericOp op, ArrayRef<int64_t> lo, ArrayRef<int64_t> hi)
      : lo(lo), hi(hi) {
    for (Operation &inner : op.getRegion().front().without_terminator())
      visit(&inner);
  }

  /// `value` with the aliases followed.
  Value resolve(Value value) const {
    for (auto it = alias.find(value); it != alias.end(); it = alias.find(value))
      value = it->second;
    return value;
  }

  std::optional<AffineIndex> affineOf(Value value) const {
    value = resolve(value);
    auto it = affine.find(value);
    if (it != affine.end())
      return it->second;
    // A constant, in the body or outside it (canonicalization hoists them).
    APInt constant;
    if (value.getType().isIndex() &&
        matchPattern(value, m_ConstantInt(&constant)))
      return AffineIndex{-1, constant.getSExtValue()};
    return std::nullopt;
  }

  std::optional<Range> rangeOf(Value value) const {
    std::optional<AffineIndex> index = affineOf(value);
    if (!index)
      return std::nullopt;
    if (index->dim < 0)
      return Range{index->offset, index->offset};
    return Range{lo[index->dim] + index->offset,
                 hi[index->dim] - 1 + index->offset};
  }

  std::optional<bool> decidedOf(Value value) const {
    value = resolve(value);
    auto it = decided.find(value);
    if (it != decided.end())
      return it->second;
    APInt constant;
    if (value.getType().isInteger(1) &&
        matchPattern(value, m_ConstantInt(&constant)))
      return constant.getBoolValue();
    return std::nullopt;
  }

private:
  void visit(Operation *op) {
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      affine[index] = {static_cast<int64_t>(index.getDim()), 0};
      return;
    }
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      std::optional<AffineIndex> a = affineOf(op->getOperand(0));
      std::optional<AffineIndex> b = affineOf(op->getOperand(1));
      if (!a || !b || !op->getResult(0).getType().isIndex())
        return;
      bool subtract = isa<arith::SubIOp>(op);
      if (b->dim < 0)
        affine[op->getResult(0)] = {a->dim, subtract ? a->offset - b->offset
                                                     : a->offset + b->offset};
      else if (a->dim < 0 && !subtract)
        affine[op->getResult(0)] = {b->dim, a->offset + b->offset};
      return;
    }
    if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
            op)) {
      std::optional<Range> a = rangeOf(op->getOperand(0));
      std::optional<Range> b = rangeOf(op->getOperand(1));
      if (!a || !b)
        return;
      bool isUnsigned = isa<arith::MinUIOp, arith::MaxUIOp>(op);
      if (isUnsigned && (a->min < 0 || b->min < 0))
        return;
      bool isMin = isa<arith::MinSIOp, arith::MinUIOp>(op);
      // a <= b everywhere: min is a, max is b (and the other way round).
      if (a->max <= b->min)
        alias[op->getResult(0)] = resolve(op->getOperand(isMin ? 0 : 1));
      else if (b->max <= a->min)
        alias[op->getResult(0)] = resolve(op->getOperand(isMin ? 1 : 0));
      return;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      std::optional<Range> a = rangeOf(cmp.getLhs());
      std::optional<Range> b = rangeOf(cmp.getRhs());
      if (!a || !b)
        return;
      if (std::optional<bool> value = compare(cmp.getPredicate(), *a, *b))
        decided[cmp] = *value;
      return;
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (std::optional<bool> condition = decidedOf(select.getCondition()))
        alias[select] = resolve(*condition ? select.getTrueValue()
                                           : select.getFalseValue());
      return;
    }
  }

  /// `a pred b` when it holds for all or for none of the values in the
  /// ranges.
  static std::optional<bool> compare(arith::CmpIPredicate pred, Range a,
                                     Range b) {
    using P = arith::CmpIPredicate;
    bool nonNegative = a.min >= 0 && b.min >= 0;
    switch (pred) {
    case P::ult:
    case P::ule:
    case P::ugt:
    case P::uge:
      if (!nonNegative)
        return std::nullopt;
      break;
    default:
      break;
    }
    switch (pred) {
    case P::slt:
    case P::ult:
      if (a.max < b.min)
        return true;
      if (a.min >= b.max)
        return false;
      return std::nullopt;
    case P::sle:
    case P::ule:
      if (a.max <= b.min)
        return true;
      if (a.min > b.max)
        return false;
      return std::nullopt;
    case P::sgt:
    case P::ugt:
      return compare(P::slt, b, a);
    case P::sge:
    case P::uge:
      return compare(P::sle, b, a);
    case P::eq:
      if (a.min == a.max && b.min == b.max && a.min == b.min)
        return true;
      if (a.max < b.min || b.max < a.min)
        return false;
      return std::nullopt;
    case P::ne:
      if (std::optional<bool> equal = compare(P::eq, a, b))
        return !*equal;
      return std::nullopt;
    }
    return std::nullopt;
  }

  ArrayRef<int64_t> lo, hi;
  llvm::DenseMap<Value, AffineIndex> affine;
  llvm::DenseMap<Value, bool> decided;
  llvm::DenseMap<Value, Value> alias;
};

/// The predicate of `b pred' a` that holds when `a pred b` does.
arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ule:
    return P::uge;
  case P::ugt:
    return P::ult;
  case P::uge:
    return P::ule;
  default:
    return pred;
  }
}

/// Where loop `dim`'s value changes a comparison's outcome: the points p
/// with the comparison different at p - 1 and p, for comparisons of
/// `loop index + c` with a constant. Sets `dimOut` to the loop; fails when
/// comparisons cut more than one loop.
LogicalResult collectCuts(linalg::GenericOp op, const BoxAnalysis &whole,
                          int64_t &dimOut, std::set<int64_t> &cuts) {
  dimOut = -1;
  bool ok = true;
  op.getRegion().walk([&](arith::CmpIOp cmp) {
    if (whole.decidedOf(cmp))
      return;
    std::optional<AffineIndex> lhs = whole.affineOf(cmp.getLhs());
    std::optional<AffineIndex> rhs = whole.affineOf(cmp.getRhs());
    if (!lhs || !rhs)
      return; // not an index comparison: left as it is
    AffineIndex index = *lhs, bound = *rhs;
    if (index.dim < 0)
      std::swap(index, bound);
    if (index.dim < 0 || bound.dim >= 0) {
      ok = false; // two loops compared
      return;
    }
    if (dimOut >= 0 && dimOut != index.dim) {
      ok = false;
      return;
    }
    dimOut = index.dim;
    // `i + offset pred c` with i on the left: true from (or up to) i = c -
    // offset, or one past it.
    using P = arith::CmpIPredicate;
    P pred = cmp.getPredicate();
    if (lhs->dim < 0)
      pred = swapOperands(pred);
    int64_t at = bound.offset - index.offset;
    switch (pred) {
    case P::slt:
    case P::ult:
    case P::sge:
    case P::uge:
      cuts.insert(at);
      break;
    case P::sle:
    case P::ule:
    case P::sgt:
    case P::ugt:
      cuts.insert(at + 1);
      break;
    case P::eq:
    case P::ne:
      cuts.insert(at);
      cuts.insert(at + 1);
      break;
    }
  });
  return success(ok);
}

/// One tensor.extract of a piece turned into an input: `source` sliced at
/// `offsets` with `sizes`, read through `map`.
struct ReadAsInput {
  tensor::ExtractOp extract;
  SmallVector<int64_t> offsets, sizes;
  AffineMap map;
};

/// The ops of the body a piece keeps: those the yield reaches, through the
/// chosen operand of an aliased op and not into the reads that become
/// inputs. Fails when a kept read cannot become an input.
LogicalResult planPiece(linalg::GenericOp op, const BoxAnalysis &box,
                        ArrayRef<int64_t> lo, ArrayRef<int64_t> hi,
                        llvm::DenseSet<Operation *> &kept,
                        SmallVector<ReadAsInput> &reads) {
  Block &body = op.getRegion().front();
  SmallVector<Value> work(body.getTerminator()->getOperands());
  MLIRContext *context = op.getContext();
  int64_t numLoops = op.getNumLoops();
  while (!work.empty()) {
    Value value = box.resolve(work.pop_back_val());
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &body || kept.contains(def))
      continue;
    if (box.decidedOf(value))
      continue; // becomes a constant
    if (auto extract = dyn_cast<tensor::ExtractOp>(def)) {
      auto sourceType = extract.getTensor().getType();
      ReadAsInput read{extract};
      SmallVector<AffineExpr> exprs;
      llvm::SmallBitVector used(numLoops);
      for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
        std::optional<AffineIndex> affine = box.affineOf(index);
        std::optional<Range> range = box.rangeOf(index);
        if (!affine || !range || range->min < 0 ||
            range->max >= sourceType.getDimSize(d) ||
            (affine->dim >= 0 && used.test(affine->dim)))
          return failure();
        if (affine->dim < 0) {
          read.offsets.push_back(affine->offset);
          read.sizes.push_back(1);
          exprs.push_back(getAffineConstantExpr(0, context));
          continue;
        }
        used.set(affine->dim);
        read.offsets.push_back(lo[affine->dim] + affine->offset);
        read.sizes.push_back(hi[affine->dim] - lo[affine->dim]);
        exprs.push_back(getAffineDimExpr(affine->dim, context));
      }
      read.map = AffineMap::get(numLoops, 0, exprs, context);
      reads.push_back(std::move(read));
      kept.insert(def);
      continue;
    }
    if (def->getNumRegions() != 0)
      return failure();
    kept.insert(def);
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  return success();
}

/// `value`'s slice at `offsets` with `sizes` (unit strides), or `value`
/// itself when the slice is all of it.
Value sliceOf(OpBuilder &b, Location loc, Value value,
              ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  if (llvm::all_of(offsets, [](int64_t offset) { return offset == 0; }) &&
      sizes == type.getShape())
    return value;
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, value, getAsIndexOpFoldResult(b.getContext(), offsets),
      getAsIndexOpFoldResult(b.getContext(), sizes), strides);
}

/// Replaces `op` by its pieces along loop `dim` cut at `bounds` (the
/// pieces' ends, from 0 to the loop size), each with its plan.
void buildPieces(linalg::GenericOp op, int64_t dim, ArrayRef<int64_t> bounds,
                 ArrayRef<llvm::DenseSet<Operation *>> keptPerPiece,
                 ArrayRef<SmallVector<ReadAsInput>> readsPerPiece,
                 ArrayRef<BoxAnalysis> boxes) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value result = op.getDpsInits()[0];
  auto resultType = cast<RankedTensorType>(result.getType());
  AffineMap outputMap = op.getIndexingMapsArray().back();
  Block &body = op.getRegion().front();

  // The offsets and sizes of the piece [lo, lo + size) of loop `dim` in a
  // tensor of `shape` read or written through `map`.
  auto pieceOf = [&](ArrayRef<int64_t> shape, AffineMap map, int64_t lo,
                     int64_t size) {
    SmallVector<int64_t> offsets(shape.size(), 0), sizes(shape);
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(expr);
          d && static_cast<int64_t>(d.getPosition()) == dim) {
        offsets[position] = lo;
        sizes[position] = size;
      }
    return std::make_pair(offsets, sizes);
  };

  for (size_t piece = 0; piece + 1 < bounds.size(); ++piece) {
    int64_t lo = bounds[piece], size = bounds[piece + 1] - lo;
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto [offsets, sizes] =
          pieceOf(cast<RankedTensorType>(input->get().getType()).getShape(),
                  map, lo, size);
      inputs.push_back(sliceOf(b, loc, input->get(), offsets, sizes));
      maps.push_back(map);
    }
    for (const ReadAsInput &read : readsPerPiece[piece]) {
      inputs.push_back(sliceOf(b, loc,
                               tensor::ExtractOp(read.extract).getTensor(),
                               read.offsets, read.sizes));
      maps.push_back(read.map);
    }
    maps.push_back(outputMap);
    // Where the piece goes in the result.
    auto [offsets, sizes] = pieceOf(resultType.getShape(), outputMap, lo, size);
    // A piece of several writes a tensor.empty of its own, which
    // cudnn-bufferize (fillInsertedSliceInPlace) makes a slice of the
    // result's buffer.
    Value init = result;
    if (bounds.size() > 2)
      init =
          tensor::EmptyOp::create(b, loc, sizes, resultType.getElementType());
    SmallVector<utils::IteratorType> iterators(op.getNumLoops(),
                                               utils::IteratorType::parallel);
    const BoxAnalysis &box = boxes[piece];
    const llvm::DenseSet<Operation *> &kept = keptPerPiece[piece];
    auto generic = linalg::GenericOp::create(
        b, loc, init.getType(), inputs, init, maps, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          IRMapping mapping;
          size_t numOriginal = op.getNumDpsInputs();
          for (size_t i = 0; i < numOriginal; ++i)
            mapping.map(body.getArgument(i), args[i]);
          for (auto [i, read] : llvm::enumerate(readsPerPiece[piece]))
            mapping.map(tensor::ExtractOp(read.extract).getResult(),
                        args[numOriginal + i]);
          auto lookup = [&](Value value) -> Value {
            Value resolved = box.resolve(value);
            if (std::optional<bool> known = box.decidedOf(resolved))
              return arith::ConstantOp::create(nb, nloc,
                                               nb.getBoolAttr(*known));
            return mapping.lookupOrDefault(resolved);
          };
          for (Operation &inner : body.without_terminator()) {
            if (!kept.contains(&inner) || isa<tensor::ExtractOp>(inner))
              continue;
            if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
              Value fresh = linalg::IndexOp::create(nb, nloc, index.getDim());
              if (static_cast<int64_t>(index.getDim()) == dim && lo != 0)
                fresh = arith::AddIOp::create(
                    nb, nloc, fresh,
                    arith::ConstantIndexOp::create(nb, nloc, lo));
              mapping.map(index.getResult(), fresh);
              continue;
            }
            Operation *clone = nb.clone(inner, mapping);
            for (OpOperand &operand : clone->getOpOperands())
              operand.set(lookup(inner.getOperand(operand.getOperandNumber())));
          }
          SmallVector<Value> yielded;
          for (Value value : body.getTerminator()->getOperands())
            yielded.push_back(lookup(value));
          linalg::YieldOp::create(nb, nloc, yielded);
        });
    if (bounds.size() == 2) {
      result = generic.getResult(0);
      break;
    }
    result = tensor::InsertSliceOp::create(
        b, loc, generic.getResult(0), result,
        getAsIndexOpFoldResult(b.getContext(), offsets),
        getAsIndexOpFoldResult(b.getContext(), sizes),
        SmallVector<OpFoldResult>(offsets.size(), b.getIndexAttr(1)));
  }
  op.getResult(0).replaceAllUsesWith(result);
  op.erase();
}

/// Splits `op` when that turns every read it keeps into an input.
bool splitConcatReads(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumResults() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !op.getIndexingMapsArray().back().isPermutation() ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)) ||
      op.hasDynamicShape())
    return false;
  bool readsByIndex = false;
  for (Operation &inner : op.getRegion().front()) {
    if (inner.getNumRegions() != 0)
      return false;
    readsByIndex |= isa<tensor::ExtractOp>(inner);
  }
  if (!readsByIndex)
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;

  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<int64_t> zero(sizes.size(), 0);
  BoxAnalysis whole(op, zero, sizes);
  int64_t dim;
  std::set<int64_t> cuts;
  if (failed(collectCuts(op, whole, dim, cuts)))
    return false;
  // No comparison on a loop index (a slice): one piece, the whole loop 0.
  if (dim < 0)
    dim = 0;
  SmallVector<int64_t> bounds{0};
  for (int64_t cut : cuts)
    if (cut > 0 && cut < sizes[dim])
      bounds.push_back(cut);
  bounds.push_back(sizes[dim]);
  if (bounds.size() - 1 > kMaxPieces)
    return false;

  SmallVector<BoxAnalysis> boxes;
  SmallVector<llvm::DenseSet<Operation *>> kept(bounds.size() - 1);
  SmallVector<SmallVector<ReadAsInput>> reads(bounds.size() - 1);
  SmallVector<SmallVector<int64_t>> los, his;
  for (size_t piece = 0; piece + 1 < bounds.size(); ++piece) {
    SmallVector<int64_t> lo = zero, hi = sizes;
    lo[dim] = bounds[piece];
    hi[dim] = bounds[piece + 1];
    los.push_back(lo);
    his.push_back(hi);
  }
  for (size_t piece = 0; piece + 1 < bounds.size(); ++piece) {
    boxes.emplace_back(op, los[piece], his[piece]);
    if (failed(planPiece(op, boxes.back(), los[piece], his[piece], kept[piece],
                         reads[piece])))
      return false;
  }
  buildPieces(op, dim, bounds, kept, reads, boxes);
  return true;
}

struct CodegenSplitConcatReadsPass
    : cudnn_mlir::impl::CodegenSplitConcatReadsPassBase<
          CodegenSplitConcatReadsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    for (linalg::GenericOp op : candidates)
      if (splitConcatReads(op))
        ++numSplit;
  }
};

} // namespace
