//===- VersionAbi.cpp - what the runtime was built with and what it finds -===//

#include "core/Context.h"
#include "core/Errors.h"
#include "frontend/FrontendVersion.h"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <string>

extern "C" CMRT_EXPORT cmrtStatus cmrtGetVersionInfo(cmrtVersionInfo *info) {
  if (!info)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtGetVersionInfo expects a non-null info pointer, "
                      "but got null");
  info->cudnnBuild = CUDNN_VERSION;
  info->cudnnLoaded = static_cast<int>(cudnnGetVersion());
  info->cudnnFrontend = cmrt::frontendVersion();
  if (cudaRuntimeGetVersion(&info->cudaRuntime) != cudaSuccess)
    info->cudaRuntime = 0;
  if (cudaDriverGetVersion(&info->cudaDriver) != cudaSuccess)
    info->cudaDriver = 0;
  if (info->cudnnLoaded / 10000 != CUDNN_MAJOR)
    return cmrt::fail(CMRT_ERROR_VERSION_MISMATCH,
                      "cudnn-mlir's runtime expects cuDNN " +
                          std::to_string(CUDNN_MAJOR) + ".x, but loaded " +
                          std::to_string(info->cudnnLoaded));
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtCheckDevice(int device) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    // Clear the sticky error so later CUDA calls report their own.
    (void)cudaGetLastError();
    return cmrt::fail(
        CMRT_ERROR_NO_DEVICE,
        std::string("cudnn-mlir expects a CUDA GPU, but found none (") +
            (err == cudaSuccess ? "cudaGetDeviceCount reported 0 devices"
                                : std::string("cudaGetDeviceCount: ") +
                                      cudaGetErrorString(err)) +
            ")");
  }
  if (device < 0 || device >= count)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "expects a device ordinal in [0, " +
                          std::to_string(count) + "), but got " +
                          std::to_string(device));
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtContextInit(int device) {
  if (cmrtStatus st = cmrtCheckDevice(device); st != CMRT_SUCCESS)
    return st;
  cudaError_t err = cudaSetDevice(device);
  if (err == cudaSuccess)
    err = cudaFree(nullptr); // creates the primary context
  if (err != cudaSuccess)
    return cmrt::fail(CMRT_ERROR_CUDA,
                      cmrt::cudaErrorText("creating the CUDA context", err));
  cudnnHandle_t handle = nullptr;
  cmrt::graph::Status s = cmrt::handleFor(device, nullptr, handle);
  return s.ok() ? cmrt::succeed() : cmrt::fail(s.code, s.message);
}
