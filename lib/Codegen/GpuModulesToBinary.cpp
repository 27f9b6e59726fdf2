//===- GpuModulesToBinary.cpp - gpu.module -> gpu.binary, in parallel -----===//
//
// Upstream's gpu-module-to-binary serialises the modules one after the
// other; with one gpu.module per kernel and ptxas run per module (fatbin),
// that is most of a model's compile time. The serialisations are
// independent (each builds its own LLVM module and runs its own tools), so
// they run on MLIR's thread pool and only the replacement of the modules is
// sequential.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENGPUMODULESTOBINARYPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

struct CodegenGpuModulesToBinaryPass
    : cudnn_mlir::impl::CodegenGpuModulesToBinaryPassBase<
          CodegenGpuModulesToBinaryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    std::optional<gpu::CompilationTarget> target =
        llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
            .Case("fatbin", gpu::CompilationTarget::Fatbin)
            .Case("isa", gpu::CompilationTarget::Assembly)
            .Default(std::nullopt);
    if (!target) {
      top.emitError() << "expects the kernel format (kernel-binary) to be "
                         "'fatbin' or 'isa', but got '"
                      << format << "'";
      return signalPassFailure();
    }
    SmallVector<gpu::GPUModuleOp> modules;
    top.walk([&](gpu::GPUModuleOp module) { modules.push_back(module); });
    if (modules.empty())
      return;

    // Built before the threads start; they only look symbols up.
    SymbolTable symbols(top);
    auto symbolTable = [&]() -> SymbolTable * { return &symbols; };
    gpu::TargetOptions options(toolkitPath, {}, cmdOptions, {}, *target,
                               symbolTable);
    std::vector<SmallVector<Attribute>> objects(modules.size());
    LogicalResult serialized = failableParallelForEachN(
        &getContext(), 0, modules.size(), [&](size_t i) -> LogicalResult {
          gpu::GPUModuleOp module = modules[i];
          ArrayAttr targets = module.getTargetsAttr();
          if (!targets || targets.empty())
            return module.emitError()
                   << "expects a target attribute (nvvm-attach-target), "
                      "but the module has none";
          for (Attribute attr : targets) {
            auto targetAttr = dyn_cast<gpu::TargetAttrInterface>(attr);
            // Unreachable from textual IR: gpu.module's verifier takes
            // only targets that implement the interface.
            if (!targetAttr)
              return module.emitError() << "expects targets that implement "
                                           "TargetAttrInterface, but got "
                                        << attr;
            std::optional<SmallVector<char, 0>> bytes =
                targetAttr.serializeToObject(module, options);
            if (!bytes)
              return module.emitError() << "could not be compiled for " << attr;
            Attribute object = targetAttr.createObject(module, *bytes, options);
            // Unreachable from textual IR: NVVM's createObject always
            // builds an object from the bytes serializeToObject gave.
            if (!object)
              return module.emitError()
                     << "could not be embedded as an object for " << attr;
            objects[i].push_back(object);
          }
          return success();
        });
    if (failed(serialized))
      return signalPassFailure();

    for (auto [module, moduleObjects] : llvm::zip(modules, objects)) {
      OpBuilder builder(module);
      gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                            module.getOffloadingHandlerAttr(),
                            builder.getArrayAttr(moduleObjects));
      module->erase();
    }
  }
};

} // namespace
