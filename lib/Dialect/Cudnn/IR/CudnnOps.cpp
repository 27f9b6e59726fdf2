//===- CudnnOps.cpp - cudnn dialect op verifiers --------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;
using mlir::cudnn_mlir::slidingWindowOutputSize;

#define GET_OP_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.cpp.inc"

/// A tensor or buffer and the descriptor that stands for it in a graph must
/// agree on shape and element type, and its storage must be what the
/// descriptor's strides say: for a tensor its encoding (none = packed,
/// #cudnn.channels_last), for a memref its layout's strides.
static LogicalResult verifyValueMatchesDesc(Operation *op, Type type,
                                            TensorDescType desc,
                                            StringRef what, unsigned index,
                                            bool isInput) {
  auto shaped = cast<ShapedType>(type);
  if (desc.getOffset() != 0 && !isInput)
    return op->emitOpError("expects ")
           << what << " #" << index << " to start at its buffer's start, "
           << "but its tensor_desc has offset " << desc.getOffset();
  // A packed operand read through a view that rearranges it
  // (convert-tcp-to-cudnn folds a transpose of a matmul operand in its last
  // two dims, and the transposes and reshapes before attention's q, k and
  // v, into the descriptor's strides). One of the descriptor's own shape
  // is read so only through the transpose: other strides there are a
  // layout (channels-last) the operand must have. An input may also be a
  // window of a larger packed operand (q, k or v sliced out of a packed
  // qkv projection).
  auto memref = dyn_cast<MemRefType>(type);
  auto tensor = dyn_cast<RankedTensorType>(type);
  bool packed = memref ? memref.getLayout().isIdentity()
                       : tensor && !tensor.getEncoding();
  bool staticShapes = shaped.hasStaticShape() &&
                      llvm::none_of(desc.getShape(), ShapedType::isDynamic);
  // A window is marked by its offset or by strides spelled out over fewer
  // elements than the operand holds (the first of q, k, v).
  bool window =
      isInput && staticShapes &&
      (desc.getOffset() != 0 ||
       (!desc.getStride().empty() &&
        ShapedType::getNumElements(desc.getShape()) < shaped.getNumElements()));
  // A view of another shape whose strides happen to be the packed ones
  // (CaiT's single class-token query: [1, H, 1, D] over [1, H*D]) is a
  // reshape, and still a view.
  bool rearranged =
      (!desc.isPacked() && isTransposedViewOf(desc, shaped.getShape())) ||
      (shaped.getShape() != desc.getShape() && !desc.getStride().empty() &&
       isDenseViewOf(desc, shaped.getShape()));
  if (shaped.getElementType() == desc.getElementType() &&
      (window ? isWindowOf(desc, shaped.getShape()) : rearranged)) {
    if (!packed)
      return op->emitOpError("expects ")
             << what << " #" << index << ", read through a view, to be a "
             << (memref ? "packed buffer" : "packed tensor") << ", but got "
             << type;
    return success();
  }
  if (window)
    return op->emitOpError("expects ")
           << what << " #" << index << ", read as a window from offset "
           << desc.getOffset() << " with strides "
           << formatShape(desc.getEffectiveStrides())
           << ", to hold every element its tensor_desc " << desc
           << " addresses, but got " << type;
  if (shaped.getElementType() != desc.getElementType() ||
      shaped.getRank() != desc.getRank() ||
      !llvm::all_of(llvm::zip(shaped.getShape(), desc.getShape()),
                    [](auto dims) {
                      return extentsCompatible(std::get<0>(dims),
                                               std::get<1>(dims));
                    }))
    return op->emitOpError("expects ")
           << what << " #" << index << " to have the shape and element type "
           << "of its tensor_desc " << desc << ", but got " << type;
  if (memref) {
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    SmallVector<int64_t> wanted = desc.getEffectiveStrides();
    // The stride of an extent-1 dimension addresses nothing.
    auto sameBytes = [&] {
      for (auto [dim, have, want] :
           llvm::zip(memref.getShape(), strides, wanted))
        if (dim != 1 && have != want)
          return false;
      return true;
    };
    if (failed(memref.getStridesAndOffset(strides, offset)) || !sameBytes())
      return op->emitOpError("expects ")
             << what << " #" << index << " to have the strides of its "
             << "tensor_desc " << formatShape(desc.getEffectiveStrides())
             << ", but got " << type;
    return success();
  }
  bool channelsLast = isChannelsLast(tensor);
  if (channelsLast ? !desc.isChannelsLast() : !desc.isPacked())
    return op->emitOpError("expects ")
           << what << " #" << index << " to be stored as its tensor_desc's "
           << "strides say, but got a "
           << (channelsLast ? "#cudnn.channels_last" : "packed") << " tensor "
           << tensor << " for " << desc;
  return success();
}

/// The body of a graph op: one tensor_desc block argument per input, ending
/// in cudnn.build_graph with one output per result (or outs buffer).
static LogicalResult verifyGraphBody(Operation *op, Region &region,
                                     TypeRange inputs, TypeRange outputs,
                                     StringRef outputName) {
  Block &body = region.front();
  if (body.getNumArguments() != inputs.size())
    return op->emitOpError("expects one block argument per ")
           << (outputName == "result" ? "tensor operand" : "ins buffer")
           << " (" << inputs.size() << "), but got " << body.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto desc = dyn_cast<TensorDescType>(arg.getType());
    if (!desc)
      return op->emitOpError("expects block argument #")
             << i << " to be a !cudnn.tensor_desc, but got " << arg.getType();
    if (failed(verifyValueMatchesDesc(op, inputs[i], desc, "operand", i,
                                      /*isInput=*/true)))
      return failure();
  }
  auto terminator = dyn_cast<BuildGraphOp>(body.getTerminator());
  if (!terminator)
    return op->emitOpError("expects the body to end in cudnn.build_graph, "
                           "but it does not");
  // The body is a graph description: nothing but graph nodes.
  for (Operation &node : body.without_terminator())
    if (!isa_and_nonnull<CudnnDialect>(node.getDialect()) ||
        !llvm::all_of(node.getResultTypes(), llvm::IsaPred<TensorDescType>))
      return op->emitOpError("expects only cudnn graph ops in the body, but "
                             "got '")
             << node.getName() << "'";
  if (terminator.getOutputs().size() != outputs.size())
    return op->emitOpError("expects cudnn.build_graph to name ")
           << outputs.size() << " outputs (one per " << outputName
           << "), but got " << terminator.getOutputs().size();
  for (auto [i, output] : llvm::enumerate(terminator.getOutputs())) {
    if (failed(verifyValueMatchesDesc(op, outputs[i],
                                      cast<TensorDescType>(output.getType()),
                                      outputName, i, /*isInput=*/false)))
      return failure();
  }
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  RankedTensorType in = getIn().getType(), out = getOut().getType();
  if (in.getShape() != out.getShape() ||
      in.getElementType() != out.getElementType())
    return emitOpError("expects the same shape and element type on both "
                       "sides, but got ")
           << in << " and " << out;
  for (RankedTensorType type : {in, out}) {
    if (type.getEncoding() && !isChannelsLast(type))
      return emitOpError("expects no encoding or #cudnn.channels_last, but "
                         "got ")
             << type.getEncoding();
    if (isChannelsLast(type) && type.getRank() < 3)
      return emitOpError("expects rank >= 3 for #cudnn.channels_last (N, C, "
                         "spatial...), but got ")
             << type;
  }
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getIn().getType() == getOut().getType())
    return getIn();
  // A conversion back to where the previous one started is no conversion.
  if (auto previous = getIn().getDefiningOp<ConvertLayoutOp>())
    if (previous.getIn().getType() == getOut().getType())
      return previous.getIn();
  return {};
}

LogicalResult LayoutViewOp::verify() {
  RankedTensorType in = getIn().getType(), out = getOut().getType();
  RankedTensorType encoded = isChannelsLast(in) ? in : out;
  RankedTensorType packed = isChannelsLast(in) ? out : in;
  if (isChannelsLast(in) == isChannelsLast(out) || packed.getEncoding())
    return emitOpError("expects #cudnn.channels_last on exactly one side and "
                       "no encoding on the other, but got ")
           << in << " and " << out;
  if (encoded.getRank() < 3 || !encoded.hasStaticShape())
    return emitOpError("expects a static shape of rank >= 3 on the "
                       "channels-last side, but got ")
           << encoded;
  RankedTensorType storage = getStorageOrderType(encoded);
  if (packed != storage)
    return emitOpError("expects the packed side to be ")
           << storage << " (the channels-last side's storage order), but got "
           << packed;
  return success();
}

OpFoldResult LayoutViewOp::fold(FoldAdaptor) {
  if (auto previous = getIn().getDefiningOp<LayoutViewOp>())
    if (previous.getIn().getType() == getOut().getType())
      return previous.getIn();
  return {};
}

LogicalResult BuildAndExecGraphOp::verify() {
  return verifyGraphBody(*this, getBody(), getIns().getTypes(),
                         getOuts().getTypes(), "result");
}

void ExecuteGraphOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &in : getInsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &in,
                         SideEffects::DefaultResource::get());
  for (OpOperand &out : getOutsMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &out,
                         SideEffects::DefaultResource::get());
}

void ExecuteGraphOp::getSuccessorRegions(
    RegionBranchPoint, SmallVectorImpl<RegionSuccessor> &regions) {
  // Control never enters the body (a graph description) and passes nothing
  // back: `ran` is the op's own result.
  regions.push_back(
      RegionSuccessor(getOperation(), getOperation()->getResults().take_front(0)));
}

void ExecuteGraphOp::getSuccessorRegions(
    Region &, SmallVectorImpl<RegionSuccessor> &regions) {
  regions.push_back(
      RegionSuccessor(getOperation(), getOperation()->getResults().take_front(0)));
}

LogicalResult ExecuteGraphOp::verify() {
  return verifyGraphBody(*this, getBody(), getIns().getTypes(),
                         getOuts().getTypes(), "outs buffer");
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

namespace {
/// What the image, filter and output of a forward convolution are called in
/// the op being verified (dx/w/dy for backward data, x/dw/dy for backward
/// filter).
struct ConvRoles {
  StringRef x, w, y;
};
} // namespace

/// The forward convolution's shape rule, which all three convolutions share:
/// y = [N, K, out(x spatial)...] with the group count x channels / w dim 1.
template <typename ConvOpT>
static LogicalResult verifyConvolution(ConvOpT op, TensorDescType x,
                                       TensorDescType w, TensorDescType y,
                                       ConvRoles names) {
  int64_t spatial = op.getSpatialDimCount();
  if (spatial < 1 || spatial > 3)
    return op.emitOpError("expects spatial_dim_count 1, 2 or 3, but got ")
           << spatial;
  for (auto [name, desc] : {std::pair<StringRef, TensorDescType>{names.x, x},
                            {names.w, w},
                            {names.y, y}}) {
    if (desc.getRank() != spatial + 2)
      return op.emitOpError("expects ")
             << name << " of rank spatial_dim_count + 2 = " << spatial + 2
             << ", but got " << desc.getRank();
  }
  ArrayRef<int64_t> strides = op.getSpatialStride(),
                    pre = op.getPrePadding(), post = op.getPostPadding(),
                    dilation = op.getDilation();
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"spatial_stride", strides},
        {"pre_padding", pre},
        {"post_padding", post},
        {"dilation", dilation}}) {
    if (static_cast<int64_t>(values.size()) != spatial)
      return op.emitOpError("expects ")
             << name << " to have spatial_dim_count = " << spatial
             << " values, but got " << formatShape(values);
  }
  ArrayRef<int64_t> xs = x.getShape(), ws = w.getShape(), ys = y.getShape();
  if (!ShapedType::isDynamic(xs[1]) && !ShapedType::isDynamic(ws[1])) {
    if (xs[1] % ws[1] != 0)
      return op.emitOpError("expects ")
             << names.x << " channels to be a multiple of " << names.w
             << " dim 1 (channels per group) " << ws[1] << ", but got "
             << xs[1];
    int64_t groups = xs[1] / ws[1];
    if (!ShapedType::isDynamic(ws[0]) && ws[0] % groups != 0)
      return op.emitOpError("expects ")
             << names.w << " dim 0 (output channels) divisible by the "
             << groups << " groups, but got " << ws[0];
  }
  SmallVector<int64_t> expected = {xs[0], ws[0]};
  for (int64_t s = 0; s < spatial; ++s) {
    std::optional<int64_t> size = slidingWindowOutputSize(
        xs[2 + s], ShapedType::isDynamic(ws[2 + s]) ? 1 : ws[2 + s], pre[s],
        post[s], strides[s], dilation[s]);
    if (!size)
      return op.emitOpError("expects spatial_stride/dilation >= 1, paddings "
                            ">= 0 and a filter that fits the padded input, "
                            "but got ")
             << names.x << " " << formatShape(xs) << " and " << names.w
             << " " << formatShape(ws);
    expected.push_back(ShapedType::isDynamic(ws[2 + s]) ? ShapedType::kDynamic
                                                        : *size);
  }
  for (int64_t d = 0; d < spatial + 2; ++d) {
    if (!extentsCompatible(expected[d], ys[d]))
      return op.emitOpError("expects ")
             << names.y << " of shape " << formatShape(expected)
             << ", but got " << formatShape(ys);
  }
  return success();
}

LogicalResult ConvolutionOp::verify() {
  return verifyConvolution(*this, getX().getType(), getW().getType(),
                           getY().getType(), {"x", "w", "y"});
}

LogicalResult ConvolutionBackwardDataOp::verify() {
  return verifyConvolution(*this, getDx().getType(), getW().getType(),
                           getDy().getType(), {"dx", "w", "dy"});
}

LogicalResult ConvolutionBackwardFilterOp::verify() {
  return verifyConvolution(*this, getX().getType(), getDw().getType(),
                           getDy().getType(), {"x", "dw", "dy"});
}

//===----------------------------------------------------------------------===//
// Matmul, reduction, resample
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  ArrayRef<int64_t> a = getA().getType().getShape(),
                    b = getB().getType().getShape(),
                    c = getC().getType().getShape();
  if (a.size() < 2 || a.size() != b.size() || a.size() != c.size())
    return emitOpError("expects a, b and c of one rank >= 2, but got ranks ")
           << a.size() << ", " << b.size() << " and " << c.size();
  size_t rank = a.size();
  if (!extentsCompatible(a[rank - 1], b[rank - 2]))
    return emitOpError("expects a's dim -1 (K) to equal b's dim -2, but got "
                       "a ")
           << formatShape(a) << " and b " << formatShape(b);
  SmallVector<int64_t> expected;
  for (size_t d = 0; d + 2 < rank; ++d) {
    if (a[d] != 1 && b[d] != 1 && !extentsCompatible(a[d], b[d]))
      return emitOpError("expects each batch dim of a and b to be equal or "
                         "1, but got a ")
             << formatShape(a) << " and b " << formatShape(b);
    expected.push_back(a[d] == 1 ? b[d] : a[d]);
  }
  expected.push_back(a[rank - 2]);
  expected.push_back(b[rank - 1]);
  for (size_t d = 0; d < rank; ++d) {
    if (!extentsCompatible(expected[d], c[d]))
      return emitOpError("expects c of shape ")
             << formatShape(expected) << ", but got " << formatShape(c);
  }
  return success();
}

/// Reductions and statistics keep the rank and shrink dimensions to 1.
static LogicalResult verifyReducedShape(Operation *op, StringRef inName,
                                        TensorDescType in, StringRef outName,
                                        TensorDescType out) {
  ArrayRef<int64_t> is = in.getShape(), os = out.getShape();
  if (is.size() != os.size())
    return op->emitOpError("expects ")
           << outName << " of " << inName << "'s rank " << is.size()
           << ", but got " << os.size();
  for (size_t d = 0; d < is.size(); ++d) {
    if (os[d] != 1 && !extentsCompatible(is[d], os[d]))
      return op->emitOpError("expects each dim of ")
             << outName << " to equal " << inName << "'s " << formatShape(is)
             << " or be 1, but got " << formatShape(os);
  }
  return success();
}

LogicalResult ReductionOp::verify() {
  return verifyReducedShape(*this, "x", getX().getType(), "y",
                            getY().getType());
}

LogicalResult ResampleOp::verify() {
  ArrayRef<int64_t> window = getWindow(), strides = getSpatialStride(),
                    pre = getPrePadding(), post = getPostPadding();
  int64_t spatial = window.size();
  if (spatial < 1 || spatial > 3)
    return emitOpError("expects a window of 1 to 3 spatial dims, but got ")
           << formatShape(window);
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"spatial_stride", strides},
        {"pre_padding", pre},
        {"post_padding", post}}) {
    if (static_cast<int64_t>(values.size()) != spatial)
      return emitOpError("expects ")
             << name << " to have one value per window dim (" << spatial
             << "), but got " << formatShape(values);
  }
  ArrayRef<int64_t> xs = getX().getType().getShape(),
                    ys = getY().getType().getShape();
  for (auto [name, shape] : {std::pair<StringRef, ArrayRef<int64_t>>{"x", xs},
                             {"y", ys}}) {
    if (static_cast<int64_t>(shape.size()) != spatial + 2)
      return emitOpError("expects ")
             << name << " of rank window size + 2 = " << spatial + 2
             << ", but got " << shape.size();
  }
  SmallVector<int64_t> expected = {xs[0], xs[1]};
  for (int64_t s = 0; s < spatial; ++s) {
    std::optional<int64_t> size = slidingWindowOutputSize(
        xs[2 + s], window[s], pre[s], post[s], strides[s], /*dilation=*/1);
    if (!size)
      return emitOpError("expects spatial_stride >= 1, paddings >= 0 and a "
                         "window that fits the padded input, but got x ")
             << formatShape(xs) << " and window " << formatShape(window);
    expected.push_back(*size);
  }
  for (int64_t d = 0; d < spatial + 2; ++d) {
    if (!extentsCompatible(expected[d], ys[d]))
      return emitOpError("expects y of shape ")
             << formatShape(expected) << ", but got " << formatShape(ys);
  }
  return success();
}

LogicalResult SdpaOp::verify() {
  ArrayRef<int64_t> q = getQ().getType().getShape(),
                    k = getK().getType().getShape(),
                    v = getV().getType().getShape(),
                    o = getO().getType().getShape();
  for (auto [name, shape] : {std::pair<StringRef, ArrayRef<int64_t>>{"q", q},
                             {"k", k},
                             {"v", v},
                             {"o", o}})
    if (shape.size() != 4)
      return emitOpError("expects ")
             << name << " of rank 4 ([batch, heads, sequence, head dim]), "
             << "but got " << formatShape(shape);
  Type element = getQ().getType().getElementType();
  if (!element.isF16() && !element.isBF16())
    return emitOpError("expects q of f16 or bf16 (cuDNN's attention "
                       "inputs), but got ")
           << element;
  for (Value t : {getK(), getV(), getO()})
    if (cast<TensorDescType>(t.getType()).getElementType() != element)
      return emitOpError("expects q, k, v and o of one element type, ")
             << element << ", but got "
             << cast<TensorDescType>(t.getType()).getElementType();
  if (!extentsCompatible(q[0], k[0]) || !extentsCompatible(q[0], v[0]) ||
      !extentsCompatible(q[3], k[3]) || !extentsCompatible(k[1], v[1]) ||
      !extentsCompatible(k[2], v[2]))
    return emitOpError("expects k [B, Hk, Skv, D] and v [B, Hk, Skv, Dv] "
                       "for q [B, H, S, D], but got q ")
           << formatShape(q) << ", k " << formatShape(k) << " and v "
           << formatShape(v);
  SmallVector<int64_t> expected = {q[0], q[1], q[2], v[3]};
  for (int64_t d = 0; d < 4; ++d)
    if (!extentsCompatible(expected[d], o[d]))
      return emitOpError("expects o of shape ")
             << formatShape(expected) << ", but got " << formatShape(o);
  if (!ShapedType::isDynamic(q[1]) && !ShapedType::isDynamic(k[1]) &&
      q[1] % k[1] != 0)
    return emitOpError("expects q's heads to be a multiple of k's, but got ")
           << q[1] << " and " << k[1];
  if (Value bias = getBias()) {
    ArrayRef<int64_t> b = cast<TensorDescType>(bias.getType()).getShape();
    SmallVector<int64_t> scores = {q[0], q[1], q[2], k[2]};
    bool ok = b.size() == 4;
    for (int64_t d = 0; ok && d < 4; ++d)
      ok = b[d] == 1 || extentsCompatible(b[d], scores[d]);
    if (!ok)
      return emitOpError("expects a bias that broadcasts to the scores ")
             << formatShape(scores) << ", but got " << formatShape(b);
  }
  if (!std::isfinite(getScale().convertToDouble()))
    return emitOpError("expects a finite scale, but got ")
           << getScale().convertToDouble();
  return success();
}
