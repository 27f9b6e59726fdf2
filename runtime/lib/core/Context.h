//===- Context.h - cuDNN handles, devices and workspace pools ---*- C++ -*-===//
//
// Per (device, thread): one cuDNN handle, created on first use and bound to
// the caller's stream on every call. Per (device, stream): one workspace
// buffer that only grows (stream-ordered cudaMallocAsync/cudaFreeAsync), so
// no call pays a cudaMalloc once the pool has reached its size. No frontend
// headers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_CONTEXT_H
#define CUDNN_MLIR_RUNTIME_CONTEXT_H

#include "cudnn-mlir-runtime/Graph.h"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstdint>
#include <mutex>
#include <string>

namespace cmrt {

using graph::Status;

/// "CUDNN_STATUS_BAD_PARAM: <cudnnGetLastErrorString text>".
std::string cudnnErrorText(cudnnStatus_t status);
/// cudnnGetLastErrorString(), or "" when it has nothing.
std::string cudnnLastErrorString();
/// "cudaMalloc: out of memory (cudaErrorMemoryAllocation)" style text.
std::string cudaErrorText(const char *what, cudaError_t err);

/// The current device, after checking there is a usable GPU:
/// CMRT_ERROR_NO_DEVICE with "expects a CUDA GPU, but found none (...)".
Status currentDevice(int &device);

/// Compute capability of `device` as major * 10 + minor.
Status computeCapability(int device, int64_t &cc);

/// This thread's cuDNN handle for `device` (created lazily), bound to
/// `stream`. The caller has made `device` current.
Status handleFor(int device, cudaStream_t stream, cudnnHandle_t &handle);

/// CMRT_ERROR_STREAM_CAPTURE, naming `what` ("building a plan"), if `stream`
/// is being captured into a CUDA graph (or capture in global mode elsewhere
/// makes querying it illegal).
Status checkNotCapturing(cudaStream_t stream, const std::string &what);

/// Makes `device` current for the scope, restoring the previous device.
class DeviceGuard {
public:
  DeviceGuard() = default;
  ~DeviceGuard();
  Status set(int device);

private:
  int previous_ = -1;
};

/// The workspace for (device, stream), grown to at least `bytes`. Holds the
/// pool entry's lock while alive: keep it until the work using the buffer is
/// enqueued, so a concurrent growth cannot free it under that work. Growing
/// is refused while `stream` is being captured (the new buffer would belong
/// to the CUDA graph): cmrtGraphGetOrBuild grows it before capture. A buffer
/// handed out during a capture is never freed by a later growth (the CUDA
/// graph holding its address may be replayed at any time): it is retired,
/// and freed by cmrtShutdown.
class WorkspaceLease {
public:
  WorkspaceLease() = default;
  WorkspaceLease(const WorkspaceLease &) = delete;
  WorkspaceLease &operator=(const WorkspaceLease &) = delete;

  /// Acquires and grows; the caller has made `device` current.
  Status acquire(int device, cudaStream_t stream, int64_t bytes);
  void *data() const { return data_; }

private:
  std::unique_lock<std::mutex> lock_;
  void *data_ = nullptr;
};

/// What the pool holds for (device, stream) (cmrtGetWorkspaceInfo).
struct WorkspacePoolInfo {
  int64_t bytes = 0;        // the current buffer
  int64_t retiredBytes = 0; // buffers kept for captured CUDA graphs
  bool captured = false;    // the current buffer was used during a capture
};
WorkspacePoolInfo workspacePoolInfo(int device, cudaStream_t stream);

/// Frees every pool buffer (synchronising each device first) and this
/// thread's handles. Safe to call more than once.
void releaseContextResources();

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_CONTEXT_H
