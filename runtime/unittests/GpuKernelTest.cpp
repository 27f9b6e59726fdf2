//===- GpuKernelTest.cpp - generated kernels on a real GPU ----------------===//
//
// Compiles a small CUDA C module (saxpy, an integer kernel, kernels with
// more than 48 KiB of shared memory, a kernel with grid-wide barriers) with
// NVRTC to PTX and to a cubin
// for the device, then loads and launches it through both paths compiled
// code uses: the cmrt entry points and the mgpu* functions of MLIR's
// gpu-to-llvm lowering. Every result is checked exactly against the host.
//
//===----------------------------------------------------------------------===//

#include "GpuTestFixture.h"

#include "cudnn-mlir-runtime/GpuToLlvmAbi.h"

#include <nvrtc.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

const char kSource[] = R"(
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void scale_add(int n, const int *in, int *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * k + i;
}

// Reverses `count` floats through dynamic shared memory (one block).
extern "C" __global__ void reverse_staged(int count, const float *in,
                                          float *out) {
  extern __shared__ float stage[];
  for (int j = threadIdx.x; j < count; j += blockDim.x)
    stage[j] = in[j];
  __syncthreads();
  for (int j = threadIdx.x; j < count; j += blockDim.x)
    out[j] = stage[count - 1 - j];
}

// 40 KiB of static shared memory: with `count - 10240` floats of dynamic
// shared memory the block needs more than the 48 KiB a kernel may use
// without opting in. Doubles `count` floats through both.
extern "C" __global__ void static_plus_dynamic(int count, const float *in,
                                               float *out) {
  __shared__ float fixed[10240];
  extern __shared__ float extra[];
  for (int j = threadIdx.x; j < count; j += blockDim.x) {
    if (j < 10240)
      fixed[j] = in[j];
    else
      extra[j - 10240] = in[j];
  }
  __syncthreads();
  for (int j = threadIdx.x; j < count; j += blockDim.x)
    out[j] = 2.0f * (j < 10240 ? fixed[j] : extra[j - 10240]);
}

// The grid barrier of generated grid-sync kernels (emitGridBarrier in
// lib/Codegen/KernelBuilder.cpp): the driver's workspace of a cooperative
// launch, its address in %envreg1 (high) : %envreg2 (low), the barrier word
// at byte 4, whose top bit flips once every block has arrived.
__device__ void gridBarrier() {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned lo, hi;
    asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
    asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
    unsigned long long word = ((unsigned long long)hi << 32 | lo) + 4;
    unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
    unsigned add = blockIdx.x + blockIdx.y + blockIdx.z == 0
                       ? 0x80000000u - (blocks - 1)
                       : 1u;
    unsigned old, now;
    asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;"
                 : "=r"(old) : "l"(word), "r"(add) : "memory");
    do {
      asm volatile("ld.acquire.gpu.u32 %0, [%1];"
                   : "=r"(now) : "l"(word) : "memory");
    } while (((old ^ now) & 0x80000000u) == 0);
  }
  __syncthreads();
}

// Each block stores its rank + 1, waits at the grid barrier (twice, the
// word being reused), and reads the next block's: right only when every
// block is resident at once. Block 0 records gridDim.y.
extern "C" __global__ void neighbours_grid_sync(int *ranks, int *next,
                                                int *gridY) {
  int rank = blockIdx.x + blockIdx.y * gridDim.x;
  int blocks = gridDim.x * gridDim.y;
  if (threadIdx.x == 0)
    ranks[rank] = rank + 1;
  gridBarrier();
  gridBarrier();
  if (threadIdx.x == 0) {
    next[rank] = ranks[(rank + 1) % blocks];
    if (rank == 0)
      *gridY = gridDim.y;
  }
}
)";

constexpr int kN = 100003; // odd: the last block is partial

struct Images {
  std::string ptx; // NUL-terminated through c_str()
  std::vector<char> cubin;
  std::string error;
  int cc = 0;
};

/// Compiles kSource once per process for device 0's architecture.
const Images &images() {
  static const Images built = [] {
    Images im;
    int major = 0, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    im.cc = major * 10 + minor;
    auto compile = [&](const std::string &arch, bool cubin) -> bool {
      nvrtcProgram prog = nullptr;
      if (nvrtcCreateProgram(&prog, kSource, "kernels.cu", 0, nullptr,
                             nullptr) != NVRTC_SUCCESS) {
        im.error = "nvrtcCreateProgram failed";
        return false;
      }
      std::string option = "--gpu-architecture=" + arch;
      const char *options[] = {option.c_str()};
      nvrtcResult rc = nvrtcCompileProgram(prog, 1, options);
      if (rc != NVRTC_SUCCESS) {
        size_t logSize = 0;
        nvrtcGetProgramLogSize(prog, &logSize);
        std::string log(logSize, '\0');
        nvrtcGetProgramLog(prog, log.data());
        im.error = std::string(nvrtcGetErrorString(rc)) + ": " + log;
        nvrtcDestroyProgram(&prog);
        return false;
      }
      size_t size = 0;
      if (cubin) {
        nvrtcGetCUBINSize(prog, &size);
        im.cubin.resize(size);
        nvrtcGetCUBIN(prog, im.cubin.data());
      } else {
        nvrtcGetPTXSize(prog, &size); // includes the NUL
        std::vector<char> text(size);
        nvrtcGetPTX(prog, text.data());
        im.ptx.assign(text.data());
      }
      nvrtcDestroyProgram(&prog);
      return true;
    };
    std::string cc = std::to_string(im.cc);
    if (compile("compute_" + cc, /*cubin=*/false))
      compile("sm_" + cc, /*cubin=*/true);
    return im;
  }();
  return built;
}

int64_t mgpuFailures() {
  cmrtKernelModuleStats stats{};
  cmrtKernelModuleGetStats(&stats);
  return stats.mgpuFailures;
}

class GpuKernelTest : public ::testing::Test {
protected:
  void SetUp() override {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      GTEST_SKIP() << "no CUDA GPU";
    }
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    ASSERT_TRUE(images().error.empty()) << images().error;
    ASSERT_FALSE(images().ptx.empty());
    ASSERT_FALSE(images().cubin.empty());
    failuresBefore = mgpuFailures();
  }
  void TearDown() override {
    if (stream)
      EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  }

  const void *ptx() const { return images().ptx.c_str(); }
  int64_t ptxSize() const {
    return static_cast<int64_t>(images().ptx.size() + 1);
  }

  /// saxpy's inputs: small integers and a = 0.5, so a * x + y is exact in
  /// float with or without FMA contraction.
  void saxpyInputs(std::vector<float> &x, std::vector<float> &y) {
    x.resize(kN);
    y.resize(kN);
    for (int i = 0; i < kN; ++i) {
      x[i] = static_cast<float>(i % 97 - 48);
      y[i] = static_cast<float>((i * 7) % 13);
    }
  }
  void expectSaxpy(const std::vector<float> &x, const std::vector<float> &y,
                   const std::vector<float> &got) {
    ASSERT_EQ(got.size(), x.size());
    int bad = 0;
    for (int i = 0; i < kN && bad < 5; ++i)
      if (got[i] != 0.5f * x[i] + y[i]) {
        ADD_FAILURE() << "y[" << i << "] = " << got[i] << ", expected "
                      << 0.5f * x[i] + y[i];
        ++bad;
      }
  }

  cudaStream_t stream = nullptr;
  int64_t failuresBefore = 0;
};

//===-- cmrt path ---------------------------------------------------------===//

TEST_F(GpuKernelTest, CmrtLoadsOncePerDeviceAndLaunchesTwoKernels) {
  cmrtKernelModuleStats before{};
  CMRT_OK(cmrtKernelModuleGetStats(&before));
  cmrtKernelModule module = nullptr, again = nullptr;
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &module));
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &again));
  EXPECT_EQ(module, again) << "the same image must load once per device";
  cmrtKernelModuleStats after{};
  CMRT_OK(cmrtKernelModuleGetStats(&after));
  EXPECT_EQ(after.loads, before.loads + 1);
  EXPECT_EQ(after.hits, before.hits + 1);

  std::vector<float> x, y;
  saxpyInputs(x, y);
  void *dx = nullptr, *dy = nullptr;
  CMRT_OK(cmrtDeviceAlloc(kN * sizeof(float), stream, &dx));
  CMRT_OK(cmrtDeviceAlloc(kN * sizeof(float), stream, &dy));
  CUDA_OK(cudaMemcpyAsync(dx, x.data(), kN * sizeof(float),
                          cudaMemcpyHostToDevice, stream));
  CUDA_OK(cudaMemcpyAsync(dy, y.data(), kN * sizeof(float),
                          cudaMemcpyHostToDevice, stream));
  int n = kN;
  float a = 0.5f;
  void *args[] = {&n, &a, &dx, &dy};
  int64_t grid[3] = {(kN + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
  CMRT_OK(cmrtKernelLaunch(module, "saxpy", grid, block, 0, stream, args, 4));

  std::vector<int> in(kN), out(kN, -1);
  for (int i = 0; i < kN; ++i)
    in[i] = (i * 31) % 1000 - 500;
  void *din = nullptr, *dout = nullptr;
  CMRT_OK(cmrtDeviceAlloc(kN * sizeof(int), stream, &din));
  CMRT_OK(cmrtDeviceAlloc(kN * sizeof(int), stream, &dout));
  CUDA_OK(cudaMemcpyAsync(din, in.data(), kN * sizeof(int),
                          cudaMemcpyHostToDevice, stream));
  int k = -3;
  void *args2[] = {&n, &din, &dout, &k};
  int64_t grid2[3] = {(kN + 127) / 128, 1, 1}, block2[3] = {128, 1, 1};
  CMRT_OK(
      cmrtKernelLaunch(again, "scale_add", grid2, block2, 0, stream, args2, 4));

  std::vector<float> got(kN);
  CUDA_OK(cudaMemcpyAsync(got.data(), dy, kN * sizeof(float),
                          cudaMemcpyDeviceToHost, stream));
  CUDA_OK(cudaMemcpyAsync(out.data(), dout, kN * sizeof(int),
                          cudaMemcpyDeviceToHost, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  expectSaxpy(x, y, got);
  for (int i = 0; i < kN; ++i)
    ASSERT_EQ(out[i], in[i] * k + i) << "at " << i;

  for (void *p : {dx, dy, din, dout})
    CMRT_OK(cmrtDeviceFree(p, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CMRT_OK(cmrtKernelModuleRelease(again));
  CMRT_OK(cmrtKernelModuleRelease(module));
  CMRT_OK(cmrtKernelModuleGetStats(&after));
  EXPECT_EQ(after.entries, before.entries);
  EXPECT_EQ(after.launches, before.launches + 2);
}

/// Runs one block of `threads` threads of `kernel(count, in, out)` with
/// `dynamicBytes` of dynamic shared memory, `in` = 0, 1, ..., count - 1;
/// returns `out`.
std::vector<float> runStaged(cmrtKernelModule module, cudaStream_t stream,
                             const char *kernel, int count, int64_t threads,
                             int64_t dynamicBytes) {
  std::vector<float> in(count), out(count, -1.0f);
  for (int i = 0; i < count; ++i)
    in[i] = static_cast<float>(i);
  void *din = nullptr, *dout = nullptr;
  EXPECT_EQ(cmrtDeviceAlloc(count * sizeof(float), stream, &din), CMRT_SUCCESS);
  EXPECT_EQ(cmrtDeviceAlloc(count * sizeof(float), stream, &dout),
            CMRT_SUCCESS);
  EXPECT_EQ(cudaMemcpyAsync(din, in.data(), count * sizeof(float),
                            cudaMemcpyHostToDevice, stream),
            cudaSuccess);
  void *args[] = {&count, &din, &dout};
  int64_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
  EXPECT_EQ(cmrtKernelLaunch(module, kernel, grid, block, dynamicBytes, stream,
                             args, 3),
            CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  EXPECT_EQ(cudaMemcpyAsync(out.data(), dout, count * sizeof(float),
                            cudaMemcpyDeviceToHost, stream),
            cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cmrtDeviceFree(din, stream), CMRT_SUCCESS);
  EXPECT_EQ(cmrtDeviceFree(dout, stream), CMRT_SUCCESS);
  return out;
}

TEST_F(GpuKernelTest, LargeDynamicSharedMemoryIsOptedInto) {
  cmrtKernelModule module = nullptr;
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &module));
  const int count = 20000; // 80000 bytes > the 48 KiB default
  std::vector<float> out = runStaged(module, stream, "reverse_staged", count,
                                     512, count * sizeof(float));
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(out[i], static_cast<float>(count - 1 - i)) << "at " << i;
  CMRT_OK(cmrtKernelModuleRelease(module));
}

TEST_F(GpuKernelTest, StaticPlusDynamicSharedMemoryAbove48KiBIsOptedInto) {
  cmrtKernelModule module = nullptr;
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &module));
  // 16 KiB dynamic: below 48 KiB alone, above it with the 40 KiB static.
  const int count = 10240 + 4096;
  std::vector<float> out =
      runStaged(module, stream, "static_plus_dynamic", count, 256,
                (count - 10240) * sizeof(float));
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(out[i], 2.0f * static_cast<float>(i)) << "at " << i;
  CMRT_OK(cmrtKernelModuleRelease(module));
}

/// Launches neighbours_grid_sync with `gridX` x `gridY` blocks asked for
/// (directly, or captured into a CUDA graph and replayed) and checks every
/// block that ran read its neighbour's rank: all blocks were resident at
/// once. Returns the grid.y the kernel saw (0 on failure).
int runNeighbours(cmrtKernelModule module, cudaStream_t stream, int gridX,
                  int gridY, bool captured) {
  const int most = gridX * 4096;
  void *ranks = nullptr, *next = nullptr, *seenY = nullptr;
  EXPECT_EQ(cmrtDeviceAlloc(most * sizeof(int), stream, &ranks), CMRT_SUCCESS);
  EXPECT_EQ(cmrtDeviceAlloc(most * sizeof(int), stream, &next), CMRT_SUCCESS);
  EXPECT_EQ(cmrtDeviceAlloc(sizeof(int), stream, &seenY), CMRT_SUCCESS);
  EXPECT_EQ(cudaMemsetAsync(next, 0, most * sizeof(int), stream), cudaSuccess);
  void *args[] = {&ranks, &next, &seenY};
  int64_t grid[3] = {gridX, gridY, 1}, block[3] = {128, 1, 1};
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (captured)
    EXPECT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal),
              cudaSuccess);
  EXPECT_EQ(cmrtKernelLaunch(module, "neighbours_grid_sync", grid, block, 0,
                             stream, args, 3),
            CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  if (captured) {
    EXPECT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    EXPECT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    EXPECT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    EXPECT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
  }
  int y = 0;
  std::vector<int> got(most);
  EXPECT_EQ(cudaMemcpyAsync(&y, seenY, sizeof(int), cudaMemcpyDeviceToHost,
                            stream),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpyAsync(got.data(), next, most * sizeof(int),
                            cudaMemcpyDeviceToHost, stream),
            cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  if (captured) {
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  int blocks = gridX * y;
  EXPECT_GE(y, 1);
  EXPECT_LE(y, gridY);
  EXPECT_LE(blocks, most);
  for (int r = 0; r < blocks && r < most; ++r)
    if (got[r] != (r + 1) % blocks + 1) {
      ADD_FAILURE() << "block " << r << " of " << blocks << " read "
                    << got[r];
      break;
    }
  for (int r = blocks; r < most; ++r)
    if (got[r] != 0) {
      ADD_FAILURE() << "block " << r << " ran beyond the grid of " << blocks;
      break;
    }
  EXPECT_EQ(cmrtDeviceFree(ranks, stream), CMRT_SUCCESS);
  EXPECT_EQ(cmrtDeviceFree(next, stream), CMRT_SUCCESS);
  EXPECT_EQ(cmrtDeviceFree(seenY, stream), CMRT_SUCCESS);
  return y;
}

TEST_F(GpuKernelTest, GridSyncKernelRunsCooperativelyWithItsGridFitted) {
  cmrtKernelModule module = nullptr;
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &module));
  int multiprocessors = 0;
  CUDA_OK(cudaDeviceGetAttribute(&multiprocessors,
                                 cudaDevAttrMultiProcessorCount, 0));
  // A grid that fits is launched as asked: one block per multiprocessor.
  EXPECT_EQ(runNeighbours(module, stream, multiprocessors, 1, false), 1);
  // Far more than fits: grid.y is lowered to what the device holds at once
  // (128-thread blocks: at least one per multiprocessor, at most 32).
  int y = runNeighbours(module, stream, 4, 4096, false);
  EXPECT_GE(4 * y, multiprocessors);
  EXPECT_LE(4 * y, 32 * multiprocessors);
  // The same under CUDA-graph capture, replayed twice.
  EXPECT_EQ(runNeighbours(module, stream, 4, 4096, true), y);
  // Not even one row of grid.x blocks fits: a clear error, nothing runs.
  int64_t grid[3] = {int64_t(1) << 24, 1, 1}, block[3] = {128, 1, 1};
  void *p = nullptr;
  void *args[] = {&p, &p, &p};
  EXPECT_EQ(cmrtKernelLaunch(module, "neighbours_grid_sync", grid, block, 0,
                             stream, args, 3),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("expects kernel 'neighbours_grid_sync' (grid-wide "
                      "barriers) to fit at least 16777216 blocks of 128 "
                      "threads at once on device 0, but the device holds "),
            std::string::npos)
      << cmrtGetLastErrorMessage();
  CMRT_OK(cmrtKernelModuleRelease(module));
}

TEST_F(GpuKernelTest, BadKernelNameAndArgumentCountAreClearErrors) {
  cmrtKernelModule module = nullptr;
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &module));
  int64_t dims[3] = {1, 1, 1};
  int n = 0;
  float a = 1;
  void *p = nullptr;
  void *args[] = {&n, &a, &p, &p};
  EXPECT_EQ(cmrtKernelLaunch(module, "saxpyy", dims, dims, 0, stream, args, 4),
            CMRT_ERROR_INVALID_ARGUMENT);
  std::string message = cmrtGetLastErrorMessage();
  EXPECT_NE(message.find("cmrtKernelLaunch expects the name of a kernel in "
                         "the " +
                         std::to_string(ptxSize()) +
                         "-byte PTX module on device 0 (neighbours_grid_sync, "
                         "reverse_staged, saxpy, scale_add, "
                         "static_plus_dynamic), but got 'saxpyy'"),
            std::string::npos)
      << message;
  EXPECT_EQ(cmrtKernelLaunch(module, "saxpy", dims, dims, 0, stream, args, 3),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("expects 4 arguments for kernel 'saxpy', but got 3"),
            std::string::npos)
      << cmrtGetLastErrorMessage();
  int64_t block[3] = {64, 64, 1};
  EXPECT_EQ(cmrtKernelLaunch(module, "saxpy", dims, block, 0, stream, args, 4),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("threads per block for kernel 'saxpy', but got [64, "
                      "64, 1] = 4096"),
            std::string::npos)
      << cmrtGetLastErrorMessage();

  // The mgpu path reports the same, without aborting.
  EXPECT_EQ(mgpuModuleGetFunction(module, "nope"), nullptr);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("mgpuModuleGetFunction expects the name of a kernel"),
            std::string::npos)
      << cmrtGetLastErrorMessage();
  EXPECT_EQ(mgpuFailures(), failuresBefore + 1);
  CMRT_OK(cmrtKernelModuleRelease(module));
}

TEST_F(GpuKernelTest, InvalidPtxIsAClearErrorNotACrash) {
  const char bad[] = ".version 7.0\n.target sm_50\n.address_size 64\n"
                     ".visible .entry broken() { bogus.instruction; }\n";
  cmrtKernelModule module = nullptr;
  cmrtStatus status = cmrtKernelModuleGet(bad, sizeof(bad), &module);
  std::string message = cmrtGetLastErrorMessage();
  if (status != CMRT_SUCCESS) {
    // Rejected at load: the runtime loads the library into the context.
    std::cout << "[   INFO   ] invalid PTX rejected at load: " << message
              << "\n";
    EXPECT_EQ(status, CMRT_ERROR_CUDA) << message;
    EXPECT_EQ(module, nullptr);
    EXPECT_NE(message.find("-byte PTX module on device 0"), std::string::npos)
        << message;
  } else {
    // The driver deferred the JIT past every load-time check: the first use
    // must then fail, clearly.
    int64_t dims[3] = {1, 1, 1};
    cmrtStatus launch =
        cmrtKernelLaunch(module, "broken", dims, dims, 0, stream, nullptr, 0);
    message = cmrtGetLastErrorMessage();
    std::cout << "[   INFO   ] invalid PTX passed the load; its launch: "
              << message << "\n";
    EXPECT_NE(launch, CMRT_SUCCESS);
    EXPECT_NE(message.find("broken"), std::string::npos) << message;
    CMRT_OK(cmrtKernelModuleRelease(module));
  }
  // The runtime stays usable.
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &module));
  CMRT_OK(cmrtKernelModuleRelease(module));
}

//===-- mgpu path (what gpu-to-llvm emits)
//---------------------------------===//

TEST_F(GpuKernelTest, MgpuJitPathSharesTheCacheAndRunsSaxpy) {
  cmrtKernelModule viaCmrt = nullptr;
  CMRT_OK(cmrtKernelModuleGet(ptx(), ptxSize(), &viaCmrt));
  // What a gpu.binary in assembly format does in its global constructor.
  void *module = mgpuModuleLoadJIT(const_cast<void *>(ptx()), 3);
  ASSERT_NE(module, nullptr) << cmrtGetLastErrorMessage();
  EXPECT_EQ(module, viaCmrt) << "both paths share one cache entry";

  void *function = mgpuModuleGetFunction(module, "saxpy");
  ASSERT_NE(function, nullptr) << cmrtGetLastErrorMessage();
  // What an async gpu.launch_func lowers to.
  void *s = mgpuStreamCreate();
  ASSERT_NE(s, nullptr);
  std::vector<float> x, y;
  saxpyInputs(x, y);
  void *dx = mgpuMemAlloc(kN * sizeof(float), s, false);
  void *dy = mgpuMemAlloc(kN * sizeof(float), s, false);
  ASSERT_NE(dx, nullptr);
  ASSERT_NE(dy, nullptr);
  mgpuMemcpy(dx, x.data(), kN * sizeof(float), s);
  mgpuMemcpy(dy, y.data(), kN * sizeof(float), s);
  int n = kN;
  float a = 0.5f;
  void *params[] = {&n, &a, &dx, &dy};
  mgpuLaunchKernel(function, (kN + 255) / 256, 1, 1, 256, 1, 1, 0, s, params,
                   nullptr, 4);
  std::vector<float> got(kN);
  mgpuMemcpy(got.data(), dy, kN * sizeof(float), s);
  mgpuMemFree(dx, s);
  mgpuMemFree(dy, s);
  mgpuStreamSynchronize(s);
  mgpuStreamDestroy(s);
  EXPECT_EQ(mgpuFailures(), failuresBefore) << cmrtGetLastErrorMessage();
  expectSaxpy(x, y, got);

  mgpuModuleUnload(module);
  CMRT_OK(cmrtKernelModuleRelease(viaCmrt));
}

TEST_F(GpuKernelTest, MgpuCubinPathOnANonDefaultStream) {
  const std::vector<char> &cubin = images().cubin;
  void *module = mgpuModuleLoad(const_cast<char *>(cubin.data()), cubin.size());
  ASSERT_NE(module, nullptr) << cmrtGetLastErrorMessage();
  EXPECT_EQ(mgpuModuleLoad(const_cast<char *>(cubin.data()), cubin.size()),
            module);
  void *function = mgpuModuleGetFunction(module, "scale_add");
  ASSERT_NE(function, nullptr) << cmrtGetLastErrorMessage();

  std::vector<int> in(kN), out(kN, -1);
  for (int i = 0; i < kN; ++i)
    in[i] = i % 1013 - 506;
  void *din = mgpuMemAlloc(kN * sizeof(int), stream, false);
  void *dout = mgpuMemAlloc(kN * sizeof(int), stream, false);
  mgpuMemcpy(din, in.data(), kN * sizeof(int), stream);
  int n = kN, k = 7;
  void *params[] = {&n, &din, &dout, &k};
  mgpuLaunchKernel(function, (kN + 511) / 512, 1, 1, 512, 1, 1, 0, stream,
                   params, nullptr, 4);
  // A parameter-count mismatch is refused, not launched.
  mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr, 2);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("mgpuLaunchKernel expects 4 arguments for kernel "
                      "'scale_add', but got 2"),
            std::string::npos)
      << cmrtGetLastErrorMessage();
  mgpuMemcpy(out.data(), dout, kN * sizeof(int), stream);
  mgpuStreamSynchronize(stream);
  for (int i = 0; i < kN; ++i)
    ASSERT_EQ(out[i], in[i] * k + i) << "at " << i;
  mgpuMemFree(din, stream);
  mgpuMemFree(dout, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(mgpuFailures(), failuresBefore + 1);
  mgpuModuleUnload(module);
  mgpuModuleUnload(module);
}

TEST_F(GpuKernelTest, MgpuClusterLaunch) {
  if (images().cc < 90)
    GTEST_SKIP() << "thread-block clusters need sm_90";
  void *module = mgpuModuleLoadJIT(const_cast<void *>(ptx()), 4);
  ASSERT_NE(module, nullptr) << cmrtGetLastErrorMessage();
  void *function = mgpuModuleGetFunction(module, "saxpy");
  std::vector<float> x, y;
  saxpyInputs(x, y);
  void *dx = mgpuMemAlloc(kN * sizeof(float), stream, false);
  void *dy = mgpuMemAlloc(kN * sizeof(float), stream, false);
  mgpuMemcpy(dx, x.data(), kN * sizeof(float), stream);
  mgpuMemcpy(dy, y.data(), kN * sizeof(float), stream);
  int n = kN;
  float a = 0.5f;
  void *params[] = {&n, &a, &dx, &dy};
  intptr_t blocks = ((kN + 255) / 256 + 1) / 2 * 2; // a multiple of 2
  mgpuLaunchClusterKernel(function, 2, 1, 1, blocks, 1, 1, 256, 1, 1, 0, stream,
                          params, nullptr);
  std::vector<float> got(kN);
  mgpuMemcpy(got.data(), dy, kN * sizeof(float), stream);
  mgpuMemFree(dx, stream);
  mgpuMemFree(dy, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(mgpuFailures(), failuresBefore) << cmrtGetLastErrorMessage();
  expectSaxpy(x, y, got);
  mgpuModuleUnload(module);
}

TEST_F(GpuKernelTest, MgpuMemsetsEventsAndHostRegistration) {
  const size_t count = 1001;
  void *d32 = mgpuMemAlloc(count * 4, stream, false);
  void *d16 = mgpuMemAlloc(count * 2, stream, false);
  ASSERT_NE(d32, nullptr);
  ASSERT_NE(d16, nullptr);
  mgpuMemset32(d32, 0x3F800000u, count, stream); // 1.0f: a driver memset
  mgpuMemset16(d16, 0x3C00u, count, stream);     // 1.0 in fp16
  void *event = mgpuEventCreate();
  ASSERT_NE(event, nullptr);
  mgpuEventRecord(event, stream);
  void *other = mgpuStreamCreate();
  mgpuStreamWaitEvent(other, event);
  std::vector<uint32_t> w32(count);
  std::vector<uint16_t> w16(count);
  mgpuMemcpy(w32.data(), d32, count * 4, other);
  mgpuMemcpy(w16.data(), d16, count * 2, other);
  mgpuStreamSynchronize(other);
  mgpuEventSynchronize(event);
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(w32[i], 0x3F800000u) << "at " << i;
    ASSERT_EQ(w16[i], 0x3C00u) << "at " << i;
  }
  mgpuMemset32(d32, 0, count, stream); // the all-equal-bytes path
  mgpuMemcpy(w32.data(), d32, count * 4, stream);
  mgpuStreamSynchronize(stream);
  for (size_t i = 0; i < count; ++i)
    ASSERT_EQ(w32[i], 0u) << "at " << i;

  // gpu.host_register of a memref<4x8xf32>.
  std::vector<float> host(32);
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } descriptor = {host.data(), host.data(), 0, {4, 8}, {8, 1}};
  mgpuMemHostRegisterMemRef(2, &descriptor, sizeof(float));
  cudaPointerAttributes attributes{};
  CUDA_OK(cudaPointerGetAttributes(&attributes, host.data()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
  mgpuMemHostUnregisterMemRef(2, &descriptor, sizeof(float));

  mgpuEventDestroy(event);
  mgpuStreamDestroy(other);
  mgpuMemFree(d32, stream);
  mgpuMemFree(d16, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(mgpuFailures(), failuresBefore) << cmrtGetLastErrorMessage();
}

//===-- The memory pool ---------------------------------------------------===//

TEST_F(GpuKernelTest, RepeatedAllocFreeDoesNotGrowThePool) {
  auto round = [&] {
    void *a = nullptr;
    CMRT_OK(cmrtDeviceAlloc(1 << 20, stream, &a));
    void *b = mgpuMemAlloc(3 << 20, stream, false);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    CUDA_OK(cudaMemsetAsync(a, 0, 1 << 20, stream));
    CUDA_OK(cudaMemsetAsync(b, 0, 3 << 20, stream));
    mgpuMemFree(b, stream);
    CMRT_OK(cmrtDeviceFree(a, stream));
  };
  round(); // grows the pool to this working set
  CUDA_OK(cudaStreamSynchronize(stream));
  cmrtDeviceMemoryStats warm{};
  CMRT_OK(cmrtDeviceMemoryGetStats(0, &warm));
  EXPECT_GE(warm.reservedBytes, 4 << 20);
  EXPECT_EQ(warm.usedBytes, 0);
  size_t freeBefore = 0, total = 0;
  CUDA_OK(cudaMemGetInfo(&freeBefore, &total));

  for (int i = 0; i < 200; ++i) {
    round();
    if (i % 50 == 0)
      CUDA_OK(cudaStreamSynchronize(stream)); // the threshold keeps it
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  cmrtDeviceMemoryStats after{};
  CMRT_OK(cmrtDeviceMemoryGetStats(0, &after));
  EXPECT_EQ(after.reservedBytes, warm.reservedBytes)
      << "the pool grew: allocations reached the driver";
  EXPECT_EQ(after.usedBytes, 0);
  size_t freeAfter = 0;
  CUDA_OK(cudaMemGetInfo(&freeAfter, &total));
  EXPECT_GE(freeAfter, freeBefore) << "device memory went to the allocator";
  EXPECT_EQ(mgpuFailures(), failuresBefore) << cmrtGetLastErrorMessage();

  // Trimming hands the unused memory back.
  CMRT_OK(cmrtDeviceMemoryTrim(0, 0));
  CMRT_OK(cmrtDeviceMemoryGetStats(0, &after));
  EXPECT_LT(after.reservedBytes, warm.reservedBytes);
}

} // namespace
