//===- CudnnDialect.h - the cudnn dialect -----------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNDIALECT_H
#define CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNDIALECT_H

#include "mlir/IR/Dialect.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h.inc"

#endif // CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNDIALECT_H
