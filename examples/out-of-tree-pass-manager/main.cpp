//===- main.cpp - cudnn-mlir's pipeline in another compiler's PassManager -===//
//
// What a torch-mlir-based compiler does to hand its TCP to cudnn-mlir, with
// nothing but the installed package (find_package(CudnnMlir)): its own
// MLIRContext with cudnn-mlir's dialects registered, its own PassManager,
// and tcp-to-cudnn-pipeline inside it.
//
//   out-of-tree-pass-manager INPUT.mlir            its own pass, then the
//                                                   pipeline built in C++
//   out-of-tree-pass-manager INPUT.mlir PIPELINE   a textual pipeline, e.g.
//                                                   "tcp-to-cudnn-pipeline{max-ops=8}"
//
// Prints the module after the pass manager ran.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/InitAll.h"
#include "cudnn-mlir/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    llvm::errs() << "usage: " << argv[0] << " INPUT.mlir [PIPELINE]\n";
    return 2;
  }

  // A real compiler adds its own dialects (torch, torch_c, ...) here too.
  mlir::DialectRegistry registry;
  mlir::cudnn_mlir::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  // Only needed to build pipelines from text (parsePassPipeline), as
  // torch-mlir's own pipeline strings are.
  mlir::cudnn_mlir::registerAllPasses();

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  if (argc == 3) {
    if (mlir::failed(mlir::parsePassPipeline(argv[2], pm, llvm::errs())))
      return 1;
  } else {
    // The compiler's own passes (its TorchToTcp conversion, say) come first.
    pm.addPass(mlir::createCanonicalizerPass());
    mlir::cudnn_mlir::TcpToCudnnPipelineOptions options;
    options.targetSm = 90;
    mlir::cudnn_mlir::buildTcpToCudnnPipeline(pm, options);
  }
  if (mlir::failed(pm.run(*module)))
    return 1;

  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
