//===- CudnnDialect.cpp - the cudnn dialect -------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::cudnn;

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.cpp.inc"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.cpp.inc"

void CudnnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

void CudnnDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.cpp.inc"
      >();
}
