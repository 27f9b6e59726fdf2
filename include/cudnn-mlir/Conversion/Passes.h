//===- Passes.h - conversion passes of cudnn-mlir ---------------*- C++ -*-===//

#ifndef CUDNN_MLIR_CONVERSION_PASSES_H
#define CUDNN_MLIR_CONVERSION_PASSES_H

#include "cudnn-mlir/Conversion/CudnnToLLVM/CudnnToLLVM.h"
#include "cudnn-mlir/Conversion/TcpToCudnn/TcpToCublas.h"
#include "cudnn-mlir/Conversion/TcpToCudnn/TcpToCudnn.h"
#include "cudnn-mlir/Conversion/TcpToLinalg/TcpToLinalg.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::cudnn_mlir {

#define GEN_PASS_DECL
#include "cudnn-mlir/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cudnn-mlir/Conversion/Passes.h.inc"

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_CONVERSION_PASSES_H
