//===- ExternDynamicSharedMemory.cpp - keep dynamic shared memory extern --===//
//
// convert-gpu-to-nvvm declares a kernel's dynamic shared memory as an
// internal zero-length array global in address space 3; LLVM's NVPTX
// backend demotes such a global into the kernel as a sized-less `.shared`
// variable that ptxas places among the static arrays. External linkage
// keeps it `.extern .shared ... []`, placed after them as CUDA expects.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENEXTERNDYNAMICSHAREDMEMORYPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

constexpr unsigned kSharedAddressSpace = 3;

struct CodegenExternDynamicSharedMemoryPass
    : cudnn_mlir::impl::CodegenExternDynamicSharedMemoryPassBase<
          CodegenExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != kSharedAddressSpace || !array ||
          array.getNumElements() != 0 || global.getValueOrNull() ||
          !global.getInitializerRegion().empty())
        return;
      global.setLinkage(LLVM::Linkage::External);
    });
  }
};

} // namespace
