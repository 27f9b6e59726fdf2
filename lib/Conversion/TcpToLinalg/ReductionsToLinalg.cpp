//===- ReductionsToLinalg.cpp - tcp.reduce_* to linalg.generic ------------===//
//
// Each reduction is a linalg.generic with reduction iterators on the reduced
// axes, accumulating into a linalg.fill'ed tensor.empty. f16/bf16 sums and
// means accumulate in f32; a parallel epilogue generic divides (mean) and
// rounds back to the element type. max/min are exact in the element type.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {
enum class ReductionKind { Sum, Mean, Max, Min };
} // namespace

/// The neutral element of `kind` in `type`.
static TypedAttr neutralValue(OpBuilder &b, ReductionKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReductionKind::Sum:
    case ReductionKind::Mean:
      return b.getFloatAttr(type, 0.0);
    case ReductionKind::Max:
      return b.getFloatAttr(type, APFloat::getInf(sem, /*Negative=*/true));
    case ReductionKind::Min:
      return b.getFloatAttr(type, APFloat::getInf(sem, /*Negative=*/false));
    }
  }
  unsigned width = type.getIntOrFloatBitWidth();
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::Mean:
    return b.getIntegerAttr(type, 0);
  case ReductionKind::Max:
    return b.getIntegerAttr(type, APInt::getSignedMinValue(width));
  case ReductionKind::Min:
    return b.getIntegerAttr(type, APInt::getSignedMaxValue(width));
  }
  llvm_unreachable("unknown reduction kind");
}

static Value combine(OpBuilder &b, Location loc, ReductionKind kind,
                     Value value, Value acc) {
  bool isFloat = isa<FloatType>(acc.getType());
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::Mean:
    return isFloat ? arith::AddFOp::create(b, loc, value, acc).getResult()
                   : arith::AddIOp::create(b, loc, value, acc).getResult();
  case ReductionKind::Max:
    return isFloat ? arith::MaximumFOp::create(b, loc, value, acc).getResult()
                   : arith::MaxSIOp::create(b, loc, value, acc).getResult();
  case ReductionKind::Min:
    return isFloat ? arith::MinimumFOp::create(b, loc, value, acc).getResult()
                   : arith::MinSIOp::create(b, loc, value, acc).getResult();
  }
  llvm_unreachable("unknown reduction kind");
}

namespace {
template <typename OpTy, ReductionKind Kind>
struct ReductionToGeneric : public TcpToLinalgPattern<OpTy> {
  using TcpToLinalgPattern<OpTy>::TcpToLinalgPattern;

  LogicalResult lower(OpTy op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op.getIn();
    auto inType = cast<RankedTensorType>(input.getType());
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    ArrayRef<int64_t> axes = op.getAxes();
    bool keepDims = op.getKeepDims();
    Type element = inType.getElementType();
    bool accumulatesWider =
        Kind == ReductionKind::Sum || Kind == ReductionKind::Mean;
    Type accType = accumulatesWider ? computeType(element) : element;
    MLIRContext *ctx = rewriter.getContext();

    // The output map keeps (keep_dims: as the constant 0) or drops the
    // reduced dimensions; `sourceDim` maps each result dim to its input dim.
    SmallVector<utils::IteratorType> iterators;
    SmallVector<AffineExpr> outExprs;
    SmallVector<int64_t> sourceDim;
    for (int64_t d = 0; d < inType.getRank(); ++d) {
      bool reduced = llvm::is_contained(axes, d);
      iterators.push_back(reduced ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
      if (reduced && !keepDims)
        continue;
      outExprs.push_back(reduced ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(d, ctx));
      sourceDim.push_back(d);
    }
    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(inType.getRank()),
        AffineMap::get(inType.getRank(), 0, outExprs, ctx)};

    auto accTensorType = outType.clone(accType);
    auto dynamicSize = [&](int64_t d) -> Value {
      return tensor::DimOp::create(rewriter, loc, input, sourceDim[d]);
    };
    Value init = createEmpty(rewriter, loc, accTensorType, dynamicSize);
    Value neutral = arith::ConstantOp::create(
        rewriter, loc, neutralValue(rewriter, Kind, accType));
    Value filled =
        linalg::FillOp::create(rewriter, loc, neutral, init).getResult(0);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{accTensorType}, input, filled, maps,
            iterators,
            [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
              Value value = args[0];
              if (value.getType() != accType)
                value = convertFloat(b, nestedLoc, value, accType);
              linalg::YieldOp::create(
                  b, nestedLoc, combine(b, nestedLoc, Kind, value, args[1]));
            })
            .getResult(0);

    if (Kind == ReductionKind::Mean || accType != element) {
      Value count;
      if (Kind == ReductionKind::Mean)
        count = elementCount(rewriter, loc, input, axes, accType);
      result = epilogue(rewriter, loc, result, outType, count);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  /// One parallel generic that divides by `count` (when given) and rounds
  /// to the element type: the mean is divided before it is rounded.
  static Value epilogue(OpBuilder &b, Location loc, Value acc,
                        RankedTensorType outType, Value count) {
    int64_t rank = outType.getRank();
    Value init = createEmptyLike(b, loc, outType, acc);
    SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
    return linalg::GenericOp::create(
               b, loc, TypeRange{outType}, acc, init, maps,
               parallelIterators(rank),
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 Value value = args[0];
                 if (count)
                   value =
                       arith::DivFOp::create(nested, nestedLoc, value, count);
                 value = convertFloat(nested, nestedLoc, value,
                                      outType.getElementType());
                 linalg::YieldOp::create(nested, nestedLoc, value);
               })
        .getResult(0);
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateReductionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReductionToGeneric<tcp::ReduceSumOp, ReductionKind::Sum>,
               ReductionToGeneric<tcp::ReduceMeanOp, ReductionKind::Mean>,
               ReductionToGeneric<tcp::ReduceMaxOp, ReductionKind::Max>,
               ReductionToGeneric<tcp::ReduceMinOp, ReductionKind::Min>>(
      patterns.getContext());
}
