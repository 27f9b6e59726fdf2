//===- CudnnTypes.h - cudnn dialect types -----------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNTYPES_H
#define CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h.inc"

#endif // CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNTYPES_H
