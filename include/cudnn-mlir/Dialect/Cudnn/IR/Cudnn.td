//===- Cudnn.td - The cudnn dialect, all of it --------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN
#define CUDNN_MLIR_CUDNN

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnBase.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnPointwiseOps.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnNormOps.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnRnnOps.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnBlasOps.td"

#endif // CUDNN_MLIR_CUDNN
