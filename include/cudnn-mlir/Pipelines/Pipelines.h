//===- Pipelines.h - cudnn-mlir's pass pipelines ----------------*- C++ -*-===//

#ifndef CUDNN_MLIR_PIPELINES_PIPELINES_H
#define CUDNN_MLIR_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace cudnn_mlir {

/// Declares an option of PipelineOptions.def as a member of a pipeline's
/// options struct (a PassPipelineOptions).
#define CUDNN_DECLARE_PIPELINE_OPTION(NAME, TYPE, FLAG, DEFAULT, DESCRIPTION,  \
                                      FIELDS)                                  \
  Option<TYPE> NAME{*this, FLAG, llvm::cl::desc(DESCRIPTION),                  \
                    llvm::cl::init(DEFAULT)};

/// The options every pipeline has (`allow-tf32-matmul`), added to `Base` (a
/// PassPipelineOptions).
template <typename Base> struct WithEveryPipelineOptions : public Base {
  template <typename T> using Option = typename Base::template Option<T>;

#define CUDNN_EVERY_PIPELINE_OPTION CUDNN_DECLARE_PIPELINE_OPTION
#include "cudnn-mlir/Pipelines/PipelineOptions.def"
};

/// The options of `tcp-to-cudnn-pipeline`, added to `Base`.
template <typename Base> struct WithTcpToCudnnOptions : public Base {
  template <typename T> using Option = typename Base::template Option<T>;

#define CUDNN_TCP_TO_CUDNN_PIPELINE_OPTION CUDNN_DECLARE_PIPELINE_OPTION
#include "cudnn-mlir/Pipelines/PipelineOptions.def"
};

/// The options of `cudnn-to-llvm-pipeline`, added to `Base`.
template <typename Base> struct WithCudnnToLLVMOptions : public Base {
  template <typename T> using Option = typename Base::template Option<T>;

#define CUDNN_CUDNN_TO_LLVM_PIPELINE_OPTION CUDNN_DECLARE_PIPELINE_OPTION
#include "cudnn-mlir/Pipelines/PipelineOptions.def"
};

#undef CUDNN_DECLARE_PIPELINE_OPTION

struct TcpToCudnnPipelineOptions
    : public WithEveryPipelineOptions<WithTcpToCudnnOptions<
          PassPipelineOptions<TcpToCudnnPipelineOptions>>> {};

struct CudnnToLLVMPipelineOptions
    : public WithEveryPipelineOptions<WithCudnnToLLVMOptions<
          PassPipelineOptions<CudnnToLLVMPipelineOptions>>> {};

struct TcpToLLVMPipelineOptions
    : public WithEveryPipelineOptions<
          WithCudnnToLLVMOptions<WithTcpToCudnnOptions<
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
