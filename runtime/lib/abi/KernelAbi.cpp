//===- KernelAbi.cpp - C entry points: generated kernels, device memory ---===//
//
// cmrtKernelModule* / cmrtKernelLaunch -> KernelModules.cpp;
// cmrtDevice* -> DeviceMemoryPool.cpp. Nothing throws past the C boundary.
//
//===----------------------------------------------------------------------===//

#include "kernels/DeviceMemoryPool.h"
#include "core/Errors.h"
#include "kernels/KernelModules.h"

#include <exception>

using namespace cmrt;

namespace {

cmrtStatus nullArgument(const char *name, const char *what) {
  return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT, std::string(name) +
                                                     " expects a non-null " +
                                                     what + ", but got null");
}

} // namespace

extern "C" CMRT_EXPORT cmrtStatus cmrtKernelModuleGet(const void *image,
                                                      int64_t size,
                                                      cmrtKernelModule *out) {
  return guarded("cmrtKernelModuleGet", [&] {
    if (!out)
      return nullArgument("cmrtKernelModuleGet", "out pointer");
    *out = nullptr;
    return report(getKernelModule(image, size, /*optLevel=*/-1,
                                  "cmrtKernelModuleGet", *out));
  });
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtKernelModuleRelease(cmrtKernelModule module) {
  return guarded("cmrtKernelModuleRelease",
                 [&] { return report(releaseKernelModule(module)); });
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtKernelLaunch(cmrtKernelModule module, const char *name, const int64_t *grid,
                 const int64_t *block, int64_t sharedBytes, void *stream,
                 void **args, int64_t argCount) {
  return guarded("cmrtKernelLaunch", [&] {
    const char *fn = "cmrtKernelLaunch";
    if (!module)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtKernelLaunch expects a module from "
                        "cmrtKernelModuleGet, but got null");
    if (!name)
      return nullArgument(fn, "kernel name");
    if (!grid || !block)
      return nullArgument(fn, "grid[3] and block[3]");
    if (argCount < 0)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtKernelLaunch expects argCount >= 0, but got " +
                            std::to_string(argCount));
    KernelInfo *kernel = nullptr;
    if (Status s = findKernel(*module, name, fn, kernel); !s.ok())
      return report(s);
    LaunchDims dims;
    for (int i = 0; i < 3; ++i) {
      dims.grid[i] = grid[i];
      dims.block[i] = block[i];
    }
    dims.sharedBytes = sharedBytes;
    // A module belongs to the device it was loaded on, as a graph does.
    DeviceGuard guard;
    if (Status s = guard.set(module->device); !s.ok())
      return report(s);
    return report(launchKernel(*kernel, dims, static_cast<cudaStream_t>(stream),
                               args, argCount, fn));
  });
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtKernelModuleGetStats(cmrtKernelModuleStats *stats) {
  if (!stats)
    return nullArgument("cmrtKernelModuleGetStats", "stats pointer");
  *stats = kernelModuleStats();
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtDeviceAlloc(int64_t bytes, void *stream,
                                                  void **out) {
  return guarded("cmrtDeviceAlloc", [&] {
    if (!out)
      return nullArgument("cmrtDeviceAlloc", "out pointer");
    return report(deviceAlloc(bytes, static_cast<cudaStream_t>(stream),
                              /*managed=*/false, "cmrtDeviceAlloc", *out));
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtDeviceFree(void *pointer, void *stream) {
  return guarded("cmrtDeviceFree", [&] {
    return report(deviceFree(pointer, static_cast<cudaStream_t>(stream),
                             "cmrtDeviceFree"));
  });
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtDeviceMemoryGetStats(int device, cmrtDeviceMemoryStats *stats) {
  return guarded("cmrtDeviceMemoryGetStats", [&] {
    if (!stats)
      return nullArgument("cmrtDeviceMemoryGetStats", "stats pointer");
    return report(deviceMemoryStats(device, *stats));
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtDeviceMemoryTrim(int device,
                                                       int64_t keepBytes) {
  return guarded("cmrtDeviceMemoryTrim",
                 [&] { return report(trimDeviceMemory(device, keepBytes)); });
}
