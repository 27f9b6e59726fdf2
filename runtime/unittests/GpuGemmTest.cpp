//===- GpuGemmTest.cpp - exact fp32 GEMMs on cuBLAS, on a GPU -------------===//
//
// Needs a CUDA GPU (CTest label `gpu`). cmrtInvocationGemm inside an
// invocation on a non-default stream, against a float64 CPU reference:
// max |C - ref| <= 1e-5 * max |ref| (exact fp32 accumulation over K <= 512
// stays near 1e-6; TF32 inputs, with a 10-bit mantissa, would give ~1e-3).
// Shapes cover odd sizes, batches, a batch-shared operand (stride 0) and
// every combination of transposed operands.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr double kTolerance = 1e-5;

struct Case {
  int64_t m, n, k, batch;
  bool transA, transB;
  bool shareB; // one B for the whole batch (strideB = 0)
};

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

/// cudaMalloc of `count` floats.
cudaError_t deviceFloats(float **out, size_t count) {
  return cudaMalloc(reinterpret_cast<void **>(out), count * sizeof(float));
}

std::vector<float> randomFloats(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float &v : values)
    v = dist(gen);
  return values;
}

/// C[i][r][c] = sum_p op(A)[r][p] * op(B)[p][c] in double.
std::vector<double> reference(const Case &t, const std::vector<float> &a,
                              const std::vector<float> &b) {
  std::vector<double> c(t.batch * t.m * t.n, 0.0);
  for (int64_t i = 0; i < t.batch; ++i) {
    const float *ai = a.data() + i * t.m * t.k;
    const float *bi = b.data() + (t.shareB ? 0 : i * t.k * t.n);
    for (int64_t r = 0; r < t.m; ++r)
      for (int64_t col = 0; col < t.n; ++col) {
        double sum = 0;
        for (int64_t p = 0; p < t.k; ++p) {
          double x = t.transA ? ai[p * t.m + r] : ai[r * t.k + p];
          double y = t.transB ? bi[col * t.k + p] : bi[p * t.n + col];
          sum += x * y;
        }
        c[(i * t.m + r) * t.n + col] = sum;
      }
  }
  return c;
}

class GpuGemmTest : public ::testing::TestWithParam<Case> {};

/// Runs `t` through cmrtInvocationGemm on a new stream and sets `relErr` to
/// max |C - ref| / max |ref|.
void runGemmCase(const Case &t, double &relErr) {
  std::vector<float> a = randomFloats(t.batch * t.m * t.k, 1);
  std::vector<float> b = randomFloats((t.shareB ? 1 : t.batch) * t.k * t.n, 2);
  std::vector<float> c(t.batch * t.m * t.n);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreate(&stream));
  CUDA_OK(deviceFloats(&da, a.size()));
  CUDA_OK(deviceFloats(&db, b.size()));
  CUDA_OK(deviceFloats(&dc, c.size()));
  CUDA_OK(cudaMemcpy(da, a.data(), a.size() * sizeof(float),
                     cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(db, b.data(), b.size() * sizeof(float),
                     cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dc, 0xFF, c.size() * sizeof(float))); // NaN

  void *inv = cmrtInvocationBegin(stream);
  cmrtStatus s = cmrtInvocationGemm(
      inv, t.transA, t.transB, t.m, t.n, t.k, t.batch, da, t.transA ? t.m : t.k,
      t.m * t.k, db, t.transB ? t.k : t.n, t.shareB ? 0 : t.k * t.n, dc, t.n,
      t.m * t.n, "GpuGemmTest");
  cmrtStatus end = cmrtInvocationEnd(inv);
  ASSERT_EQ(s, CMRT_SUCCESS) << cmrtGetLastErrorMessage();
  ASSERT_EQ(end, CMRT_SUCCESS) << cmrtGetLastErrorMessage();
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float),
                     cudaMemcpyDeviceToHost));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaStreamDestroy(stream);

  std::vector<double> want = reference(t, a, b);
  double maxRef = 0, maxErr = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    maxRef = std::max(maxRef, std::fabs(want[i]));
    // A NaN (an element never written) fails the comparison below.
    double err = std::fabs(double(c[i]) - want[i]);
    maxErr = std::isnan(err) ? INFINITY : std::max(maxErr, err);
  }
  ASSERT_GT(maxRef, 0);
  relErr = maxErr / maxRef;
}

bool haveDevice() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

TEST_P(GpuGemmTest, MatchesFloat64Reference) {
  if (!haveDevice())
    GTEST_SKIP() << "no CUDA device";
  const Case t = GetParam();
  double relErr = INFINITY;
  runGemmCase(t, relErr);
  EXPECT_LE(relErr, kTolerance);
  std::printf("gemm m=%lld n=%lld k=%lld batch=%lld%s%s%s: max rel %.3g\n",
              (long long)t.m, (long long)t.n, (long long)t.k,
              (long long)t.batch, t.transA ? " transA" : "",
              t.transB ? " transB" : "", t.shareB ? " shared B" : "", relErr);
}

// cmrtShutdown destroys the thread's cuBLAS handle (memcheck's leak check
// found them kept, one per stream); the next GEMM creates a new one.
TEST(GpuGemmLifetime, GemmAfterShutdownStillRuns) {
  if (!haveDevice())
    GTEST_SKIP() << "no CUDA device";
  const Case t{48, 40, 96, 2, false, true, false};
  double before = INFINITY, after = INFINITY;
  runGemmCase(t, before);
  ASSERT_EQ(cmrtShutdown(), CMRT_SUCCESS) << cmrtGetLastErrorMessage();
  runGemmCase(t, after);
  EXPECT_LE(before, kTolerance);
  EXPECT_LE(after, kTolerance);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GpuGemmTest,
    ::testing::Values(Case{64, 96, 128, 1, false, false, false},
                      Case{33, 17, 65, 1, true, false, false},
                      Case{16, 24, 40, 3, false, true, false},
                      Case{8, 8, 300, 4, true, true, false},
                      Case{31, 7, 512, 2, false, false, true},
                      Case{256, 128, 512, 1, false, false, false}));

TEST(GpuGemmErrors, BadLeadingDimensionFailsTheInvocation) {
  if (!haveDevice())
    GTEST_SKIP() << "no CUDA device";
  float *buffer = nullptr;
  CUDA_OK(deviceFloats(&buffer, 64));
  void *inv = cmrtInvocationBegin(nullptr);
  EXPECT_EQ(cmrtInvocationGemm(inv, 0, 0, 2, 3, 4, 1, buffer, 3, 0, buffer, 3,
                               0, buffer, 3, 0, "model.py:7"),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cmrtInvocationEnd(inv), CMRT_ERROR_INVALID_ARGUMENT);
  std::string message = cmrtGetLastErrorMessage();
  EXPECT_NE(message.find("model.py:7 (cuBLAS GEMM): cmrtInvocationGemm "
                         "expects lda (a stored row of A) >= 4, but got 3"),
            std::string::npos)
      << message;
  cudaFree(buffer);
}

} // namespace
