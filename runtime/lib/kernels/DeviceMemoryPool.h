//===- DeviceMemoryPool.h - pooled device memory ----------------*- C++ -*-===//
//
// One runtime-owned, stream-ordered CUDA memory pool per device
// (cudaMemPoolCreate with the release threshold at its maximum), so that
// allocations made by compiled code (cmrtDeviceAlloc, mgpuMemAlloc) reuse
// memory instead of calling cudaMalloc: after the pool has grown to a
// program's working set, allocating and freeing is a stream-ordered
// bookkeeping operation, and it can be captured into a CUDA graph.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_DEVICEMEMORYPOOL_H
#define CUDNN_MLIR_RUNTIME_DEVICEMEMORYPOOL_H

#include "core/Context.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace cmrt {

/// `bytes` on the current device, ordered on `stream`, from its pool; with
/// `managed`, cudaMallocManaged memory instead (not pooled). 0 bytes gives
/// null. `caller` names the entry point in messages.
Status deviceAlloc(int64_t bytes, cudaStream_t stream, bool managed,
                   const char *caller, void *&out);

/// Frees what deviceAlloc returned, ordered on `stream`. Null is allowed.
Status deviceFree(void *pointer, cudaStream_t stream, const char *caller);

/// What CUDA reports about `device`'s pool; zeros before its first use.
Status deviceMemoryStats(int device, cmrtDeviceMemoryStats &stats);

/// cudaMemPoolTrimTo(keepBytes) on `device`'s pool, if it has one.
Status trimDeviceMemory(int device, int64_t keepBytes);

/// For cmrtShutdown: synchronises each device that has a pool and returns
/// the pool's unused memory to the driver (the pool itself stays usable:
/// compiled code may still free into it). Errors are ignored.
void trimAllDeviceMemory();

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_DEVICEMEMORYPOOL_H
