//===- InitAll.cpp - register every dialect and pass of cudnn-mlir --------===//

#include "cudnn-mlir/InitAll.h"

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Codegen/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/BufferizableOpInterfaceImpl.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/KernelLaunchEffects.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h"
#include "cudnn-mlir/Pipelines/Pipelines.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::cudnn_mlir::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tcp::TcpDialect, cudnn::CudnnDialect, func::FuncDialect,
                  arith::ArithDialect, tensor::TensorDialect,
                  memref::MemRefDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, scf::SCFDialect,
                  LLVM::LLVMDialect, gpu::GPUDialect, NVVM::NVVMDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  vector::VectorDialect>();
  // What bufferization needs to know about each dialect's ops.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cudnn::registerBufferizableOpInterfaceExternalModels(registry);
  cudnn::registerKernelLaunchEffectsExternalModel(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  // What buffer-results-to-out-params and deallocation need.
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  // Translation of the LLVM dialect to LLVM IR (cudnn-compile).
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // Generated kernels: what convert-gpu-to-nvvm lowers their bodies with
  // (each dialect's ConvertToLLVMPatternInterface), NVVM to PTX, and
  // launches to mgpu* calls.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

void mlir::cudnn_mlir::registerAllPasses() {
  tcp::registerTcpTransformsPasses();
  cudnn::registerCudnnTransformsPasses();
  registerConversionPasses();
  registerCodegenPasses();
  registerPipelines();
  // The upstream passes the lowering pipelines are made of, for running
  // them one at a time.
  bufferization::registerBufferizationPasses();
}
