//===- Pipelines.cpp - cudnn-mlir's pass pipelines ------------------------===//

#include "cudnn-mlir/Pipelines/Pipelines.h"

#include "cudnn-mlir/Codegen/Passes.h"
#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>
#include <tuple>
#include <type_traits>

using namespace mlir;

namespace {

// HasOption_<name><T>: whether the options struct T has the option <name> of
// PipelineOptions.def.
#define CUDNN_PIPELINE_OPTION(NAME, TYPE, FLAG, DEFAULT, DESCRIPTION, FIELDS)  \
  template <typename T, typename = void>                                       \
  struct HasOption_##NAME : std::false_type {};                                \
  template <typename T>                                                        \
  struct HasOption_##NAME<T, std::void_t<decltype(&T::NAME)>>                  \
      : std::true_type {};
#include "cudnn-mlir/Pipelines/PipelineOptions.def"

/// Sets `to.*field` to `value` when `field` is one of `To`'s: an option's
/// FIELDS may name several passes, and each pass takes its own.
template <typename To, typename Value, typename Field, typename Class>
void setIfOwnField(To &to, const Value &value, Field Class::*field) {
  if constexpr (std::is_same_v<To, Class>)
    to.*field = value;
}

/// The options of the pass whose options struct is `PassOptions`: every
/// option of `options` set on the fields of `PassOptions` that
/// PipelineOptions.def names for it; the rest keep the pass's defaults.
template <typename PassOptions, typename PipelineOptions>
PassOptions passOptions(const PipelineOptions &options) {
  PassOptions to;
#define CUDNN_PIPELINE_OPTION(NAME, TYPE, FLAG, DEFAULT, DESCRIPTION, FIELDS)  \
  if constexpr (HasOption_##NAME<PipelineOptions>::value)                      \
    std::apply(                                                                \
        [&](auto... field) { (setIfOwnField(to, options.NAME, field), ...); }, \
        std::make_tuple FIELDS);
#include "cudnn-mlir/Pipelines/PipelineOptions.def"
  return to;
}

/// Gives a sub-pipeline every option its pipeline has too.
template <typename SubPipelineOptions, typename PipelineOptions>
void forwardOptions(const PipelineOptions &from, SubPipelineOptions &to) {
#define CUDNN_PIPELINE_OPTION(NAME, ...)                                       \
  if constexpr (HasOption_##NAME<PipelineOptions>::value &&                    \
                HasOption_##NAME<SubPipelineOptions>::value)                   \
    to.NAME = from.NAME;
#include "cudnn-mlir/Pipelines/PipelineOptions.def"
}

} // namespace

void cudnn_mlir::buildTcpToCudnnPipeline(
    OpPassManager &pm, const TcpToCudnnPipelineOptions &options) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(tcp::createTcpFuseForCudnnPass(
      passOptions<tcp::TcpFuseForCudnnPassOptions>(options)));
  funcPm.addPass(tcp::createTcpIsolateGroupOpsPass());
  funcPm.addPass(cudnn_mlir::createConvertTcpToCudnnPass(
      passOptions<cudnn_mlir::ConvertTcpToCudnnPassOptions>(options)));
  // The fp32 matmuls no graph took run on cuBLAS, exact, not as generated
  // kernels.
  funcPm.addPass(cudnn_mlir::createConvertTcpToCublasPass(
      passOptions<cudnn_mlir::ConvertTcpToCublasPassOptions>(options)));
  funcPm.addPass(cudnn::createCudnnAssignLayoutsPass(
      passOptions<cudnn::CudnnAssignLayoutsPassOptions>(options)));
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  // A conversion only a split form uses moves into it, off the fused path.
  funcPm.addPass(createControlFlowSinkPass());
  // Generated kernels between channels-last graphs work on their bytes.
  funcPm.addPass(cudnn::createCudnnChannelsLastKernelsPass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  funcPm.addPass(createControlFlowSinkPass());
}

void cudnn_mlir::buildCudnnToLLVMPipeline(
    OpPassManager &pm, const CudnnToLLVMPipelineOptions &options) {
  // LLVM dialect types that gpu-module-to-binary (and later cudnn-compile)
  // would crash translating are errors before any pass runs on them.
  pm.addPass(cudnn_mlir::createCodegenCheckLLVMTypesPass());
  // Kernels on parameters only go first, so that they become one launch.
  pm.addNestedPass<func::FuncOp>(
      cudnn_mlir::createCodegenHoistParameterKernelsPass());
  // Concat and slice reads fused into consumers become vector inputs.
  pm.addNestedPass<func::FuncOp>(
      cudnn_mlir::createCodegenSplitConcatReadsPass());
  pm.addPass(cudnn::createCudnnBufferizePass());
  pm.addPass(cudnn::createCudnnResultsToOutParamsPass());
  // What no cuDNN graph took, as linalg on buffers: generated kernels.
  pm.addNestedPass<func::FuncOp>(cudnn_mlir::createCodegenMapToGpuPass(
      passOptions<cudnn_mlir::CodegenMapToGpuPassOptions>(options)));
  // Kernels are PTX 8.1 (below): on sm_70 and later a kernel takes up to
  // 32764 bytes of parameters, 4352 before.
  cudnn_mlir::CodegenMergeLaunchesPassOptions merge;
  StringRef chip = options.gpuChip;
  unsigned smVersion = 0;
  if (chip.consume_front("sm_") &&
      !chip.take_while(llvm::isDigit).getAsInteger(10, smVersion) &&
      smVersion >= 70)
    merge.maxParameterBytes = 32000;
  pm.addNestedPass<func::FuncOp>(
      cudnn_mlir::createCodegenMergeLaunchesPass(merge));
  pm.addPass(cudnn_mlir::createCodegenOutlineKernelsPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCanonicalizerPass());
  // RNN weight spaces the runtime keeps across calls, then one device
  // allocation per call for the small temporaries.
  pm.addNestedPass<func::FuncOp>(cudnn::createCudnnPackRnnWeightsOncePass());
  pm.addNestedPass<func::FuncOp>(cudnn::createCudnnPackTemporariesPass());
  pm.addPass(createSCFToControlFlowPass());
  // Generated kernels (gpu.module): NVVM, then embedded in the module as a
  // fatbin of gpu-chip's machine code and the PTX (kernel-binary=fatbin: a
  // device of that chip loads it as is, a newer one compiles the PTX), or
  // as PTX alone (kernel-binary=isa: the driver compiles it on every
  // machine's first load, seconds for a whole model).
  auto nvvm = passOptions<GpuNVVMAttachTargetOptions>(options);
  nvvm.optLevel = 3;
  // PTX ISA 8.1 (CUDA 12.1 drivers and later; this build needs CUDA 13):
  // larger kernel parameter space for merged launches.
  nvvm.features = "+ptx81";
  pm.addPass(createGpuNVVMAttachTarget(nvvm));
  // Views inside kernels (the collapsed buffers of flat vectors) become
  // reinterpret_casts with their index arithmetic, which NVVM takes.
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createExpandStridedMetadataPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerAffinePass());
  ConvertGpuOpsToNVVMOpsOptions toNvvm;
  toNvvm.useBarePtrCallConv = true;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNvvm));
  pm.addNestedPass<gpu::GPUModuleOp>(
      cudnn_mlir::createCodegenExternDynamicSharedMemoryPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  auto binary =
      passOptions<cudnn_mlir::CodegenGpuModulesToBinaryPassOptions>(options);
  // Math functions (erf, exp, tanh) come from libdevice, which MLIR finds
  // through CUDA_ROOT / CUDA_HOME / CUDA_PATH; without them the PTX keeps
  // unresolved __nv_* calls, so fall back to the toolkit of this build.
  if (!std::getenv("CUDA_ROOT") && !std::getenv("CUDA_HOME") &&
      !std::getenv("CUDA_PATH"))
    binary.toolkitPath = CUDNN_MLIR_CUDA_TOOLKIT_DIR;
  // Upstream's gpu-module-to-binary, with the modules (one per kernel, each
  // a ptxas run for fatbin) compiled in parallel.
  pm.addPass(cudnn_mlir::createCodegenGpuModulesToBinaryPass(binary));
  // Reshapes of buffers become reinterpret_casts the LLVM lowering takes.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(cudnn_mlir::createConvertCudnnToLLVMPass(
      passOptions<cudnn_mlir::ConvertCudnnToLLVMPassOptions>(options)));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void cudnn_mlir::buildTcpToLLVMPipeline(
    OpPassManager &pm, const TcpToLLVMPipelineOptions &options) {
  TcpToCudnnPipelineOptions toCudnn;
  forwardOptions(options, toCudnn);
  buildTcpToCudnnPipeline(pm, toCudnn);
  // The general codegen road for every tcp op left outside cuDNN graphs.
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(cudnn_mlir::createConvertTcpBatchNormToLinalgPass());
  funcPm.addPass(cudnn_mlir::createConvertTcpToLinalgPass());
  funcPm.addPass(cudnn_mlir::createCodegenFuseElementwisePass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  CudnnToLLVMPipelineOptions toLLVM;
  forwardOptions(options, toLLVM);
  buildCudnnToLLVMPipeline(pm, toLLVM);
}

void cudnn_mlir::registerPipelines() {
  PassPipelineRegistration<TcpToCudnnPipelineOptions>(
      "tcp-to-cudnn-pipeline",
      "Groups tcp ops into cuDNN fusions and lowers the groups to cudnn "
      "graphs (tcp-fuse-for-cudnn, tcp-isolate-group-ops, "
      "convert-tcp-to-cudnn, cudnn-assign-layouts, canonicalize, cse, "
      "control-flow-sink, cudnn-channels-last-kernels)",
      buildTcpToCudnnPipeline);
  PassPipelineRegistration<CudnnToLLVMPipelineOptions>(
      "cudnn-to-llvm-pipeline",
      "Bufferizes cuDNN graphs into device buffers and lowers them to LLVM "
      "calling the runtime, with generated kernels for the linalg ops "
      "beside them (codegen-check-llvm-types, "
      "codegen-hoist-parameter-kernels, cudnn-bufferize, "
      "cudnn-results-to-out-params, codegen-map-to-gpu, "
      "codegen-merge-launches, codegen-outline-kernels, deallocation, "
      "NVVM/PTX, "
      "convert-cudnn-to-llvm)",
      buildCudnnToLLVMPipeline);
  PassPipelineRegistration<TcpToLLVMPipelineOptions>(
      "tcp-to-llvm-pipeline",
      "TCP all the way to LLVM: tcp-to-cudnn-pipeline, the rest of the tcp "
      "ops to linalg (convert-tcp-batch-norm-to-linalg, convert-tcp-to-linalg, "
      "codegen-fuse-elementwise), "
      "then cudnn-to-llvm-pipeline",
      buildTcpToLLVMPipeline);
}
