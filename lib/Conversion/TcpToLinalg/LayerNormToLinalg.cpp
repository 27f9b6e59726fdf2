//===- LayerNormToLinalg.cpp - tcp.layer_norm{,_training} to linalg -------===//
//
// A layer norm that no cuDNN graph took (f64, a normalized_rank other than
// rank - 1, the training form) becomes, over rows (the leading dims) of
// length N (the normalized dims), in the compute type (f32 for f16/bf16):
//
//   sum = reduce(x)                          reduction over trailing loops
//   sq  = reduce((x - sum / N)^2)            reduction over trailing loops
//   y   = (x - sum / N) * rsqrt(sq / N + epsilon) * scale + bias,
//         rounded once to x's type
//
// and, for the training form, per-row generics mean = sum / N and
// rstd = rsqrt(sq / N + epsilon) in the result type. The variance is taken
// around the mean (two passes, as PyTorch does), not as E[x^2] - mean^2,
// which cancels catastrophically when |mean| >> std. Per-row values have
// x's shape with the normalized dims set to 1 (the training form's mean and
// rstd shape) and are read with maps that ignore the trailing loops:
// codegen-map-to-gpu makes all of it one row-reduction kernel (one block per
// row).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {
/// Builds the generics of one layer norm over `x`.
class LayerNormBuilder {
public:
  LayerNormBuilder(OpBuilder &b, Location loc, Value x, int64_t normalizedRank,
                   double epsilon)
      : b(b), loc(loc), x(x), xType(cast<RankedTensorType>(x.getType())),
        rank(xType.getRank()), rowRank(rank - normalizedRank),
        accType(computeType(xType.getElementType())), epsilon(epsilon) {
    MLIRContext *ctx = b.getContext();
    SmallVector<int64_t> statsShape(xType.getShape());
    SmallVector<AffineExpr> statsExprs, trailingExprs;
    for (int64_t d = 0; d < rank; ++d) {
      if (d < rowRank) {
        statsExprs.push_back(getAffineDimExpr(d, ctx));
        continue;
      }
      statsShape[d] = 1;
      statsExprs.push_back(getAffineConstantExpr(0, ctx));
      trailingExprs.push_back(getAffineDimExpr(d, ctx));
    }
    statsType = RankedTensorType::get(statsShape, accType);
    identity = b.getMultiDimIdentityMap(rank);
    statsMap = AffineMap::get(rank, 0, statsExprs, ctx);
    rowStatsMap = AffineMap::get(rowRank, 0, statsExprs, ctx);
    trailingMap = AffineMap::get(rank, 0, trailingExprs, ctx);
    SmallVector<int64_t> normalizedDims;
    for (int64_t d = rowRank; d < rank; ++d)
      normalizedDims.push_back(d);
    count = elementCount(b, loc, x, normalizedDims, accType);
  }

  /// Sum over each row of term(x, per-row inputs...), starting from `zero`.
  Value
  rowSum(ValueRange perRow, double zero,
         function_ref<Value(OpBuilder &, Location, Value, ValueRange)> term) {
    Value init = createFilled(b, loc, statsType, b.getFloatAttr(accType, zero),
                              [&](int64_t d) { return dim(d); });
    SmallVector<Value> inputs = {x};
    llvm::append_range(inputs, perRow);
    SmallVector<AffineMap> maps = {identity};
    maps.append(perRow.size() + 1, statsMap);
    SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
    for (int64_t d = rowRank; d < rank; ++d)
      iterators[d] = utils::IteratorType::reduction;
    return linalg::GenericOp::create(
               b, loc, TypeRange{statsType}, inputs, init, maps, iterators,
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 Value value = extendToCompute(nested, nestedLoc, args[0]);
                 value = term(nested, nestedLoc, value,
                              args.slice(1, perRow.size()));
                 linalg::YieldOp::create(nested, nestedLoc,
                                         arith::AddFOp::create(nested,
                                                               nestedLoc, value,
                                                               args.back())
                                             .getResult());
               })
        .getResult(0);
  }

  /// The per-row sum of x.
  Value sum() {
    return rowSum({}, 0.0,
                  [](OpBuilder &, Location, Value v, ValueRange) { return v; });
  }

  /// The per-row sum of (x - mean)^2, from the per-row sum of x. It starts
  /// from -0.0 (addf's exact identity too): were both sums' inits the same
  /// fill, CSE would merge them and bufferization would copy the shared
  /// buffer, which splits the row-reduction kernel.
  Value squares(Value sum) {
    return rowSum(
        sum, -0.0, [&](OpBuilder &b, Location loc, Value v, ValueRange s) {
          Value centered = arith::SubFOp::create(b, loc, v, mean(b, loc, s[0]));
          return arith::MulFOp::create(b, loc, centered, centered).getResult();
        });
  }

  Value mean(OpBuilder &b, Location loc, Value sum) {
    return arith::DivFOp::create(b, loc, sum, count);
  }

  /// 1 / sqrt(var + epsilon), var = squares / N (biased, as PyTorch's).
  Value rstd(OpBuilder &b, Location loc, Value squares) {
    Value var = arith::DivFOp::create(b, loc, squares, count);
    Value eps =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(accType, epsilon));
    return math::RsqrtOp::create(b, loc,
                                 arith::AddFOp::create(b, loc, var, eps));
  }

  /// y = (x - mean) * rstd [* scale] [+ bias], rounded to x's type.
  Value normalize(Value sum, Value squares, Value scale, Value bias) {
    Value init = createEmptyLike(b, loc, xType, x);
    SmallVector<Value> inputs = {x, sum, squares};
    SmallVector<AffineMap> maps = {identity, statsMap, statsMap};
    for (Value param : {scale, bias}) {
      if (!param)
        continue;
      inputs.push_back(param);
      maps.push_back(trailingMap);
    }
    maps.push_back(identity);
    Type element = xType.getElementType();
    return linalg::GenericOp::create(
               b, loc, TypeRange{xType}, inputs, init, maps,
               parallelIterators(rank),
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 Value v = extendToCompute(nested, nestedLoc, args[0]);
                 v = arith::SubFOp::create(nested, nestedLoc, v,
                                           mean(nested, nestedLoc, args[1]));
                 v = arith::MulFOp::create(nested, nestedLoc, v,
                                           rstd(nested, nestedLoc, args[2]));
                 unsigned next = 3;
                 if (scale)
                   v = arith::MulFOp::create(
                       nested, nestedLoc, v,
                       extendToCompute(nested, nestedLoc, args[next++]));
                 if (bias)
                   v = arith::AddFOp::create(
                       nested, nestedLoc, v,
                       extendToCompute(nested, nestedLoc, args[next++]));
                 linalg::YieldOp::create(
                     nested, nestedLoc,
                     convertFloat(nested, nestedLoc, v, element));
               })
        .getResult(0);
  }

  /// A per-row statistic of type `resultType` (the training form's mean or
  /// rstd) computed by `stat` from a per-row sum.
  Value perRowResult(Value sum, RankedTensorType resultType,
                     Value (LayerNormBuilder::*stat)(OpBuilder &, Location,
                                                     Value)) {
    Value init =
        createEmpty(b, loc, resultType, [&](int64_t d) { return dim(d); });
    SmallVector<AffineMap> maps(2, rowStatsMap);
    Type element = resultType.getElementType();
    return linalg::GenericOp::create(
               b, loc, TypeRange{resultType}, sum, init, maps,
               parallelIterators(rowRank),
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 Value value = (this->*stat)(nested, nestedLoc, args[0]);
                 linalg::YieldOp::create(
                     nested, nestedLoc,
                     convertFloat(nested, nestedLoc, value, element));
               })
        .getResult(0);
  }

private:
  Value dim(int64_t d) { return tensor::DimOp::create(b, loc, x, d); }

  OpBuilder &b;
  Location loc;
  Value x;
  RankedTensorType xType;
  int64_t rank, rowRank;
  Type accType;
  double epsilon;
  RankedTensorType statsType;
  AffineMap identity, statsMap, rowStatsMap, trailingMap;
  Value count;
};

template <typename OpTy>
struct LayerNormToGenerics : public TcpToLinalgPattern<OpTy> {
  using TcpToLinalgPattern<OpTy>::TcpToLinalgPattern;

  LogicalResult lower(OpTy op, PatternRewriter &rewriter) const override {
    LayerNormBuilder builder(rewriter, op.getLoc(), op.getX(),
                             op.getNormalizedRank(),
                             op.getEpsilonAttr().getValueAsDouble());
    // The normalisation reads the two sums, not generics that derive mean
    // and rstd from them, and comes last: every per-row buffer then lives
    // until the row group's last member, so bufferization reuses none of
    // them inside the group (a member may not overwrite what an earlier one
    // read).
    Value sum = builder.sum();
    Value mean;
    if constexpr (std::is_same_v<OpTy, tcp::LayerNormTrainingOp>)
      mean = builder.perRowResult(sum, op.getMean().getType(),
                                  &LayerNormBuilder::mean);
    Value squares = builder.squares(sum);
    Value rstd;
    if constexpr (std::is_same_v<OpTy, tcp::LayerNormTrainingOp>)
      rstd = builder.perRowResult(squares, op.getRstd().getType(),
                                  &LayerNormBuilder::rstd);
    Value y = builder.normalize(sum, squares, op.getScale(), op.getBias());
    if constexpr (std::is_same_v<OpTy, tcp::LayerNormTrainingOp>)
      rewriter.replaceOp(op, {y, mean, rstd});
    else
      rewriter.replaceOp(op, y);
    return success();
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateLayerNormPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LayerNormToGenerics<tcp::LayerNormOp>,
               LayerNormToGenerics<tcp::LayerNormTrainingOp>>(
      patterns.getContext());
}
