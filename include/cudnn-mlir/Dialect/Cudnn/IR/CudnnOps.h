//===- CudnnOps.h - cudnn dialect ops ---------------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H
#define CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnEnums.h.inc"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"

#define GET_ATTRDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.h.inc"

#define GET_OP_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h.inc"

#endif // CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNOPS_H
