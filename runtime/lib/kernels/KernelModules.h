//===- KernelModules.h - loading and launching kernels ----------*- C++ -*-===//
//
// A process-wide cache of GPU code images (PTX, cubin, fatbin) loaded with
// the CUDA runtime's library API (cudaLibraryLoadData, CUDA 12+), keyed by
// (image address, size, device) and checked against a hash of the image's
// bytes, so each image is loaded once per device. Kernels are cudaKernel_t
// handles launched with cudaLaunchKernel: nothing here needs libcuda at link
// time. Both the cmrt entry points (KernelAbi.cpp) and the mgpu* functions
// of MLIR's gpu-to-llvm lowering (GpuToLlvmAbi.cpp) use it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_KERNELMODULES_H
#define CUDNN_MLIR_RUNTIME_KERNELMODULES_H

#include "core/Context.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace cmrt {

/// What an image holds, from its first bytes.
enum class ImageKind { Ptx, Cubin, Fatbin, FatbinWrapper };

/// "PTX", "cubin", ...
const char *imageKindName(ImageKind kind);

/// Checks what can be checked without a GPU: a non-null image of a positive
/// size that is an ELF cubin for EM_CUDA or a fatbin whose headers fit in
/// `size`, or NUL-terminated PTX with a .version directive. `caller` names
/// the entry point in messages.
Status classifyImage(const void *image, int64_t size, const char *caller,
                     ImageKind &kind);

/// One kernel of a loaded module: context-independent, so it can be
/// launched on any device (the driver loads it there on first use).
struct KernelInfo {
  std::string name;
  cudaKernel_t handle = nullptr;
  int64_t paramCount = -1; // -1: the CUDA runtime could not tell
  int maxThreadsPerBlock = 0;
  int64_t staticSharedBytes = 0;
  cmrtKernelModuleImpl *module = nullptr;
  /// The kernel waits at grid-wide barriers (its name ends in
  /// kGridSyncSuffix): it is launched cooperatively, so that all its blocks
  /// are resident at once, and grid.y shrinks to what fits.
  bool gridSync = false;

  /// Shared memory above 48 KiB (static + dynamic) must be opted into per
  /// device.
  std::mutex smemMutex;
  std::map<int, int64_t> smemOptIn; // device -> bytes allowed
  /// For a grid-sync kernel: the blocks resident at once per
  /// multiprocessor, and the device's multiprocessors, per (device, threads
  /// per block, dynamic shared bytes), asked once each.
  std::mutex residentMutex;
  std::map<std::tuple<int, int64_t, int64_t>, std::pair<int, int>>
      residentBlocks;
};

/// The name suffix of kernels that wait at grid-wide barriers. Their
/// launch contract: every block is resident at once (a cooperative launch),
/// and the kernel works for any grid.y from 1 to the one asked for, since
/// the launch lowers grid.y to the blocks the device holds at once.
constexpr std::string_view kGridSyncSuffix = "_grid_sync";

/// Grid, block and (optionally) cluster sizes of one launch.
struct LaunchDims {
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t cluster[3] = {0, 0, 0}; // all 0: no clusters
  int64_t sharedBytes = 0;
};

} // namespace cmrt

/// A loaded image on one device. Reference-counted by the cache's mutex.
struct cmrtKernelModuleImpl {
  const void *image = nullptr;
  int64_t size = 0;
  uint64_t hash = 0;
  int device = 0;
  cmrt::ImageKind kind = cmrt::ImageKind::Ptx;
  cudaLibrary_t library = nullptr;
  int64_t refs = 0;   // guarded by the cache's mutex
  bool cached = true; // still the cache's entry for its key

  /// JIT log of the load (PTX). Lives with the module: the driver may JIT
  /// lazily and write it later.
  std::vector<char> jitLog = std::vector<char>(8192, '\0');
  std::vector<cudaJitOption> jitOptions;
  std::vector<void *> jitValues;

  std::mutex mutex; // guards `kernels`
  std::map<std::string, std::unique_ptr<cmrt::KernelInfo>, std::less<>> kernels;
};

namespace cmrt {

/// The module for (image, size, current device), loading it on a miss.
/// `optLevel` (0-4) is the JIT optimisation level for PTX, -1 for the
/// driver's default. `out` holds a new reference (releaseKernelModule).
Status getKernelModule(const void *image, int64_t size, int optLevel,
                       const char *caller, cmrtKernelModuleImpl *&out);

/// Drops one reference; unloads the image with the last. Null is allowed.
Status releaseKernelModule(cmrtKernelModuleImpl *module);

/// Kernel `name` of `module`; a message naming the module's kernels if it
/// has none by that name. The pointer lives as long as the module.
Status findKernel(cmrtKernelModuleImpl &module, std::string_view name,
                  const char *caller, KernelInfo *&out);

/// Enqueues `kernel` on `stream` on the current device. `argCount` < 0 skips
/// the parameter-count check.
Status launchKernel(KernelInfo &kernel, const LaunchDims &dims,
                    cudaStream_t stream, void **args, int64_t argCount,
                    const char *caller);

/// Counters for cmrtKernelModuleGetStats.
cmrtKernelModuleStats kernelModuleStats();

/// Counts a failed mgpu* call.
void countMgpuFailure();

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_KERNELMODULES_H
