//===- GraphExecAbi.cpp - C entry points: build, cache, execute -----------===//
//
// cmrtGraphGetOrBuild -> validate, key (graph + options hash, compute
// capability, cuDNN version, device), cache lookup, build on a miss;
// cmrtGraphExecute -> operand and alignment checks, then GraphBuild.cpp
// (handle bound to the stream, pooled workspace, enqueue). No frontend headers here, and nothing
// here throws past the C boundary (allocation failures are caught too).
//
//===----------------------------------------------------------------------===//

#include "blas/Gemm.h"
#include "blas/LtMatmul.h"
#include "core/Context.h"
#include "core/Errors.h"
#include "core/LruCache.h"
#include "cudnn-mlir-runtime/Graph.h"
#include "frontend/GraphBuild.h"
#include "graph/GraphHash.h"
#include "graph/GraphValidation.h"
#include "kernels/DeviceMemoryPool.h"
#include "rnn/Rnn.h"
#include "rnn/RnnWeightSpaces.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <unordered_map>
#include <vector>

using namespace cmrt;
using cmrt::graph::Status;

struct cmrtGraphImpl {
  std::shared_ptr<BuiltGraph> graph;
};

namespace {

/// What a built graph depends on: CacheKey (graph + options hash, compute
/// capability, cuDNN version) and the device ordinal, since a plan belongs to
/// the device it was built on.
struct DeviceCacheKey {
  graph::CacheKey key;
  int device = 0;
  bool operator==(const DeviceCacheKey &o) const {
    return key == o.key && device == o.device;
  }
};

struct DeviceCacheKeyHasher {
  size_t operator()(const DeviceCacheKey &k) const {
    return static_cast<size_t>(
        graph::hashWords(nullptr, 0, k.key.combined() ^
                                         static_cast<uint64_t>(k.device)));
  }
};

constexpr size_t kDefaultCapacity = 1024;

using GraphCache = LruCache<DeviceCacheKey, BuiltGraph, DeviceCacheKeyHasher>;

GraphCache &cache() {
  // Leaked on purpose: destroying cuDNN plans after the CUDA runtime has
  // unloaded at exit is unsafe; cmrtShutdown clears it explicitly.
  static GraphCache *c = new GraphCache(kDefaultCapacity);
  return *c;
}

} // namespace

extern "C" CMRT_EXPORT cmrtStatus
cmrtDumpGraphDescription(const int64_t *words, int64_t count, char *buffer,
                         int64_t size, int64_t *needed) {
  return guarded("cmrtDumpGraphDescription", [&] {
    if (size > 0 && !buffer)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtDumpGraphDescription expects a buffer when size "
                        "> 0, but got null");
    graph::GraphDescription desc;
    if (Status s = graph::parseAndValidate(words, count, desc); !s.ok())
      return report(s);
    std::string text = graph::dumpGraph(desc);
    if (needed)
      *needed = static_cast<int64_t>(text.size()) + 1;
    if (size > 0) {
      size_t n = std::min(text.size(), static_cast<size_t>(size - 1));
      std::memcpy(buffer, text.data(), n);
      buffer[n] = '\0';
    }
    return cmrt::succeed();
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphGetOrBuild(const int64_t *words,
                                                      int64_t count,
                                                      cmrtGraphOptions options,
                                                      void *stream,
                                                      cmrtGraph *out) {
  return guarded("cmrtGraphGetOrBuild", [&] {
    if (!out)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtGraphGetOrBuild expects a non-null out pointer, "
                        "but got null");
    *out = nullptr;
    if (Status s = graph::checkOptions(options); !s.ok())
      return report(s);
    graph::GraphDescription desc;
    if (Status s = graph::parseAndValidate(words, count, desc); !s.ok())
      return report(s);

    int device = 0;
    if (Status s = currentDevice(device); !s.ok())
      return report(s);
    int64_t cc = 0;
    if (Status s = computeCapability(device, cc); !s.ok())
      return report(s);
    DeviceCacheKey key{
        graph::makeCacheKey(graph::hashGraphAndOptions(words, count, options),
                            cc, static_cast<int64_t>(cudnnGetVersion())),
        device};

    auto cudaStream = static_cast<cudaStream_t>(stream);
    std::shared_ptr<BuiltGraph> built;
    Status s = cache().getOrBuild(
        key,
        [&](std::shared_ptr<BuiltGraph> &result) -> Status {
          CMRT_TRY(checkNotCapturing(cudaStream, "building a cuDNN plan"));
          cudnnHandle_t handle = nullptr;
          CMRT_TRY(handleFor(device, cudaStream, handle));
          return buildGraph({desc, options, key.key, device, handle,
                             cudaStream},
                            result);
        },
        built);
    if (!s.ok())
      return report(s);
    // Fusion by timing found the split form faster (FusionTiming.h): the
    // module runs that instead, on every call, without timing again.
    if (!built->refusal.empty())
      return report(
          {CMRT_ERROR_NOT_SUPPORTED, built->refusal + "\n" + built->dump});
    // Grow the stream's pool now, so that executing can be captured.
    if (checkNotCapturing(cudaStream, "").ok()) {
      WorkspaceLease lease;
      if (Status g = lease.acquire(device, cudaStream,
                                   built->scratchBytes + built->workspaceBytes);
          !g.ok())
        return report(g);
    }
    *out = new cmrtGraphImpl{std::move(built)};
    return cmrt::succeed();
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphExecute(cmrtGraph graph,
                                                   void *stream,
                                                   const int64_t *uids,
                                                   void *const *pointers,
                                                   int64_t count) {
  return guarded("cmrtGraphExecute", [&] {
    if (!graph || !graph->graph)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtGraphExecute expects a graph from "
                        "cmrtGraphGetOrBuild, but got null");
    BuiltGraph &g = *graph->graph;
    if (count < 0 || (count > 0 && (!uids || !pointers)))
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtGraphExecute expects count >= 0 and non-null "
                        "uids and pointers, but got count " +
                            std::to_string(count));
    // One pointer per user tensor, in the graph's order (the frontend's
    // variant-pack order). Graphs have a handful of user tensors: linear
    // scans and a stack array beat building a map on every call (this
    // path's host cost is measured: see docs/benchmarks.md).
    constexpr size_t kInlineTensors = 32;
    const size_t n = g.userTensors.size();
    void *inlineSlots[kInlineTensors];
    std::vector<void *> heapSlots;
    void **slots = inlineSlots;
    if (n > kInlineTensors) {
      heapSlots.resize(n);
      slots = heapSlots.data();
    }
    std::fill(slots, slots + n, nullptr);
    for (int64_t i = 0; i < count; ++i) {
      auto it = std::find_if(
          g.userTensors.begin(), g.userTensors.end(),
          [&](const std::pair<int64_t, int64_t> &t) { return t.first == uids[i]; });
      if (it == g.userTensors.end())
        return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                          "cmrtGraphExecute expects UIDs of the graph's "
                          "non-virtual, non-by-value tensors, but got UID " +
                              std::to_string(uids[i]) + "\n" + g.dump);
      if (!pointers[i])
        return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                          "cmrtGraphExecute expects a device pointer for "
                          "tensor UID " +
                              std::to_string(uids[i]) + ", but got null");
      auto address = reinterpret_cast<uintptr_t>(pointers[i]);
      if (address % static_cast<uintptr_t>(it->second) != 0)
        return cmrt::fail(CMRT_ERROR_MISALIGNED,
                          "cmrtGraphExecute expects the pointer of tensor "
                          "UID " +
                              std::to_string(uids[i]) + " to be " +
                              std::to_string(it->second) +
                              "-byte aligned, but got " +
                              std::to_string(address % it->second) +
                              " bytes past a multiple");
      void *&slot = slots[it - g.userTensors.begin()];
      if (slot)
        return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                          "cmrtGraphExecute expects each UID once, but got "
                          "UID " +
                              std::to_string(uids[i]) + " twice");
      slot = pointers[i];
    }
    for (size_t j = 0; j < n; ++j)
      if (!slots[j])
        return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                          "cmrtGraphExecute expects a pointer for tensor "
                          "UID " +
                              std::to_string(g.userTensors[j].first) +
                              ", but got none\n" + g.dump);

    DeviceGuard guard;
    if (Status s = guard.set(g.device); !s.ok())
      return report(s);
    return report(
        executeBuiltGraph(g, static_cast<cudaStream_t>(stream), slots));
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphGetWorkspaceSize(cmrtGraph graph,
                                                            int64_t *bytes) {
  if (!graph || !graph->graph || !bytes)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtGraphGetWorkspaceSize expects a graph and a "
                      "non-null bytes pointer, but got null");
  *bytes = graph->graph->workspaceBytes;
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphGetInfo(cmrtGraph graph,
                                                   cmrtGraphInfo *info) {
  if (!graph || !graph->graph || !info)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtGraphGetInfo expects a graph and a non-null info "
                      "pointer, but got null");
  const BuiltGraph &g = *graph->graph;
  *info = {};
  info->workspaceBytes = g.workspaceBytes;
  info->scratchBytes = g.scratchBytes;
  info->parts = g.parts.empty() ? 1 : static_cast<int64_t>(g.parts.size());
  info->buildMilliseconds = g.buildMilliseconds;
  info->origin = g.origin;
  size_t n = std::min(g.planName.size(), sizeof(info->engine) - 1);
  std::memcpy(info->engine, g.planName.data(), n);
  info->engine[n] = '\0';
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphRelease(cmrtGraph graph) {
  delete graph;
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtGraphCacheGetStats(cmrtGraphCacheStats *stats) {
  if (!stats)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtGraphCacheGetStats expects a non-null stats "
                      "pointer, but got null");
  LruStats s = cache().stats();
  *stats = {s.builds, s.hits, s.evictions, s.entries, s.capacity};
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGetWorkspaceInfo(int device, void *stream,
                                                      cmrtWorkspaceInfo *info) {
  if (!info)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtGetWorkspaceInfo expects a non-null info pointer, "
                      "but got null");
  WorkspacePoolInfo pool =
      workspacePoolInfo(device, static_cast<cudaStream_t>(stream));
  *info = {pool.bytes, pool.retiredBytes, pool.captured ? 1 : 0};
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphCacheSetCapacity(int64_t capacity) {
  if (capacity < 0)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtGraphCacheSetCapacity expects a capacity >= 0 (0 "
                      "= unlimited), but got " +
                          std::to_string(capacity));
  return guarded("cmrtGraphCacheSetCapacity", [&] {
    cache().setCapacity(static_cast<size_t>(capacity));
    return cmrt::succeed();
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtGraphCacheClear(void) {
  return guarded("cmrtGraphCacheClear", [&] {
    cache().clear();
    return cmrt::succeed();
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtShutdown(void) {
  return guarded("cmrtShutdown", [&] {
    cache().clear();
    rnn::clearRnnCache();
    rnn::releaseDropoutStates();
    rnn::releaseWeightSpaces();
    blas::releaseBlasHandles();
    blas::releaseLtHandles();
    releaseContextResources();
    trimAllDeviceMemory();
    return cmrt::succeed();
  });
}
