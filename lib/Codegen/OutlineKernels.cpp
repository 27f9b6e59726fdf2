//===- OutlineKernels.cpp - outlining that keeps occupancy hints ----------===//
//
// Upstream's gpu-kernel-outlining turns each gpu.launch into a gpu.func and
// a gpu.launch_func in place, but drops the launch's discardable
// attributes. This pass records the `nvvm.minctasm` mark of every launch
// (in walk order), runs upstream's outlining, and gives each mark to the
// kernel that the launch_func at the same position calls.
//
// Kernels take their buffers as bare pointers (the pipelines' calling
// convention: `useBarePtrCallConv` in the NVVM lowering,
// `kernelBarePtrCallConv` on the host), which rebuild each memref inside the
// kernel from its type. So a buffer a launch captures must have a static shape,
// strides and offset; anything else is an error here, at the launch, rather
// than a failure to legalize the kernel later.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENOUTLINEKERNELSPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

StringRef minBlocksAttrName() {
  return NVVM::NVVMDialect::getMinctasmAttrName();
}

/// Whether a kernel can take `type` as a bare pointer: a memref of static
/// shape whose layout is strided with static strides and offset.
bool passesAsBarePointer(MemRefType type) {
  if (!type.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// Checks what `launch` captures against the bare-pointer convention.
LogicalResult checkCapturedBuffers(gpu::LaunchOp launch) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  for (Value value : captured) {
    if (!isa<BaseMemRefType>(value.getType()))
      continue;
    auto memref = dyn_cast<MemRefType>(value.getType());
    if (!memref || !passesAsBarePointer(memref))
      return launch.emitError("expects the buffers a kernel uses to have a "
                              "static shape, strides and offset (kernels "
                              "take them as bare pointers), but it uses ")
             << value.getType();
  }
  return success();
}

struct CodegenOutlineKernelsPass
    : cudnn_mlir::impl::CodegenOutlineKernelsPassBase<
          CodegenOutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // One entry per launch, in the order outlining replaces them.
    SmallVector<Attribute> marks;
    bool checked = true;
    module.walk([&](gpu::LaunchOp launch) {
      marks.push_back(launch->getAttr(minBlocksAttrName()));
      checked &= succeeded(checkCapturedBuffers(launch));
    });
    if (!checked)
      return signalPassFailure();
    // launch_func ops already there are not the launches' replacements.
    llvm::DenseSet<Operation *> before;
    module.walk([&](gpu::LaunchFuncOp op) { before.insert(op); });

    OpPassManager outline(ModuleOp::getOperationName());
    outline.addPass(createGpuKernelOutliningPass());
    if (failed(runPipeline(outline, module)))
      return signalPassFailure();

    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp op) {
      if (!before.contains(op))
        launches.push_back(op);
    });
    // Unreachable from textual IR: upstream outlining replaces every launch.
    if (launches.size() != marks.size()) {
      module.emitError("expects gpu-kernel-outlining to replace each of the ")
          << marks.size() << " gpu.launch ops by a gpu.launch_func, but got "
          << launches.size();
      return signalPassFailure();
    }
    // Outlining replaces each launch in place, so the new launch_func ops
    // come in the launches' order.
    SymbolTableCollection symbols;
    for (auto [launch, mark] : llvm::zip(launches, marks)) {
      if (!mark)
        continue;
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernelAttr());
      // Unreachable from textual IR: outlining adds the kernel it calls.
      if (!kernel) {
        launch.emitError("expects the kernel this launch calls in the "
                         "module, but found none");
        return signalPassFailure();
      }
      kernel->setAttr(minBlocksAttrName(), mark);
    }
  }
};

} // namespace
