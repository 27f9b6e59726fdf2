//===- DeviceMemoryPool.cpp - pooled device memory for generated code -----===//

#include "kernels/DeviceMemoryPool.h"

#include <atomic>
#include <map>
#include <vector>
#include <mutex>
#include <unordered_set>

using namespace cmrt;

namespace {

struct Pools {
  std::mutex mutex; // guards both containers
  std::map<int, cudaMemPool_t> byDevice;
  std::unordered_set<void *> managed; // mgpuMemAlloc(isHostShared) memory
  std::atomic<int64_t> managedCount{0};
};

Pools &pools() {
  // Leaked on purpose: compiled code may free from global destructors after
  // this file's static destructors ran; the driver reclaims pools at exit.
  static Pools *p = new Pools;
  return *p;
}

Status cudaFailure(std::string context, const char *what, cudaError_t err) {
  (void)cudaGetLastError();
  return {CMRT_ERROR_CUDA, context + ": " + cudaErrorText(what, err)};
}

/// Checks `device` is a valid ordinal (CMRT_ERROR_NO_DEVICE without a GPU).
Status checkOrdinal(int device, const char *caller) {
  int current = 0;
  if (Status s = currentDevice(current); !s.ok())
    return s;
  int count = 0;
  if (cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess)
    return cudaFailure(caller, "cudaGetDeviceCount", err);
  if (device < 0 || device >= count)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            std::string(caller) + " expects a device ordinal in [0, " +
                std::to_string(count) + "), but got " + std::to_string(device)};
  return Status::success();
}

/// The pool of `device`, created on first use. With the release threshold
/// at its maximum, memory freed to the pool stays reserved across stream
/// synchronisations instead of going back to the driver (the default pool's
/// threshold is 0), so a steady workload stops calling into the allocator.
Status poolFor(int device, const char *caller, cudaMemPool_t &pool) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.byDevice.find(device);
  if (it != p.byDevice.end()) {
    pool = it->second;
    return Status::success();
  }
  int supported = 0;
  cudaError_t err = cudaDeviceGetAttribute(
      &supported, cudaDevAttrMemoryPoolsSupported, device);
  if (err != cudaSuccess)
    return cudaFailure(caller, "cudaDeviceGetAttribute", err);
  if (!supported)
    return {CMRT_ERROR_NOT_SUPPORTED,
            std::string(caller) +
                " expects a device with stream-ordered memory pools "
                "(cudaDevAttrMemoryPoolsSupported), but device " +
                std::to_string(device) + " has none"};
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  if ((err = cudaMemPoolCreate(&pool, &props)) != cudaSuccess)
    return cudaFailure(std::string(caller) +
                           ": creating the memory pool of "
                           "device " +
                           std::to_string(device),
                       "cudaMemPoolCreate", err);
  uint64_t threshold = UINT64_MAX;
  if ((err = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                     &threshold)) != cudaSuccess) {
    (void)cudaMemPoolDestroy(pool);
    return cudaFailure(std::string(caller) +
                           ": configuring the memory pool "
                           "of device " +
                           std::to_string(device),
                       "cudaMemPoolSetAttribute", err);
  }
  p.byDevice.emplace(device, pool);
  return Status::success();
}

} // namespace

Status cmrt::deviceAlloc(int64_t bytes, cudaStream_t stream, bool managed,
                         const char *caller, void *&out) {
  out = nullptr;
  if (bytes < 0)
    return {CMRT_ERROR_INVALID_ARGUMENT, std::string(caller) +
                                             " expects a size >= 0, but got " +
                                             std::to_string(bytes)};
  if (bytes == 0)
    return Status::success();
  int device = 0;
  if (Status s = currentDevice(device); !s.ok())
    return s;
  // Built only on failure: allocation is on every call's path.
  auto what = [&] {
    return std::string(caller) + ": allocating " + std::to_string(bytes) +
           " bytes on device " + std::to_string(device);
  };
  auto size = static_cast<size_t>(bytes);
  if (managed) {
    cudaError_t err = cudaMallocManaged(&out, size, cudaMemAttachGlobal);
    if (err != cudaSuccess) {
      out = nullptr;
      return cudaFailure(what(), "cudaMallocManaged", err);
    }
    Pools &p = pools();
    std::lock_guard<std::mutex> lock(p.mutex);
    p.managed.insert(out);
    p.managedCount.fetch_add(1, std::memory_order_relaxed);
    return Status::success();
  }
  cudaMemPool_t pool = nullptr;
  if (Status s = poolFor(device, caller, pool); !s.ok())
    return s;
  cudaError_t err = cudaMallocFromPoolAsync(&out, size, pool, stream);
  if (err != cudaSuccess) {
    out = nullptr;
    return cudaFailure(what() + " from the runtime's pool",
                       "cudaMallocFromPoolAsync", err);
  }
  return Status::success();
}

Status cmrt::deviceFree(void *pointer, cudaStream_t stream,
                        const char *caller) {
  if (!pointer)
    return Status::success();
  Pools &p = pools();
  if (p.managedCount.load(std::memory_order_relaxed) > 0) {
    std::unique_lock<std::mutex> lock(p.mutex);
    if (p.managed.erase(pointer)) {
      p.managedCount.fetch_sub(1, std::memory_order_relaxed);
      lock.unlock();
      if (cudaError_t err = cudaFree(pointer); err != cudaSuccess)
        return cudaFailure(std::string(caller) + ": freeing managed memory",
                           "cudaFree", err);
      return Status::success();
    }
  }
  if (cudaError_t err = cudaFreeAsync(pointer, stream); err != cudaSuccess)
    return cudaFailure(std::string(caller) +
                           ": freeing device memory (expects a pointer from "
                           "cmrtDeviceAlloc or mgpuMemAlloc)",
                       "cudaFreeAsync", err);
  return Status::success();
}

namespace {

/// `device`'s pool, or null before its first allocation.
cudaMemPool_t existingPool(int device) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.byDevice.find(device);
  return it == p.byDevice.end() ? nullptr : it->second;
}

} // namespace

Status cmrt::deviceMemoryStats(int device, cmrtDeviceMemoryStats &stats) {
  stats = {};
  if (Status s = checkOrdinal(device, "cmrtDeviceMemoryGetStats"); !s.ok())
    return s;
  cudaMemPool_t pool = existingPool(device);
  if (!pool)
    return Status::success();
  struct {
    cudaMemPoolAttr attr;
    int64_t *field;
  } query[] = {{cudaMemPoolAttrReservedMemCurrent, &stats.reservedBytes},
               {cudaMemPoolAttrReservedMemHigh, &stats.reservedHighBytes},
               {cudaMemPoolAttrUsedMemCurrent, &stats.usedBytes},
               {cudaMemPoolAttrUsedMemHigh, &stats.usedHighBytes}};
  for (auto &q : query) {
    uint64_t value = 0;
    if (cudaError_t err = cudaMemPoolGetAttribute(pool, q.attr, &value);
        err != cudaSuccess)
      return cudaFailure("cmrtDeviceMemoryGetStats", "cudaMemPoolGetAttribute",
                         err);
    *q.field = static_cast<int64_t>(value);
  }
  return Status::success();
}

Status cmrt::trimDeviceMemory(int device, int64_t keepBytes) {
  if (keepBytes < 0)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            "cmrtDeviceMemoryTrim expects keepBytes >= 0, but got " +
                std::to_string(keepBytes)};
  if (Status s = checkOrdinal(device, "cmrtDeviceMemoryTrim"); !s.ok())
    return s;
  cudaMemPool_t pool = existingPool(device);
  if (!pool)
    return Status::success();
  if (cudaError_t err = cudaMemPoolTrimTo(pool, static_cast<size_t>(keepBytes));
      err != cudaSuccess)
    return cudaFailure("cmrtDeviceMemoryTrim", "cudaMemPoolTrimTo", err);
  return Status::success();
}

void cmrt::trimAllDeviceMemory() {
  std::vector<std::pair<int, cudaMemPool_t>> all;
  {
    Pools &p = pools();
    std::lock_guard<std::mutex> lock(p.mutex);
    all.assign(p.byDevice.begin(), p.byDevice.end());
  }
  int previous = -1;
  bool havePrevious = cudaGetDevice(&previous) == cudaSuccess;
  for (const auto &[device, pool] : all) {
    if (cudaSetDevice(device) != cudaSuccess)
      continue;
    (void)cudaDeviceSynchronize(); // frees still pending on streams land
    (void)cudaMemPoolTrimTo(pool, 0);
  }
  if (havePrevious)
    (void)cudaSetDevice(previous);
  (void)cudaGetLastError();
}
