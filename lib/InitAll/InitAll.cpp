//===- InitAll.cpp - register every dialect and pass of cudnn-mlir --------===//

#include "cudnn-mlir/InitAll.h"

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h"
#include "cudnn-mlir/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::cudnn_mlir::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tcp::TcpDialect, cudnn::CudnnDialect, func::FuncDialect,
                  arith::ArithDialect, tensor::TensorDialect>();
}

void mlir::cudnn_mlir::registerAllPasses() {
  tcp::registerTcpTransformsPasses();
  cudnn::registerCudnnTransformsPasses();
  registerConversionPasses();
  registerPipelines();
}
