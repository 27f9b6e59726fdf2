//===- GpuToLlvmAbi.cpp - the mgpu* functions gpu-to-llvm calls -----------===//
//
// MLIR 22's CUDA runtime wrappers, rebuilt on the CUDA runtime (libcudart)
// instead of the driver API, so that the runtime never links libcuda: the
// library-management API (cudaLibraryLoadData, cudaKernel_t) replaces
// cuModuleLoadData/CUfunction, and the two driver calls with no runtime
// counterpart (16/32-bit memsets) are fetched at run time through
// cudaGetDriverEntryPointByVersion. Failures are printed, recorded as the
// thread's last error and counted; nothing aborts.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/GpuToLlvmAbi.h"

#include "kernels/DeviceMemoryPool.h"
#include "kernels/DriverEntryPoints.h"
#include "core/Errors.h"
#include "core/Invocation.h"
#include "kernels/KernelModules.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <utility>

using namespace cmrt;

namespace {

/// Records, counts and prints a failure of `name`, naming it first. Inside
/// an invocation the failure becomes the invocation's, which the compiled
/// entry then returns: upstream's mgpu* functions return nothing.
void reportFailure(const char *name, const Status &s) {
  countMgpuFailure();
  std::string message = s.message;
  if (message.compare(0, std::strlen(name), name) != 0)
    message = std::string(name) + ": " + message;
  std::fprintf(stderr, "[cudnn-mlir] %s\n", message.c_str());
  failCurrentInvocation(s.code, message);
  (void)cmrt::fail(s.code, std::move(message));
}

/// Whether `stream` is the calling thread's invocation stream: compiled code
/// inside an entry gets it from mgpuStreamCreate.
bool isInvocationStream(void *stream) {
  cudaStream_t current = nullptr;
  return currentInvocationStream(current) &&
         current == static_cast<cudaStream_t>(stream);
}

/// Runs `f` (returning Status), reporting a failure or an exception.
template <typename F> void runMgpu(const char *name, F &&f) {
  try {
    if (Status s = f(); !s.ok())
      reportFailure(name, s);
  } catch (const std::exception &e) {
    reportFailure(name, {CMRT_ERROR_INVALID_ARGUMENT,
                         std::string("unexpected exception: ") + e.what()});
  } catch (...) {
    reportFailure(name, {CMRT_ERROR_INVALID_ARGUMENT, "unexpected exception"});
  }
}

Status check(const char *fn, const char *what, cudaError_t err) {
  if (err == cudaSuccess)
    return Status::success();
  (void)cudaGetLastError();
  return {CMRT_ERROR_CUDA, std::string(fn) + ": " + cudaErrorText(what, err)};
}

Status nullHandle(const char *fn, const char *what) {
  return {CMRT_ERROR_INVALID_ARGUMENT,
          std::string(fn) + " expects " + what + ", but got null"};
}

Status checkDriver(const char *fn, const char *what, CUresult result) {
  if (result == CUDA_SUCCESS)
    return Status::success();
  return {CMRT_ERROR_CUDA, std::string(fn) + ": " + what + " failed with " +
                               driverErrorName(result)};
}

//===-- Memrefs -----------------------------------------------------------===//

/// The fixed head of a ranked memref descriptor; sizes[rank] and
/// strides[rank] follow.
struct MemRefHead {
  char *allocated;
  char *aligned;
  int64_t offset;
};

/// The host range a densely packed memref covers; bytes = 0 when empty.
Status denseRange(const char *fn, int64_t rank, void *descriptor,
                  int64_t elementBytes, char *&data, uint64_t &bytes) {
  if (!descriptor)
    return nullHandle(fn, "a memref descriptor");
  if (rank < 0 || elementBytes <= 0)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            std::string(fn) +
                " expects rank >= 0 and an element size > 0, "
                "but got rank " +
                std::to_string(rank) + " and element size " +
                std::to_string(elementBytes)};
  const auto *head = static_cast<const MemRefHead *>(descriptor);
  const auto *sizes = reinterpret_cast<const int64_t *>(head + 1);
  const int64_t *strides = sizes + rank;
  int64_t elements = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    // A dimension of size 1 may carry any stride.
    if (sizes[i] != 1 && strides[i] != elements)
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(fn) +
                  " expects a densely packed memref, but "
                  "dimension " +
                  std::to_string(i) + " has stride " +
                  std::to_string(strides[i]) + " where " +
                  std::to_string(elements) + " is dense"};
    elements *= sizes[i];
  }
  data = head->aligned + head->offset * elementBytes;
  bytes = static_cast<uint64_t>(elements) * static_cast<uint64_t>(elementBytes);
  return Status::success();
}

} // namespace

//===-- Modules and launches ----------------------------------------------===//

extern "C" CMRT_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  cmrtKernelModuleImpl *module = nullptr;
  runMgpu("mgpuModuleLoad", [&] {
    return getKernelModule(data, static_cast<int64_t>(gpuBlobSize),
                           /*optLevel=*/-1, "mgpuModuleLoad", module);
  });
  return module;
}

extern "C" CMRT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel) {
  cmrtKernelModuleImpl *module = nullptr;
  runMgpu("mgpuModuleLoadJIT", [&]() -> Status {
    if (!data)
      return nullHandle("mgpuModuleLoadJIT", "NUL-terminated PTX");
    auto size =
        static_cast<int64_t>(std::strlen(static_cast<char *>(data)) + 1);
    return getKernelModule(data, size, optLevel, "mgpuModuleLoadJIT", module);
  });
  return module;
}

extern "C" CMRT_EXPORT void mgpuModuleUnload(void *module) {
  runMgpu("mgpuModuleUnload", [&] {
    return releaseKernelModule(static_cast<cmrtKernelModuleImpl *>(module));
  });
}

extern "C" CMRT_EXPORT void *mgpuModuleGetFunction(void *module,
                                                   const char *name) {
  KernelInfo *kernel = nullptr;
  runMgpu("mgpuModuleGetFunction", [&]() -> Status {
    if (!module)
      return nullHandle("mgpuModuleGetFunction",
                        "a module from mgpuModuleLoad (did loading fail?)");
    if (!name)
      return nullHandle("mgpuModuleGetFunction", "a kernel name");
    return findKernel(*static_cast<cmrtKernelModuleImpl *>(module), name,
                      "mgpuModuleGetFunction", kernel);
  });
  return kernel;
}

namespace {

void launch(const char *fn, void *function, const LaunchDims &dims,
            void *stream, void **params, void **extra, int64_t paramsCount) {
  // After a failure in the same invocation (e.g. an allocation that gave
  // null), the kernel's operands may be invalid: it must not run.
  if (currentInvocationFailed())
    return;
  runMgpu(fn, [&]() -> Status {
    if (!function)
      return nullHandle(fn, "a function from mgpuModuleGetFunction (did "
                            "loading or the lookup fail?)");
    if (extra)
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(fn) + " expects extra to be null (parameters go "
                                "through params), but got a pointer"};
    return launchKernel(*static_cast<KernelInfo *>(function), dims,
                        static_cast<cudaStream_t>(stream), params, paramsCount,
                        fn);
  });
}

} // namespace

extern "C" CMRT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                             intptr_t gridY, intptr_t gridZ,
                                             intptr_t blockX, intptr_t blockY,
                                             intptr_t blockZ, int32_t smem,
                                             void *stream, void **params,
                                             void **extra, size_t paramsCount) {
  LaunchDims dims;
  dims.grid[0] = gridX, dims.grid[1] = gridY, dims.grid[2] = gridZ;
  dims.block[0] = blockX, dims.block[1] = blockY, dims.block[2] = blockZ;
  dims.sharedBytes = smem;
  launch("mgpuLaunchKernel", function, dims, stream, params, extra,
         static_cast<int64_t>(paramsCount));
}

extern "C" CMRT_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra) {
  LaunchDims dims;
  dims.cluster[0] = clusterX, dims.cluster[1] = clusterY,
  dims.cluster[2] = clusterZ;
  dims.grid[0] = gridX, dims.grid[1] = gridY, dims.grid[2] = gridZ;
  dims.block[0] = blockX, dims.block[1] = blockY, dims.block[2] = blockZ;
  dims.sharedBytes = smem;
  // MLIR 22 passes no parameter count for cluster launches.
  launch("mgpuLaunchClusterKernel", function, dims, stream, params, extra,
         /*paramsCount=*/-1);
}

//===-- Streams and events ------------------------------------------------===//

// Inside an invocation, the stream gpu-to-llvm "creates" around a launch is
// the invocation's own: generated kernels run in order with the cuDNN graphs
// of the same entry, and destroying or synchronising that stream is a no-op
// (compiled host code never reads device memory, so stream order is all the
// ordering it needs, and the entry makes no host synchronisation).
extern "C" CMRT_EXPORT void *mgpuStreamCreate(void) {
  cudaStream_t stream = nullptr;
  if (currentInvocationStream(stream))
    return stream;
  runMgpu("mgpuStreamCreate", [&] {
    return check("mgpuStreamCreate", "cudaStreamCreateWithFlags",
                 cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  });
  return stream;
}

extern "C" CMRT_EXPORT void mgpuStreamDestroy(void *stream) {
  if (isInvocationStream(stream))
    return;
  runMgpu("mgpuStreamDestroy", [&] {
    return check("mgpuStreamDestroy", "cudaStreamDestroy",
                 cudaStreamDestroy(static_cast<cudaStream_t>(stream)));
  });
}

extern "C" CMRT_EXPORT void mgpuStreamSynchronize(void *stream) {
  if (isInvocationStream(stream))
    return;
  runMgpu("mgpuStreamSynchronize", [&] {
    return check("mgpuStreamSynchronize", "cudaStreamSynchronize",
                 cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  });
}

extern "C" CMRT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  runMgpu("mgpuStreamWaitEvent", [&] {
    return check("mgpuStreamWaitEvent", "cudaStreamWaitEvent",
                 cudaStreamWaitEvent(static_cast<cudaStream_t>(stream),
                                     static_cast<cudaEvent_t>(event), 0));
  });
}

extern "C" CMRT_EXPORT void *mgpuEventCreate(void) {
  cudaEvent_t event = nullptr;
  runMgpu("mgpuEventCreate", [&] {
    return check("mgpuEventCreate", "cudaEventCreateWithFlags",
                 cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  });
  return event;
}

extern "C" CMRT_EXPORT void mgpuEventDestroy(void *event) {
  runMgpu("mgpuEventDestroy", [&] {
    return check("mgpuEventDestroy", "cudaEventDestroy",
                 cudaEventDestroy(static_cast<cudaEvent_t>(event)));
  });
}

extern "C" CMRT_EXPORT void mgpuEventSynchronize(void *event) {
  runMgpu("mgpuEventSynchronize", [&] {
    return check("mgpuEventSynchronize", "cudaEventSynchronize",
                 cudaEventSynchronize(static_cast<cudaEvent_t>(event)));
  });
}

extern "C" CMRT_EXPORT void mgpuEventRecord(void *event, void *stream) {
  runMgpu("mgpuEventRecord", [&] {
    return check("mgpuEventRecord", "cudaEventRecord",
                 cudaEventRecord(static_cast<cudaEvent_t>(event),
                                 static_cast<cudaStream_t>(stream)));
  });
}

//===-- Memory ------------------------------------------------------------===//

extern "C" CMRT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                          bool isHostShared) {
  void *ptr = nullptr;
  runMgpu("mgpuMemAlloc", [&]() -> Status {
    if (sizeBytes > static_cast<uint64_t>(INT64_MAX))
      return {CMRT_ERROR_INVALID_ARGUMENT,
              "mgpuMemAlloc expects a size below 2^63, but got " +
                  std::to_string(sizeBytes)};
    return deviceAlloc(static_cast<int64_t>(sizeBytes),
                       static_cast<cudaStream_t>(stream), isHostShared,
                       "mgpuMemAlloc", ptr);
  });
  return ptr;
}

extern "C" CMRT_EXPORT void mgpuMemFree(void *ptr, void *stream) {
  runMgpu("mgpuMemFree", [&] {
    return deviceFree(ptr, static_cast<cudaStream_t>(stream), "mgpuMemFree");
  });
}

extern "C" CMRT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                       void *stream) {
  runMgpu("mgpuMemcpy", [&] {
    if (sizeBytes == 0)
      return Status::success();
    return check("mgpuMemcpy", "cudaMemcpyAsync",
                 cudaMemcpyAsync(dst, src, sizeBytes, cudaMemcpyDefault,
                                 static_cast<cudaStream_t>(stream)));
  });
}

extern "C" CMRT_EXPORT void mgpuMemset32(void *dst, uint32_t value,
                                         size_t count, void *stream) {
  runMgpu("mgpuMemset32", [&]() -> Status {
    if (count == 0)
      return Status::success();
    auto cudaStream = static_cast<cudaStream_t>(stream);
    // A value of four equal bytes (0 above all) needs no driver call.
    if (value == (value & 0xFFu) * 0x01010101u)
      return check("mgpuMemset32", "cudaMemsetAsync",
                   cudaMemsetAsync(dst, static_cast<int>(value & 0xFFu),
                                   count * 4, cudaStream));
    const DriverFunctions &driver = driverFunctions();
    if (!driver.memsetD32Async)
      return driver.status;
    return checkDriver("mgpuMemset32", "cuMemsetD32Async",
                       driver.memsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                             value, count, cudaStream));
  });
}

extern "C" CMRT_EXPORT void mgpuMemset16(void *dst, uint16_t value,
                                         size_t count, void *stream) {
  runMgpu("mgpuMemset16", [&]() -> Status {
    if (count == 0)
      return Status::success();
    auto cudaStream = static_cast<cudaStream_t>(stream);
    if ((value >> 8) == (value & 0xFFu))
      return check("mgpuMemset16", "cudaMemsetAsync",
                   cudaMemsetAsync(dst, static_cast<int>(value & 0xFFu),
                                   count * 2, cudaStream));
    const DriverFunctions &driver = driverFunctions();
    if (!driver.memsetD16Async)
      return driver.status;
    return checkDriver("mgpuMemset16", "cuMemsetD16Async",
                       driver.memsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                             value, count, cudaStream));
  });
}

extern "C" CMRT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  runMgpu("mgpuMemHostRegister", [&] {
    return check("mgpuMemHostRegister", "cudaHostRegister",
                 cudaHostRegister(ptr, sizeBytes, cudaHostRegisterDefault));
  });
}

extern "C" CMRT_EXPORT void mgpuMemHostUnregister(void *ptr) {
  runMgpu("mgpuMemHostUnregister", [&] {
    return check("mgpuMemHostUnregister", "cudaHostUnregister",
                 cudaHostUnregister(ptr));
  });
}

extern "C" CMRT_EXPORT void
mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                          int64_t elementSizeBytes) {
  runMgpu("mgpuMemHostRegisterMemRef", [&]() -> Status {
    char *data = nullptr;
    uint64_t bytes = 0;
    if (Status s = denseRange("mgpuMemHostRegisterMemRef", rank, descriptor,
                              elementSizeBytes, data, bytes);
        !s.ok() || bytes == 0)
      return s;
    return check("mgpuMemHostRegisterMemRef", "cudaHostRegister",
                 cudaHostRegister(data, bytes, cudaHostRegisterDefault));
  });
}

extern "C" CMRT_EXPORT void
mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes) {
  runMgpu("mgpuMemHostUnregisterMemRef", [&]() -> Status {
    char *data = nullptr;
    uint64_t bytes = 0;
    if (Status s = denseRange("mgpuMemHostUnregisterMemRef", rank, descriptor,
                              elementSizeBytes, data, bytes);
        !s.ok() || bytes == 0)
      return s;
    return check("mgpuMemHostUnregisterMemRef", "cudaHostUnregister",
                 cudaHostUnregister(data));
  });
}

extern "C" CMRT_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  runMgpu("mgpuSetDefaultDevice", [&] {
    return check("mgpuSetDefaultDevice", "cudaSetDevice",
                 cudaSetDevice(device));
  });
}
