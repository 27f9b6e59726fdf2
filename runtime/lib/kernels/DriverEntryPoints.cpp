//===- DriverEntryPoints.cpp - driver calls without linking libcuda -------===//

#include "kernels/DriverEntryPoints.h"

#include <cuda_runtime_api.h>

using namespace cmrt;

namespace {

Status resolve(const char *symbol, void **fn) {
  *fn = nullptr;
  cudaDriverEntryPointQueryResult result = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t err = cudaGetDriverEntryPointByVersion(
      symbol, fn, /*cudaVersion=*/12000, cudaEnableDefault, &result);
#else
  cudaError_t err =
      cudaGetDriverEntryPoint(symbol, fn, cudaEnableDefault, &result);
#endif
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    *fn = nullptr;
    return {CMRT_ERROR_NO_DEVICE,
            std::string("cudnn-mlir expects a CUDA driver for ") + symbol +
                ", but found none (" +
                cudaErrorText("cudaGetDriverEntryPointByVersion", err) + ")"};
  }
  if (result != cudaDriverEntryPointSuccess || !*fn) {
    *fn = nullptr;
    return {CMRT_ERROR_NOT_SUPPORTED,
            std::string("cudnn-mlir expects the CUDA driver to provide ") +
                symbol + " (CUDA 12.0 ABI), but it does not (query result " +
                std::to_string(static_cast<int>(result)) + ")"};
  }
  return Status::success();
}

template <typename Fn>
void fetch(DriverFunctions &f, const char *symbol, Fn &out) {
  void *p = nullptr;
  Status s = resolve(symbol, &p);
  if (!s.ok() && f.status.ok())
    f.status = s;
  out = reinterpret_cast<Fn>(p);
}

} // namespace

const DriverFunctions &cmrt::driverFunctions() {
  static const DriverFunctions fns = [] {
    DriverFunctions f;
    fetch(f, "cuMemsetD32Async", f.memsetD32Async);
    fetch(f, "cuMemsetD16Async", f.memsetD16Async);
    fetch(f, "cuLibraryGetModule", f.libraryGetModule);
    fetch(f, "cuGetErrorName", f.getErrorName);
    return f;
  }();
  return fns;
}

std::string cmrt::driverErrorName(CUresult result) {
  const char *name = nullptr;
  if (auto getName = driverFunctions().getErrorName)
    (void)getName(result, &name);
  return name ? name : "CUresult " + std::to_string(static_cast<int>(result));
}
