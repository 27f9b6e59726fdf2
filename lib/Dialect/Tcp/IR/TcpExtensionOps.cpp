//===- TcpExtensionOps.cpp - verifiers of cudnn-mlir's tcp extensions -----===//

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <string>

using namespace mlir;
using namespace mlir::tcp;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatExtent;
using mlir::cudnn_mlir::formatShape;
using mlir::cudnn_mlir::shapesCompatible;
using mlir::cudnn_mlir::slidingWindowOutputSize;


//===----------------------------------------------------------------------===//
// Conv2DOp, Conv3DOp, ConvTranspose2DOp, ConvTranspose3DOp
//===----------------------------------------------------------------------===//

/// Checks what every convolution shares: the three tensors' rank (`spatial`
/// + 2), one stride and dilation value per spatial dimension, two pad
/// values (before, after) each, and groups >= 1. `layout` names the
/// tensors' dims ("NCHW / KCRS") and `dims`, `padNames` the attributes'
/// order, for the messages.
template <typename ConvOp>
static LogicalResult verifyWindowAttributes(ConvOp op, int64_t spatial,
                                            StringRef layout, StringRef dims,
                                            StringRef padNames) {
  int64_t rank = spatial + 2;
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{
                                "input", op.getInput().getType()},
                            {"weight", op.getWeight().getType()},
                            {"result", op.getOut().getType()}}) {
    if (type.getRank() != rank)
      return op.emitOpError("expects a rank-")
             << rank << " " << name << " (" << layout << "), but got "
             << type;
  }
  if (static_cast<int64_t>(op.getStride().size()) != spatial)
    return op.emitOpError("expects ")
           << spatial << " stride values " << dims << ", but got "
           << op.getStride().size();
  if (static_cast<int64_t>(op.getDilation().size()) != spatial)
    return op.emitOpError("expects ")
           << spatial << " dilation values " << dims << ", but got "
           << op.getDilation().size();
  if (static_cast<int64_t>(op.getPad().size()) != 2 * spatial)
    return op.emitOpError("expects ")
           << 2 * spatial << " pad values " << padNames << ", but got "
           << op.getPad().size();
  if (op.getGroupCount() < 1)
    return op.emitOpError("expects groups >= 1, but got ")
           << op.getGroupCount();
  return success();
}

/// Checks a convolution over `spatial` trailing dimensions: the input is
/// [N, C, spatial...], the weight [K, C/groups, window...], the result
/// [N, K, out...].
template <typename ConvOp>
static LogicalResult verifyConvolution(ConvOp op, int64_t spatial,
                                       StringRef layout, StringRef dims,
                                       StringRef padNames) {
  if (failed(verifyWindowAttributes(op, spatial, layout, dims, padNames)))
    return failure();
  int64_t groups = op.getGroupCount();
  ArrayRef<int64_t> in = op.getInput().getType().getShape(),
                    w = op.getWeight().getType().getShape(),
                    out = op.getOut().getType().getShape();
  if (!ShapedType::isDynamic(in[1]) && in[1] % groups != 0)
    return op.emitOpError("expects input channels divisible by groups ")
           << groups << ", but got " << in[1];
  if (!ShapedType::isDynamic(w[0]) && w[0] % groups != 0)
    return op.emitOpError("expects output channels (weight dim 0) divisible "
                          "by groups ")
           << groups << ", but got " << w[0];
  if (!ShapedType::isDynamic(in[1]) &&
      !extentsCompatible(w[1], in[1] / groups))
    return op.emitOpError(
               "expects weight dim 1 to be input channels / groups = ")
           << in[1] / groups << ", but got " << w[1];

  SmallVector<int64_t> expected = {in[0], w[0]};
  for (int64_t s = 0; s < spatial; ++s) {
    if (ShapedType::isDynamic(w[2 + s])) {
      expected.push_back(ShapedType::kDynamic);
      continue;
    }
    std::optional<int64_t> size = slidingWindowOutputSize(
        in[2 + s], w[2 + s], op.getPad()[2 * s], op.getPad()[2 * s + 1],
        op.getStride()[s], op.getDilation()[s]);
    if (!size)
      return op.emitOpError("expects stride/dilation >= 1, pad >= 0 and a "
                            "window that fits the padded input, but got "
                            "input ")
             << formatShape(in) << ", weight " << formatShape(w)
             << ", stride " << formatShape(op.getStride()) << ", pad "
             << formatShape(op.getPad()) << ", dilation "
             << formatShape(op.getDilation());
    expected.push_back(*size);
  }
  for (int64_t d = 0; d < spatial + 2; ++d) {
    if (!extentsCompatible(expected[d], out[d]))
      return op.emitOpError("expects result shape ")
             << formatShape(expected) << ", but got " << formatShape(out);
  }
  return success();
}

/// Checks a transposed convolution: input [N, Cin, spatial...], weight
/// [Cin, Cout/groups, window...], result [N, Cout, out...] with each out
/// the transposed size plus an extra below the stride; a conv2d of the
/// result gives the input's size back.
template <typename ConvOp>
static LogicalResult
verifyTransposedConvolution(ConvOp op, int64_t spatial, StringRef layout,
                            StringRef dims, StringRef padNames) {
  if (failed(verifyWindowAttributes(op, spatial, layout, dims, padNames)))
    return failure();
  int64_t groups = op.getGroupCount();
  ArrayRef<int64_t> in = op.getInput().getType().getShape(),
                    w = op.getWeight().getType().getShape(),
                    out = op.getOut().getType().getShape();
  if (!ShapedType::isDynamic(in[1]) && !extentsCompatible(w[0], in[1]))
    return op.emitOpError("expects weight dim 0 to be the input channels ")
           << in[1] << ", but got " << w[0];
  if (!ShapedType::isDynamic(w[0]) && w[0] % groups != 0)
    return op.emitOpError("expects input channels (weight dim 0) divisible "
                          "by groups ")
           << groups << ", but got " << w[0];
  if (!ShapedType::isDynamic(w[1]) && !ShapedType::isDynamic(out[1]) &&
      out[1] != w[1] * groups)
    return op.emitOpError("expects result channels weight dim 1 * groups = ")
           << w[1] * groups << ", but got " << out[1];
  if (!extentsCompatible(in[0], out[0]))
    return op.emitOpError("expects the result's batch ")
           << formatExtent(in[0]) << ", but got " << formatExtent(out[0]);
  for (int64_t s = 0; s < spatial; ++s) {
    int64_t stride = op.getStride()[s], dilation = op.getDilation()[s];
    int64_t lo = op.getPad()[2 * s], hi = op.getPad()[2 * s + 1];
    if (stride < 1 || dilation < 1 || lo < 0 || hi < 0)
      return op.emitOpError("expects stride/dilation >= 1 and pad >= 0, but "
                            "got stride ")
             << formatShape(op.getStride()) << ", pad "
             << formatShape(op.getPad()) << ", dilation "
             << formatShape(op.getDilation());
    if (ShapedType::isDynamic(in[2 + s]) || ShapedType::isDynamic(w[2 + s]) ||
        ShapedType::isDynamic(out[2 + s]))
      continue;
    int64_t base = (in[2 + s] - 1) * stride - lo - hi +
                   dilation * (w[2 + s] - 1) + 1;
    if (base < 1 || out[2 + s] < base || out[2 + s] >= base + stride)
      return op.emitOpError("expects result spatial dim ")
             << s << " in [" << base << ", " << base + stride - 1
             << "] ((in - 1) * stride - pads + dilation * (k - 1) + 1, "
                "plus an output padding below the stride), but got "
             << out[2 + s];
  }
  return success();
}

LogicalResult Conv2DOp::verify() {
  return verifyConvolution(*this, 2, "NCHW / KCRS", "[h, w]",
                           "[top, bottom, left, right]");
}

LogicalResult Conv3DOp::verify() {
  return verifyConvolution(*this, 3, "NCDHW / KCTRS", "[d, h, w]",
                           "[front, back, top, bottom, left, right]");
}

LogicalResult ConvTranspose2DOp::verify() {
  return verifyTransposedConvolution(*this, 2, "NCHW / CKRS", "[h, w]",
                                     "[top, bottom, left, right]");
}

LogicalResult ConvTranspose3DOp::verify() {
  return verifyTransposedConvolution(
      *this, 3, "NCDHW / CKTRS", "[d, h, w]",
      "[front, back, top, bottom, left, right]");
}

//===----------------------------------------------------------------------===//
// MatmulOp, BatchMatmulOp
//===----------------------------------------------------------------------===//

/// Checks `out = lhs x rhs` over the two trailing dimensions, with every
/// leading dimension a batch dimension that all three tensors share.
static LogicalResult verifyContraction(Operation *op, RankedTensorType lhs,
                                       RankedTensorType rhs,
                                       RankedTensorType out, bool batched) {
  int64_t rank = lhs.getRank();
  bool ranksOk = rhs.getRank() == rank && out.getRank() == rank &&
                 (batched ? rank >= 3 : rank == 2);
  if (!ranksOk)
    return op->emitOpError("expects lhs, rhs and result of ")
           << (batched ? "one rank >= 3" : "rank 2") << ", but got " << lhs
           << ", " << rhs << " and " << out;

  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  SmallVector<int64_t> expected;
  for (int64_t d = 0; d < rank - 2; ++d) {
    if (!extentsCompatible(l[d], r[d]))
      return op->emitOpError("expects equal batch dimensions, but got lhs ")
             << formatShape(l) << " and rhs " << formatShape(r);
    expected.push_back(ShapedType::isDynamic(l[d]) ? r[d] : l[d]);
  }
  if (!extentsCompatible(l[rank - 1], r[rank - 2]))
    return op->emitOpError("expects the contraction dimension K of lhs ")
           << formatShape(l) << " and rhs " << formatShape(r)
           << " to match, but got " << formatExtent(l[rank - 1]) << " and "
           << formatExtent(r[rank - 2]);
  expected.push_back(l[rank - 2]);
  expected.push_back(r[rank - 1]);
  if (!shapesCompatible(expected, out.getShape()))
    return op->emitOpError("expects result shape ")
           << formatShape(expected) << ", but got "
           << formatShape(out.getShape());
  return success();
}

LogicalResult MatmulOp::verify() {
  return verifyContraction(*this, getLhs().getType(), getRhs().getType(),
                           getOut().getType(), /*batched=*/false);
}

LogicalResult BatchMatmulOp::verify() {
  return verifyContraction(*this, getLhs().getType(), getRhs().getType(),
                           getOut().getType(), /*batched=*/true);
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

static LogicalResult verifyEpsilon(Operation *op, APFloat epsilon) {
  // Written so that NaN fails too.
  if (!(epsilon.convertToDouble() >= 0.0))
    return op->emitOpError("expects epsilon >= 0, but got ")
           << epsilon.convertToDouble();
  return success();
}

/// Checks the shapes that every batch-norm form shares: `x` is N x C x ...
/// and the per-channel tensors (one type, by the op's traits) hold C values.
static LogicalResult verifyBatchNormShapes(Operation *op, RankedTensorType x,
                                           RankedTensorType perChannel) {
  if (x.getRank() < 2)
    return op->emitOpError("expects x of rank >= 2 (N x C x ...), but got ")
           << x;
  if (perChannel.getRank() != 1)
    return op->emitOpError("expects rank-1 per-channel tensors, but got ")
           << perChannel;
  if (!extentsCompatible(x.getDimSize(1), perChannel.getDimSize(0)))
    return op->emitOpError("expects per-channel tensors of x's channel count ")
           << formatExtent(x.getDimSize(1)) << " (x dim 1), but got "
           << formatExtent(perChannel.getDimSize(0));
  return success();
}

LogicalResult BatchNormOp::verify() {
  if (failed(verifyBatchNormShapes(*this, getX().getType(),
                                   getScale().getType())))
    return failure();
  return verifyEpsilon(*this, getEpsilonAttr().getValue());
}

LogicalResult BatchNormTrainingOp::verify() {
  if (failed(verifyBatchNormShapes(*this, getX().getType(),
                                   getScale().getType())) ||
      failed(verifyEpsilon(*this, getEpsilonAttr().getValue())))
    return failure();
  double momentum = getMomentumAttr().getValueAsDouble();
  if (!(momentum >= 0.0 && momentum <= 1.0))
    return emitOpError("expects momentum in [0, 1], but got ") << momentum;
  return success();
}

LogicalResult BatchNormBackwardOp::verify() {
  return verifyBatchNormShapes(*this, getX().getType(), getScale().getType());
}

/// Checks a layer norm over the trailing `normalizedRank` dimensions of `x`:
/// the optional affine parameters have exactly that normalized shape, and the
/// optional statistics have x's shape with the normalized dimensions as 1.
static LogicalResult verifyLayerNorm(Operation *op, RankedTensorType x,
                                     Value scale, Value bias,
                                     int64_t normalizedRank, APFloat epsilon,
                                     RankedTensorType stats = {}) {
  int64_t rank = x.getRank();
  if (normalizedRank < 1 || normalizedRank > rank)
    return op->emitOpError("expects normalized_rank in [1, ")
           << rank << "] (the rank of x), but got " << normalizedRank;
  ArrayRef<int64_t> normalized = x.getShape().take_back(normalizedRank);
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"scale", scale}, {"bias", bias}}) {
    if (!value)
      continue;
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(value.getType()).getShape();
    if (!shapesCompatible(shape, normalized))
      return op->emitOpError("expects ")
             << name << " of the normalized shape " << formatShape(normalized)
             << ", but got " << formatShape(shape);
  }
  if (failed(verifyEpsilon(op, epsilon)))
    return failure();
  if (!stats)
    return success();
  SmallVector<int64_t> expected(x.getShape());
  std::fill(expected.end() - normalizedRank, expected.end(), 1);
  ArrayRef<int64_t> got = stats.getShape();
  if (!shapesCompatible(got, expected))
    return op->emitOpError("expects mean and rstd of shape ")
           << formatShape(expected) << ", but got " << formatShape(got);
  return success();
}

LogicalResult LayerNormOp::verify() {
  return verifyLayerNorm(*this, getX().getType(), getScale(), getBias(),
                         getNormalizedRank(), getEpsilonAttr().getValue());
}

LogicalResult LayerNormTrainingOp::verify() {
  return verifyLayerNorm(*this, getX().getType(), getScale(), getBias(),
                         getNormalizedRank(), getEpsilonAttr().getValue(),
                         getMean().getType());
}

//===----------------------------------------------------------------------===//
// MaxPool2DOp, AvgPool2DOp
//===----------------------------------------------------------------------===//

/// One spatial output extent of a pooling window. In ceil mode the division
/// rounds up (an extra stride - 1 of high padding), but, as in PyTorch, a
/// last window that would start inside the high padding is dropped.
static std::optional<int64_t> poolOutputSize(int64_t in, int64_t window,
                                             int64_t padLo, int64_t padHi,
                                             int64_t stride, int64_t dilation,
                                             bool ceilMode) {
  if (!ceilMode || stride < 1)
    return slidingWindowOutputSize(in, window, padLo, padHi, stride, dilation);
  int64_t roundUpPadHi;
  if (llvm::AddOverflow(padHi, stride - 1, roundUpPadHi))
    return std::nullopt;
  std::optional<int64_t> size = slidingWindowOutputSize(
      in, window, padLo, roundUpPadHi, stride, dilation);
  if (!size || ShapedType::isDynamic(*size))
    return size;
  if ((*size - 1) * stride >= in + padLo)
    --*size;
  if (*size < 1)
    return std::nullopt;
  return size;
}

static LogicalResult verifyPool2D(Operation *op, RankedTensorType inType,
                                  RankedTensorType outType,
                                  ArrayRef<int64_t> kernel,
                                  ArrayRef<int64_t> stride,
                                  ArrayRef<int64_t> pad,
                                  ArrayRef<int64_t> dilation, bool ceilMode) {
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{
                                "input", inType},
                            {"result", outType}}) {
    if (type.getRank() != 4)
      return op->emitOpError("expects a rank-4 (NCHW) ")
             << name << ", but got " << type;
  }
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"kernel_size", kernel},
        {"stride", stride},
        {"dilation", dilation}}) {
    if (values.size() != 2)
      return op->emitOpError("expects 2 ")
             << name << " values [h, w], but got " << values.size();
  }
  if (pad.size() != 4)
    return op->emitOpError("expects 4 pad values [top, bottom, left, right], "
                           "but got ")
           << pad.size();

  ArrayRef<int64_t> in = inType.getShape(), out = outType.getShape();
  SmallVector<int64_t> expected = {in[0], in[1]};
  for (int s = 0; s < 2; ++s) {
    std::optional<int64_t> size =
        poolOutputSize(in[2 + s], kernel[s], pad[2 * s], pad[2 * s + 1],
                       stride[s], dilation[s], ceilMode);
    if (!size)
      return op->emitOpError("expects kernel_size/stride/dilation >= 1, pad "
                             ">= 0 and a window that fits the padded input, "
                             "but got input ")
             << formatShape(in) << ", kernel_size " << formatShape(kernel)
             << ", stride " << formatShape(stride) << ", pad "
             << formatShape(pad) << ", dilation " << formatShape(dilation);
    expected.push_back(*size);
  }
  if (!shapesCompatible(expected, out))
    return op->emitOpError("expects result shape ")
           << formatShape(expected) << ", but got " << formatShape(out);
  return success();
}

/// The input of a pool whose window is 1x1, moved by 1, over an unpadded
/// input of the result's type: each output is its one tap.
static OpFoldResult foldIdentityPool(Value in, Type outType,
                                     ArrayRef<int64_t> kernel,
                                     ArrayRef<int64_t> stride,
                                     ArrayRef<int64_t> pad) {
  auto isOne = [](int64_t v) { return v == 1; };
  auto isZero = [](int64_t v) { return v == 0; };
  if (in.getType() != outType || !llvm::all_of(kernel, isOne) ||
      !llvm::all_of(stride, isOne) || !llvm::all_of(pad, isZero))
    return {};
  return in;
}

OpFoldResult MaxPool2DOp::fold(FoldAdaptor) {
  return foldIdentityPool(getIn(), getOut().getType(), getKernelSize(),
                          getStride(), getPad());
}

OpFoldResult AvgPool2DOp::fold(FoldAdaptor) {
  return foldIdentityPool(getIn(), getOut().getType(), getKernelSize(),
                          getStride(), getPad());
}

LogicalResult MaxPool2DOp::verify() {
  return verifyPool2D(*this, getIn().getType(), getOut().getType(),
                      getKernelSize(), getStride(), getPad(),
                      getDilationOrDefault(), getCeilMode());
}

LogicalResult AvgPool2DOp::verify() {
  int64_t noDilation[] = {1, 1};
  return verifyPool2D(*this, getIn().getType(), getOut().getType(),
                      getKernelSize(), getStride(), getPad(), noDilation,
                      getCeilMode());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult verifyReduction(Operation *op, RankedTensorType inType,
                                     RankedTensorType outType,
                                     ArrayRef<int64_t> axes, bool keepDims) {
  int64_t rank = inType.getRank();
  if (axes.empty())
    return op->emitOpError("expects at least one axis, but got none");
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < 0 || axis >= rank)
      return op->emitOpError("expects axes in [0, ")
             << rank << "), but got " << axis;
    if (i > 0 && axes[i - 1] >= axis)
      return op->emitOpError("expects strictly increasing axes, but got ")
             << formatShape(axes);
  }
  SmallVector<int64_t> expected;
  for (auto [d, size] : llvm::enumerate(inType.getShape())) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      expected.push_back(size);
    else if (keepDims)
      expected.push_back(1);
  }
  ArrayRef<int64_t> got = outType.getShape();
  if (!shapesCompatible(got, expected))
    return op->emitOpError("expects result shape ")
           << formatShape(expected) << ", but got " << formatShape(got);
  return success();
}

#define TCP_REDUCE_VERIFIER(OpClass)                                           \
  LogicalResult OpClass::verify() {                                            \
    return verifyReduction(*this, getIn().getType(), getOut().getType(),       \
                           getAxes(), getKeepDims());                          \
  }
TCP_REDUCE_VERIFIER(ReduceSumOp)
TCP_REDUCE_VERIFIER(ReduceMeanOp)
TCP_REDUCE_VERIFIER(ReduceMaxOp)
TCP_REDUCE_VERIFIER(ReduceMinOp)
#undef TCP_REDUCE_VERIFIER

//===----------------------------------------------------------------------===//
// GeluOp
//===----------------------------------------------------------------------===//

LogicalResult GeluOp::verify() {
  StringRef approximate = getApproximate();
  if (approximate != "none" && approximate != "tanh")
    return emitOpError("expects approximate to be \"none\" or \"tanh\", but "
                       "got \"")
           << approximate << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> perm = getPermutation();
  ArrayRef<int64_t> in = getIn().getType().getShape();
  ArrayRef<int64_t> out = getOut().getType().getShape();
  int64_t rank = in.size();
  if (static_cast<int64_t>(perm.size()) != rank)
    return emitOpError("expects a permutation of ")
           << rank << " values (the input rank), but got " << perm.size();
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return emitOpError("expects a permutation of [0, ")
             << rank << "), but got " << formatShape(perm);
    seen[p] = true;
  }
  SmallVector<int64_t> expected;
  for (int64_t p : perm)
    expected.push_back(in[p]);
  if (!shapesCompatible(out, expected))
    return emitOpError("expects result shape ")
           << formatShape(expected) << ", but got " << formatShape(out);
  return success();
}

//===----------------------------------------------------------------------===//
// CompareOp
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::verify() {
  Type element = getIn1().getType().getElementType();
  std::optional<Signedness> signedness = getInIntSignedness();
  if (!signedness)
    return success();
  if (!isa<IntegerType>(element) || element.isInteger(1))
    return emitOpError("expects in_int_signedness only for integer operands "
                       "wider than i1, but got ")
           << element;
  if (*signedness == Signedness::Signless)
    return emitOpError("expects in_int_signedness Signed or Unsigned (an "
                       "order to compare by), but got Signless");
  return success();
}
