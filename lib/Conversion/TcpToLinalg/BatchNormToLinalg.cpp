//===- BatchNormToLinalg.cpp - batch norms as linalg for the codegen ------===//
//
// Batch norms that no cuDNN graph took become linalg on tensors whose
// kernels codegen-map-to-gpu builds: the statistics as one Welford
// reduction per channel (marked so that partial states merge with Chan's
// formula), the per-channel finalisation, and the normalisation as one
// elementwise op. Arithmetic is f32 for f16/bf16 data (and parameters).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CONVERTTCPBATCHNORMTOLINALGPASS
#include "cudnn-mlir/Conversion/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {

Value constantOf(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// Maps for an elementwise generic over x (rank r) reading per-channel
/// tensors (dimension 1) and x itself.
AffineMap identityMap(MLIRContext *context, int64_t rank) {
  return AffineMap::getMultiDimIdentityMap(rank, context);
}
AffineMap channelMap(MLIRContext *context, int64_t rank) {
  return AffineMap::get(rank, 0, getAffineDimExpr(1, context), context);
}

/// Maps of a per-channel reduction over x (rank r): loops are the channel
/// first, then the other dimensions in order; x is read through the first
/// map, per-channel tensors through the second.
std::pair<AffineMap, AffineMap> channelReductionMaps(MLIRContext *context,
                                                     int64_t rank) {
  SmallVector<AffineExpr> xExprs(rank);
  xExprs[1] = getAffineDimExpr(0, context);
  for (int64_t d = 0, loop = 1; d < rank; ++d)
    if (d != 1)
      xExprs[d] = getAffineDimExpr(loop++, context);
  return {AffineMap::get(rank, 0, xExprs, context),
          AffineMap::get(rank, 0, getAffineDimExpr(0, context), context)};
}

SmallVector<utils::IteratorType> channelReductionIterators(int64_t rank) {
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  iterators[0] = utils::IteratorType::parallel;
  return iterators;
}

/// The types a training or backward batch norm derives from x (N x C x
/// ..., static) and its per-channel tensors.
struct ChannelTypes {
  RankedTensorType x;
  int64_t rank, channels;
  Type element, compute; // x's element type, and the one computed in
  RankedTensorType param;
  Type paramElement;

  ChannelTypes(Value xValue, Value scale)
      : x(cast<RankedTensorType>(xValue.getType())), rank(x.getRank()),
        channels(x.getDimSize(1)), element(x.getElementType()),
        compute(computeType(element)),
        param(cast<RankedTensorType>(scale.getType())),
        paramElement(param.getElementType()) {}
};

/// y = (x - mean) * invstd * scale + bias over x, elementwise; `perChannel`
/// holds mean, invstd, scale and bias, each read along dimension 1;
/// `invstdFromVar` makes the second one a variance (inference: rsqrt(var +
/// eps) per element).
Value normalize(OpBuilder &b, Location loc, Value x,
                ArrayRef<Value> perChannel, bool invstdFromVar,
                double epsilon) {
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps{identityMap(context, rank)};
  for (size_t i = 0; i < perChannel.size(); ++i)
    maps.push_back(channelMap(context, rank));
  maps.push_back(identityMap(context, rank));
  SmallVector<Value> inputs{x};
  llvm::append_range(inputs, perChannel);
  Type element = xType.getElementType();
  Type compute = computeType(element);
  return linalg::GenericOp::create(
             b, loc, TypeRange{xType}, inputs,
             ValueRange{createEmptyLike(b, loc, xType, x)}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               auto cast = [&](Value v) {
                 return convertFloat(nested, nestedLoc, v, compute);
               };
               Value value = cast(args[0]);
               Value mean = cast(args[1]);
               Value invstd = cast(args[2]);
               if (invstdFromVar)
                 invstd = math::RsqrtOp::create(
                     nested, nestedLoc,
                     arith::AddFOp::create(
                         nested, nestedLoc, invstd,
                         constantOf(nested, nestedLoc, compute, epsilon)));
               Value centered =
                   arith::SubFOp::create(nested, nestedLoc, value, mean);
               Value scaled = arith::MulFOp::create(
                   nested, nestedLoc,
                   arith::MulFOp::create(nested, nestedLoc, centered, invstd),
                   cast(args[3]));
               Value result = arith::AddFOp::create(nested, nestedLoc, scaled,
                                                    cast(args[4]));
               linalg::YieldOp::create(
                   nested, nestedLoc,
                   convertFloat(nested, nestedLoc, result, element));
             })
      .getResult(0);
}

struct InferenceToKernels : public TcpToLinalgPattern<tcp::BatchNormOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;
  LogicalResult lower(tcp::BatchNormOp op,
                      PatternRewriter &rewriter) const override {
    if (!op.getX().getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Value y = normalize(rewriter, op.getLoc(), op.getX(),
                        {op.getRunningMean(), op.getRunningVar(),
                         op.getScale(), op.getBias()},
                        /*invstdFromVar=*/true,
                        op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct TrainingToKernels : public TcpToLinalgPattern<tcp::BatchNormTrainingOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;
  LogicalResult lower(tcp::BatchNormTrainingOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getX().getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    ChannelTypes types(op.getX(), op.getScale());
    auto [xType, rank, channels, element, compute, paramType, paramElement] =
        types;
    MLIRContext *context = rewriter.getContext();
    Type i64 = rewriter.getI64Type();
    auto countType = RankedTensorType::get({channels}, i64);
    auto stateType = RankedTensorType::get({channels}, compute);

    // Statistics: loops (c, the other dims in order), channel parallel.
    auto [xMap, outMap] = channelReductionMaps(context, rank);
    SmallVector<utils::IteratorType> iterators =
        channelReductionIterators(rank);
    auto stats = linalg::GenericOp::create(
        rewriter, loc, TypeRange{countType, stateType, stateType},
        ValueRange{op.getX()},
        ValueRange{createFilled(rewriter, loc, countType,
                          rewriter.getIntegerAttr(i64, 0)),
                   createFilled(rewriter, loc, stateType,
                          rewriter.getFloatAttr(compute, 0.0)),
                   createFilled(rewriter, loc, stateType,
                          rewriter.getFloatAttr(compute, 0.0))},
        SmallVector<AffineMap>{xMap, outMap, outMap, outMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // One Welford step: count += 1; delta = x - mean;
          // mean += delta * (1 / count); M2 += delta * (x - new mean).
          // The reciprocal depends on the count alone, so kernels whose
          // lanes step in lockstep compute it once for all lanes. It may be
          // approximate (afn: on NVPTX div.approx, 2 ulp, against a
          // correctly rounded division's dozen instructions and a slow
          // path), and the multiply-adds may fuse (contract: one rounding
          // fewer). The reciprocal's error does not accumulate: each step
          // weighs the earlier mean by (1 - 1/count), so after n steps the
          // mean is off by at most 2 ulp times the mean |x - mean|.
          Value value = convertFloat(b, l, args[0], compute);
          Value count = arith::AddIOp::create(
              b, l, args[1],
              arith::ConstantOp::create(b, l, b.getIntegerAttr(i64, 1)));
          Value countF = arith::SIToFPOp::create(b, l, compute, count);
          auto contract = arith::FastMathFlags::contract;
          Value reciprocal = arith::DivFOp::create(
              b, l, constantOf(b, l, compute, 1.0), countF,
              arith::FastMathFlags::afn);
          Value delta = arith::SubFOp::create(b, l, value, args[2]);
          Value mean = arith::AddFOp::create(
              b, l, args[2],
              arith::MulFOp::create(b, l, delta, reciprocal, contract),
              contract);
          Value m2 = arith::AddFOp::create(
              b, l, args[3],
              arith::MulFOp::create(
                  b, l, delta, arith::SubFOp::create(b, l, value, mean),
                  contract),
              contract);
          linalg::YieldOp::create(b, l, ValueRange{count, mean, m2});
        });
    stats->setAttr("codegen.combiner", rewriter.getStringAttr("welford"));

    // Per channel: saved mean and inverse deviation (f32 for the
    // normalisation, and in the parameters' type for the results), and the
    // running statistics.
    double epsilon = op.getEpsilon().convertToDouble();
    double momentum = op.getMomentum().convertToDouble();
    AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, context);
    auto finalize = linalg::GenericOp::create(
        rewriter, loc,
        TypeRange{stateType, stateType, paramType, paramType, paramType,
                  paramType},
        ValueRange{stats.getResult(0), stats.getResult(1),
                   stats.getResult(2), op.getRunningMean(),
                   op.getRunningVar()},
        ValueRange{createEmpty(rewriter, loc, stateType),
                   createEmpty(rewriter, loc, stateType),
                   createEmpty(rewriter, loc, paramType),
                   createEmpty(rewriter, loc, paramType),
                   createEmpty(rewriter, loc, paramType),
                   createEmpty(rewriter, loc, paramType)},
        SmallVector<AffineMap>(11, id1),
        SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value n = arith::SIToFPOp::create(b, l, compute, args[0]);
          Value mean = args[1];
          Value biased = arith::DivFOp::create(b, l, args[2], n);
          Value invstd = math::RsqrtOp::create(
              b, l,
              arith::AddFOp::create(b, l, biased,
                                    constantOf(b, l, compute, epsilon)));
          Value unbiased = arith::DivFOp::create(
              b, l, args[2],
              arith::SubFOp::create(b, l, n, constantOf(b, l, compute, 1.0)));
          auto blend = [&](Value running, Value batch) {
            Value old = convertFloat(b, l, running, compute);
            Value kept = arith::MulFOp::create(
                b, l, constantOf(b, l, compute, 1.0 - momentum), old);
            Value added = arith::MulFOp::create(
                b, l, constantOf(b, l, compute, momentum), batch);
            return convertFloat(b, l, arith::AddFOp::create(b, l, kept, added),
                          paramElement);
          };
          linalg::YieldOp::create(
              b, l,
              ValueRange{mean, invstd, convertFloat(b, l, mean, paramElement),
                         convertFloat(b, l, invstd, paramElement),
                         blend(args[3], mean), blend(args[4], unbiased)});
        });

    Value y = normalize(rewriter, loc, op.getX(),
                        {finalize.getResult(0), finalize.getResult(1),
                         op.getScale(), op.getBias()},
                        /*invstdFromVar=*/false, epsilon);
    rewriter.replaceOp(op, ValueRange{y, finalize.getResult(2),
                                      finalize.getResult(3),
                                      finalize.getResult(4),
                                      finalize.getResult(5)});
    return success();
  }
};

struct BackwardToKernels : public TcpToLinalgPattern<tcp::BatchNormBackwardOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;
  LogicalResult lower(tcp::BatchNormBackwardOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getX().getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    ChannelTypes types(op.getX(), op.getScale());
    auto [xType, rank, channels, element, compute, paramType, paramElement] =
        types;
    double perChannel =
        static_cast<double>(xType.getNumElements()) / channels;
    MLIRContext *context = rewriter.getContext();
    auto sumType = RankedTensorType::get({channels}, compute);

    // The two reductions, in one pass: sum(dy) and sum(dy * (x - mean)).
    auto [xMap, perChannelMap] = channelReductionMaps(context, rank);
    auto sums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{sumType, sumType},
        ValueRange{op.getDy(), op.getX(), op.getSavedMean()},
        ValueRange{createFilled(rewriter, loc, sumType,
                          rewriter.getFloatAttr(compute, 0.0)),
                   createFilled(rewriter, loc, sumType,
                          rewriter.getFloatAttr(compute, 0.0))},
        SmallVector<AffineMap>{xMap, xMap, perChannelMap, perChannelMap,
                               perChannelMap},
        channelReductionIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value dy = convertFloat(b, l, args[0], compute);
          Value centered =
              arith::SubFOp::create(b, l, convertFloat(b, l, args[1], compute),
                                    convertFloat(b, l, args[2], compute));
          Value sumDy = arith::AddFOp::create(b, l, args[3], dy);
          Value sumDyCentered = arith::AddFOp::create(
              b, l, args[4], arith::MulFOp::create(b, l, dy, centered));
          linalg::YieldOp::create(b, l, ValueRange{sumDy, sumDyCentered});
        });

    // dscale = sum(dy * (x - mean)) * invstd, dbias = sum(dy).
    AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, context);
    auto parameters = linalg::GenericOp::create(
        rewriter, loc, TypeRange{paramType, paramType},
        ValueRange{sums.getResult(0), sums.getResult(1),
                   op.getSavedInvstd()},
        ValueRange{createEmpty(rewriter, loc, paramType),
                   createEmpty(rewriter, loc, paramType)},
        SmallVector<AffineMap>(5, id1),
        SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value invstd = convertFloat(b, l, args[2], compute);
          Value dscale = arith::MulFOp::create(b, l, args[1], invstd);
          linalg::YieldOp::create(
              b, l,
              ValueRange{convertFloat(b, l, dscale, paramElement),
                         convertFloat(b, l, args[0], paramElement)});
        });

    // Training: dx = (dy - sum(dy)/M - (x - mean) * invstd^2 *
    // sum(dy (x - mean))/M) * invstd * scale, M the values per channel.
    // Inference (the statistics are constants): dx = dy * invstd * scale.
    bool training = op.getTraining();
    AffineMap xId = identityMap(context, rank);
    AffineMap perC = channelMap(context, rank);
    auto dx = linalg::GenericOp::create(
        rewriter, loc, TypeRange{xType},
        ValueRange{op.getDy(), op.getX(), op.getSavedMean(),
                   op.getSavedInvstd(), op.getScale(), sums.getResult(0),
                   sums.getResult(1)},
        ValueRange{createEmpty(rewriter, loc, xType)},
        SmallVector<AffineMap>{xId, xId, perC, perC, perC, perC, perC, xId},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto cast = [&](Value v) { return convertFloat(b, l, v, compute); };
          Value invstd = cast(args[3]);
          if (!training) {
            Value result = arith::MulFOp::create(
                b, l, arith::MulFOp::create(b, l, cast(args[0]), invstd),
                cast(args[4]));
            linalg::YieldOp::create(b, l, convertFloat(b, l, result, element));
            return;
          }
          Value count = constantOf(b, l, compute, perChannel);
          Value meanDy = arith::DivFOp::create(b, l, args[5], count);
          Value meanDyCentered = arith::DivFOp::create(b, l, args[6], count);
          Value centered =
              arith::SubFOp::create(b, l, cast(args[1]), cast(args[2]));
          Value projection = arith::MulFOp::create(
              b, l,
              arith::MulFOp::create(
                  b, l, centered,
                  arith::MulFOp::create(b, l, invstd, invstd)),
              meanDyCentered);
          Value grad = arith::SubFOp::create(
              b, l, arith::SubFOp::create(b, l, cast(args[0]), meanDy),
              projection);
          Value result = arith::MulFOp::create(
              b, l, arith::MulFOp::create(b, l, grad, invstd),
              cast(args[4]));
          linalg::YieldOp::create(b, l, convertFloat(b, l, result, element));
        });
    rewriter.replaceOp(op, ValueRange{dx.getResult(0), parameters.getResult(0),
                                      parameters.getResult(1)});
    return success();
  }
};

struct ConvertTcpBatchNormToLinalgPass
    : public cudnn_mlir::impl::ConvertTcpBatchNormToLinalgPassBase<
          ConvertTcpBatchNormToLinalgPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    WalkResult checked = func.walk([&](tcp::BatchNormTrainingOp op) {
      if (isInsideCudnnGroup(op))
        return WalkResult::advance();
      auto xType = cast<RankedTensorType>(op.getX().getType());
      if (xType.hasStaticShape() &&
          xType.getNumElements() == xType.getDimSize(1)) {
        op.emitError("expects more than one value per channel in training "
                     "(the unbiased variance of one value is undefined), "
                     "but ")
            << xType << " has N x spatial size 1";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    patterns.add<InferenceToKernels, TrainingToKernels, BackwardToKernels>(
        &getContext());
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(func, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
