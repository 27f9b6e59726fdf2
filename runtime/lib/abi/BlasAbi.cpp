//===- BlasAbi.cpp - C entry points of the cuBLAS calls -------------------===//
//
// cmrtInvocationGemm: what cudnn.execute_gemm becomes. Like every
// cmrtInvocation* call it runs on the invocation's stream, skips its work
// once the invocation has failed, and records its own failure there.
//
//===----------------------------------------------------------------------===//

#include "blas/Gemm.h"
#include "core/Errors.h"
#include "core/Invocation.h"

#include <string>

using namespace cmrt;

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationGemm(
    void *invocation, int64_t transA, int64_t transB, int64_t m, int64_t n,
    int64_t k, int64_t batch, const void *a, int64_t lda, int64_t strideA,
    const void *b, int64_t ldb, int64_t strideB, void *c, int64_t ldc,
    int64_t strideC, const char *where) {
  cudaStream_t stream = nullptr;
  if (!invocation || !currentInvocationStream(stream))
    return fail(CMRT_ERROR_INVALID_ARGUMENT,
                "cmrtInvocationGemm expects the calling thread's current "
                "invocation, but got none");
  if (currentInvocationFailed())
    return CMRT_ERROR_INVALID_ARGUMENT;
  cmrtStatus s = guarded("cmrtInvocationGemm", [&] {
    int device = -1;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
      return fail(CMRT_ERROR_NO_DEVICE,
                  std::string("cmrtInvocationGemm: cudaGetDevice failed: ") +
                      cudaGetErrorString(e));
    blas::RowMajorGemm g;
    g.transA = transA != 0;
    g.transB = transB != 0;
    g.m = m, g.n = n, g.k = k, g.batch = batch;
    g.lda = lda, g.strideA = strideA;
    g.ldb = ldb, g.strideB = strideB;
    g.ldc = ldc, g.strideC = strideC;
    return report(
        blas::runGemm(device, stream, g, static_cast<const float *>(a),
                      static_cast<const float *>(b), static_cast<float *>(c)));
  });
  if (s != CMRT_SUCCESS)
    failCurrentInvocation(s,
                          std::string(where ? where : "a GEMM") +
                              " (cuBLAS GEMM): " + cmrtGetLastErrorMessage());
  return s;
}
