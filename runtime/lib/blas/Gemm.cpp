//===- Gemm.cpp - exact fp32 GEMMs on cuBLAS ------------------------------===//

#include "blas/Gemm.h"

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

/// The calling thread's cuBLAS handles, one per (device, stream): a handle
/// is bound to one stream and its workspace is used by one stream only, so
/// work on two streams never shares it. Kept until the process ends, as
/// PyTorch keeps its own: destroying them at exit can run after the CUDA
/// context is gone.
thread_local std::map<std::pair<int, cudaStream_t>, cublasHandle_t> handles;

graph::Status createHandle(cudaStream_t stream, cublasHandle_t &out) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) == cudaSuccess &&
      capture != cudaStreamCaptureStatusNone)
    return {CMRT_ERROR_STREAM_CAPTURE,
            "cmrtInvocationGemm expects a cuBLAS handle for this stream "
            "before it is captured into a CUDA graph (creating one "
            "allocates), but got the first GEMM on it during capture; run "
            "the module once on the stream before capturing"};
  cublasHandle_t handle = nullptr;
  if (cublasStatus_t s = cublasCreate(&handle); s != CUBLAS_STATUS_SUCCESS)
    return cublasFailure("cublasCreate", s);
  // Default math: CUBLAS_COMPUTE_32F then never uses TF32 tensor cores
  // (only CUBLAS_TF32_TENSOR_OP_MATH or a *_FAST_TF32 compute type would),
  // so fp32 stays exact, as in PyTorch's default matmul precision.
  // PEDANTIC math would also rule out split-K style reorderings that fp32
  // accumulation makes harmless, at a cost in speed eager does not pay.
  const char *call = "cublasSetMathMode";
  cublasStatus_t s = cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
  if (s == CUBLAS_STATUS_SUCCESS) {
    call = "cublasSetStream";
    s = cublasSetStream(handle, stream);
  }
  if (s != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(handle);
    return cublasFailure(call, s);
  }
  out = handle;
  return graph::Status::success();
}

graph::Status handleFor(int device, cudaStream_t stream, cublasHandle_t &out) {
  auto it = handles.find({device, stream});
  if (it != handles.end()) {
    out = it->second;
    return graph::Status::success();
  }
  if (graph::Status s = createHandle(stream, out); !s.ok())
    return s;
  handles.emplace(std::make_pair(device, stream), out);
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
  cublasHandle_t handle = nullptr;
  if (graph::Status s = handleFor(device, stream, handle); !s.ok())
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
