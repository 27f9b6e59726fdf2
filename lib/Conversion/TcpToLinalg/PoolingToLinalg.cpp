//===- PoolingToLinalg.cpp - tcp pooling ops to linalg.generic ------------===//
//
// tcp.max_pool2d and tcp.avg_pool2d become one all-parallel generic over the
// output (n, c, oh, ow) whose body walks the window with two scf.for loops.
// Taps outside the input (padding, and the overhang ceil_mode allows) read a
// clamped in-bounds element and are replaced by the neutral value with
// arith.select, so the result matches torch.nn.functional's pooling:
// padding never wins a max, and the average divides by torch's divisor.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {
/// The window parameters of one pooling op, per spatial dim (h, w).
struct Window {
  int64_t inSize[2];
  int64_t kernel[2];
  int64_t stride[2];
  int64_t padLo[2];
  int64_t padHi[2];
  int64_t dilation[2];
};

/// The per-tap step of one pooling kind.
struct PoolKind {
  /// The accumulator's type and initial (and padding) value.
  Type accType;
  TypedAttr neutral;
  /// acc' = combine(acc, tap) for a tap already in accType.
  Value (*combine)(OpBuilder &, Location, Value acc, Value tap);
};
} // namespace

static Value indexConst(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The window origin along spatial dim `s` for output index `out`:
/// out * stride - pad_lo (negative inside the leading padding).
static Value windowStart(OpBuilder &b, Location loc, const Window &w, int s,
                         Value out) {
  Value scaled =
      arith::MulIOp::create(b, loc, out, indexConst(b, loc, w.stride[s]));
  return arith::SubIOp::create(b, loc, scaled, indexConst(b, loc, w.padLo[s]));
}

/// Folds every tap of the window at (n, c, oh, ow) into an accumulator.
static Value accumulateWindow(OpBuilder &b, Location loc, Value input,
                              const Window &w, const PoolKind &kind,
                              ArrayRef<Value> outIndices, Value starts[2]) {
  Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1);
  Value init = arith::ConstantOp::create(b, loc, kind.neutral);
  Value neutral = init;
  auto tapAt = [&](OpBuilder &b, Location loc, Value kh, Value kw) {
    Value taps[2] = {kh, kw};
    Value valid;
    SmallVector<Value> source = {outIndices[0], outIndices[1]};
    for (int s = 0; s < 2; ++s) {
      Value offset = arith::MulIOp::create(b, loc, taps[s],
                                           indexConst(b, loc, w.dilation[s]));
      Value at = arith::AddIOp::create(b, loc, starts[s], offset);
      Value size = indexConst(b, loc, w.inSize[s]);
      Value aboveLo =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, at, zero);
      Value belowHi =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, at, size);
      Value inside = arith::AndIOp::create(b, loc, aboveLo, belowHi);
      valid = valid ? arith::AndIOp::create(b, loc, valid, inside) : inside;
      Value last = indexConst(b, loc, w.inSize[s] - 1);
      Value clamped = arith::MaxSIOp::create(
          b, loc, arith::MinSIOp::create(b, loc, at, last), zero);
      source.push_back(clamped);
    }
    Value value = tensor::ExtractOp::create(b, loc, input, source);
    if (value.getType() != kind.accType)
      value = convertFloat(b, loc, value, kind.accType);
    return arith::SelectOp::create(b, loc, valid, value, neutral).getResult();
  };

  auto outer = scf::ForOp::create(
      b, loc, zero, indexConst(b, loc, w.kernel[0]), one, ValueRange{init},
      [&](OpBuilder &b, Location loc, Value kh, ValueRange accH) {
        auto inner = scf::ForOp::create(
            b, loc, zero, indexConst(b, loc, w.kernel[1]), one, accH,
            [&](OpBuilder &b, Location loc, Value kw, ValueRange accW) {
              Value tap = tapAt(b, loc, kh, kw);
              scf::YieldOp::create(b, loc, kind.combine(b, loc, accW[0], tap));
            });
        scf::YieldOp::create(b, loc, inner.getResults());
      });
  return outer.getResult(0);
}

/// torch's average-pool divisor at window origins `starts`, as `type`.
static Value avgDivisor(OpBuilder &b, Location loc, const Window &w,
                        bool countIncludePad, Value starts[2], Type type) {
  Value count;
  for (int s = 0; s < 2; ++s) {
    Value end = arith::AddIOp::create(b, loc, starts[s],
                                      indexConst(b, loc, w.kernel[s]));
    Value begin = starts[s];
    if (countIncludePad) {
      // The window, clipped to the padded input (ceil_mode's overhang does
      // not count).
      Value paddedEnd = indexConst(b, loc, w.inSize[s] + w.padHi[s]);
      end = arith::MinSIOp::create(b, loc, end, paddedEnd);
    } else {
      end =
          arith::MinSIOp::create(b, loc, end, indexConst(b, loc, w.inSize[s]));
      begin = arith::MaxSIOp::create(b, loc, begin, indexConst(b, loc, 0));
    }
    Value extent = arith::SubIOp::create(b, loc, end, begin);
    count = count ? arith::MulIOp::create(b, loc, count, extent) : extent;
  }
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return arith::SIToFPOp::create(b, loc, type, asInt);
}

/// Checks the static shapes pooling needs and fills `w`.
static LogicalResult getWindow(RankedTensorType inType,
                               RankedTensorType outType,
                               ArrayRef<int64_t> kernel,
                               ArrayRef<int64_t> stride, ArrayRef<int64_t> pad,
                               ArrayRef<int64_t> dilation, Window &w) {
  for (int64_t d : {2, 3})
    if (inType.isDynamicDim(d) || outType.isDynamicDim(d))
      return failure();
  for (int s = 0; s < 2; ++s) {
    w.inSize[s] = inType.getDimSize(2 + s);
    w.kernel[s] = kernel[s];
    w.stride[s] = stride[s];
    w.padLo[s] = pad[2 * s];
    w.padHi[s] = pad[2 * s + 1];
    w.dilation[s] = dilation[s];
  }
  return success();
}

/// The all-parallel generic over the output; `finish` turns the window's
/// accumulator into the output element.
static Value
buildPool(OpBuilder &b, Location loc, Value input, RankedTensorType outType,
          const Window &w, const PoolKind &kind,
          function_ref<Value(OpBuilder &, Location, Value, Value *)> finish) {
  Value init = createEmpty(b, loc, outType, [&](int64_t d) -> Value {
    return tensor::DimOp::create(b, loc, input, d);
  });
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{}, init,
             b.getMultiDimIdentityMap(4), parallelIterators(4),
             [&](OpBuilder &b, Location loc, ValueRange) {
               SmallVector<Value> out = loopIndices(b, loc, 4);
               Value starts[2] = {windowStart(b, loc, w, 0, out[2]),
                                  windowStart(b, loc, w, 1, out[3])};
               Value acc =
                   accumulateWindow(b, loc, input, w, kind, out, starts);
               linalg::YieldOp::create(b, loc, finish(b, loc, acc, starts));
             })
      .getResult(0);
}

namespace {
struct MaxPoolToGeneric : public TcpToLinalgPattern<tcp::MaxPool2DOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::MaxPool2DOp op,
                      PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getIn().getType());
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    Window w;
    if (failed(getWindow(inType, outType, op.getKernelSize(), op.getStride(),
                         op.getPad(), op.getDilationOrDefault(), w)))
      return rewriter.notifyMatchFailure(
          op, "expects static spatial dimensions (H, W)");
    // The max is exact in the element type; padding is -inf, which never
    // wins (and maximumf propagates NaN, as torch does).
    auto element = cast<FloatType>(inType.getElementType());
    PoolKind kind{
        element,
        rewriter.getFloatAttr(element,
                              APFloat::getInf(element.getFloatSemantics(),
                                              /*Negative=*/true)),
        [](OpBuilder &b, Location loc, Value acc, Value tap) -> Value {
          return arith::MaximumFOp::create(b, loc, acc, tap);
        }};
    Value result = buildPool(
        rewriter, op.getLoc(), op.getIn(), outType, w, kind,
        [](OpBuilder &, Location, Value acc, Value *) { return acc; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AvgPoolToGeneric : public TcpToLinalgPattern<tcp::AvgPool2DOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::AvgPool2DOp op,
                      PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getIn().getType());
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    int64_t noDilation[] = {1, 1};
    Window w;
    if (failed(getWindow(inType, outType, op.getKernelSize(), op.getStride(),
                         op.getPad(), noDilation, w)))
      return rewriter.notifyMatchFailure(
          op, "expects static spatial dimensions (H, W)");
    Type element = inType.getElementType();
    Type accType = computeType(element);
    PoolKind kind{
        accType, rewriter.getFloatAttr(accType, 0.0),
        [](OpBuilder &b, Location loc, Value acc, Value tap) -> Value {
          return arith::AddFOp::create(b, loc, acc, tap);
        }};
    bool countIncludePad = op.getCountIncludePad();
    Value result =
        buildPool(rewriter, op.getLoc(), op.getIn(), outType, w, kind,
                  [&](OpBuilder &b, Location loc, Value acc, Value *starts) {
                    Value divisor =
                        avgDivisor(b, loc, w, countIncludePad, starts, accType);
                    Value mean = arith::DivFOp::create(b, loc, acc, divisor);
                    return convertFloat(b, loc, mean, element);
                  });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populatePoolingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MaxPoolToGeneric, AvgPoolToGeneric>(patterns.getContext());
}
