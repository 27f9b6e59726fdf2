//===- Pipelines.cpp - cudnn-mlir's pass pipelines ------------------------===//

#include "cudnn-mlir/Pipelines/Pipelines.h"

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void cudnn_mlir::buildTcpToCudnnPipeline(
    OpPassManager &pm, const TcpToCudnnPipelineOptions &options) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(tcp::createTcpFuseForCudnnPass(tcp::TcpFuseForCudnnPassOptions{
      options.targetSm, options.fuseFp32, options.maxOps, options.report,
      options.foldBatchNorm}));
  funcPm.addPass(tcp::createTcpIsolateGroupOpsPass());
  funcPm.addPass(cudnn_mlir::createConvertTcpToCudnnPass(
      cudnn_mlir::ConvertTcpToCudnnPassOptions{options.alignment}));
  funcPm.addPass(cudnn::createCudnnAssignLayoutsPass(
      cudnn::CudnnAssignLayoutsPassOptions{options.layout}));
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
}

void cudnn_mlir::registerPipelines() {
  PassPipelineRegistration<TcpToCudnnPipelineOptions>(
      "tcp-to-cudnn-pipeline",
      "Groups tcp ops into cuDNN fusions and lowers the groups to cudnn "
      "graphs (tcp-fuse-for-cudnn, tcp-isolate-group-ops, "
      "convert-tcp-to-cudnn, cudnn-assign-layouts, canonicalize, cse)",
      buildTcpToCudnnPipeline);
}
