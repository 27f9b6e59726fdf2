//===- ContractionsToLinalg.cpp - tcp.matmul/batch_matmul to linalg -------===//
//
// A matmul that no cuDNN graph took (f64, or fp32 with fuse-fp32=false)
// becomes one linalg.generic with a reduction loop over K, accumulating
// into a linalg.fill'ed zero. The loops are ordered (batch..., k, m, n): the
// reduced loop is outside the innermost (n) loop, so codegen-map-to-gpu maps
// it as a column reduction, whose threads take consecutive n (coalesced
// reads of rhs, one broadcast read of lhs per warp) while warps split K.
// f16/bf16 accumulate in f32 and a parallel epilogue rounds once, as
// PyTorch's matmul does.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

/// out[b.., m, n] = sum_k lhs[b.., m, k] * rhs[b.., k, n] over the loops
/// (b.., k, m, n), in the element type's compute type.
static Value buildContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                              RankedTensorType outType) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = outType.getRank();
  int64_t batch = rank - 2;
  SmallVector<AffineExpr> batchDims;
  for (int64_t d = 0; d < batch; ++d)
    batchDims.push_back(getAffineDimExpr(d, ctx));
  AffineExpr k = getAffineDimExpr(batch, ctx);
  AffineExpr m = getAffineDimExpr(batch + 1, ctx);
  AffineExpr n = getAffineDimExpr(batch + 2, ctx);
  auto mapOf = [&](AffineExpr row, AffineExpr col) {
    SmallVector<AffineExpr> exprs(batchDims);
    exprs.append({row, col});
    return AffineMap::get(rank + 1, 0, exprs, ctx);
  };
  SmallVector<AffineMap> maps = {mapOf(m, k), mapOf(k, n), mapOf(m, n)};
  SmallVector<utils::IteratorType> iterators = parallelIterators(rank + 1);
  iterators[batch] = utils::IteratorType::reduction;

  Type element = outType.getElementType();
  Type accType = computeType(element);
  auto accTensorType = outType.clone(accType);
  Value acc = createFilled(b, loc, accTensorType, b.getZeroAttr(accType),
                           [&](int64_t d) -> Value {
                             if (d == rank - 1)
                               return tensor::DimOp::create(b, loc, rhs, d);
                             return tensor::DimOp::create(b, loc, lhs, d);
                           });
  Value product =
      linalg::GenericOp::create(
          b, loc, TypeRange{accTensorType}, ValueRange{lhs, rhs}, acc, maps,
          iterators,
          [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            Value x = extendToCompute(nested, nestedLoc, args[0]);
            Value y = extendToCompute(nested, nestedLoc, args[1]);
            // Float operands only (the ops' type constraint).
            Value mul = arith::MulFOp::create(nested, nestedLoc, x, y);
            linalg::YieldOp::create(
                nested, nestedLoc,
                arith::AddFOp::create(nested, nestedLoc, mul, args[2])
                    .getResult());
          })
          .getResult(0);
  if (accType == element)
    return product;

  // Round the f32 sums once.
  Value init = createEmptyLike(b, loc, outType, product);
  SmallVector<AffineMap> idMaps(2, b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, product, init, idMaps,
             parallelIterators(rank),
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(
                   nested, nestedLoc,
                   convertFloat(nested, nestedLoc, args[0], element));
             })
      .getResult(0);
}

namespace {
template <typename OpTy>
struct ContractionToGeneric : public TcpToLinalgPattern<OpTy> {
  using TcpToLinalgPattern<OpTy>::TcpToLinalgPattern;

  LogicalResult lower(OpTy op, PatternRewriter &rewriter) const override {
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    rewriter.replaceOp(op, buildContraction(rewriter, op.getLoc(), op.getLhs(),
                                            op.getRhs(), outType));
    return success();
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ContractionToGeneric<tcp::MatmulOp>,
               ContractionToGeneric<tcp::BatchMatmulOp>>(patterns.getContext());
}
