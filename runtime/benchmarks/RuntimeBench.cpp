//===- RuntimeBench.cpp - the runtime's own costs, on a GPU ---------------===//
//
// Three measurements, printed as "key value" lines for
// benchmarks/run_runtime_benchmarks.sh to collect:
//  1. CPU cost of one cached execute: host time per cmrtGraphExecute
//     (and per cmrtGraphGetOrBuild cache hit + execute), median of 30
//     rounds of 100 calls enqueued behind a host function that holds the
//     stream, so no call waits on the GPU (HostTiming.h); beside it, the
//     same graph on cudnn-frontend alone (FrontendFloor.h) and one CUDA
//     launch, the floor under it.
//  2. First-call latency in fresh processes (PlanCacheProbe), for a conv
//     and a matmul graph: no disk cache, a process that stores the plan,
//     and one that loads it, against a warm call.
//  3. Plan speed, heuristics' first choice vs autotuned, timed with CUDA
//     events (median of 9 rounds of 20 runs), for the shapes below.
//
//===----------------------------------------------------------------------===//

#include "FrontendFloor.h"
#include "HostTiming.h"
#include "RuntimeGraphs.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace cmrt::graph;
using namespace cmrt::graph::test;
using namespace cmrt::bench;

namespace {

[[noreturn]] void die(const char *what, const char *detail) {
  std::fprintf(stderr, "RuntimeBench: %s: %s\n", what, detail);
  std::exit(1);
}

void check(cmrtStatus st, const char *what) {
  if (st != CMRT_SUCCESS)
    die(what, cmrtGetLastErrorMessage());
}

void checkCuda(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    die(what, cudaGetErrorString(err));
}

/// Device buffers for every user tensor of a graph, filled with small values
/// (0x3C00 pairs: 1.0 in fp16; a tiny positive number in fp32).
struct Operands {
  std::vector<int64_t> uids;
  std::vector<void *> pointers;
  explicit Operands(const GraphDescription &g) {
    for (const Tensor &t : g.tensors) {
      if (t.isVirtual || t.isByValue)
        continue;
      int64_t elements = 1;
      for (int64_t d : t.dims)
        elements *= d;
      size_t bytes = static_cast<size_t>(elements) * 4;
      void *p = nullptr;
      checkCuda(cudaMalloc(&p, bytes), "cudaMalloc");
      checkCuda(cudaMemset(p, 0x3C, bytes), "cudaMemset");
      uids.push_back(t.uid);
      pointers.push_back(p);
    }
  }
  ~Operands() {
    for (void *p : pointers)
      cudaFree(p);
  }
};

cmrtGraph build(const GraphDescription &g, cmrtGraphOptions options,
                cudaStream_t stream) {
  std::vector<int64_t> w = serialize(g);
  cmrtGraph graph = nullptr;
  check(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()), options,
                            stream, &graph),
        "cmrtGraphGetOrBuild");
  return graph;
}

/// Median GPU time per run of `graph` (CUDA events).
double gpuMicroseconds(cmrtGraph graph, Operands &ops, cudaStream_t stream) {
  int64_t n = static_cast<int64_t>(ops.uids.size());
  for (int i = 0; i < 5; ++i)
    check(cmrtGraphExecute(graph, stream, ops.uids.data(),
                           ops.pointers.data(), n),
          "cmrtGraphExecute");
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> us;
  for (int round = 0; round < 9; ++round) {
    cudaEventRecord(a, stream);
    for (int i = 0; i < 20; ++i)
      check(cmrtGraphExecute(graph, stream, ops.uids.data(),
                             ops.pointers.data(), n),
            "cmrtGraphExecute");
    cudaEventRecord(b, stream);
    checkCuda(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    us.push_back(ms * 1000.0 / 20);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(us);
}

void executeOverhead(cudaStream_t stream) {
  GraphDescription g = convBiasReluGraph(DataType::Half, {});
  std::vector<int64_t> words = serialize(g);
  Operands ops(g);
  cmrtGraph graph = build(g, CMRT_GRAPH_DEFAULT, stream);
  int64_t n = static_cast<int64_t>(ops.uids.size());
  auto run = [&] {
    check(cmrtGraphExecute(graph, stream, ops.uids.data(),
                           ops.pointers.data(), n),
          "cmrtGraphExecute");
  };
  HostCost execute = hostCostPerCall(stream, run);
  HostCost lookup = hostCostPerCall(stream, [&] {
    cmrtGraph hit = nullptr;
    check(cmrtGraphGetOrBuild(words.data(), static_cast<int64_t>(words.size()),
                              CMRT_GRAPH_DEFAULT, stream, &hit),
          "cmrtGraphGetOrBuild");
    check(cmrtGraphExecute(hit, stream, ops.uids.data(), ops.pointers.data(),
                           n),
          "cmrtGraphExecute");
    cmrtGraphRelease(hit);
  });
  // The floor under cmrtGraphExecute: cudnn-frontend and cuDNN alone, and
  // one CUDA launch (a 4-byte memset) for scale.
  FrontendFloor floor = measureFrontendFloor(stream);
  HostCost launch = hostCostPerCall(stream, [&] {
    checkCuda(cudaMemsetAsync(ops.pointers[0], 0, 4, stream),
              "cudaMemsetAsync");
  });
  // The GPU time per run, to show the host was not waiting on it.
  double gpuUs = gpuMicroseconds(graph, ops, stream);
  cmrtGraphInfo info{};
  cmrtGraphGetInfo(graph, &info);
  std::printf("execute_cpu_us %s engine %s\n", describe(execute).c_str(),
              info.engine);
  std::printf("lookup_and_execute_cpu_us %s\n", describe(lookup).c_str());
  std::printf("frontend_map_execute_cpu_us %s engine %s\n",
              describe(floor.mapExecute).c_str(), floor.engine.c_str());
  std::printf("frontend_array_execute_cpu_us %s\n",
              describe(floor.arrayExecute).c_str());
  std::printf("cuda_memset_launch_cpu_us %.2f\n", launch.us);
  std::printf("execute_gpu_us %.2f\n", gpuUs);
  cmrtGraphRelease(graph);
}

std::string runProbe(const std::string &env, const std::string &graph) {
  std::string cmd = env + " '" CMRT_PLAN_CACHE_PROBE "' " + graph + " 2>&1";
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    die("popen", cmd.c_str());
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof(buf), pipe))
    out += buf;
  if (pclose(pipe) != 0)
    die("PlanCacheProbe", out.c_str());
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

void firstCallLatency(const std::string &graph) {
  std::string dir = "/tmp/cmrt-bench-cache-" + std::to_string(::getpid());
  std::string log = dir + ".log";
  std::system(("rm -rf '" + dir + "' '" + log + "'").c_str());
  std::string cache = "CUDNN_MLIR_CACHE_DIR='" + dir + "'";
  std::printf("probe_%s_no_cache %s\n", graph.c_str(),
              runProbe("CUDNN_MLIR_PLAN_CACHE=0", graph).c_str());
  std::printf("probe_%s_cold_storing %s\n", graph.c_str(),
              runProbe(cache, graph).c_str());
  std::printf("probe_%s_disk_cache %s\n", graph.c_str(),
              runProbe(cache + " CUDNN_MLIR_LOG='" + log + "'", graph).c_str());
  // Where the disk-cache process's first call went (from its log).
  if (FILE *f = std::fopen(log.c_str(), "r")) {
    char line[1024];
    while (std::fgets(line, sizeof(line), f))
      if (std::strstr(line, "plan cache: loaded"))
        std::printf("disk_cache_log_%s %s", graph.c_str(), line);
    std::fclose(f);
  }
  std::system(("rm -rf '" + dir + "' '" + log + "'").c_str());
}

void heuristicsVsAutotune(cudaStream_t stream) {
  struct Case {
    const char *name;
    GraphDescription graph;
  };
  ConvShape resnet; // a ResNet stage-2 3x3 conv, batch 32
  resnet.n = 32;
  resnet.c = resnet.k = 64;
  resnet.h = resnet.w = 56;
  ConvShape wide;
  wide.n = 32;
  wide.c = wide.k = 256;
  wide.h = wide.w = 14;
  std::vector<Case> cases = {
      {"conv3x3_bias_relu_fp16_n32_c64_56x56",
       convBiasReluGraph(DataType::Half, resnet)},
      {"conv3x3_bias_relu_fp16_n32_c256_14x14",
       convBiasReluGraph(DataType::Half, wide)},
      {"matmul_bias_fp16_4096x4096x4096",
       matmulBiasGraph(DataType::Half, 4096, 4096, 4096)},
      {"matmul_bias_fp16_8192x1024x1024",
       matmulBiasGraph(DataType::Half, 8192, 1024, 1024)},
  };
  for (Case &c : cases) {
    Operands ops(c.graph);
    cmrtGraph h = build(c.graph, CMRT_GRAPH_DEFAULT, stream);
    cmrtGraph t = build(c.graph, CMRT_GRAPH_AUTOTUNE, stream);
    cmrtGraphInfo hi{}, ti{};
    cmrtGraphGetInfo(h, &hi);
    cmrtGraphGetInfo(t, &ti);
    double hu = gpuMicroseconds(h, ops, stream);
    double tu = gpuMicroseconds(t, ops, stream);
    std::printf("plan %s heuristics_us %.2f (%s, build %.0f ms) autotuned_us "
                "%.2f (%s, build %.0f ms)\n",
                c.name, hu, hi.engine, hi.buildMilliseconds, tu, ti.engine,
                ti.buildMilliseconds);
    cmrtGraphRelease(h);
    cmrtGraphRelease(t);
  }
}

} // namespace

int main(int argc, char **argv) {
  // --host-cost-only: measurement 1 alone (the run under CudnnCallTimer).
  bool hostCostOnly = argc > 1 && std::strcmp(argv[1], "--host-cost-only") == 0;
  cudaDeviceProp prop;
  checkCuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  cmrtVersionInfo v{};
  check(cmrtGetVersionInfo(&v), "cmrtGetVersionInfo");
  std::printf("device %s\ncudnn %d\n", prop.name, v.cudnnLoaded);
  cudaStream_t stream = nullptr;
  checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
            "cudaStreamCreate");
  executeOverhead(stream);
  if (!hostCostOnly) {
    firstCallLatency("conv");
    firstCallLatency("matmul");
    heuristicsVsAutotune(stream);
  }
  cmrtShutdown();
  return 0;
}
