//===- Pipelines.h - cudnn-mlir's pass pipelines ----------------*- C++ -*-===//

#ifndef CUDNN_MLIR_PIPELINES_PIPELINES_H
#define CUDNN_MLIR_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace cudnn_mlir {

/// Options of `tcp-to-cudnn-pipeline`; each forwards to the pass of the same
/// option name.
struct TcpToCudnnPipelineOptions
    : public PassPipelineOptions<TcpToCudnnPipelineOptions> {
  Option<unsigned> targetSm{*this, "target-sm",
                            llvm::cl::desc("Compute capability (80, 90)"),
                            llvm::cl::init(90)};
  Option<bool> fuseFp32{*this, "fuse-fp32",
                        llvm::cl::desc("Also group fp32 anchors"),
                        llvm::cl::init(true)};
  Option<unsigned> maxOps{*this, "max-ops",
                          llvm::cl::desc("Most ops in one cuDNN graph"),
                          llvm::cl::init(50)};
  Option<bool> report{*this, "report",
                      llvm::cl::desc("Remark on every op left out of a graph"),
                      llvm::cl::init(false)};
  Option<bool> foldBatchNorm{
      *this, "fold-batch-norm",
      llvm::cl::desc("Fold inference batch norms after a conv2d into it"),
      llvm::cl::init(true)};
  Option<std::string> layout{
      *this, "layout",
      llvm::cl::desc("Which graphs go channels-last: auto (fp16/bf16 convs), "
                     "channels-last or packed"),
      llvm::cl::init("auto")};
  Option<int64_t> alignment{
      *this, "alignment",
      llvm::cl::desc("Byte alignment promised for graph tensors"),
      llvm::cl::init(16)};
};

/// tcp-fuse-for-cudnn, tcp-isolate-group-ops, convert-tcp-to-cudnn,
/// cudnn-assign-layouts, then canonicalize and CSE, on every func.func.
void buildTcpToCudnnPipeline(OpPassManager &pm,
                             const TcpToCudnnPipelineOptions &options);

/// Registers every pipeline above with the global pipeline registry.
void registerPipelines();

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_PIPELINES_PIPELINES_H
