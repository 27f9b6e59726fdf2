//===- CudnnCallTimer.cpp - time cuDNN's backend calls, preloaded ---------===//
//
// An LD_PRELOAD library for RuntimeBench: it interposes the cuDNN backend
// calls one execute makes (create, set, finalize and destroy the variant
// pack; execute the plan), forwards each to cuDNN and adds up the host time
// spent inside it, so that the bench can split an execute's host cost into
// cuDNN's part and the rest (the runtime's and cudnn-frontend's). Two clock
// reads per call (about 40 ns) are added to what it measures.
//
//===----------------------------------------------------------------------===//

#include <cudnn.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace {

enum Call { Create, SetAttribute, Finalize, Execute, Destroy, kCalls };

std::atomic<int64_t> nanoseconds[kCalls];
std::atomic<int64_t> counts[kCalls];

template <typename F> F next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr, "CudnnCallTimer: %s not found after the preload\n",
                 name);
    std::abort();
  }
  return reinterpret_cast<F>(f);
}

template <typename F, typename... Args>
cudnnStatus_t timed(Call call, F f, Args... args) {
  auto t0 = std::chrono::steady_clock::now();
  cudnnStatus_t s = f(args...);
  auto t1 = std::chrono::steady_clock::now();
  nanoseconds[call] +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  ++counts[call];
  return s;
}

} // namespace

extern "C" {

cudnnStatus_t cudnnBackendCreateDescriptor(cudnnBackendDescriptorType_t type,
                                           cudnnBackendDescriptor_t *desc) {
  static auto f = next<decltype(&cudnnBackendCreateDescriptor)>(
      "cudnnBackendCreateDescriptor");
  return timed(Create, f, type, desc);
}

cudnnStatus_t cudnnBackendSetAttribute(cudnnBackendDescriptor_t desc,
                                       cudnnBackendAttributeName_t name,
                                       cudnnBackendAttributeType_t type,
                                       int64_t count, const void *values) {
  static auto f =
      next<decltype(&cudnnBackendSetAttribute)>("cudnnBackendSetAttribute");
  return timed(SetAttribute, f, desc, name, type, count, values);
}

cudnnStatus_t cudnnBackendFinalize(cudnnBackendDescriptor_t desc) {
  static auto f = next<decltype(&cudnnBackendFinalize)>("cudnnBackendFinalize");
  return timed(Finalize, f, desc);
}

cudnnStatus_t cudnnBackendExecute(cudnnHandle_t handle,
                                  cudnnBackendDescriptor_t plan,
                                  cudnnBackendDescriptor_t pack) {
  static auto f = next<decltype(&cudnnBackendExecute)>("cudnnBackendExecute");
  return timed(Execute, f, handle, plan, pack);
}

cudnnStatus_t cudnnBackendDestroyDescriptor(cudnnBackendDescriptor_t desc) {
  static auto f = next<decltype(&cudnnBackendDestroyDescriptor)>(
      "cudnnBackendDestroyDescriptor");
  return timed(Destroy, f, desc);
}

/// RuntimeBench finds these with dlsym when the library is preloaded.
/// Totals since the last reset: microseconds of host time inside cuDNN
/// over all wrapped calls, and the number of cudnnBackendExecute calls.
void cmrtBenchCudnnCallTimerReset() {
  for (int i = 0; i < kCalls; ++i) {
    nanoseconds[i] = 0;
    counts[i] = 0;
  }
}

void cmrtBenchCudnnCallTimerRead(double *insideCudnnUs, double *executeUs,
                                 int64_t *executes) {
  int64_t total = 0;
  for (int i = 0; i < kCalls; ++i)
    total += nanoseconds[i];
  *insideCudnnUs = total / 1000.0;
  *executeUs = nanoseconds[Execute] / 1000.0;
  *executes = counts[Execute];
}

} // extern "C"
