//===- TcpDialect.cpp - the tcp dialect -----------------------------------===//

#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tcp;

#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.cpp.inc"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "cudnn-mlir/Dialect/Tcp/IR/TcpAttrs.cpp.inc"

void TcpDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "cudnn-mlir/Dialect/Tcp/IR/TcpAttrs.cpp.inc"
      >();
}
