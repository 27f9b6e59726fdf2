//===- VerifierUtils.cpp - checks shared by the cudnn op verifiers --------===//

#include "VerifierUtils.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using mlir::cudnn_mlir::formatShape;
using mlir::cudnn_mlir::shapesCompatible;

LogicalResult mlir::cudnn::expectShape(Operation *op, StringRef name,
                                       Value value, ArrayRef<int64_t> expected,
                                       StringRef why) {
  if (!value)
    return success();
  ArrayRef<int64_t> shape;
  if (auto desc = dyn_cast<TensorDescType>(value.getType()))
    shape = desc.getShape();
  else if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    shape = tensor.getShape();
  else
    return success(); // Not shaped: the op's type constraints report it.
  if (shapesCompatible(shape, expected))
    return success();
  InFlightDiagnostic diag = op->emitOpError("expects ")
                            << name << " of shape " << formatShape(expected);
  if (!why.empty())
    diag << " " << why;
  return diag << ", but got " << formatShape(shape);
}
