//===- CheckLLVMTypes.cpp - reject LLVM types translation has no IR for ---===//
//
// The pipeline's guard in front of gpu-module-to-binary, which translates
// generated kernels to LLVM IR and crashes on element types it has no LLVM
// IR type for (cudnn-mlir/Support/LLVMTypeScreening.h).
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"
#include "cudnn-mlir/Support/LLVMTypeScreening.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENCHECKLLVMTYPESPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {
struct CodegenCheckLLVMTypesPass
    : cudnn_mlir::impl::CodegenCheckLLVMTypesPassBase<
          CodegenCheckLLVMTypesPass> {
  void runOnOperation() override {
    if (failed(cudnn_mlir::screenUntranslatableLLVMTypes(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
