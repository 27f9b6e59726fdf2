//===- CudnnPointwiseOps.cpp - cudnn pointwise op verifiers ---------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;

LogicalResult mlir::cudnn::verifyPointwiseBroadcast(Operation *op) {
  if (op->getNumResults() != 1)
    return success();
  auto out = dyn_cast<TensorDescType>(op->getResult(0).getType());
  if (!out)
    return success();
  ArrayRef<int64_t> os = out.getShape();
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto in = dyn_cast<TensorDescType>(operand.getType());
    if (!in)
      continue;
    ArrayRef<int64_t> is = in.getShape();
    if (is.size() != os.size())
      return op->emitOpError("expects operand #")
             << i << " of the result's rank " << os.size() << ", but got "
             << is.size();
    for (size_t d = 0; d < is.size(); ++d) {
      if (is[d] != 1 && !extentsCompatible(is[d], os[d]))
        return op->emitOpError("expects each dim of operand #")
               << i << " to equal the result's " << formatShape(os)
               << " or be 1, but got " << formatShape(is);
    }
  }
  return success();
}

LogicalResult PointwiseGenIndexOp::verify() {
  int64_t rank = getY().getType().getRank();
  // The generated getter is unsigned; the axis is signed.
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= rank)
    return emitOpError("expects an axis in [0, ")
           << rank << "), but got " << axis;
  return success();
}
