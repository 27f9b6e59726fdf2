//===- KernelModules.cpp - loading and launching generated kernels --------===//

#include "kernels/KernelModules.h"

#include "kernels/DriverEntryPoints.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

using namespace cmrt;

//===-- Images ------------------------------------------------------------===//

namespace {

constexpr uint32_t kElfMagic = 0x464C457Fu;           // 0x7f E L F
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;        // fatbin blob
constexpr uint32_t kFatbinWrapperMagic = 0x466243B1u; // __fatBinC_Wrapper_t
constexpr uint16_t kElfMachineCuda = 190;             // EM_CUDA

template <typename T> T readLE(const unsigned char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

Status invalid(std::string message) {
  return {CMRT_ERROR_INVALID_ARGUMENT, std::move(message)};
}

/// Bytes [0, offset + count * entrySize) a table occupies; saturates at
/// `limit` + 1 so that a bogus offset cannot overflow.
uint64_t tableEnd(uint64_t offset, uint64_t count, uint64_t entrySize,
                  uint64_t limit) {
  if (offset > limit)
    return limit + 1;
  return offset + count * entrySize; // count, entrySize < 2^16
}

Status checkCubin(const unsigned char *p, int64_t size, const char *caller) {
  std::string what = std::string(caller) + " expects ";
  if (size < 64)
    return invalid(what +
                   "a cubin (64-bit ELF) of at least 64 bytes, but "
                   "got " +
                   std::to_string(size));
  if (p[4] != 2)
    return invalid(what +
                   "a cubin in 64-bit ELF (class 2), but got ELF "
                   "class " +
                   std::to_string(p[4]));
  uint16_t machine = readLE<uint16_t>(p + 18);
  if (machine != kElfMachineCuda)
    return invalid(what +
                   "a cubin for EM_CUDA (ELF machine 190), but got "
                   "ELF machine " +
                   std::to_string(machine));
  auto limit = static_cast<uint64_t>(size);
  uint64_t end =
      std::max(tableEnd(readLE<uint64_t>(p + 0x20), readLE<uint16_t>(p + 0x38),
                        readLE<uint16_t>(p + 0x36), limit),
               tableEnd(readLE<uint64_t>(p + 0x28), readLE<uint16_t>(p + 0x3C),
                        readLE<uint16_t>(p + 0x3A), limit));
  if (end > limit)
    return invalid(what + "a cubin that fits in its " + std::to_string(size) +
                   " bytes, but its header tables end past them (a "
                   "truncated image or a wrong size?)");
  return Status::success();
}

Status checkFatbin(const unsigned char *p, int64_t size, const char *caller) {
  std::string what = std::string(caller) + " expects ";
  if (size < 16)
    return invalid(what +
                   "a fatbin of at least 16 bytes (its header), but "
                   "got " +
                   std::to_string(size));
  uint16_t headerSize = readLE<uint16_t>(p + 6);
  uint64_t fatSize = readLE<uint64_t>(p + 8);
  auto limit = static_cast<uint64_t>(size);
  if (headerSize < 16 || fatSize > limit || headerSize + fatSize > limit)
    return invalid(what + "a fatbin that fits in its " + std::to_string(size) +
                   " bytes, but its header says " + std::to_string(headerSize) +
                   " + " + std::to_string(fatSize) +
                   " bytes (a truncated image or a wrong size?)");
  return Status::success();
}

Status checkPtx(const unsigned char *p, int64_t size, const char *caller) {
  const void *nul = std::memchr(p, 0, static_cast<size_t>(size));
  if (!nul)
    return invalid(std::string(caller) +
                   " expects a cubin (ELF), a fatbin or NUL-terminated PTX, "
                   "but got " +
                   std::to_string(size) +
                   " bytes that are none of these (no NUL within them)");
  std::string_view text(reinterpret_cast<const char *>(p),
                        static_cast<const unsigned char *>(nul) - p);
  if (text.find(".version") == std::string_view::npos) {
    std::string head(text.substr(0, 32));
    for (char &c : head)
      if (static_cast<unsigned char>(c) < 0x20 ||
          static_cast<unsigned char>(c) > 0x7e)
        c = '.';
    return invalid(std::string(caller) +
                   " expects PTX with a .version directive (or a cubin or "
                   "fatbin), but got " +
                   std::to_string(text.size()) +
                   " bytes of text without one, starting \"" + head + "\"");
  }
  return Status::success();
}

/// A 64-bit hash of the image's bytes, a word at a time: it tells a reused
/// address apart from the image first loaded there.
uint64_t hashBytes(const void *data, size_t n) {
  const auto *p = static_cast<const unsigned char *>(data);
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  auto mix = [&h](uint64_t w) {
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    mix(readLE<uint64_t>(p + i));
  uint64_t tail = 0;
  std::memcpy(&tail, p + i, n - i);
  mix(tail);
  h ^= h >> 33;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}

} // namespace

const char *cmrt::imageKindName(ImageKind kind) {
  switch (kind) {
  case ImageKind::Ptx:
    return "PTX";
  case ImageKind::Cubin:
    return "cubin";
  case ImageKind::Fatbin:
    return "fatbin";
  case ImageKind::FatbinWrapper:
    return "fatbin wrapper";
  }
  return "image";
}

Status cmrt::classifyImage(const void *image, int64_t size, const char *caller,
                           ImageKind &kind) {
  if (!image)
    return invalid(std::string(caller) +
                   " expects a non-null image, but got null");
  if (size <= 0)
    return invalid(std::string(caller) +
                   " expects an image size > 0, but got " +
                   std::to_string(size));
  const auto *p = static_cast<const unsigned char *>(image);
  uint32_t magic = size >= 4 ? readLE<uint32_t>(p) : 0;
  if (magic == kElfMagic) {
    kind = ImageKind::Cubin;
    return checkCubin(p, size, caller);
  }
  if (magic == kFatbinMagic) {
    kind = ImageKind::Fatbin;
    return checkFatbin(p, size, caller);
  }
  if (magic == kFatbinWrapperMagic) {
    kind = ImageKind::FatbinWrapper;
    if (size < 24)
      return invalid(std::string(caller) +
                     " expects a fatbin wrapper of 24 bytes, but got " +
                     std::to_string(size));
    return Status::success();
  }
  kind = ImageKind::Ptx;
  return checkPtx(p, size, caller);
}

//===-- The cache ---------------------------------------------------------===//

namespace {

struct ImageKey {
  const void *image;
  int64_t size;
  int device;
  bool operator==(const ImageKey &o) const {
    return image == o.image && size == o.size && device == o.device;
  }
};

struct ImageKeyHasher {
  size_t operator()(const ImageKey &k) const {
    auto h = reinterpret_cast<uintptr_t>(k.image) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<uint64_t>(k.size) * 0xBF58476D1CE4E5B9ull;
    h ^= static_cast<uint64_t>(k.device) << 56;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct Registry {
  std::mutex mutex; // guards everything but the atomics
  std::unordered_map<ImageKey, cmrtKernelModuleImpl *, ImageKeyHasher> byKey;
  std::unordered_set<cmrtKernelModuleImpl *> live; // cached or detached
  int64_t loads = 0, hits = 0;
  std::atomic<int64_t> launches{0}, mgpuFailures{0};
};

Registry &registry() {
  // Leaked on purpose: compiled modules release theirs from global
  // destructors, which may run after this file's static destructors.
  static Registry *r = new Registry;
  return *r;
}

std::string describe(const cmrtKernelModuleImpl &m) {
  return "the " + std::to_string(m.size) + "-byte " + imageKindName(m.kind) +
         " module on device " + std::to_string(m.device);
}

std::string jitLogSuffix(const cmrtKernelModuleImpl &m) {
  std::string log(m.jitLog.data(), strnlen(m.jitLog.data(), m.jitLog.size()));
  return log.empty() ? std::string() : "\nJIT log:\n" + log;
}

Status cudaFailure(const std::string &context, const char *what,
                   cudaError_t err) {
  (void)cudaGetLastError(); // launch and load errors are not sticky
  return {CMRT_ERROR_CUDA, context + ": " + cudaErrorText(what, err)};
}

/// Parameter count by probing cudaFuncGetParamInfo; -1 if it cannot tell.
int64_t paramCount(cudaKernel_t handle) {
#if CUDART_VERSION >= 12040
  constexpr int64_t kMaxParams = 4096;
  for (int64_t i = 0; i < kMaxParams; ++i) {
    size_t offset = 0, size = 0;
    cudaError_t err =
        cudaFuncGetParamInfo(reinterpret_cast<const void *>(handle),
                             static_cast<size_t>(i), &offset, &size);
    if (err == cudaSuccess)
      continue;
    (void)cudaGetLastError();
    return err == cudaErrorInvalidValue ? i : -1;
  }
#else
  (void)handle;
#endif
  return -1;
}

/// Fills `info` for `handle`, loading it on the current device (which is
/// where an image it cannot run fails).
Status describeKernel(cmrtKernelModuleImpl &m, cudaKernel_t handle,
                      const std::string &name, KernelInfo &info) {
  cudaFuncAttributes attributes{};
  cudaError_t err = cudaFuncGetAttributes(
      &attributes, reinterpret_cast<const void *>(handle));
  if (err != cudaSuccess) {
    Status s = cudaFailure("loading kernel '" + name + "' of " + describe(m),
                           "cudaFuncGetAttributes", err);
    s.message += jitLogSuffix(m);
    return s;
  }
  info.name = name;
  info.handle = handle;
  info.paramCount = paramCount(handle);
  info.maxThreadsPerBlock = attributes.maxThreadsPerBlock;
  info.staticSharedBytes = static_cast<int64_t>(attributes.sharedSizeBytes);
  info.module = &m;
  info.gridSync = name.size() > kGridSyncSuffix.size() &&
                  std::string_view(name).substr(name.size() -
                                                kGridSyncSuffix.size()) ==
                      kGridSyncSuffix;
  return Status::success();
}

/// Loads the library into the device's (primary) context now. Under lazy
/// loading, the default since CUDA 12.2, a library is JIT-compiled and loaded
/// into a context only when something there needs it, so an image the device
/// cannot run could otherwise pass the per-kernel checks (one whose kernels
/// the driver cannot even list). Only errors that say so fail the load; any
/// other answer is left to the per-kernel checks.
Status loadIntoContext(cmrtKernelModuleImpl &m) {
  auto getModule = driverFunctions().libraryGetModule;
  if (!getModule)
    return Status::success();
  // CUDA 12+: makes the device's primary context current (already the
  // current device).
  if (cudaError_t err = cudaSetDevice(m.device); err != cudaSuccess)
    return cudaFailure("loading " + describe(m), "cudaSetDevice", err);
  CUmodule module = nullptr;
  CUresult result = getModule(&module, reinterpret_cast<CUlibrary>(m.library));
  switch (result) {
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_JIT_COMPILATION_DISABLED:
  case CUDA_ERROR_INVALID_SOURCE:
  case CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND:
  case CUDA_ERROR_SHARED_OBJECT_INIT_FAILED:
    return {CMRT_ERROR_CUDA, "loading " + describe(m) +
                                 ": cuLibraryGetModule failed with " +
                                 driverErrorName(result) + jitLogSuffix(m)};
  default:
    return Status::success();
  }
}

/// Loads the image and each of its kernels on the current device, so that
/// an image this device cannot run (wrong architecture, PTX newer than the
/// driver) fails here rather than at its first launch.
Status loadModule(cmrtKernelModuleImpl &m, int optLevel) {
  m.jitOptions = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
  m.jitValues = {m.jitLog.data(), reinterpret_cast<void *>(
                                      static_cast<uintptr_t>(m.jitLog.size()))};
  if (optLevel >= 0) {
    m.jitOptions.push_back(cudaJitOptimizationLevel);
    m.jitValues.push_back(
        reinterpret_cast<void *>(static_cast<uintptr_t>(optLevel)));
  }
  cudaError_t err = cudaLibraryLoadData(
      &m.library, m.image, m.jitOptions.data(), m.jitValues.data(),
      static_cast<unsigned>(m.jitOptions.size()), nullptr, nullptr, 0);
  if (err != cudaSuccess) {
    m.library = nullptr;
    Status s =
        cudaFailure("loading " + describe(m), "cudaLibraryLoadData", err);
    s.message += jitLogSuffix(m);
    return s;
  }
  auto fail = [&m](Status s) {
    (void)cudaLibraryUnload(m.library);
    m.library = nullptr;
    return s;
  };
  if (Status s = loadIntoContext(m); !s.ok())
    return fail(s);
  unsigned count = 0;
  if ((err = cudaLibraryGetKernelCount(&count, m.library)) != cudaSuccess)
    return fail(cudaFailure("loading " + describe(m),
                            "cudaLibraryGetKernelCount", err));
  std::vector<cudaKernel_t> handles(count);
  if (count > 0 && (err = cudaLibraryEnumerateKernels(
                        handles.data(), count, m.library)) != cudaSuccess)
    return fail(cudaFailure("loading " + describe(m),
                            "cudaLibraryEnumerateKernels", err));
  for (size_t i = 0; i < handles.size(); ++i) {
    const char *name = nullptr;
    bool named =
        cudaFuncGetName(&name, reinterpret_cast<const void *>(handles[i])) ==
            cudaSuccess &&
        name;
    if (!named)
      (void)cudaGetLastError();
    // Loaded (and checked) on this device even when the runtime cannot name
    // it; findKernel then asks the library by name.
    auto info = std::make_unique<KernelInfo>();
    if (Status s = describeKernel(
            m, handles[i], named ? name : "#" + std::to_string(i), *info);
        !s.ok())
      return fail(s);
    if (named)
      m.kernels.emplace(info->name, std::move(info));
  }
  return Status::success();
}

std::string kernelNames(const cmrtKernelModuleImpl &m) {
  std::string names;
  for (const auto &[name, info] : m.kernels) {
    (void)info;
    names += names.empty() ? name : ", " + name;
  }
  return names.empty() ? "none named" : names;
}

std::string dimsText(const int64_t (&d)[3]) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
         std::to_string(d[2]) + "]";
}

} // namespace

Status cmrt::getKernelModule(const void *image, int64_t size, int optLevel,
                             const char *caller, cmrtKernelModuleImpl *&out) {
  out = nullptr;
  ImageKind kind = ImageKind::Ptx;
  if (Status s = classifyImage(image, size, caller, kind); !s.ok())
    return s;
  if (optLevel < -1 || optLevel > 4)
    return invalid(std::string(caller) +
                   " expects a JIT optimization level in [0, 4], but got " +
                   std::to_string(optLevel));
  int device = 0;
  if (Status s = currentDevice(device); !s.ok())
    return s;
  uint64_t hash = hashBytes(image, static_cast<size_t>(size));

  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  ImageKey key{image, size, device};
  auto it = r.byKey.find(key);
  if (it != r.byKey.end()) {
    if (it->second->hash == hash) {
      ++it->second->refs;
      ++r.hits;
      out = it->second;
      return Status::success();
    }
    // Another image now lives at this address (the first one's owner freed
    // it without releasing its module): detach the stale entry, which its
    // holders keep until they release it.
    it->second->cached = false;
    r.byKey.erase(it);
  }
  auto module = std::make_unique<cmrtKernelModuleImpl>();
  module->image = image;
  module->size = size;
  module->hash = hash;
  module->device = device;
  module->kind = kind;
  if (Status s = loadModule(*module, optLevel); !s.ok()) {
    s.message = std::string(caller) + ": " + s.message;
    return s;
  }
  module->refs = 1;
  r.byKey.emplace(key, module.get());
  r.live.insert(module.get());
  ++r.loads;
  out = module.release();
  return Status::success();
}

Status cmrt::releaseKernelModule(cmrtKernelModuleImpl *module) {
  if (!module)
    return Status::success();
  Registry &r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.live.count(module))
      return invalid("releasing a kernel module expects a handle from "
                     "cmrtKernelModuleGet or mgpuModuleLoad, but got an "
                     "unknown or already released one");
    if (--module->refs > 0)
      return Status::success();
    r.live.erase(module);
    if (module->cached) {
      auto it = r.byKey.find({module->image, module->size, module->device});
      if (it != r.byKey.end() && it->second == module)
        r.byKey.erase(it);
    }
  }
  std::unique_ptr<cmrtKernelModuleImpl> owned(module);
  cudaError_t err = cudaLibraryUnload(owned->library);
  // At process exit the CUDA runtime may be gone before a compiled module's
  // destructor runs; the driver reclaims everything then.
  if (err != cudaSuccess && err != cudaErrorCudartUnloading)
    return cudaFailure("unloading " + describe(*owned), "cudaLibraryUnload",
                       err);
  (void)cudaGetLastError();
  return Status::success();
}

Status cmrt::findKernel(cmrtKernelModuleImpl &module, std::string_view name,
                        const char *caller, KernelInfo *&out) {
  std::lock_guard<std::mutex> lock(module.mutex);
  auto it = module.kernels.find(name);
  if (it != module.kernels.end()) {
    out = it->second.get();
    return Status::success();
  }
  // Not named when loading (a runtime that cannot name kernels): ask the
  // library.
  std::string key(name);
  cudaKernel_t handle = nullptr;
  if (cudaLibraryGetKernel(&handle, module.library, key.c_str()) !=
      cudaSuccess) {
    (void)cudaGetLastError();
    return invalid(std::string(caller) + " expects the name of a kernel in " +
                   describe(module) + " (" + kernelNames(module) +
                   "), but got '" + key + "'");
  }
  DeviceGuard guard;
  if (Status s = guard.set(module.device); !s.ok())
    return s;
  auto info = std::make_unique<KernelInfo>();
  if (Status s = describeKernel(module, handle, key, *info); !s.ok())
    return s;
  out = info.get();
  module.kernels.emplace(key, std::move(info));
  return Status::success();
}

namespace {

/// Above 48 KiB of shared memory (static + dynamic), the dynamic part must
/// be allowed per kernel and device; done once per (kernel, device, new
/// maximum).
Status optInSharedMemory(KernelInfo &k, int device, int64_t bytes,
                         const char *caller) {
  std::lock_guard<std::mutex> lock(k.smemMutex);
  auto it = k.smemOptIn.find(device);
  if (it != k.smemOptIn.end() && it->second >= bytes)
    return Status::success();
  cudaError_t err = cudaFuncSetAttribute(
      reinterpret_cast<const void *>(k.handle),
      cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    int optIn = 0;
    (void)cudaDeviceGetAttribute(
        &optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    return invalid(std::string(caller) + " expects at most " +
                   std::to_string(optIn) +
                   " bytes of shared memory per block (static + dynamic) "
                   "for kernel '" +
                   k.name + "' on device " + std::to_string(device) +
                   ", but got " + std::to_string(bytes) + " dynamic bytes (" +
                   cudaErrorText("cudaFuncSetAttribute", err) + ")");
  }
  k.smemOptIn[device] = bytes;
  return Status::success();
}

Status checkDims(const KernelInfo &k, const LaunchDims &d, const char *caller) {
  std::string what = std::string(caller) + " expects ";
  for (int64_t v : d.grid)
    if (v < 1)
      return invalid(what + "grid sizes >= 1, but got " + dimsText(d.grid));
  if (d.grid[0] > INT32_MAX || d.grid[1] > 65535 || d.grid[2] > 65535)
    return invalid(what +
                   "a grid of at most [2147483647, 65535, 65535] "
                   "blocks, but got " +
                   dimsText(d.grid));
  for (int64_t v : d.block)
    if (v < 1 || v > 1024)
      return invalid(what + "block sizes in [1, 1024], but got " +
                     dimsText(d.block));
  int64_t threads = d.block[0] * d.block[1] * d.block[2];
  int64_t maxThreads = k.maxThreadsPerBlock > 0 ? k.maxThreadsPerBlock : 1024;
  if (threads > maxThreads)
    return invalid(what + "at most " + std::to_string(maxThreads) +
                   " threads per block for kernel '" + k.name + "', but got " +
                   dimsText(d.block) + " = " + std::to_string(threads));
  bool clustered = d.cluster[0] || d.cluster[1] || d.cluster[2];
  if (clustered)
    for (int i = 0; i < 3; ++i)
      if (d.cluster[i] < 1 || d.cluster[i] > 65535 ||
          d.grid[i] % d.cluster[i] != 0)
        return invalid(what + "cluster sizes >= 1 that divide the grid " +
                       dimsText(d.grid) + ", but got " + dimsText(d.cluster));
  if (d.sharedBytes < 0 || d.sharedBytes > INT32_MAX)
    return invalid(what + "dynamic shared memory in [0, 2^31), but got " +
                   std::to_string(d.sharedBytes) + " bytes");
  return Status::success();
}

/// The blocks of `k` (`threads` each, `sharedBytes` of dynamic shared
/// memory) that `device` holds at once per multiprocessor, and its
/// multiprocessors; asked once per combination.
Status residentBlocks(KernelInfo &k, int device, int64_t threads,
                      int64_t sharedBytes, const char *caller,
                      int &perMultiprocessor, int &multiprocessors) {
  std::lock_guard<std::mutex> lock(k.residentMutex);
  auto key = std::make_tuple(device, threads, sharedBytes);
  if (auto it = k.residentBlocks.find(key); it != k.residentBlocks.end()) {
    std::tie(perMultiprocessor, multiprocessors) = it->second;
    return Status::success();
  }
  cudaError_t err = cudaDeviceGetAttribute(
      &multiprocessors, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perMultiprocessor, reinterpret_cast<const void *>(k.handle),
        static_cast<int>(threads), static_cast<size_t>(sharedBytes));
  if (err != cudaSuccess)
    return cudaFailure(std::string(caller) +
                           ": sizing the cooperative grid of kernel '" +
                           k.name + "'",
                       "cudaOccupancyMaxActiveBlocksPerMultiprocessor", err);
  k.residentBlocks[key] = {perMultiprocessor, multiprocessors};
  return Status::success();
}

/// For a grid-sync kernel: lowers grid.y so that every block of the grid
/// is resident at once on `device`, or fails when not even one row of
/// grid.x * grid.z blocks is.
Status fitCooperativeGrid(KernelInfo &k, int device, LaunchDims &d,
                          const char *caller) {
  int64_t threads = d.block[0] * d.block[1] * d.block[2];
  int perMultiprocessor = 0, multiprocessors = 0;
  if (Status s = residentBlocks(k, device, threads, d.sharedBytes, caller,
                                perMultiprocessor, multiprocessors);
      !s.ok())
    return s;
  int64_t resident = int64_t(perMultiprocessor) * multiprocessors;
  int64_t row = d.grid[0] * d.grid[2];
  if (resident < row)
    return invalid(std::string(caller) + " expects kernel '" + k.name +
                   "' (grid-wide barriers) to fit at least " +
                   std::to_string(row) + " blocks of " +
                   std::to_string(threads) +
                   " threads at once on device " + std::to_string(device) +
                   ", but the device holds " + std::to_string(resident) +
                   " (" + std::to_string(perMultiprocessor) + " per " +
                   "multiprocessor x " + std::to_string(multiprocessors) +
                   ")");
  d.grid[1] = std::min<int64_t>(d.grid[1], resident / row);
  return Status::success();
}

} // namespace

Status cmrt::launchKernel(KernelInfo &kernel, const LaunchDims &dims,
                          cudaStream_t stream, void **args, int64_t argCount,
                          const char *caller) {
  if (Status s = checkDims(kernel, dims, caller); !s.ok())
    return s;
  if (argCount >= 0 && kernel.paramCount >= 0 && argCount != kernel.paramCount)
    return invalid(std::string(caller) + " expects " +
                   std::to_string(kernel.paramCount) +
                   " arguments for kernel '" + kernel.name + "', but got " +
                   std::to_string(argCount));
  if (!args && (kernel.paramCount > 0 || argCount > 0))
    return invalid(std::string(caller) + " expects an array of " +
                   (kernel.paramCount > 0 ? std::to_string(kernel.paramCount)
                                          : std::string("its")) +
                   " argument pointers for kernel '" + kernel.name +
                   "', but got null");
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess)
    return cudaFailure(caller, "cudaGetDevice", err);
  // The 48 KiB a kernel may use without opting in count its static shared
  // memory too.
  if (dims.sharedBytes > 0 &&
      dims.sharedBytes + kernel.staticSharedBytes > 48 * 1024)
    if (Status s = optInSharedMemory(kernel, device, dims.sharedBytes, caller);
        !s.ok())
      return s;

  bool clustered = dims.cluster[0] || dims.cluster[1] || dims.cluster[2];
  LaunchDims fitted = dims;
  if (kernel.gridSync && clustered)
    return invalid(std::string(caller) + " expects no clusters for kernel '" +
                   kernel.name +
                   "' (grid-wide barriers need a cooperative launch), but got " +
                   dimsText(dims.cluster));
  if (kernel.gridSync)
    if (Status s = fitCooperativeGrid(kernel, device, fitted, caller); !s.ok())
      return s;
  dim3 grid(static_cast<unsigned>(fitted.grid[0]),
            static_cast<unsigned>(fitted.grid[1]),
            static_cast<unsigned>(fitted.grid[2]));
  dim3 block(static_cast<unsigned>(dims.block[0]),
             static_cast<unsigned>(dims.block[1]),
             static_cast<unsigned>(dims.block[2]));
  const auto *func = reinterpret_cast<const void *>(kernel.handle);
  // Clusters and cooperative launches need launch attributes.
  cudaLaunchAttribute attrs[2] = {};
  unsigned numAttrs = 0;
  if (clustered) {
    if (dims.cluster[0] * dims.cluster[1] * dims.cluster[2] > 8 &&
        (err = cudaFuncSetAttribute(
             func, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) !=
            cudaSuccess)
      return cudaFailure(std::string(caller) +
                             ": allowing clusters of more "
                             "than 8 blocks for kernel '" +
                             kernel.name + "'",
                         "cudaFuncSetAttribute", err);
    attrs[0].id = cudaLaunchAttributeClusterDimension;
    attrs[0].val.clusterDim.x = static_cast<unsigned>(dims.cluster[0]);
    attrs[0].val.clusterDim.y = static_cast<unsigned>(dims.cluster[1]);
    attrs[0].val.clusterDim.z = static_cast<unsigned>(dims.cluster[2]);
    attrs[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
    attrs[1].val.clusterSchedulingPolicyPreference =
        cudaClusterSchedulingPolicySpread;
    numAttrs = 2;
  } else if (kernel.gridSync) {
    attrs[0].id = cudaLaunchAttributeCooperative;
    attrs[0].val.cooperative = 1;
    numAttrs = 1;
  }
  const char *api = numAttrs ? "cudaLaunchKernelExC" : "cudaLaunchKernel";
  if (numAttrs) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = static_cast<size_t>(dims.sharedBytes);
    config.stream = stream;
    config.attrs = attrs;
    config.numAttrs = numAttrs;
    err = cudaLaunchKernelExC(&config, func, args);
  } else {
    err = cudaLaunchKernel(func, grid, block, args,
                           static_cast<size_t>(dims.sharedBytes), stream);
  }
  if (err != cudaSuccess)
    return cudaFailure(
        std::string(caller) + ": launching kernel '" + kernel.name + "' of " +
            describe(*kernel.module) + " on device " + std::to_string(device) +
            " with grid " + dimsText(fitted.grid) + ", block " +
            dimsText(dims.block) + " and " + std::to_string(dims.sharedBytes) +
            " bytes of dynamic shared memory failed",
        api, err);
  registry().launches.fetch_add(1, std::memory_order_relaxed);
  return Status::success();
}

cmrtKernelModuleStats cmrt::kernelModuleStats() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  cmrtKernelModuleStats stats{};
  stats.loads = r.loads;
  stats.hits = r.hits;
  stats.entries = static_cast<int64_t>(r.live.size());
  stats.launches = r.launches.load(std::memory_order_relaxed);
  stats.mgpuFailures = r.mgpuFailures.load(std::memory_order_relaxed);
  return stats;
}

void cmrt::countMgpuFailure() {
  registry().mgpuFailures.fetch_add(1, std::memory_order_relaxed);
}
