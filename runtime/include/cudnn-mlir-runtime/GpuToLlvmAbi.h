/*===- GpuToLlvmAbi.h - the mgpu* functions gpu-to-llvm calls ---*- C -*-===*\
|*                                                                          *|
|* MLIR's upstream lowering of the gpu dialect (gpu-to-llvm, and the        *|
|* SelectObjectAttr translation that embeds gpu.binary objects) emits calls *|
|* to these functions and leaves them undefined; upstream defines them in   *|
|* libmlir_cuda_runtime, which Debian's MLIR 22 does not ship. The runtime  *|
|* exports them with MLIR 22's exact signatures (checked against the        *|
|* declarations mlir-translate-22 emits), built on the CUDA runtime alone:  *|
|* no libcuda link, so the library still loads on machines without a GPU    *|
|* driver.                                                                  *|
|*                                                                          *|
|* These are upstream's ABI, not cmrt entry points: they return no status.  *|
|* A failure is printed to stderr (as upstream's wrappers do), recorded as  *|
|* the calling thread's last error (cmrtGetLastErrorMessage) and counted in *|
|* cmrtKernelModuleStats::mgpuFailures; it never aborts. A success does not *|
|* clear the last error.                                                    *|
|*                                                                          *|
|* Handles: a module is a cmrtKernelModule (the same cache as              *|
|* cmrtKernelModuleGet), a function points into its module, streams and     *|
|* events are cudaStream_t and cudaEvent_t.                                 *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef CUDNN_MLIR_RUNTIME_GPUTOLLVMABI_H
#define CUDNN_MLIR_RUNTIME_GPUTOLLVMABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads a cubin or fatbin of `gpuBlobSize` bytes on the current device
 * (once per image and device: a reference to the cached module). Null on
 * failure. Emitted in a global constructor for gpu.binary objects in
 * bin/fatbin format. */
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
/* Loads NUL-terminated PTX, JIT-compiled at `optLevel`
 * (cudaJitOptimizationLevel, as upstream; MLIR passes the object's "O"
 * property, 0 when it has none). Emitted for objects in assembly format. */
void *mgpuModuleLoadJIT(void *data, int optLevel);
/* Drops the reference mgpuModuleLoad* returned (emitted in a global
 * destructor); the image is unloaded with the last reference. */
void mgpuModuleUnload(void *module);
/* The kernel `name` of `module`; null (and an error naming the module's
 * kernels) if it has none. Valid while the module is loaded. */
void *mgpuModuleGetFunction(void *module, const char *name);
/* Enqueues `function` on `stream` on the current device. params[i] points at
 * parameter i; paramsCount is checked against the kernel's parameter count.
 * `extra` must be null (the CUDA runtime launch takes params only). */
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
/* As mgpuLaunchKernel, in clusters of clusterX*Y*Z blocks (sm_90+). MLIR 22
 * passes no parameter count here. */
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra);

/* A non-blocking stream on the current device; null on failure. */
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
/* An event without timing on the current device; null on failure. */
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);

/* `sizeBytes` of device memory on the current device from the runtime's
 * pool, ordered on `stream` (what cmrtDeviceAlloc does); with isHostShared,
 * managed memory (cudaMallocManaged, not pooled). Null for 0 bytes or on
 * failure. */
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
/* Frees what mgpuMemAlloc returned, ordered on `stream`; null is allowed. */
void mgpuMemFree(void *ptr, void *stream);
/* cudaMemcpyAsync of `sizeBytes`, direction inferred (cudaMemcpyDefault). */
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
/* Sets `count` 32-bit / 16-bit elements at `dst` to `value` on `stream`. */
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream);

/* Page-locks (cudaHostRegister) the host buffer a ranked memref descriptor
 * ({allocated, aligned, offset, sizes[rank], strides[rank]}) describes, which
 * must be densely packed; and undoes it. gpu.host_register lowers to these. */
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);
/* Upstream's helpers behind the two above. */
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);

/* Makes `device` current on the calling thread (cudaSetDevice): later mgpu
 * calls on this thread allocate, load and launch there. */
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* CUDNN_MLIR_RUNTIME_GPUTOLLVMABI_H */
