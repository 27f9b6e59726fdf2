//===- ConvolutionToLinalg.cpp - tcp.conv2d to linalg.generic -------------===//
//
// A conv2d that no cuDNN graph took (f64, or fp32 with fuse-fp32=false)
// becomes one all-parallel generic over the output (n, k, oh, ow), as the
// pools do: its body walks the window with scf.for loops over kh, kw and
// the group's input channels c, reading input and weight with
// tensor.extract. Taps in the padding read a clamped in-bounds element and
// are replaced by 0 with arith.select, so the result is
// torch.nn.functional.conv2d's (stride, padding, dilation, groups).
// f16/bf16 accumulate in f32 and round once.
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
/// The static sizes and window attributes of one conv2d.
struct ConvParams {
  int64_t inSize[2]; // H, W
  int64_t kernel[2]; // R, S
  int64_t stride[2];
  int64_t padLo[2]; // top, left
  int64_t dilation[2];
  int64_t groupInputs;  // C / groups (weight dim 1)
  int64_t groupOutputs; // K / groups
  int64_t groups;
};
} // namespace

static Value indexConst(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The window origin along spatial dim `s` for output index `out`:
/// out * stride - pad_lo (negative inside the leading padding).
static Value windowStart(OpBuilder &b, Location loc, const ConvParams &p, int s,
                         Value out) {
  Value scaled =
      arith::MulIOp::create(b, loc, out, indexConst(b, loc, p.stride[s]));
  return arith::SubIOp::create(b, loc, scaled, indexConst(b, loc, p.padLo[s]));
}

/// The input coordinate along spatial dim `s` of tap `tap` for the window at
/// `start`, clamped into the input, and whether it lies inside (not
/// padding).
static std::pair<Value, Value> inputCoordinate(OpBuilder &b, Location loc,
                                               const ConvParams &p, int s,
                                               Value start, Value tap) {
  Value offset =
      arith::MulIOp::create(b, loc, tap, indexConst(b, loc, p.dilation[s]));
  Value at = arith::AddIOp::create(b, loc, start, offset);
  Value zero = indexConst(b, loc, 0);
  Value aboveLo =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, at, zero);
  Value belowHi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, at,
                                        indexConst(b, loc, p.inSize[s]));
  Value inside = arith::AndIOp::create(b, loc, aboveLo, belowHi);
  Value clamped = arith::MaxSIOp::create(
      b, loc,
      arith::MinSIOp::create(b, loc, at, indexConst(b, loc, p.inSize[s] - 1)),
      zero);
  return {clamped, inside};
}

/// One output element: the sum over (kh, kw, c) of input * weight, in
/// `accType`.
static Value convolveAt(OpBuilder &b, Location loc, Value input, Value weight,
                        const ConvParams &p, Type accType) {
  SmallVector<Value> out = loopIndices(b, loc, 4); // n, k, oh, ow
  Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1);
  // The first input channel of output channel k's group.
  Value firstChannel = zero;
  if (p.groups > 1) {
    Value group = arith::DivUIOp::create(b, loc, out[1],
                                         indexConst(b, loc, p.groupOutputs));
    firstChannel =
        arith::MulIOp::create(b, loc, group, indexConst(b, loc, p.groupInputs));
  }
  Value startH = windowStart(b, loc, p, 0, out[2]);
  Value startW = windowStart(b, loc, p, 1, out[3]);
  Value accZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));

  auto loop =
      [&](OpBuilder &b, Location loc, int64_t size, Value init,
          function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
        return scf::ForOp::create(
                   b, loc, zero, indexConst(b, loc, size), one,
                   ValueRange{init},
                   [&](OpBuilder &b, Location loc, Value iv, ValueRange acc) {
                     scf::YieldOp::create(b, loc, body(b, loc, iv, acc[0]));
                   })
            .getResult(0);
      };
  return loop(
      b, loc, p.kernel[0], accZero,
      [&](OpBuilder &b, Location loc, Value kh, Value acc) {
        auto [ih, insideH] = inputCoordinate(b, loc, p, 0, startH, kh);
        return loop(
            b, loc, p.kernel[1], acc,
            [&](OpBuilder &b, Location loc, Value kw, Value acc) {
              auto [iw, insideW] = inputCoordinate(b, loc, p, 1, startW, kw);
              Value inside = arith::AndIOp::create(b, loc, insideH, insideW);
              return loop(
                  b, loc, p.groupInputs, acc,
                  [&](OpBuilder &b, Location loc, Value c, Value acc) {
                    Value channel =
                        arith::AddIOp::create(b, loc, firstChannel, c);
                    Value x = tensor::ExtractOp::create(
                        b, loc, input, ValueRange{out[0], channel, ih, iw});
                    Value w = tensor::ExtractOp::create(
                        b, loc, weight, ValueRange{out[1], c, kh, kw});
                    x = extendToCompute(b, loc, x);
                    w = extendToCompute(b, loc, w);
                    x = arith::SelectOp::create(b, loc, inside, x, accZero);
                    Value product = arith::MulFOp::create(b, loc, x, w);
                    return arith::AddFOp::create(b, loc, acc, product)
                        .getResult();
                  });
            });
      });
}

namespace {
struct Conv2DToGeneric : public TcpToLinalgPattern<tcp::Conv2DOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::Conv2DOp op,
                      PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto weightType = cast<RankedTensorType>(op.getWeight().getType());
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    if (inType.isDynamicDim(2) || inType.isDynamicDim(3) ||
        !weightType.hasStaticShape() ||
        llvm::any_of(outType.getShape().drop_front(), ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(
          op, "expects static shapes except the batch dimension N");
    ConvParams p;
    for (int s = 0; s < 2; ++s) {
      p.inSize[s] = inType.getDimSize(2 + s);
      p.kernel[s] = weightType.getDimSize(2 + s);
      p.stride[s] = op.getStride()[s];
      p.padLo[s] = op.getPad()[2 * s];
      p.dilation[s] = op.getDilation()[s];
    }
    p.groups = op.getGroupCount();
    p.groupInputs = weightType.getDimSize(1);
    p.groupOutputs = weightType.getDimSize(0) / p.groups;

    Location loc = op.getLoc();
    Value input = op.getInput(), weight = op.getWeight();
    Type element = outType.getElementType();
    Type accType = computeType(element);
    Value init = createEmpty(rewriter, loc, outType, [&](int64_t d) -> Value {
      return tensor::DimOp::create(rewriter, loc, input, d);
    });
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{outType}, ValueRange{}, init,
            rewriter.getMultiDimIdentityMap(4), parallelIterators(4),
            [&](OpBuilder &b, Location loc, ValueRange) {
              Value acc = convolveAt(b, loc, input, weight, p, accType);
              linalg::YieldOp::create(b, loc,
                                      convertFloat(b, loc, acc, element));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateConvolutionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<Conv2DToGeneric>(patterns.getContext());
}
