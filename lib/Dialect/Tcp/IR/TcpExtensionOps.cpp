//===- TcpExtensionOps.cpp - verifiers of cudnn-mlir's tcp extensions -----===//

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

using namespace mlir;
using namespace mlir::tcp;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;
using mlir::cudnn_mlir::slidingWindowOutputSize;

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() {
  auto inputType = getInput().getType();
  auto weightType = getWeight().getType();
  auto outType = getOut().getType();
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{
                                "input", inputType},
                            {"weight", weightType},
                            {"result", outType}}) {
    if (type.getRank() != 4)
      return emitOpError("expects a rank-4 ")
             << name << " (NCHW / KCRS), but got " << type;
  }
  if (getStride().size() != 2)
    return emitOpError("expects 2 stride values [h, w], but got ")
           << getStride().size();
  if (getDilation().size() != 2)
    return emitOpError("expects 2 dilation values [h, w], but got ")
           << getDilation().size();
  if (getPad().size() != 4)
    return emitOpError("expects 4 pad values [top, bottom, left, right], but "
                       "got ")
           << getPad().size();
  int64_t groups = getGroupCount();
  if (groups < 1)
    return emitOpError("expects groups >= 1, but got ") << groups;

  ArrayRef<int64_t> in = inputType.getShape(), w = weightType.getShape(),
                    out = outType.getShape();
  if (!ShapedType::isDynamic(in[1]) && in[1] % groups != 0)
    return emitOpError("expects input channels divisible by groups ")
           << groups << ", but got " << in[1];
  if (!ShapedType::isDynamic(w[0]) && w[0] % groups != 0)
    return emitOpError("expects output channels (weight dim 0) divisible by "
                       "groups ")
           << groups << ", but got " << w[0];
  if (!ShapedType::isDynamic(in[1]) &&
      !extentsCompatible(w[1], in[1] / groups))
    return emitOpError("expects weight dim 1 to be input channels / groups = ")
           << in[1] / groups << ", but got " << w[1];

  SmallVector<int64_t> expected = {in[0], w[0]};
  for (int s = 0; s < 2; ++s) {
    if (ShapedType::isDynamic(w[2 + s])) {
      expected.push_back(ShapedType::kDynamic);
      continue;
    }
    std::optional<int64_t> size = slidingWindowOutputSize(
        in[2 + s], w[2 + s], getPad()[2 * s], getPad()[2 * s + 1],
        getStride()[s], getDilation()[s]);
    if (!size)
      return emitOpError("expects stride/dilation >= 1, pad >= 0 and a "
                         "window that fits the padded input, but got input ")
             << formatShape(in) << ", weight " << formatShape(w)
             << ", stride " << formatShape(getStride()) << ", pad "
             << formatShape(getPad()) << ", dilation "
             << formatShape(getDilation());
    expected.push_back(*size);
  }
  for (int d = 0; d < 4; ++d) {
    if (!extentsCompatible(expected[d], out[d]))
      return emitOpError("expects result shape ")
             << formatShape(expected) << ", but got " << formatShape(out);
  }
  return success();
}
