//===- Gemm.cpp - exact fp32 GEMMs on cuBLAS ------------------------------===//

#include "blas/Gemm.h"
#include "core/Context.h"

#include <cublas_v2.h>

#include <map>
#include <string>
#include <utility>

using namespace cmrt;
using namespace cmrt::blas;

namespace {

graph::Status cublasFailure(const char *call, cublasStatus_t status) {
  return {CMRT_ERROR_CUDA, std::string(call) +
                               " failed: " + cublasGetStatusName(status) +
                               " (" + cublasGetStatusString(status) + ")"};
}

/// Bytes of the cuBLAS workspace a GEMM gets from its stream's workspace
/// pool (PyTorch's default on Hopper: CUBLAS_WORKSPACE_CONFIG=:4096:8).
constexpr int64_t kWorkspaceBytes = 32 << 20;

/// The calling thread's cuBLAS handles, one per device, as its cuDNN handles
/// are (core/Context.h): each GEMM binds the handle to its stream and to
/// that stream's workspace from the runtime's pool, so work on two streams
/// never shares a workspace. A handle per stream would instead keep
/// cuBLAS's own 64 MiB per stream ever used (memcheck counted 6 x 64 MiB
/// after six tests on six streams). Kept until cmrtShutdown
/// (releaseBlasHandles) or the process ends, as PyTorch keeps its own:
/// destroying them at exit can run after the CUDA context is gone.
thread_local std::map<int, cublasHandle_t> handles;

graph::Status createHandle(cudaStream_t stream, cublasHandle_t &out) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) == cudaSuccess &&
      capture != cudaStreamCaptureStatusNone)
    return {CMRT_ERROR_STREAM_CAPTURE,
            "cmrtInvocationGemm expects a cuBLAS handle for this thread "
            "and device before a stream is captured into a CUDA graph "
            "(creating one allocates), but got the first GEMM during "
            "capture; run the module once before capturing"};
  cublasHandle_t handle = nullptr;
  if (cublasStatus_t s = cublasCreate(&handle); s != CUBLAS_STATUS_SUCCESS)
    return cublasFailure("cublasCreate", s);
  // Default math: CUBLAS_COMPUTE_32F then never uses TF32 tensor cores
  // (only CUBLAS_TF32_TENSOR_OP_MATH or a *_FAST_TF32 compute type would),
  // so fp32 stays exact, as in PyTorch's default matmul precision.
  // PEDANTIC math would also rule out split-K style reorderings that fp32
  // accumulation makes harmless, at a cost in speed eager does not pay.
  if (cublasStatus_t s = cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
      s != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(handle);
    return cublasFailure("cublasSetMathMode", s);
  }
  out = handle;
  return graph::Status::success();
}

/// The thread's handle for `device`, bound to `stream` and to `workspace`.
graph::Status blasHandleFor(int device, cudaStream_t stream, void *workspace,
                            cublasHandle_t &out) {
  auto it = handles.find(device);
  if (it == handles.end()) {
    if (graph::Status s = createHandle(stream, out); !s.ok())
      return s;
    it = handles.emplace(device, out).first;
  }
  out = it->second;
  // cublasSetStream resets the workspace to cuBLAS's own, so the stream's
  // comes after it.
  if (cublasStatus_t s = cublasSetStream(out, stream);
      s != CUBLAS_STATUS_SUCCESS)
    return cublasFailure("cublasSetStream", s);
  if (cublasStatus_t s = cublasSetWorkspace(out, workspace, kWorkspaceBytes);
      s != CUBLAS_STATUS_SUCCESS)
    return cublasFailure("cublasSetWorkspace", s);
  return graph::Status::success();
}

cublasOperation_t op(bool transpose) {
  return transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
}

} // namespace

graph::Status cmrt::blas::runGemm(int device, cudaStream_t stream,
                                  const RowMajorGemm &g, const float *a,
                                  const float *b, float *c) {
  if (!a || !b || !c)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            "cmrtInvocationGemm expects non-null A, B and C, but got null"};
  ColumnMajorGemm cm;
  if (graph::Status s = toColumnMajor(g, cm); !s.ok())
    return s;
  // Held until the GEMM is enqueued: a growth of the stream's workspace
  // cannot free it under the GEMM.
  WorkspaceLease workspace;
  if (graph::Status s = workspace.acquire(device, stream, kWorkspaceBytes);
      !s.ok())
    return s;
  cublasHandle_t handle = nullptr;
  if (graph::Status s = blasHandleFor(device, stream, workspace.data(), handle);
      !s.ok())
    return s;
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t s = cublasGemmStridedBatchedEx(
      handle, op(cm.transFirst), op(cm.transSecond), cm.m, cm.n, cm.k, &alpha,
      b, CUDA_R_32F, cm.ldFirst, cm.strideFirst, a, CUDA_R_32F, cm.ldSecond,
      cm.strideSecond, &beta, c, CUDA_R_32F, cm.ldc, cm.strideC, cm.batch,
      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS)
    return cublasFailure("cublasGemmStridedBatchedEx", s);
  return graph::Status::success();
}

void cmrt::blas::releaseBlasHandles() {
  for (auto &[device, handle] : handles)
    cublasDestroy(handle);
  handles.clear();
}
