//===- HostTiming.h - host time per call, the GPU held back -----*- C++ -*-===//
//
// The benchmarks' one way of timing what a call costs the host: calls are
// enqueued behind a host function that holds the stream, so none waits on
// a full launch queue and the time is the caller's and the libraries' own.
// With CudnnCallTimer preloaded (LD_PRELOAD), it also reports how much of
// that time was spent inside cuDNN's backend calls.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_BENCHMARKS_HOSTTIMING_H
#define CUDNN_MLIR_RUNTIME_BENCHMARKS_HOSTTIMING_H

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <vector>

namespace cmrt::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// A host function that holds its stream until *flag turns true.
inline void CUDART_CB holdStreamUntil(void *flag) {
  auto *release = static_cast<std::atomic<bool> *>(flag);
  while (!release->load())
    std::this_thread::yield();
}

/// Host cost of one call: the median over rounds, and (-1 unless
/// CudnnCallTimer is preloaded) the mean time inside cuDNN's backend calls,
/// all of them and cudnnBackendExecute alone.
struct HostCost {
  double us = 0;
  double insideCudnnUs = -1;
  double backendExecuteUs = -1;
};

/// Host microseconds per call of `call`, run `calls` times a round for
/// `rounds` rounds behind a held stream, after 50 warm-up calls.
template <typename Call>
HostCost hostCostPerCall(cudaStream_t stream, Call &&call, int calls = 100,
                         int rounds = 30) {
  using Reset = void (*)();
  using Read = void (*)(double *, double *, int64_t *);
  auto reset = reinterpret_cast<Reset>(
      dlsym(RTLD_DEFAULT, "cmrtBenchCudnnCallTimerReset"));
  auto read = reinterpret_cast<Read>(
      dlsym(RTLD_DEFAULT, "cmrtBenchCudnnCallTimerRead"));
  for (int i = 0; i < 50; ++i)
    call();
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    std::fprintf(stderr, "hostCostPerCall: the warm-up failed\n");
    std::exit(1);
  }
  if (reset)
    reset();
  std::vector<double> us;
  for (int round = 0; round < rounds; ++round) {
    std::atomic<bool> release{false};
    if (cudaLaunchHostFunc(stream, holdStreamUntil, &release) != cudaSuccess) {
      std::fprintf(stderr, "hostCostPerCall: cudaLaunchHostFunc failed\n");
      std::exit(1);
    }
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i)
      call();
    auto t1 = std::chrono::steady_clock::now();
    release = true;
    (void)cudaStreamSynchronize(stream);
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() /
                 calls);
  }
  HostCost cost;
  cost.us = median(us);
  if (read) {
    double inside = 0, execute = 0;
    int64_t executes = 0;
    read(&inside, &execute, &executes);
    double n = static_cast<double>(calls) * rounds;
    cost.insideCudnnUs = inside / n;
    cost.backendExecuteUs = execute / n;
  }
  return cost;
}

/// "12.34" or, with the timer preloaded, "12.34 (in cuDNN 9.87, of which
/// cudnnBackendExecute 6.54)".
inline std::string describe(const HostCost &cost) {
  char text[128];
  if (cost.insideCudnnUs < 0)
    std::snprintf(text, sizeof(text), "%.2f", cost.us);
  else
    std::snprintf(text, sizeof(text),
                  "%.2f (in cuDNN %.2f, of which cudnnBackendExecute %.2f)",
                  cost.us, cost.insideCudnnUs, cost.backendExecuteUs);
  return text;
}

} // namespace cmrt::bench

#endif // CUDNN_MLIR_RUNTIME_BENCHMARKS_HOSTTIMING_H
