//===- CudnnOps.cpp - cudnn dialect op verifiers --------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;
using mlir::cudnn_mlir::slidingWindowOutputSize;

#define GET_OP_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.cpp.inc"

/// A tensor and the descriptor that stands for it in a graph must agree on
/// shape and element type (the layout is the descriptor's business).
static LogicalResult verifyTensorMatchesDesc(Operation *op, Type tensor,
                                             TensorDescType desc,
                                             StringRef what, unsigned index) {
  auto tensorType = cast<RankedTensorType>(tensor);
  if (tensorType.getElementType() != desc.getElementType() ||
      tensorType.getRank() != desc.getRank() ||
      !llvm::all_of(llvm::zip(tensorType.getShape(), desc.getShape()),
                    [](auto dims) {
                      return extentsCompatible(std::get<0>(dims),
                                               std::get<1>(dims));
                    }))
    return op->emitOpError("expects ")
           << what << " #" << index << " to have the shape and element type "
           << "of its tensor_desc " << desc << ", but got " << tensorType;
  return success();
}

LogicalResult BuildAndExecGraphOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getIns().size())
    return emitOpError("expects one block argument per tensor operand (")
           << getIns().size() << "), but got " << body.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto desc = dyn_cast<TensorDescType>(arg.getType());
    if (!desc)
      return emitOpError("expects block argument #")
             << i << " to be a !cudnn.tensor_desc, but got " << arg.getType();
    if (failed(verifyTensorMatchesDesc(*this, getIns()[i].getType(), desc,
                                       "operand", i)))
      return failure();
  }
  auto terminator = dyn_cast<BuildGraphOp>(body.getTerminator());
  if (!terminator)
    return emitOpError("expects the body to end in cudnn.build_graph, but it "
                       "does not");
  if (terminator.getOutputs().size() != getNumResults())
    return emitOpError("expects cudnn.build_graph to name ")
           << getNumResults() << " outputs (one per result), but got "
           << terminator.getOutputs().size();
  for (auto [i, output] : llvm::enumerate(terminator.getOutputs())) {
    if (failed(verifyTensorMatchesDesc(
            *this, getResult(i).getType(),
            cast<TensorDescType>(output.getType()), "result", i)))
      return failure();
  }
  return success();
}

LogicalResult ConvolutionOp::verify() {
  TensorDescType x = getX().getType(), w = getW().getType(),
                 y = getY().getType();
  int64_t spatial = getSpatialDimCount();
  if (spatial < 1 || spatial > 3)
    return emitOpError("expects spatial_dim_count 1, 2 or 3, but got ")
           << spatial;
  for (auto [name, desc] :
       {std::pair<StringRef, TensorDescType>{"x", x}, {"w", w}, {"y", y}}) {
    if (desc.getRank() != spatial + 2)
      return emitOpError("expects ")
             << name << " of rank spatial_dim_count + 2 = " << spatial + 2
             << ", but got " << desc.getRank();
  }
  for (auto [name, values] : {std::pair<StringRef, ArrayRef<int64_t>>{
                                  "spatial_stride", getSpatialStride()},
                              {"pre_padding", getPrePadding()},
                              {"post_padding", getPostPadding()},
                              {"dilation", getDilation()}}) {
    if (static_cast<int64_t>(values.size()) != spatial)
      return emitOpError("expects ")
             << name << " to have spatial_dim_count = " << spatial
             << " values, but got " << formatShape(values);
  }
  ArrayRef<int64_t> xs = x.getShape(), ws = w.getShape(), ys = y.getShape();
  if (!ShapedType::isDynamic(xs[1]) && !ShapedType::isDynamic(ws[1])) {
    if (xs[1] % ws[1] != 0)
      return emitOpError("expects x channels to be a multiple of w dim 1 "
                         "(channels per group) ")
             << ws[1] << ", but got " << xs[1];
    int64_t groups = xs[1] / ws[1];
    if (!ShapedType::isDynamic(ws[0]) && ws[0] % groups != 0)
      return emitOpError("expects w dim 0 (output channels) divisible by the ")
             << groups << " groups, but got " << ws[0];
  }
  SmallVector<int64_t> expected = {xs[0], ws[0]};
  for (int64_t s = 0; s < spatial; ++s) {
    std::optional<int64_t> size = slidingWindowOutputSize(
        xs[2 + s], ShapedType::isDynamic(ws[2 + s]) ? 1 : ws[2 + s],
        getPrePadding()[s], getPostPadding()[s], getSpatialStride()[s],
        getDilation()[s]);
    if (!size)
      return emitOpError("expects spatial_stride/dilation >= 1, paddings >= 0 "
                         "and a filter that fits the padded input, but got x ")
             << formatShape(xs) << " and w " << formatShape(ws);
    expected.push_back(ShapedType::isDynamic(ws[2 + s]) ? ShapedType::kDynamic
                                                        : *size);
  }
  for (int64_t d = 0; d < spatial + 2; ++d) {
    if (!extentsCompatible(expected[d], ys[d]))
      return emitOpError("expects y of shape ")
             << formatShape(expected) << ", but got " << formatShape(ys);
  }
  return success();
}
