//===- HostTiming.h - host time per call, the GPU held back -----*- C++ -*-===//
//
// The benchmarks' one way of timing what a call costs the host: calls are
// enqueued behind a host function that holds the stream, so none waits on
// a full launch queue and the time is the caller's and the libraries' own.
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

/// Median over `rounds` of the host microseconds per call of `call`, run
/// `calls` times a round behind a held stream. Warms up with 50 calls.
template <typename Call>
double hostMicrosecondsPerCall(cudaStream_t stream, Call &&call,
                               int calls = 100, int rounds = 30) {
  for (int i = 0; i < 50; ++i)
    call();
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    std::fprintf(stderr, "hostMicrosecondsPerCall: the warm-up failed\n");
    std::exit(1);
  }
  std::vector<double> us;
  for (int round = 0; round < rounds; ++round) {
    std::atomic<bool> release{false};
    if (cudaLaunchHostFunc(stream, holdStreamUntil, &release) != cudaSuccess) {
      std::fprintf(stderr, "hostMicrosecondsPerCall: cudaLaunchHostFunc "
                           "failed\n");
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
  return median(us);
}

} // namespace cmrt::bench

#endif // CUDNN_MLIR_RUNTIME_BENCHMARKS_HOSTTIMING_H
