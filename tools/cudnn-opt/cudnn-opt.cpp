//===- cudnn-opt.cpp - the cudnn-mlir optimizer driver --------------------===//
//
// mlir-opt with the tcp and cudnn dialects and every cudnn-mlir pass and
// pipeline registered. `--version` also names the cuDNN it was built against.
// Input is screened for text that crashes MLIR's own parser before parsing.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/InitAll.h"
#include "cudnn-mlir/Support/InputScreening.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cudnn_version.h>

static void printCudnnVersion(llvm::raw_ostream &os) {
  os << "cudnn-mlir, built against cuDNN " << CUDNN_MAJOR << '.'
     << CUDNN_MINOR << '.' << CUDNN_PATCHLEVEL << '\n';
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerAllPasses();
  mlir::cudnn_mlir::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::cudnn_mlir::registerAllDialects(registry);

  llvm::cl::AddExtraVersionPrinter(printCudnnVersion);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "cudnn-mlir optimizer driver\n", registry);

  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << '\n';
    return 1;
  }
  if (mlir::failed(mlir::cudnn_mlir::screenForUpstreamParserCrashes(
          *input, llvm::errs())))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << '\n';
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
