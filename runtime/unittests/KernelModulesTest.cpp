//===- KernelModulesTest.cpp - generated-kernel entry points, no GPU ------===//
//
// Argument and image checks of cmrtKernelModule*, cmrtKernelLaunch,
// cmrtDevice* and the mgpu* functions. Written to hold on both kinds of
// machine: what needs a GPU must fail with CMRT_ERROR_NO_DEVICE and a clear
// message without one, and work with one.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/GpuToLlvmAbi.h"
#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

bool haveGpu() {
  int count = 0;
  bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();
  return ok;
}

std::string lastError() { return cmrtGetLastErrorMessage(); }

#define EXPECT_ERROR_HAS(text)                                                 \
  EXPECT_NE(lastError().find(text), std::string::npos) << lastError()

/// cmrtKernelModuleGet on `image`, expecting `status` and a message with
/// `text`; *out must stay null.
void expectRejected(const void *image, int64_t size, cmrtStatus status,
                    const std::string &text) {
  cmrtKernelModule module = reinterpret_cast<cmrtKernelModule>(0x1);
  EXPECT_EQ(cmrtKernelModuleGet(image, size, &module), status) << lastError();
  EXPECT_EQ(module, nullptr);
  EXPECT_ERROR_HAS(text);
}

/// A 64-byte ELF64 header for `machine` whose section table lies at
/// `sectionOffset` (15 entries of 64 bytes).
std::vector<unsigned char> elfHeader(uint16_t machine, uint64_t sectionOffset) {
  std::vector<unsigned char> h(64, 0);
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  std::memcpy(h.data(), ident, sizeof(ident));
  std::memcpy(&h[18], &machine, 2);
  std::memcpy(&h[0x28], &sectionOffset, 8);
  uint16_t entrySize = 64, count = 15;
  std::memcpy(&h[0x3A], &entrySize, 2);
  std::memcpy(&h[0x3C], &count, 2);
  return h;
}

const char kEmptyPtx[] = ".version 7.0\n.target sm_50\n.address_size 64\n";

} // namespace

//===-- Images ------------------------------------------------------------===//

TEST(KernelModules, NullImageIsRejected) {
  expectRejected(nullptr, 16, CMRT_ERROR_INVALID_ARGUMENT,
                 "cmrtKernelModuleGet expects a non-null image, but got null");
}

TEST(KernelModules, EmptyOrNegativeSizeIsRejected) {
  expectRejected(kEmptyPtx, 0, CMRT_ERROR_INVALID_ARGUMENT,
                 "expects an image size > 0, but got 0");
  expectRejected(kEmptyPtx, -3, CMRT_ERROR_INVALID_ARGUMENT,
                 "expects an image size > 0, but got -3");
}

TEST(KernelModules, NullOutIsRejected) {
  EXPECT_EQ(cmrtKernelModuleGet(kEmptyPtx, sizeof(kEmptyPtx), nullptr),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("non-null out pointer");
}

TEST(KernelModules, BytesThatAreNoImageAreRejected) {
  const char noNul[4] = {'a', 'b', 'c', 'd'};
  expectRejected(noNul, 4, CMRT_ERROR_INVALID_ARGUMENT,
                 "expects a cubin (ELF), a fatbin or NUL-terminated PTX, but "
                 "got 4 bytes that are none of these");
  const char text[] = "hello, kernels";
  expectRejected(text, sizeof(text), CMRT_ERROR_INVALID_ARGUMENT,
                 "expects PTX with a .version directive");
  // The NUL must lie within the given size.
  expectRejected(kEmptyPtx, 10, CMRT_ERROR_INVALID_ARGUMENT, "no NUL");
}

TEST(KernelModules, ElfForAnotherMachineIsRejected) {
  std::vector<unsigned char> elf = elfHeader(/*EM_X86_64=*/62, 0);
  expectRejected(elf.data(), static_cast<int64_t>(elf.size()),
                 CMRT_ERROR_INVALID_ARGUMENT,
                 "expects a cubin for EM_CUDA (ELF machine 190), but got ELF "
                 "machine 62");
}

TEST(KernelModules, TruncatedCubinIsRejected) {
  std::vector<unsigned char> elf = elfHeader(190, /*sectionOffset=*/4096);
  expectRejected(elf.data(), static_cast<int64_t>(elf.size()),
                 CMRT_ERROR_INVALID_ARGUMENT,
                 "expects a cubin that fits in its 64 bytes");
  expectRejected(elf.data(), 20, CMRT_ERROR_INVALID_ARGUMENT,
                 "of at least 64 bytes, but got 20");
}

TEST(KernelModules, TruncatedFatbinIsRejected) {
  unsigned char fatbin[32] = {0x50, 0xED, 0x55, 0xBA, 1, 0, 16, 0};
  uint64_t fatSize = 4096;
  std::memcpy(fatbin + 8, &fatSize, 8);
  expectRejected(fatbin, sizeof(fatbin), CMRT_ERROR_INVALID_ARGUMENT,
                 "expects a fatbin that fits in its 32 bytes, but its header "
                 "says 16 + 4096 bytes");
}

TEST(KernelModules, ValidPtxNeedsAGpu) {
  cmrtKernelModule module = nullptr;
  cmrtStatus status =
      cmrtKernelModuleGet(kEmptyPtx, sizeof(kEmptyPtx), &module);
  if (!haveGpu()) {
    EXPECT_EQ(status, CMRT_ERROR_NO_DEVICE);
    EXPECT_ERROR_HAS("expects a CUDA GPU, but found none");
    EXPECT_EQ(module, nullptr);
    return;
  }
  ASSERT_EQ(status, CMRT_SUCCESS) << lastError();
  EXPECT_NE(module, nullptr);
  EXPECT_EQ(cmrtKernelModuleRelease(module), CMRT_SUCCESS) << lastError();
}

TEST(KernelModules, ReleaseAcceptsNullAndRejectsUnknownHandles) {
  EXPECT_EQ(cmrtKernelModuleRelease(nullptr), CMRT_SUCCESS);
  int notAModule = 0;
  EXPECT_EQ(
      cmrtKernelModuleRelease(reinterpret_cast<cmrtKernelModule>(&notAModule)),
      CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("unknown or already released");
}

//===-- Launch arguments --------------------------------------------------===//

TEST(KernelModules, LaunchChecksItsArguments) {
  int64_t dims[3] = {1, 1, 1};
  EXPECT_EQ(cmrtKernelLaunch(nullptr, "k", dims, dims, 0, nullptr, nullptr, 0),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("expects a module from cmrtKernelModuleGet, but got null");
  if (!haveGpu())
    return; // the checks below need a loaded module
  cmrtKernelModule module = nullptr;
  ASSERT_EQ(cmrtKernelModuleGet(kEmptyPtx, sizeof(kEmptyPtx), &module),
            CMRT_SUCCESS)
      << lastError();
  EXPECT_EQ(
      cmrtKernelLaunch(module, nullptr, dims, dims, 0, nullptr, nullptr, 0),
      CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("non-null kernel name");
  EXPECT_EQ(
      cmrtKernelLaunch(module, "k", nullptr, dims, 0, nullptr, nullptr, 0),
      CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cmrtKernelLaunch(module, "k", dims, dims, 0, nullptr, nullptr, -1),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("expects argCount >= 0, but got -1");
  EXPECT_EQ(cmrtKernelLaunch(module, "k", dims, dims, 0, nullptr, nullptr, 0),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("(none named), but got 'k'");
  EXPECT_EQ(cmrtKernelModuleRelease(module), CMRT_SUCCESS);
}

TEST(KernelModules, StatsNeedAPointer) {
  EXPECT_EQ(cmrtKernelModuleGetStats(nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  cmrtKernelModuleStats stats{};
  EXPECT_EQ(cmrtKernelModuleGetStats(&stats), CMRT_SUCCESS);
  EXPECT_GE(stats.entries, 0);
  EXPECT_STREQ(cmrtGetLastErrorMessage(), "");
}

//===-- Device memory -----------------------------------------------------===//

TEST(DeviceMemory, AllocChecksItsArguments) {
  void *p = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(cmrtDeviceAlloc(16, nullptr, nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("non-null out pointer");
  EXPECT_EQ(cmrtDeviceAlloc(-1, nullptr, &p), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("cmrtDeviceAlloc expects a size >= 0, but got -1");
  EXPECT_EQ(p, nullptr);
  // Zero bytes need no device: null, like mgpuMemAlloc(0).
  p = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(cmrtDeviceAlloc(0, nullptr, &p), CMRT_SUCCESS) << lastError();
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(cmrtDeviceFree(nullptr, nullptr), CMRT_SUCCESS);
}

TEST(DeviceMemory, AllocNeedsAGpu) {
  void *p = nullptr;
  cmrtStatus status = cmrtDeviceAlloc(1 << 20, nullptr, &p);
  if (!haveGpu()) {
    EXPECT_EQ(status, CMRT_ERROR_NO_DEVICE);
    EXPECT_ERROR_HAS("expects a CUDA GPU, but found none");
    EXPECT_EQ(p, nullptr);
    return;
  }
  ASSERT_EQ(status, CMRT_SUCCESS) << lastError();
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(cmrtDeviceFree(p, nullptr), CMRT_SUCCESS) << lastError();
}

TEST(DeviceMemory, StatsAndTrimCheckTheirArguments) {
  EXPECT_EQ(cmrtDeviceMemoryGetStats(0, nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cmrtDeviceMemoryTrim(0, -1), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_ERROR_HAS("expects keepBytes >= 0, but got -1");
  cmrtDeviceMemoryStats stats{};
  cmrtStatus status = cmrtDeviceMemoryGetStats(1 << 20, &stats);
  EXPECT_EQ(status,
            haveGpu() ? CMRT_ERROR_INVALID_ARGUMENT : CMRT_ERROR_NO_DEVICE)
      << lastError();
}

//===-- mgpu* (MLIR's gpu-to-llvm ABI) ------------------------------------===//

/// Each failing mgpu call records its error and counts it; none aborts.
class MgpuFailures : public ::testing::Test {
protected:
  int64_t failures() {
    cmrtKernelModuleStats stats{};
    EXPECT_EQ(cmrtKernelModuleGetStats(&stats), CMRT_SUCCESS);
    return stats.mgpuFailures;
  }
};

TEST_F(MgpuFailures, BadImagesGiveNullModules) {
  int64_t before = failures();
  EXPECT_EQ(mgpuModuleLoad(nullptr, 16), nullptr);
  EXPECT_ERROR_HAS("mgpuModuleLoad expects a non-null image, but got null");
  char garbage[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(mgpuModuleLoad(garbage, sizeof(garbage)), nullptr);
  EXPECT_ERROR_HAS("mgpuModuleLoad expects a cubin (ELF), a fatbin or "
                   "NUL-terminated PTX");
  EXPECT_EQ(mgpuModuleLoadJIT(nullptr, 3), nullptr);
  EXPECT_ERROR_HAS("mgpuModuleLoadJIT expects NUL-terminated PTX, but got "
                   "null");
  char ptx[sizeof(kEmptyPtx)];
  std::memcpy(ptx, kEmptyPtx, sizeof(ptx));
  EXPECT_EQ(mgpuModuleLoadJIT(ptx, 9), nullptr);
  EXPECT_ERROR_HAS("expects a JIT optimization level in [0, 4], but got 9");
  EXPECT_EQ(failures(), before + 4);
  mgpuModuleUnload(nullptr); // allowed, as upstream's wrappers would crash
  EXPECT_EQ(failures(), before + 4);
}

TEST_F(MgpuFailures, NullModuleAndFunctionAreReported) {
  int64_t before = failures();
  EXPECT_EQ(mgpuModuleGetFunction(nullptr, "saxpy"), nullptr);
  EXPECT_ERROR_HAS("mgpuModuleGetFunction expects a module from "
                   "mgpuModuleLoad (did loading fail?), but got null");
  mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  EXPECT_ERROR_HAS("mgpuLaunchKernel expects a function from "
                   "mgpuModuleGetFunction");
  mgpuLaunchClusterKernel(nullptr, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, nullptr,
                          nullptr, nullptr);
  EXPECT_ERROR_HAS("mgpuLaunchClusterKernel expects a function");
  EXPECT_EQ(failures(), before + 3);
}

TEST_F(MgpuFailures, ZeroByteAllocationIsNull) {
  int64_t before = failures();
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  mgpuMemFree(nullptr, nullptr);
  mgpuMemcpy(nullptr, nullptr, 0, nullptr);
  mgpuMemset32(nullptr, 7, 0, nullptr);
  mgpuMemset16(nullptr, 7, 0, nullptr);
  EXPECT_EQ(failures(), before);
}

TEST_F(MgpuFailures, StridedMemRefIsNotRegistered) {
  int64_t before = failures();
  float data[6] = {};
  // memref<2x3xf32, strided<[1, 2]>>: {allocated, aligned, offset, sizes,
  // strides}.
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } descriptor = {data, data, 0, {2, 3}, {1, 2}};
  mgpuMemHostRegisterMemRef(2, &descriptor, sizeof(float));
  EXPECT_ERROR_HAS("mgpuMemHostRegisterMemRef expects a densely packed "
                   "memref, but dimension 1 has stride 2 where 1 is dense");
  mgpuMemHostRegisterMemRef(2, nullptr, sizeof(float));
  EXPECT_ERROR_HAS("expects a memref descriptor, but got null");
  EXPECT_EQ(failures(), before + 2);
}

TEST_F(MgpuFailures, AllocationWithoutAGpuIsReported) {
  if (haveGpu())
    GTEST_SKIP() << "covered by the GPU tests";
  int64_t before = failures();
  EXPECT_EQ(mgpuMemAlloc(1024, nullptr, false), nullptr);
  EXPECT_ERROR_HAS("mgpuMemAlloc: cudnn-mlir expects a CUDA GPU, but found "
                   "none");
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(kEmptyPtx), 3), nullptr);
  EXPECT_ERROR_HAS("mgpuModuleLoadJIT: cudnn-mlir expects a CUDA GPU");
  EXPECT_EQ(failures(), before + 2);
}
