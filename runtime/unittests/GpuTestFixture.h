//===- GpuTestFixture.h - shared scaffolding of the GPU tests ---*- C++ -*-===//
//
// Host-side fp16/bf16 rounding, device buffers that remember their float64
// values, and a fixture that skips without a GPU, runs on a non-default
// stream, poisons outputs (0xFF bytes: NaN in every float type) and frees
// everything it allocated.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_UNITTESTS_GPUTESTFIXTURE_H
#define CUDNN_MLIR_RUNTIME_UNITTESTS_GPUTESTFIXTURE_H

#include "RuntimeGraphs.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CUDA_OK(expr)                                                          \
  do {                                                                         \
    cudaError_t err_ = (expr);                                                 \
    ASSERT_EQ(err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(err_); \
  } while (0)

#define CMRT_OK(expr)                                                          \
  ASSERT_EQ((expr), CMRT_SUCCESS) << #expr << ": " << cmrtGetLastErrorMessage()

namespace cmrt::graph::test {

//===-- fp16 on the host (round to nearest even) --------------------------===//

inline uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1),
             mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (h & 1)))
      ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
    ++h;
  return static_cast<uint16_t>(sign | h);
}

inline float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f,
           mant = h & 0x3ffu, bits;
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31)
    bits = sign | 0x7f800000u | (mant << 13);
  else
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// bf16 by round to nearest even (NaN stays NaN).
inline uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

inline float bf16ToFloat(uint16_t h) {
  uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// `f` rounded to `type` (half, bfloat16 or float) and back.
inline double roundTo(DataType type, float f) {
  if (type == DataType::Half)
    return halfToFloat(floatToHalf(f));
  if (type == DataType::BFloat16)
    return bf16ToFloat(floatToBf16(f));
  return f;
}

//===-- Buffers -----------------------------------------------------------===//

/// Host values (float64) and their device copy in `type` (half, bfloat16
/// or float),
/// element i at offset i: the tests' layouts are dense in memory order.
struct Buffer {
  DataType type = DataType::Float;
  std::vector<double> host; // the values as the device sees them
  void *device = nullptr;
  size_t bytes() const {
    return host.size() * (isTwoByte() ? 2 : 4);
  }
  bool isTwoByte() const {
    return type == DataType::Half || type == DataType::BFloat16;
  }
};

class GpuGraphTest : public ::testing::Test {
protected:
  void SetUp() override {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      GTEST_SKIP() << "no CUDA GPU";
    }
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CMRT_OK(cmrtGraphCacheClear());
  }
  void TearDown() override {
    for (void *p : allocations)
      EXPECT_EQ(cudaFree(p), cudaSuccess);
    if (stream) {
      EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
    }
  }

  /// Random values in [lo, hi], rounded to `type`, uploaded.
  void random(Buffer &b, DataType type, size_t n, double lo, double hi) {
    b.type = type;
    b.host.resize(n);
    std::uniform_real_distribution<float> dist(static_cast<float>(lo),
                                               static_cast<float>(hi));
    for (double &v : b.host) {
      float f = dist(rng);
      v = roundTo(type, f);
    }
    upload(b);
  }

  void upload(Buffer &b) {
    ASSERT_EQ(b.device, nullptr);
    CUDA_OK(cudaMalloc(&b.device, b.bytes()));
    allocations.push_back(b.device);
    if (b.isTwoByte()) {
      std::vector<uint16_t> h(b.host.size());
      for (size_t i = 0; i < h.size(); ++i) {
        auto f = static_cast<float>(b.host[i]);
        h[i] = b.type == DataType::Half ? floatToHalf(f) : floatToBf16(f);
      }
      CUDA_OK(cudaMemcpy(b.device, h.data(), b.bytes(),
                         cudaMemcpyHostToDevice));
    } else {
      std::vector<float> f(b.host.begin(), b.host.end());
      CUDA_OK(cudaMemcpy(b.device, f.data(), b.bytes(),
                         cudaMemcpyHostToDevice));
    }
  }

  /// A poisoned output (every byte 0xFF: NaN in half and float).
  void output(Buffer &b, DataType type, size_t n) {
    b.type = type;
    b.host.assign(n, 0.0);
    ASSERT_EQ(b.device, nullptr);
    CUDA_OK(cudaMalloc(&b.device, b.bytes()));
    allocations.push_back(b.device);
    CUDA_OK(cudaMemsetAsync(b.device, 0xFF, b.bytes(), stream));
  }

  void download(Buffer &b) {
    if (b.isTwoByte()) {
      std::vector<uint16_t> h(b.host.size());
      CUDA_OK(cudaMemcpy(h.data(), b.device, b.bytes(),
                         cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < h.size(); ++i)
        b.host[i] = b.type == DataType::Half ? halfToFloat(h[i])
                                             : bf16ToFloat(h[i]);
    } else {
      std::vector<float> f(b.host.size());
      CUDA_OK(cudaMemcpy(f.data(), b.device, b.bytes(),
                         cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < f.size(); ++i)
        b.host[i] = f[i];
    }
  }

  /// Builds (through the cache) and runs, then waits for the stream.
  void run(const GraphDescription &desc, cmrtGraphOptions options,
           std::vector<int64_t> uids, std::vector<void *> ptrs) {
    std::vector<int64_t> w = serialize(desc);
    cmrtGraph g = nullptr;
    CMRT_OK(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()),
                                options, stream, &g));
    ASSERT_NE(g, nullptr);
    cmrtStatus st = cmrtGraphExecute(g, stream, uids.data(), ptrs.data(),
                                     static_cast<int64_t>(uids.size()));
    std::string msg = cmrtGetLastErrorMessage();
    CMRT_OK(cmrtGraphRelease(g));
    ASSERT_EQ(st, CMRT_SUCCESS) << msg;
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
  }

  static double relL2(const std::vector<double> &got,
                      const std::vector<double> &want) {
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      if (!std::isfinite(got[i]))
        return INFINITY; // poison survived: the element was never written
      num += (got[i] - want[i]) * (got[i] - want[i]);
      den += want[i] * want[i];
    }
    return std::sqrt(num / (den > 0 ? den : 1));
  }

  std::mt19937 rng{20240611};
  cudaStream_t stream = nullptr;
  std::vector<void *> allocations; // freed in TearDown (Buffers are locals)
};

/// "Same" cross-correlation (stride 1, output H x W), NHWC x/y, KRSC w, in
/// float64, no bias, s.groups groups; memory order of x is n,h,w,c, of w
/// k,r,s,c (c / groups channels), of y n,h,w,k. Each output is rounded to
/// `type` (what a real tensor of that type holds; Double keeps it exact).
inline std::vector<double> convReference(const ConvShape &s, DataType type,
                                  const std::vector<double> &x,
                                  const std::vector<double> &w) {
  std::vector<double> y(static_cast<size_t>(s.n * s.h * s.w * s.k));
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t p = 0; p < s.h; ++p)
      for (int64_t q = 0; q < s.w; ++q)
        for (int64_t k = 0; k < s.k; ++k) {
          int64_t perGroup = s.c / s.groups;
          int64_t first = k / (s.k / s.groups) * perGroup;
          double acc = 0;
          for (int64_t r = 0; r < s.r; ++r)
            for (int64_t t = 0; t < s.s; ++t) {
              int64_t ih = p + r - s.pad, iw = q + t - s.pad;
              if (ih < 0 || ih >= s.h || iw < 0 || iw >= s.w)
                continue;
              for (int64_t c = 0; c < perGroup; ++c)
                acc += x[((n * s.h + ih) * s.w + iw) * s.c + first + c] *
                       w[((k * s.r + r) * s.s + t) * perGroup + c];
            }
          y[((n * s.h + p) * s.w + q) * s.k + k] =
              type == DataType::Double ? acc
                                       : roundTo(type, static_cast<float>(acc));
        }
  return y;
}

/// relu(conv(x, w) + bias) in float64, layouts as convReference.
inline std::vector<double> convBiasReluReference(const ConvShape &s,
                                    const std::vector<double> &x,
                                    const std::vector<double> &w,
                                    const std::vector<double> &bias) {
  std::vector<double> y = convReference(s, DataType::Double, x, w);
  for (size_t i = 0; i < y.size(); ++i) {
    double v = y[i] + bias[i % static_cast<size_t>(s.k)];
    y[i] = v > 0 ? v : 0;
  }
  return y;
}

/// a [M,K] x b [K,N] + bias [N], row-major, in float64.
inline std::vector<double> matmulBiasReference(const std::vector<double> &a,
                                               const std::vector<double> &b,
                                               const std::vector<double> &bias,
                                               int64_t m, int64_t k,
                                               int64_t n) {
  std::vector<double> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias[j];
      for (int64_t l = 0; l < k; ++l)
        acc += a[i * k + l] * b[l * n + j];
      c[i * n + j] = acc;
    }
  return c;
}

} // namespace cmrt::graph::test

#endif // CUDNN_MLIR_RUNTIME_UNITTESTS_GPUTESTFIXTURE_H
