//===- DriverEntryPoints.h - driver calls without libcuda -------*- C++ -*-===//
//
// The few CUDA driver functions the runtime needs that the CUDA runtime has
// no counterpart for, fetched once at run time with
// cudaGetDriverEntryPointByVersion (CUDA 12.0 ABI). The runtime must not
// link libcuda: CI machines have no driver, and the CPU tests still load
// the library there. cuda.h is included for its types only.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_DRIVERENTRYPOINTS_H
#define CUDNN_MLIR_RUNTIME_DRIVERENTRYPOINTS_H

#include "core/Context.h"

#include <cuda.h>

#include <string>

namespace cmrt {

struct DriverFunctions {
  CUresult (*memsetD32Async)(CUdeviceptr, unsigned int, size_t,
                             CUstream) = nullptr;
  CUresult (*memsetD16Async)(CUdeviceptr, unsigned short, size_t,
                             CUstream) = nullptr;
  CUresult (*libraryGetModule)(CUmodule *, CUlibrary) = nullptr;
  CUresult (*getErrorName)(CUresult, const char **) = nullptr;
  /// Why the first function that is null could not be fetched.
  Status status;
};

/// Resolved on first use; a function the driver lacks stays null.
const DriverFunctions &driverFunctions();

/// "CUDA_ERROR_INVALID_PTX", or "CUresult 218" without a driver.
std::string driverErrorName(CUresult result);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_DRIVERENTRYPOINTS_H
