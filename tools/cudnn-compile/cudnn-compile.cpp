//===- cudnn-compile.cpp - MLIR to a shared library, in one process -------===//
//
//   cudnn-compile model.mlir -o model.so [--emit=so|obj|llvm|mlir]
//                 [--pipeline=auto|tcp|cudnn|none] [--pipeline-options=...]
//
// Parses the input, runs tcp-to-llvm-pipeline (TCP input) or
// cudnn-to-llvm-pipeline (cudnn graphs on tensors), translates the LLVM
// dialect to LLVM IR, optimizes it, emits an object with LLVM's target
// machine for the host, and links a shared library against the runtime
// (libcudnn-mlir-runtime.so) with the system C compiler driver. The library
// exports cmrt_entry_<f> per public function and cmrt_module_manifest
// (docs/abi.md); run it with cudnn-run or the Python loader.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/InitAll.h"
#include "cudnn-mlir/Support/InputScreening.h"
#include "cudnn-mlir/Support/LLVMTypeScreening.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum class Emit { SharedLibrary, Object, LLVMIR, MLIR };
enum class Pipeline { Auto, Tcp, Cudnn, None };

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input.mlir>"),
                                   cl::init("-"));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("file"), cl::init("-"));
cl::opt<Emit> emit(
    "emit", cl::desc("What to produce"), cl::init(Emit::SharedLibrary),
    cl::values(clEnumValN(Emit::SharedLibrary, "so",
                          "a shared library linked against the runtime"),
               clEnumValN(Emit::Object, "obj", "an object file"),
               clEnumValN(Emit::LLVMIR, "llvm", "optimized LLVM IR"),
               clEnumValN(Emit::MLIR, "mlir",
                          "the module in LLVM dialect, after the pipeline")));
cl::opt<Pipeline> pipeline(
    "pipeline", cl::desc("The lowering pipeline"), cl::init(Pipeline::Auto),
    cl::values(clEnumValN(Pipeline::Auto, "auto",
                          "tcp when the module holds tcp ops, else cudnn"),
               clEnumValN(Pipeline::Tcp, "tcp", "tcp-to-llvm-pipeline"),
               clEnumValN(Pipeline::Cudnn, "cudnn", "cudnn-to-llvm-pipeline"),
               clEnumValN(Pipeline::None, "none",
                          "the input is LLVM dialect")));
cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("Options of the pipeline, as in cudnn-opt (e.g. \"layout=packed "
             "allow-tf32-conv=true allow-tf32-matmul=true\"; fp32 is exact "
             "unless these say so)"),
    cl::init(""));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                           cl::init(2), cl::Prefix);
cl::opt<std::string>
    runtimeDir("runtime-dir",
               cl::desc("Folder of libcudnn-mlir-runtime.so to link against "
                        "(default: the install's lib/, else the build's)"),
               cl::init(CUDNN_MLIR_RUNTIME_LIBRARY_DIR));
cl::opt<std::string> linker("linker",
                            cl::desc("C compiler driver that links (cc)"),
                            cl::init("cc"));

int fail(const llvm::Twine &message) {
  llvm::errs() << "cudnn-compile: " << message << "\n";
  return 1;
}

Pipeline choosePipeline(ModuleOp module) {
  if (pipeline != Pipeline::Auto)
    return pipeline;
  bool hasTcp = false, hasCudnn = false;
  module.walk([&](Operation *op) {
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    hasTcp |= ns == "tcp";
    hasCudnn |= ns == "cudnn";
  });
  if (hasTcp)
    return Pipeline::Tcp;
  return hasCudnn ? Pipeline::Cudnn : Pipeline::None;
}

LogicalResult runPipeline(ModuleOp module, Pipeline which,
                          TimingScope &timing) {
  if (which == Pipeline::None)
    return success();
  std::string text = which == Pipeline::Tcp ? "tcp-to-llvm-pipeline"
                                            : "cudnn-to-llvm-pipeline";
  if (!pipelineOptions.empty())
    text += "{" + pipelineOptions + "}";
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  pm.enableTiming(timing);
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    return failure();
  return pm.run(module);
}

std::unique_ptr<llvm::TargetMachine> hostTargetMachine(std::string &error) {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  // A generic CPU: the library may run on another machine than this one.
  llvm::CodeGenOptLevel level =
      optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
      : optLevel == 0 ? llvm::CodeGenOptLevel::None
                      : llvm::CodeGenOptLevel::Default;
  return std::unique_ptr<llvm::TargetMachine>(
      target->createTargetMachine(triple, "x86-64", "", llvm::TargetOptions(),
                                  llvm::Reloc::PIC_, std::nullopt, level));
}

LogicalResult writeObject(llvm::Module &module, llvm::TargetMachine &tm,
                          StringRef path) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "cudnn-compile: cannot write " << path << ": "
                 << ec.message() << "\n";
    return failure();
  }
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, out.os(), nullptr,
                             llvm::CodeGenFileType::ObjectFile)) {
    llvm::errs() << "cudnn-compile: the target cannot emit object files\n";
    return failure();
  }
  pm.run(module);
  out.keep();
  return success();
}

/// --runtime-dir, else <prefix>/lib when this is an installed cudnn-compile
/// (<prefix>/bin, the runtime installed next to it), else the runtime of the
/// build it came from.
std::string runtimeLibraryDir(const char *argv0) {
  if (runtimeDir.getNumOccurrences())
    return runtimeDir;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&runtimeLibraryDir));
  llvm::SmallString<256> installed(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "lib");
  llvm::SmallString<256> library(installed);
  llvm::sys::path::append(library, "libcudnn-mlir-runtime.so");
  if (llvm::sys::fs::exists(library))
    return std::string(installed);
  return runtimeDir;
}

LogicalResult link(StringRef object, StringRef output,
                   StringRef runtimeLibDir) {
  llvm::ErrorOr<std::string> driver = llvm::sys::findProgramByName(linker);
  if (!driver) {
    llvm::errs() << "cudnn-compile: expects a C compiler driver '" << linker
                 << "' on PATH to link the shared library (--linker), but "
                    "found none\n";
    return failure();
  }
  std::string rpath = ("-Wl,-rpath,$ORIGIN:" + runtimeLibDir).str();
  std::string libdir = ("-L" + runtimeLibDir).str();
  SmallVector<StringRef> args = {
      *driver, "-shared", "-o", output, object, libdir, "-lcudnn-mlir-runtime",
      rpath};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*driver, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0) {
    llvm::errs() << "cudnn-compile: linking " << output << " with " << *driver
                 << " failed (exit " << rc << ")"
                 << (message.empty() ? "" : ": " + message) << "\n";
    return failure();
  }
  return success();
}

/// LLVM's DAG store merging is quadratic in the stores of a block: a
/// model's function stores its runtime calls' descriptor pointers in its
/// entry block (ResNet-50: 658 stores), and merging them took 12 of the
/// 20 s of its compile (llc -time-passes: "DAG Combining 1"; 2 s without).
/// The host code only calls the runtime, where merged stores save nothing
/// measurable: off unless the command line sets it
/// (-combiner-store-merging=true).
void mergeNoStoresByDefault() {
  auto &options = cl::getRegisteredOptions();
  auto merging = options.find("combiner-store-merging");
  if (merging != options.end() && merging->second->getNumOccurrences() == 0)
    merging->second->addOccurrence(0, "combiner-store-merging", "false");
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cudnn_mlir::registerAllPasses();
  // --mlir-print-ir-after-all, ... for the pipeline; --mlir-timing times
  // it pass by pass and the steps after it (LLVM IR, object file, link).
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  cl::ParseCommandLineOptions(
      argc, argv,
      "cudnn-compile: MLIR (TCP or cudnn graphs) to a shared library\n");
  mergeNoStoresByDefault();
  if (emit != Emit::MLIR && emit != Emit::LLVMIR && outputFilename == "-")
    return fail("expects -o FILE for binary output, but got none");

  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  DialectRegistry registry;
  cudnn_mlir::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);
  if (failed(cudnn_mlir::screenForUpstreamParserCrashes(*input, llvm::errs())))
    return 1;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  TimingScope parsing = timing.nest("parse");
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  parsing.stop();
  if (!module)
    return 1;
  if (failed(runPipeline(*module, choosePipeline(*module), timing)))
    return 1;

  if (emit == Emit::MLIR) {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(outputFilename, &error);
    if (!out)
      return fail(error);
    module->print(out->os());
    out->keep();
    return 0;
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::unique_ptr<llvm::TargetMachine> tm = hostTargetMachine(error);
  if (!tm)
    return fail("no target machine for this host: " + error);
  // The pipelines check too, but --pipeline=none reaches here unchecked.
  if (failed(cudnn_mlir::screenUntranslatableLLVMTypes(*module)))
    return 1;
  llvm::LLVMContext llvmContext;
  TimingScope translating = timing.nest("translate to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
      *module, llvmContext, llvm::sys::path::stem(inputFilename));
  translating.stop();
  if (!llvmModule)
    return fail("translating the LLVM dialect to LLVM IR failed");
  llvmModule->setTargetTriple(tm->getTargetTriple());
  llvmModule->setDataLayout(tm->createDataLayout());
  TimingScope optimizing = timing.nest("optimize LLVM IR");
  if (llvm::Error err =
          makeOptimizingTransformer(optLevel, 0, tm.get())(llvmModule.get()))
    return fail("optimizing LLVM IR failed: " + llvm::toString(std::move(err)));
  optimizing.stop();

  if (emit == Emit::LLVMIR) {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(outputFilename, &error);
    if (!out)
      return fail(error);
    llvmModule->print(out->os(), nullptr);
    out->keep();
    return 0;
  }
  TimingScope emitting = timing.nest("emit the object file");
  if (emit == Emit::Object)
    return failed(writeObject(*llvmModule, *tm, outputFilename)) ? 1 : 0;

  llvm::SmallString<128> object;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("cudnn-compile", "o", object))
    return fail("cannot create a temporary object file: " + ec.message());
  llvm::FileRemover removeObject(object);
  if (failed(writeObject(*llvmModule, *tm, object)))
    return 1;
  emitting.stop();
  TimingScope linking = timing.nest("link");
  if (failed(link(object, outputFilename, runtimeLibraryDir(argv[0]))))
    return 1;
  return 0;
}
