//===- PlanCacheProbe.cpp - one process's first call, for the disk cache --===//
//
// Run by GpuPlanTest (and the benchmarks) as a fresh process. It first
// runs a small row-sum graph, so that the CUDA context, the cuDNN handle and
// cuDNN's libraries are up (costs every process pays, cache or not), then
// builds the fp16 NHWC conv + bias + ReLU graph (through CUDNN_MLIR_CACHE_DIR
// if set), runs it once, then once more, and prints one line
//   origin=<cmrtPlanOrigin> build_ms=<ms> first_call_us=<us> warm_call_us=<us>
//   startup_us=<us>
// where a "call" is cmrtGraphGetOrBuild + cmrtGraphExecute + stream
// synchronisation, timed on the host, and startup the row-sum warm-up.
// Exits non-zero with a message on any failure, or if the output has a NaN
// or infinity (outputs start poisoned).
//
//===----------------------------------------------------------------------===//

#include "RuntimeGraphs.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>

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

int main() {
  ConvShape s;
  s.n = 8;
  s.c = s.k = 64;
  s.h = s.w = 32;
  std::vector<int64_t> words = serialize(convBiasReluGraph(DataType::Half, s));
  size_t xBytes = s.n * s.c * s.h * s.w * 2, wBytes = s.k * s.c * 9 * 2,
         bBytes = s.k * 2, yBytes = s.n * s.k * s.h * s.w * 2;
  void *x = nullptr, *w = nullptr, *b = nullptr, *y = nullptr;
  cudaStream_t stream = nullptr;
  if (cudaMalloc(&x, xBytes) != cudaSuccess ||
      cudaMalloc(&w, wBytes) != cudaSuccess ||
      cudaMalloc(&b, bBytes) != cudaSuccess ||
      cudaMalloc(&y, yBytes) != cudaSuccess ||
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess)
    return failWith("CUDA setup", cudaGetErrorString(cudaGetLastError()));
  // 0x3C00 is 1.0 in fp16: every output is 9*64 + 1 (interior) or less.
  std::vector<uint16_t> ones(xBytes / 2, 0x3C00);
  cudaMemcpy(x, ones.data(), xBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(w, ones.data(), wBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, ones.data(), bBytes, cudaMemcpyHostToDevice);
  cudaMemset(y, 0xFF, yBytes);
  cudaDeviceSynchronize();

  // Start-up: context, handle, cuDNN's libraries (x doubles as the input).
  auto startupBegin = std::chrono::steady_clock::now();
  {
    std::vector<int64_t> sum = serialize(rowSumGraph(1, 8, 16));
    cmrtGraph g = nullptr;
    int64_t sumUids[] = {1, 2};
    void *sumPtrs[] = {x, y};
    if (cmrtGraphGetOrBuild(sum.data(), static_cast<int64_t>(sum.size()),
                            CMRT_GRAPH_DEFAULT, stream, &g) != CMRT_SUCCESS ||
        cmrtGraphExecute(g, stream, sumUids, sumPtrs, 2) != CMRT_SUCCESS)
      return failWith("start-up graph", cmrtGetLastErrorMessage());
    cmrtGraphRelease(g);
    cudaStreamSynchronize(stream);
    cudaMemset(y, 0xFF, yBytes);
    cudaDeviceSynchronize();
  }
  double startupUs = std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - startupBegin)
                         .count();

  int64_t uids[] = {1, 2, 4, 6};
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
  // Interior outputs: 3*3*64 ones + bias 1 = 577 (exact in fp16).
  size_t center = ((0 * s.h + 5) * s.w + 5) * s.k;
  if (out[center] != 0x6082) // 577.0 in fp16
    return failWith("result", "an interior output is not 577");
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
