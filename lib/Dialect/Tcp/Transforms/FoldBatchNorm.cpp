//===- FoldBatchNorm.cpp - inference batch norm after a conv --------------===//

#include "FoldBatchNorm.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcp;

namespace {

/// The per-channel values of a constant parameter, as doubles.
std::optional<SmallVector<double>> constantValues(Value value) {
  DenseFPElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<double> values;
  for (const APFloat &v : attr.getValues<APFloat>())
    values.push_back(v.convertToDouble());
  if (attr.isSplat())
    values.assign(attr.getNumElements(), values.front());
  return values;
}

DenseElementsAttr makeFloatAttr(RankedTensorType type, ArrayRef<double> values) {
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> converted;
  for (double v : values) {
    APFloat f(v);
    bool lostInfo;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lostInfo);
    converted.push_back(f);
  }
  return DenseElementsAttr::get(type, converted);
}

/// Turns a [C] vector into [1, C, 1, ...] (`like`'s rank) and broadcasts it
/// to `like`'s shape.
Value broadcastPerChannel(OpBuilder &b, Location loc, Value vector,
                          Value like) {
  auto likeType = cast<RankedTensorType>(like.getType());
  auto vectorType = cast<RankedTensorType>(vector.getType());
  int64_t channels = vectorType.getDimSize(0), rank = likeType.getRank();
  SmallVector<int64_t> expandedShape(rank, 1);
  expandedShape[1] = channels;
  auto expandedType =
      RankedTensorType::get(expandedShape, vectorType.getElementType());
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, expandedType, vector, ArrayRef<ReassociationIndices>{all});
  SmallVector<Value> sizes;
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == 1)
      continue;
    dims.push_back(d);
    if (likeType.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, like, d));
    else
      sizes.push_back(arith::ConstantIndexOp::create(b, loc, likeType.getDimSize(d)));
  }
  return BroadcastOp::create(b, loc, likeType.clone(vectorType.getElementType()),
                             expanded, sizes, b.getI64ArrayAttr(dims));
}

/// Folding with constant parameters: s and the shift are computed now; s
/// goes into the weight of `conv`, a tcp.conv2d or tcp.conv3d (null when a
/// bias add comes between). Returns false when some parameter is not
/// constant.
bool foldConstant(BatchNormOp bn, Operation *conv) {
  auto scale = constantValues(bn.getScale());
  auto bias = constantValues(bn.getBias());
  auto mean = constantValues(bn.getRunningMean());
  auto var = constantValues(bn.getRunningVar());
  if (!scale || !bias || !mean || !var)
    return false;
  double eps = bn.getEpsilon().convertToDouble();
  size_t channels = scale->size();
  SmallVector<double> s(channels), shift(channels);
  for (size_t c = 0; c < channels; ++c) {
    s[c] = (*scale)[c] / std::sqrt((*var)[c] + eps);
    shift[c] = (*bias)[c] - (*mean)[c] * s[c];
  }

  OpBuilder b(bn);
  Location loc = bn.getLoc();
  auto outType = bn.getY().getType();
  auto vectorType = RankedTensorType::get({static_cast<int64_t>(channels)},
                                          outType.getElementType());
  Value y = bn.getX();
  auto weight = conv ? conv->getOperand(1).getDefiningOp<ConstOp>() : ConstOp();
  DenseFPElementsAttr weights;
  if (weight && conv->getResult(0).hasOneUse() && weight->hasOneUse() &&
      matchPattern(weight.getOut(), m_Constant(&weights))) {
    // Scale each output channel (weight dim 0) of the weight.
    auto weightType = weight.getOut().getType();
    int64_t perChannel = weightType.getNumElements() / weightType.getDimSize(0);
    SmallVector<double> scaled;
    for (auto [i, v] : llvm::enumerate(weights.getValues<APFloat>()))
      scaled.push_back(v.convertToDouble() * s[i / perChannel]);
    b.setInsertionPoint(weight);
    Value newWeight = ConstOp::create(b, weight.getLoc(), weightType,
                                      makeFloatAttr(weightType, scaled));
    weight.replaceAllUsesWith(newWeight);
    weight.erase();
  } else {
    b.setInsertionPoint(bn);
    Value sVector = ConstOp::create(b, loc, vectorType,
                                    makeFloatAttr(vectorType, s));
    y = MulOp::create(b, loc, outType, y,
                      broadcastPerChannel(b, loc, sVector, y));
  }
  b.setInsertionPoint(bn);
  Value shiftVector = ConstOp::create(b, loc, vectorType,
                                      makeFloatAttr(vectorType, shift));
  Value result = AddOp::create(b, loc, outType, y,
                               broadcastPerChannel(b, loc, shiftVector, y));
  bn.getY().replaceAllUsesWith(result);
  bn.erase();
  return true;
}

/// Folding with parameters known only at run time: s and the shift (or
/// -mean) are tcp ops on the C-element parameters (left to the
/// code-generation path), the conv gets a per-channel epilogue. They are
/// computed in f32 whatever the parameters' type, as PyTorch's batch norm
/// does for f16/bf16 ones (in f16, var + eps, its square root and the
/// division would each round to 11 bits), and rounded to the activation
/// type once.
void foldDynamic(BatchNormOp bn, BatchNormFoldForm form) {
  OpBuilder b(bn);
  Location loc = bn.getLoc();
  auto paramType = cast<RankedTensorType>(bn.getScale().getType())
                       .clone(b.getF32Type());
  auto inF32 = [&](Value param) {
    return castElementsTo(b, loc, param, paramType.getElementType());
  };
  Value eps = ConstOp::create(
      b, loc, paramType,
      makeFloatAttr(paramType, SmallVector<double>(
                                   paramType.getDimSize(0),
                                   bn.getEpsilon().convertToDouble())));
  Value varEps =
      AddOp::create(b, loc, paramType, inF32(bn.getRunningVar()), eps);
  Value stddev = SqrtOp::create(b, loc, paramType, varEps);
  Value s = DivFOp::create(b, loc, paramType, inF32(bn.getScale()), stddev);

  Value x = bn.getX();
  auto outType = bn.getY().getType();
  // y = x op v, v a per-channel f32 vector rounded to the activation type.
  auto apply = [&](auto opTag, Value y, Value vector) -> Value {
    using OpT = decltype(opTag);
    return OpT::create(
        b, loc, outType, y,
        broadcastPerChannel(
            b, loc, castElementsTo(b, loc, vector, outType.getElementType()),
            x));
  };
  Value result;
  if (form == BatchNormFoldForm::Centered) {
    Value negMean =
        NegOp::create(b, loc, paramType, inF32(bn.getRunningMean()));
    Value centered = apply(AddOp(), x, negMean);
    result = apply(AddOp(), apply(MulOp(), centered, s), inF32(bn.getBias()));
  } else {
    Value meanS =
        MulOp::create(b, loc, paramType, inF32(bn.getRunningMean()), s);
    Value shift =
        SubOp::create(b, loc, paramType, inF32(bn.getBias()), meanS);
    result = apply(AddOp(), apply(MulOp(), x, s), shift);
  }
  bn.getY().replaceAllUsesWith(result);
  bn.erase();
}

/// Whether `value` is a conv's result plus something: a conv with a bias
/// (Conv2d(bias=True), as in VGG-bn), whose add the batch norm's mul and
/// add follow into the conv's epilogue.
bool isConvPlusBias(Value value) {
  auto add = value.getDefiningOp<AddOp>();
  return add && llvm::any_of(add->getOperands(), [](Value operand) {
           Operation *def = operand.getDefiningOp();
           return def && isConvolution(def);
         });
}

} // namespace

void mlir::tcp::foldBatchNormsAfterConvs(Operation *root,
                                         BatchNormFoldForm form) {
  // The conv that `bn` reads directly, or null.
  auto convBefore = [](BatchNormOp bn) -> Operation * {
    Operation *def = bn.getX().getDefiningOp();
    return def && isConvolution(def) ? def : nullptr;
  };
  SmallVector<BatchNormOp> norms;
  root->walk([&](BatchNormOp bn) {
    // A static channel count is needed for the per-channel vectors.
    if ((convBefore(bn) || isConvPlusBias(bn.getX())) &&
        bn.getScale().getType().hasStaticShape())
      norms.push_back(bn);
  });
  for (BatchNormOp bn : norms) {
    if (!foldConstant(bn, convBefore(bn)))
      foldDynamic(bn, form);
  }
}
