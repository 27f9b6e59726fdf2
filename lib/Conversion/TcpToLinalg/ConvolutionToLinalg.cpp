//===- ConvolutionToLinalg.cpp - tcp convolutions to linalg.generic -------===//
//
// A conv2d or conv3d that no cuDNN graph took (f64, or fp32 with
// fuse-fp32=false) becomes one all-parallel generic over the output (n, k,
// then the spatial dims), as the pools do: its body walks the window with
// scf.for loops over each spatial tap and the group's input channels c,
// reading input and weight with tensor.extract. Taps in the padding read a
// clamped in-bounds element and are replaced by 0 with arith.select, so the
// result is torch.nn.functional.conv2d's / conv3d's (stride, padding,
// dilation, groups). A conv_transpose2d gathers, per output element, the
// taps whose input coordinate is whole (conv_transpose2d's). f16/bf16
// accumulate in f32 and round once.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <functional>
#include <type_traits>

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {
/// The static sizes and window attributes of one convolution, one entry
/// per spatial dim.
struct ConvParams {
  SmallVector<int64_t, 3> inSize; // (D,) H, W
  SmallVector<int64_t, 3> kernel; // (T,) R, S
  SmallVector<int64_t, 3> stride;
  SmallVector<int64_t, 3> padLo; // (front,) top, left
  SmallVector<int64_t, 3> dilation;
  int64_t groupInputs;  // C / groups (weight dim 1; dim 0 / groups when
                        // transposed)
  int64_t groupOutputs; // K / groups (weight dim 1 when transposed)
  int64_t groups;
  /// A transposed convolution (tcp.conv_transpose2d): the input is
  /// scattered, so each output element gathers the taps whose input
  /// coordinate (out + pad - tap * dilation) / stride is whole.
  bool transposed = false;
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

/// The input coordinate along spatial dim `s` that tap `tap` of a
/// transposed convolution scatters to output index `out`: (out + pad_lo -
/// tap * dilation) / stride, clamped into the input, and whether it is
/// whole and inside.
static std::pair<Value, Value> transposedCoordinate(OpBuilder &b, Location loc,
                                                    const ConvParams &p, int s,
                                                    Value out, Value tap) {
  Value offset =
      arith::MulIOp::create(b, loc, tap, indexConst(b, loc, p.dilation[s]));
  Value shifted =
      arith::AddIOp::create(b, loc, out, indexConst(b, loc, p.padLo[s]));
  Value at = arith::SubIOp::create(b, loc, shifted, offset);
  Value zero = indexConst(b, loc, 0);
  Value stride = indexConst(b, loc, p.stride[s]);
  Value nonNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, at, zero);
  Value clampedAt = arith::MaxSIOp::create(b, loc, at, zero);
  Value whole = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, clampedAt, stride), zero);
  Value in = arith::DivUIOp::create(b, loc, clampedAt, stride);
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, in,
                                      indexConst(b, loc, p.inSize[s]));
  Value inside = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, nonNegative, whole), below);
  Value clamped = arith::MinSIOp::create(b, loc, in,
                                         indexConst(b, loc, p.inSize[s] - 1));
  return {clamped, inside};
}

/// One output element: the sum over (spatial taps..., c) of input *
/// weight, in `accType`. A transposed convolution reads the weight as
/// [group's input channel, output channel within the group, taps...].
static Value convolveAt(OpBuilder &b, Location loc, Value input, Value weight,
                        const ConvParams &p, Type accType) {
  int spatial = p.kernel.size();
  SmallVector<Value> out = loopIndices(b, loc, 2 + spatial); // n, k, o...
  Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1);
  // The first input channel of output channel k's group.
  Value firstChannel = zero;
  if (p.groups > 1) {
    Value group = arith::DivUIOp::create(b, loc, out[1],
                                         indexConst(b, loc, p.groupOutputs));
    firstChannel =
        arith::MulIOp::create(b, loc, group, indexConst(b, loc, p.groupInputs));
  }
  // The output channel within its group (a transposed weight's dim 1).
  Value outputInGroup = out[1];
  if (p.transposed && p.groups > 1)
    outputInGroup = arith::RemUIOp::create(
        b, loc, out[1], indexConst(b, loc, p.groupOutputs));
  SmallVector<Value> starts;
  for (int s = 0; s < spatial && !p.transposed; ++s)
    starts.push_back(windowStart(b, loc, p, s, out[2 + s]));
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
  // The loops over the taps of spatial dims s.., then the channels; `at`
  // and `taps` hold the outer dims' input coordinates and taps, `inside`
  // whether all of them lie inside the input.
  SmallVector<Value> at, taps;
  std::function<Value(OpBuilder &, Location, int, Value, Value)> walk =
      [&](OpBuilder &b, Location loc, int s, Value inside,
          Value acc) -> Value {
    if (s == spatial)
      return loop(b, loc, p.groupInputs, acc,
                  [&](OpBuilder &b, Location loc, Value c, Value acc) {
                    Value channel =
                        arith::AddIOp::create(b, loc, firstChannel, c);
                    SmallVector<Value> xAt = {out[0], channel};
                    SmallVector<Value> wAt =
                        p.transposed ? SmallVector<Value>{channel,
                                                          outputInGroup}
                                     : SmallVector<Value>{out[1], c};
                    xAt.append(at.begin(), at.end());
                    wAt.append(taps.begin(), taps.end());
                    Value x = tensor::ExtractOp::create(b, loc, input, xAt);
                    Value w = tensor::ExtractOp::create(b, loc, weight, wAt);
                    x = extendToCompute(b, loc, x);
                    w = extendToCompute(b, loc, w);
                    x = arith::SelectOp::create(b, loc, inside, x, accZero);
                    Value product = arith::MulFOp::create(b, loc, x, w);
                    return arith::AddFOp::create(b, loc, acc, product)
                        .getResult();
                  });
    return loop(b, loc, p.kernel[s], acc,
                [&](OpBuilder &b, Location loc, Value tap, Value acc) {
                  auto [coordinate, insideHere] =
                      p.transposed
                          ? transposedCoordinate(b, loc, p, s, out[2 + s], tap)
                          : inputCoordinate(b, loc, p, s, starts[s], tap);
                  Value both =
                      inside ? arith::AndIOp::create(b, loc, inside,
                                                     insideHere)
                                   .getResult()
                             : insideHere;
                  at.push_back(coordinate);
                  taps.push_back(tap);
                  Value result = walk(b, loc, s + 1, both, acc);
                  at.pop_back();
                  taps.pop_back();
                  return result;
                });
  };
  return walk(b, loc, 0, Value(), accZero);
}

namespace {
template <typename ConvOp>
struct ConvolutionToGeneric : public TcpToLinalgPattern<ConvOp> {
  using TcpToLinalgPattern<ConvOp>::TcpToLinalgPattern;

  LogicalResult lower(ConvOp op, PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto weightType = cast<RankedTensorType>(op.getWeight().getType());
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    int64_t spatial = op.getSpatialDimCount(), rank = spatial + 2;
    if (llvm::any_of(inType.getShape().drop_front(2), ShapedType::isDynamic) ||
        !weightType.hasStaticShape() ||
        llvm::any_of(outType.getShape().drop_front(), ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(
          op, "expects static shapes except the batch dimension N");
    ConvParams p;
    for (int64_t s = 0; s < spatial; ++s) {
      p.inSize.push_back(inType.getDimSize(2 + s));
      p.kernel.push_back(weightType.getDimSize(2 + s));
      p.stride.push_back(op.getStride()[s]);
      p.padLo.push_back(op.getPad()[2 * s]);
      p.dilation.push_back(op.getDilation()[s]);
    }
    p.groups = op.getGroupCount();
    p.transposed = std::is_same_v<ConvOp, tcp::ConvTranspose2DOp> ||
                   std::is_same_v<ConvOp, tcp::ConvTranspose3DOp>;
    p.groupInputs = p.transposed ? weightType.getDimSize(0) / p.groups
                                 : weightType.getDimSize(1);
    p.groupOutputs = p.transposed ? weightType.getDimSize(1)
                                  : weightType.getDimSize(0) / p.groups;

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
            rewriter.getMultiDimIdentityMap(rank), parallelIterators(rank),
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
  patterns.add<ConvolutionToGeneric<tcp::Conv2DOp>,
               ConvolutionToGeneric<tcp::Conv3DOp>,
               ConvolutionToGeneric<tcp::ConvTranspose2DOp>,
               ConvolutionToGeneric<tcp::ConvTranspose3DOp>>(
      patterns.getContext());
}
