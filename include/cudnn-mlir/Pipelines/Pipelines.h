//===- Pipelines.h - cudnn-mlir's pass pipelines ----------------*- C++ -*-===//

#ifndef CUDNN_MLIR_PIPELINES_PIPELINES_H
#define CUDNN_MLIR_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace cudnn_mlir {

/// `exact-fp32`, which every pipeline has once: tcp-fuse-for-cudnn keeps
/// fp32 matmuls out of graphs under it and convert-cudnn-to-llvm asks the
/// runtime for engines that keep fp32 exact.
template <typename Base> struct WithExactFp32Option : public Base {
  template <typename T> using Option = typename Base::template Option<T>;

  Option<bool> exactFp32{
      *this, "exact-fp32",
      llvm::cl::desc("fp32 stays exact (no TF32): fp32 matmuls become "
                     "generated kernels, and fp32 graphs run only on engines "
                     "that keep fp32 exact"),
      llvm::cl::init(true)};
};

/// The options of `tcp-to-cudnn-pipeline`, added to `Base` (a
/// PassPipelineOptions); each forwards to the pass of the same option name.
template <typename Base> struct WithTcpToCudnnOptions : public Base {
  template <typename T> using Option = typename Base::template Option<T>;

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
  Option<std::string> batchNorm{
      *this, "batch-norm",
      llvm::cl::desc("Where inference batch norms run: auto, cudnn or "
                     "codegen (as for tcp-fuse-for-cudnn)"),
      llvm::cl::init("auto")};
  Option<int64_t> alignment{
      *this, "alignment",
      llvm::cl::desc("Byte alignment promised for graph tensors"),
      llvm::cl::init(16)};
};

/// The options of `cudnn-to-llvm-pipeline`, added to `Base`; each forwards to
/// convert-cudnn-to-llvm.
template <typename Base> struct WithCudnnToLLVMOptions : public Base {
  template <typename T> using Option = typename Base::template Option<T>;

  Option<bool> deterministic{
      *this, "deterministic",
      llvm::cl::desc("Only deterministic cuDNN engines"), llvm::cl::init(false)};
  Option<std::string> gpuChip{
      *this, "gpu-chip",
      llvm::cl::desc("The sm_XX generated kernels (gpu.module) are compiled "
                     "for, as PTX"),
      llvm::cl::init("sm_90")};
  Option<bool> autotune{
      *this, "autotune",
      llvm::cl::desc("Time every candidate plan on first use, keep the "
                     "fastest"),
      llvm::cl::init(false)};
  Option<bool> reportKernels{
      *this, "report-kernels",
      llvm::cl::desc("A remark per function listing the GPU kernels it "
                     "became (codegen-map-to-gpu)"),
      llvm::cl::init(false)};
  Option<bool> gridSync{
      *this, "grid-sync",
      llvm::cl::desc("Channels-last batch-norm training as one generated "
                     "kernel with grid-wide barriers (codegen-map-to-gpu)"),
      llvm::cl::init(true)};
};

struct TcpToCudnnPipelineOptions
    : public WithExactFp32Option<WithTcpToCudnnOptions<
          PassPipelineOptions<TcpToCudnnPipelineOptions>>> {};

struct CudnnToLLVMPipelineOptions
    : public WithExactFp32Option<WithCudnnToLLVMOptions<
          PassPipelineOptions<CudnnToLLVMPipelineOptions>>> {};

struct TcpToLLVMPipelineOptions
    : public WithExactFp32Option<WithCudnnToLLVMOptions<WithTcpToCudnnOptions<
          PassPipelineOptions<TcpToLLVMPipelineOptions>>>> {};

/// tcp-fuse-for-cudnn, tcp-isolate-group-ops, convert-tcp-to-cudnn,
/// cudnn-assign-layouts, then canonicalize and CSE, on every func.func.
void buildTcpToCudnnPipeline(OpPassManager &pm,
                             const TcpToCudnnPipelineOptions &options);

/// cudnn-bufferize, cudnn-results-to-out-params (outputs become
/// caller-provided buffers), ownership-based deallocation, generated kernels
/// (gpu.module) to NVVM and embedded PTX, then convert-cudnn-to-llvm and
/// reconcile-unrealized-casts: cuDNN graphs on tensors in, LLVM dialect
/// calling the runtime out.
void buildCudnnToLLVMPipeline(OpPassManager &pm,
                              const CudnnToLLVMPipelineOptions &options);

/// tcp-to-cudnn-pipeline, then cudnn-to-llvm-pipeline: TCP all the way to
/// the LLVM dialect.
void buildTcpToLLVMPipeline(OpPassManager &pm,
                            const TcpToLLVMPipelineOptions &options);

/// Registers every pipeline above with the global pipeline registry.
void registerPipelines();

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_PIPELINES_PIPELINES_H
