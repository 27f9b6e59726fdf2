//===- PlanCacheProbe.cpp - one process's first call, for the disk cache --===//
//
// Run by GpuPlanTest (and the benchmarks) as a fresh process. It first
// calls cmrtContextInit, so that the CUDA context, the cuDNN handle and
// cuDNN's libraries are up (costs every process pays, cache or not), then
// builds the fp16 NHWC conv + bias + ReLU graph (or with the argument
// "matmul", a 1024^3 fp16 matmul + bias; through the disk cache unless
// CUDNN_MLIR_PLAN_CACHE=0), runs it once, then once more, and prints one line
//   origin=<cmrtPlanOrigin> build_ms=<ms> first_call_us=<us> warm_call_us=<us>
//   startup_us=<us>
// where a "call" is cmrtGraphGetOrBuild + cmrtGraphExecute + stream
// synchronisation, timed on the host, and startup the cmrtContextInit.
// Exits non-zero with a message on any failure, or if the output has a NaN
// or infinity (outputs start poisoned).
//
//===----------------------------------------------------------------------===//

#include "RuntimeGraphs.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

int failWith(const char *what, const char *detail) {
  std::fprintf(stderr, "PlanCacheProbe: %s: %s\n", what, detail);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  // "conv" (default): fp16 NHWC conv + bias + ReLU, checked exactly;
  // "matmul": fp16 [1,1024,1024] x [1,1024,1024] + bias (inputs are ones,
  // so every output is 1025).
  bool matmul = argc > 1 && std::strcmp(argv[1], "matmul") == 0;
  ConvShape s;
  s.n = 8;
  s.c = s.k = 64;
  s.h = s.w = 32;
  const int64_t mm = 1024;
  GraphDescription graph = matmul ? matmulBiasGraph(DataType::Half, mm, mm, mm)
                                  : convBiasReluGraph(DataType::Half, s);
  std::vector<int64_t> words = serialize(graph);
  size_t xBytes = matmul ? mm * mm * 2 : s.n * s.c * s.h * s.w * 2,
         wBytes = matmul ? mm * mm * 2 : s.k * s.c * 9 * 2,
         bBytes = matmul ? mm * 2 : s.k * 2,
         yBytes = matmul ? mm * mm * 2 : s.n * s.k * s.h * s.w * 2;
  void *x = nullptr, *w = nullptr, *b = nullptr, *y = nullptr;
  cudaStream_t stream = nullptr;
  if (cudaMalloc(&x, xBytes) != cudaSuccess ||
      cudaMalloc(&w, wBytes) != cudaSuccess ||
      cudaMalloc(&b, bBytes) != cudaSuccess ||
      cudaMalloc(&y, yBytes) != cudaSuccess ||
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess)
    return failWith("CUDA setup", cudaGetErrorString(cudaGetLastError()));
  // 0x3C00 is 1.0 in fp16.
  std::vector<uint16_t> ones(std::max(xBytes, wBytes) / 2, 0x3C00);
  cudaMemcpy(x, ones.data(), xBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(w, ones.data(), wBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, ones.data(), bBytes, cudaMemcpyHostToDevice);
  cudaMemset(y, 0xFF, yBytes);
  cudaDeviceSynchronize();

  // Start-up: the CUDA context and the cuDNN handle (cuDNN's libraries).
  auto startupBegin = std::chrono::steady_clock::now();
  if (cmrtContextInit(0) != CMRT_SUCCESS)
    return failWith("cmrtContextInit", cmrtGetLastErrorMessage());
  double startupUs = std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - startupBegin)
                         .count();

  // UIDs: conv x 1, w 2, bias 4, y 6; matmul a 1, b 2, bias 4, y 5.
  int64_t uids[] = {1, 2, 4, matmul ? 5 : 6};
  void *ptrs[] = {x, w, b, y};
  double callUs[2] = {0, 0};
  cmrtGraphInfo info{};
  for (int call = 0; call < 2; ++call) {
    auto start = std::chrono::steady_clock::now();
    cmrtGraph g = nullptr;
    if (cmrtGraphGetOrBuild(words.data(), static_cast<int64_t>(words.size()),
                            CMRT_GRAPH_DEFAULT, stream, &g) != CMRT_SUCCESS)
      return failWith("cmrtGraphGetOrBuild", cmrtGetLastErrorMessage());
    if (cmrtGraphExecute(g, stream, uids, ptrs, 4) != CMRT_SUCCESS)
      return failWith("cmrtGraphExecute", cmrtGetLastErrorMessage());
    if (cudaStreamSynchronize(stream) != cudaSuccess)
      return failWith("cudaStreamSynchronize",
                      cudaGetErrorString(cudaGetLastError()));
    callUs[call] = std::chrono::duration<double, std::micro>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    if (call == 0 && cmrtGraphGetInfo(g, &info) != CMRT_SUCCESS)
      return failWith("cmrtGraphGetInfo", cmrtGetLastErrorMessage());
    cmrtGraphRelease(g);
  }
  std::vector<uint16_t> out(yBytes / 2);
  cudaMemcpy(out.data(), y, yBytes, cudaMemcpyDeviceToHost);
  // Conv interior outputs: 3*3*64 ones + bias 1 = 577; matmul: 1024 + 1 =
  // 1025 (both exact in fp16).
  size_t center = matmul ? 5 * mm + 5 : ((0 * s.h + 5) * s.w + 5) * s.k;
  uint16_t want = matmul ? 0x6401 : 0x6082; // 1025.0 / 577.0 in fp16
  if (out[center] != want)
    return failWith("result", "an interior output is not the exact sum");
  for (uint16_t h : out)
    if ((h & 0x7c00) == 0x7c00)
      return failWith("result", "an output is NaN or infinite");
  std::printf("origin=%d build_ms=%.3f first_call_us=%.1f warm_call_us=%.1f "
              "startup_us=%.1f\n",
              static_cast<int>(info.origin), info.buildMilliseconds, callUs[0],
              callUs[1], startupUs);
  cmrtShutdown();
  return 0;
}
