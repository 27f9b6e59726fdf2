//===- Passes.h - tcp transformation passes ---------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_PASSES_H
#define CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_PASSES_H

#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcp {

#define GEN_PASS_DECL
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h.inc"

} // namespace mlir::tcp

#endif // CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_PASSES_H
