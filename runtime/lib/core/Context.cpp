//===- Context.cpp - cuDNN handles, devices and workspace pools -----------===//

#include "core/Context.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace cmrt;

std::string cmrt::cudnnLastErrorString() {
  char buf[1024] = {0};
  cudnnGetLastErrorString(buf, sizeof(buf));
  return buf;
}

std::string cmrt::cudnnErrorText(cudnnStatus_t status) {
  std::string text = cudnnGetErrorString(status);
  std::string last = cudnnLastErrorString();
  if (!last.empty())
    text += ": " + last;
  return text;
}

std::string cmrt::cudaErrorText(const char *what, cudaError_t err) {
  return std::string(what) + ": " + cudaGetErrorString(err) + " (" +
         cudaGetErrorName(err) + ")";
}

Status cmrt::currentDevice(int &device) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return {CMRT_ERROR_NO_DEVICE,
            std::string("cudnn-mlir expects a CUDA GPU, but found none (") +
                (err == cudaSuccess ? std::string("cudaGetDeviceCount "
                                                  "reported 0 devices")
                                    : cudaErrorText("cudaGetDeviceCount",
                                                    err)) +
                ")"};
  }
  if ((err = cudaGetDevice(&device)) != cudaSuccess)
    return {CMRT_ERROR_CUDA, cudaErrorText("cudaGetDevice", err)};
  return Status::success();
}

Status cmrt::computeCapability(int device, int64_t &cc) {
  int major = 0, minor = 0;
  cudaError_t err =
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                                 device);
  if (err != cudaSuccess)
    return {CMRT_ERROR_CUDA, cudaErrorText("cudaDeviceGetAttribute", err)};
  cc = major * 10 + minor;
  return Status::success();
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0)
    (void)cudaSetDevice(previous_);
}

Status DeviceGuard::set(int device) {
  int current = -1;
  cudaError_t err = cudaGetDevice(&current);
  if (err != cudaSuccess)
    return {CMRT_ERROR_CUDA, cudaErrorText("cudaGetDevice", err)};
  if (current == device)
    return Status::success();
  if ((err = cudaSetDevice(device)) != cudaSuccess)
    return {CMRT_ERROR_CUDA, cudaErrorText("cudaSetDevice", err)};
  previous_ = current;
  return Status::success();
}

//===-- Handles -----------------------------------------------------------===//

namespace {

/// This thread's handles, destroyed when the thread exits or on shutdown.
struct BoundHandle {
  cudnnHandle_t handle = nullptr;
  cudaStream_t stream = nullptr; // the stream it is bound to
};

struct ThreadHandles {
  std::map<int, BoundHandle> byDevice;
  ~ThreadHandles() { release(); }
  void release() {
    for (auto &[device, bound] : byDevice) {
      (void)device;
      (void)cudnnDestroy(bound.handle);
    }
    byDevice.clear();
  }
};

ThreadHandles &threadHandles() {
  thread_local ThreadHandles handles;
  return handles;
}

} // namespace

Status cmrt::handleFor(int device, cudaStream_t stream,
                       cudnnHandle_t &handle) {
  ThreadHandles &handles = threadHandles();
  auto it = handles.byDevice.find(device);
  if (it == handles.byDevice.end()) {
    cudnnHandle_t created = nullptr;
    cudnnStatus_t st = cudnnCreate(&created);
    if (st != CUDNN_STATUS_SUCCESS)
      return {CMRT_ERROR_CUDNN, "cudnnCreate on device " +
                                    std::to_string(device) + " failed: " +
                                    cudnnErrorText(st)};
    // A new handle is bound to the legacy default stream (null).
    it = handles.byDevice.emplace(device, BoundHandle{created, nullptr}).first;
  }
  BoundHandle &bound = it->second;
  handle = bound.handle;
  // Only this file binds our handles, so the last binding is still in force:
  // skip the call when the stream is the same (the common, per-call case).
  if (bound.stream == stream)
    return Status::success();
  cudnnStatus_t st = cudnnSetStream(handle, stream);
  if (st != CUDNN_STATUS_SUCCESS)
    return {CMRT_ERROR_CUDNN,
            "cudnnSetStream failed: " + cudnnErrorText(st)};
  bound.stream = stream;
  return Status::success();
}

Status cmrt::checkNotCapturing(cudaStream_t stream, const std::string &what) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaError_t err = cudaStreamIsCapturing(stream, &capture);
  if (err == cudaErrorStreamCaptureImplicit) {
    (void)cudaGetLastError();
    return {CMRT_ERROR_STREAM_CAPTURE,
            what + " is not possible while another stream captures a CUDA "
                   "graph in global mode (the legacy default stream cannot "
                   "be used then); do it before capture"};
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return {CMRT_ERROR_CUDA, cudaErrorText("cudaStreamIsCapturing", err)};
  }
  if (capture != cudaStreamCaptureStatusNone)
    return {CMRT_ERROR_STREAM_CAPTURE,
            what + " is not possible while the stream is being captured into "
                   "a CUDA graph; call cmrtGraphGetOrBuild with this stream "
                   "once before capture (executing a built graph can be "
                   "captured)"};
  return Status::success();
}

//===-- Workspace pool ----------------------------------------------------===//

namespace {

struct Buffer {
  void *data = nullptr;
  int64_t bytes = 0;
  bool async = true; // allocated with cudaMallocAsync
};

struct PoolEntry {
  std::mutex mutex;
  Buffer current;
  /// The current buffer was handed out while the stream was being
  /// captured: a CUDA graph may hold its address and be replayed at any
  /// time, so a growth must not free it.
  bool captured = false;
  /// Buffers replaced by a growth after a capture used them: kept until
  /// cmrtShutdown.
  std::vector<Buffer> retired;
};

void freeBuffer(const Buffer &buffer) {
  if (buffer.data)
    (void)cudaFree(buffer.data);
}

/// True while `stream` is being captured, or when that cannot be known (a
/// legacy stream during another stream's global-mode capture): then the
/// buffer is treated as captured, which only keeps it longer.
bool maybeCapturing(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  return capture != cudaStreamCaptureStatusNone;
}

struct Pool {
  std::mutex mutex; // guards `entries` (not the entries' buffers)
  std::map<std::pair<int, cudaStream_t>, std::unique_ptr<PoolEntry>> entries;
};

Pool &pool() {
  // Leaked on purpose: freeing device memory from a static destructor races
  // with the CUDA runtime's own teardown; the driver reclaims it at exit and
  // cmrtShutdown frees it explicitly.
  static Pool *p = new Pool;
  return *p;
}

PoolEntry &entryFor(int device, cudaStream_t stream) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto &slot = p.entries[{device, stream}];
  if (!slot)
    slot = std::make_unique<PoolEntry>();
  return *slot;
}

constexpr int64_t kGranule = 1 << 20; // grow in whole MiB

} // namespace

Status WorkspaceLease::acquire(int device, cudaStream_t stream,
                               int64_t bytes) {
  data_ = nullptr;
  if (bytes <= 0)
    return Status::success();
  PoolEntry &entry = entryFor(device, stream);
  lock_ = std::unique_lock<std::mutex>(entry.mutex);
  if (entry.current.bytes < bytes) {
    if (Status s = checkNotCapturing(
            stream, "growing the workspace pool from " +
                        std::to_string(entry.current.bytes) + " to " +
                        std::to_string(bytes) + " bytes");
        !s.ok())
      return s;
    int64_t size = (bytes + kGranule - 1) / kGranule * kGranule;
    Buffer old = std::exchange(entry.current, Buffer());
    if (std::exchange(entry.captured, false)) {
      entry.retired.push_back(old);
    } else if (old.data) {
      // Stream-ordered: work already enqueued on `stream` finishes first.
      cudaError_t err = old.async ? cudaFreeAsync(old.data, stream)
                                  : cudaFree(old.data);
      if (err != cudaSuccess)
        return {CMRT_ERROR_CUDA,
                cudaErrorText("freeing the old workspace", err)};
    }
    Buffer grown;
    grown.bytes = size;
    cudaError_t err =
        cudaMallocAsync(&grown.data, static_cast<size_t>(size), stream);
    if (err == cudaErrorNotSupported) {
      // No stream-ordered allocator on this device/driver: a synchronous
      // allocation, once per growth.
      (void)cudaGetLastError();
      err = cudaMalloc(&grown.data, static_cast<size_t>(size));
      grown.async = false;
    }
    if (err != cudaSuccess)
      return {CMRT_ERROR_CUDA,
              cudaErrorText(("allocating a " + std::to_string(size) +
                             "-byte workspace")
                                .c_str(),
                            err)};
    entry.current = grown;
  } else if (!entry.captured && maybeCapturing(stream)) {
    entry.captured = true;
  }
  data_ = entry.current.data;
  return Status::success();
}

WorkspacePoolInfo cmrt::workspacePoolInfo(int device, cudaStream_t stream) {
  WorkspacePoolInfo info;
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.entries.find({device, stream});
  if (it == p.entries.end())
    return info;
  std::lock_guard<std::mutex> entryLock(it->second->mutex);
  info.bytes = it->second->current.bytes;
  info.captured = it->second->captured;
  for (const Buffer &buffer : it->second->retired)
    info.retiredBytes += buffer.bytes;
  return info;
}

void cmrt::releaseContextResources() {
  {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    int previous = -1;
    bool havePrevious = cudaGetDevice(&previous) == cudaSuccess;
    for (auto &[key, entry] : p.entries) {
      std::lock_guard<std::mutex> entryLock(entry->mutex);
      if (!entry->current.data && entry->retired.empty())
        continue;
      if (cudaSetDevice(key.first) == cudaSuccess) {
        (void)cudaDeviceSynchronize();
        freeBuffer(entry->current);
        for (const Buffer &buffer : entry->retired)
          freeBuffer(buffer);
      }
      entry->current = Buffer();
      entry->retired.clear();
      entry->captured = false;
    }
    p.entries.clear();
    if (havePrevious)
      (void)cudaSetDevice(previous);
    (void)cudaGetLastError();
  }
  threadHandles().release();
}
