//===- Passes.h - general GPU codegen passes of cudnn-mlir ------*- C++ -*-===//

#ifndef CUDNN_MLIR_CODEGEN_PASSES_H
#define CUDNN_MLIR_CODEGEN_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::cudnn_mlir {

#define GEN_PASS_DECL
#include "cudnn-mlir/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cudnn-mlir/Codegen/Passes.h.inc"

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_CODEGEN_PASSES_H
