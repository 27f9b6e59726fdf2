//===- Passes.h - cudnn dialect passes --------------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_PASSES_H
#define CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_PASSES_H

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::cudnn {

#define GEN_PASS_DECL
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"

} // namespace mlir::cudnn

#endif // CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_PASSES_H
