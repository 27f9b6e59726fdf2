//===- cudnn-opt.cpp - the cudnn-mlir optimizer driver --------------------===//
//
// mlir-opt with the tcp and cudnn dialects and every cudnn-mlir pass and
// pipeline registered. `--version` also names the cuDNN it was built against.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cudnn_version.h>

static void printCudnnVersion(llvm::raw_ostream &os) {
  os << "cudnn-mlir, built against cuDNN " << CUDNN_MAJOR << '.'
     << CUDNN_MINOR << '.' << CUDNN_PATCHLEVEL << '\n';
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::cudnn_mlir::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::cudnn_mlir::registerAllDialects(registry);

  llvm::cl::AddExtraVersionPrinter(printCudnnVersion);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "cudnn-mlir optimizer driver\n", registry));
}
