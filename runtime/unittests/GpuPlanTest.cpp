//===- GpuPlanTest.cpp - plan choice, split fallback, capture, disk cache -===//
//
// Needs a CUDA GPU and cuDNN 9 (CTest label `gpu`). Numbers are checked
// against float64 CPU references, like GpuGraphTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "DirectoryListing.h"
#include "GpuTestFixture.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

class GpuPlanTest : public GpuGraphTest {
protected:
  cmrtGraph build(const GraphDescription &desc, cmrtGraphOptions options) {
    return build(desc, options, stream);
  }
  /// The same on stream `on`.
  cmrtGraph build(const GraphDescription &desc, cmrtGraphOptions options,
                  cudaStream_t on) {
    std::vector<int64_t> w = serialize(desc);
    cmrtGraph g = nullptr;
    EXPECT_EQ(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()),
                                  options, on, &g),
              CMRT_SUCCESS)
        << cmrtGetLastErrorMessage();
    return g;
  }
  cmrtGraphInfo info(cmrtGraph g) {
    cmrtGraphInfo i{};
    EXPECT_EQ(cmrtGraphGetInfo(g, &i), CMRT_SUCCESS);
    return i;
  }
  /// Ends the capture on `on` into `captured` and instantiates it (null on
  /// failure, reported).
  cudaGraphExec_t endCapture(cudaStream_t on, cudaGraph_t &captured) {
    captured = nullptr;
    cudaGraphExec_t exec = nullptr;
    EXPECT_EQ(cudaStreamEndCapture(on, &captured), cudaSuccess);
    EXPECT_EQ(cudaGraphInstantiate(&exec, captured, 0), cudaSuccess);
    return exec;
  }
};

//===-- The split fallback ------------------------------------------------===//

TEST_F(GpuPlanTest, ConvChainThatNoEngineFusesRunsSplit) {
  ConvShape s; // N=2, C=K=32, 16x16, 3x3 pad 1
  Buffer x, w1, w2, y;
  random(x, DataType::Half, s.n * s.c * s.h * s.w, -1, 1);
  random(w1, DataType::Half, s.c * s.c * 9, -0.2, 0.2);
  random(w2, DataType::Half, s.c * s.c * 9, -0.2, 0.2);
  output(y, DataType::Half, s.n * s.c * s.h * s.w);
  cmrtGraph g = build(convConvGraph(DataType::Half, s), CMRT_GRAPH_DEFAULT);
  ASSERT_NE(g, nullptr);
  cmrtGraphInfo i = info(g);
  EXPECT_EQ(i.origin, CMRT_PLAN_SPLIT);
  EXPECT_EQ(i.parts, 2);
  EXPECT_EQ(i.scratchBytes, s.n * s.c * s.h * s.w * 2);
  int64_t uids[] = {1, 2, 4, 5};
  void *ptrs[] = {x.device, w1.device, w2.device, y.device};
  ASSERT_EQ(cmrtGraphExecute(g, stream, uids, ptrs, 4), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  CUDA_OK(cudaStreamSynchronize(stream));
  CMRT_OK(cmrtGraphRelease(g));
  download(y);
  std::vector<double> mid = convReference(s, DataType::Half, x.host, w1.host);
  double err = relL2(y.host, convReference(s, DataType::Double, mid, w2.host));
  EXPECT_LT(err, 2e-3);
  std::printf("split conv->conv fp16: rel-L2 %.3g\n", err);
}

//===-- Graphs a compiled module has a split form of ----------------------===//

// cmrtInvocationGraphTry: a graph with no engine (the conv -> conv chain) is
// neither built split nor run, says so (0) on every call without failing
// the invocation, and leaves its output as it was; a graph with an engine
// runs and says so (1).
TEST_F(GpuPlanTest, GraphTryRunsOrSaysItCannot) {
  ConvShape s;
  Buffer x, w1, w2, y, b, z;
  random(x, DataType::Half, s.n * s.c * s.h * s.w, -1, 1);
  random(w1, DataType::Half, s.c * s.c * 9, -0.2, 0.2);
  random(w2, DataType::Half, s.c * s.c * 9, -0.2, 0.2);
  random(b, DataType::Half, s.k, -0.5, 0.5);
  output(y, DataType::Half, s.n * s.c * s.h * s.w);
  output(z, DataType::Half, s.n * s.k * s.h * s.w);
  std::vector<int64_t> chain = serialize(convConvGraph(DataType::Half, s));
  std::vector<int64_t> fused = serialize(convBiasReluGraph(DataType::Half, s));
  void *chainSlot = nullptr, *fusedSlot = nullptr;
  int64_t chainUids[] = {1, 2, 4, 5};
  void *chainPtrs[] = {x.device, w1.device, w2.device, y.device};
  int64_t fusedUids[] = {1, 2, 4, 6};
  void *fusedPtrs[] = {x.device, w1.device, b.device, z.device};
  for (int call = 0; call < 2; ++call) {
    void *inv = cmrtInvocationBegin(stream);
    EXPECT_EQ(cmrtInvocationGraphTry(inv, &chainSlot, chain.data(),
                                     static_cast<int64_t>(chain.size()),
                                     CMRT_GRAPH_NO_SPLIT, chainUids,
                                     chainPtrs, 4, "chain.mlir:1:1"),
              0);
    EXPECT_EQ(cmrtInvocationGraphTry(inv, &fusedSlot, fused.data(),
                                     static_cast<int64_t>(fused.size()),
                                     CMRT_GRAPH_NO_SPLIT, fusedUids,
                                     fusedPtrs, 4, "fused.mlir:1:1"),
              1);
    ASSERT_EQ(cmrtInvocationEnd(inv), CMRT_SUCCESS)
        << cmrtGetLastErrorMessage();
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  download(y);
  download(z);
  for (double v : y.host)
    ASSERT_TRUE(std::isnan(v)) << "the graph without an engine wrote";
  double err = relL2(z.host, convBiasReluReference(s, x.host, w1.host, b.host));
  EXPECT_LT(err, 2e-3);
}

//===-- Fusion by timing
//----------------------------------------------------===//

TEST_F(GpuPlanTest, SlowRuntimeCompiledFusionRunsItsSplitFormByTiming) {
  // EfficientNet-B0's 1x1 conv, 16 to 96 channels at 112x112, batch 32,
  // with its batch norm and SiLU: cuDNN 9.14's runtime-compiled fused plan
  // took 224 us on an H100, the conv alone 39 us and the generated
  // kernel's estimate 57 us. With a split form to fall back on
  // (CMRT_GRAPH_NO_SPLIT) the build times both and refuses the fused plan.
  GraphDescription desc =
      convScaleBiasSiluGraph(DataType::Half, efficientNetExpansion());
  std::vector<int64_t> w = serialize(desc);
  auto getOrBuild = [&](cmrtGraphOptions options, cmrtGraph &g) {
    g = nullptr;
    return cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()),
                               options, stream, &g);
  };
  cmrtGraph g = nullptr;
  ASSERT_EQ(getOrBuild(CMRT_GRAPH_NO_SPLIT, g), CMRT_ERROR_NOT_SUPPORTED)
      << "the fused plan was kept";
  std::string why = cmrtGetLastErrorMessage();
  EXPECT_EQ(why.rfind("fusion by cost: timed on this device", 0), 0u) << why;
  EXPECT_NE(why.find("split form about"), std::string::npos) << why;
  // The verdict is cached: the second build neither plans nor times.
  auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(getOrBuild(CMRT_GRAPH_NO_SPLIT, g), CMRT_ERROR_NOT_SUPPORTED);
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  EXPECT_LT(ms, 20.0);
  EXPECT_EQ(std::string(cmrtGetLastErrorMessage()), why);
  // Without a split form there is nothing to run instead: it stays fused.
  ASSERT_EQ(getOrBuild(0, g), CMRT_SUCCESS) << cmrtGetLastErrorMessage();
  cmrtGraphRelease(g);
}

//===-- Autotuning --------------------------------------------------------===//

TEST_F(GpuPlanTest, AutotunedPlanIsTimedAndCorrect) {
  ConvShape s;
  Buffer x, w, b, y;
  random(x, DataType::Half, s.n * s.c * s.h * s.w, -1, 1);
  random(w, DataType::Half, s.k * s.c * 9, -0.5, 0.5);
  random(b, DataType::Half, s.k, -0.5, 0.5);
  output(y, DataType::Half, s.n * s.k * s.h * s.w);
  cmrtGraph g = build(convBiasReluGraph(DataType::Half, s),
                      CMRT_GRAPH_AUTOTUNE);
  ASSERT_NE(g, nullptr);
  cmrtGraphInfo i = info(g);
  EXPECT_EQ(i.origin, CMRT_PLAN_AUTOTUNED);
  EXPECT_STRNE(i.engine, "");
  int64_t uids[] = {1, 2, 4, 6};
  void *ptrs[] = {x.device, w.device, b.device, y.device};
  ASSERT_EQ(cmrtGraphExecute(g, stream, uids, ptrs, 4), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  CUDA_OK(cudaStreamSynchronize(stream));
  CMRT_OK(cmrtGraphRelease(g));
  download(y);
  double err = relL2(y.host, convBiasReluReference(s, x.host, w.host, b.host));
  EXPECT_LT(err, 2e-3);
  std::printf("autotuned conv+bias+relu fp16 (%s): rel-L2 %.3g\n", i.engine,
              err);
}

//===-- Plans timed by default (PlanTiming.h) -----------------------------===//

TEST_F(GpuPlanTest, GroupedConvPlanIsTimedAndCorrect) {
  // RegNetY's 24-channel groups, 5 of them, at 14x14.
  ConvShape s;
  s.n = 4;
  s.c = s.k = 120;
  s.h = s.w = 14;
  s.groups = 5;
  Buffer x, w, y;
  random(x, DataType::Half, s.n * s.c * s.h * s.w, -1, 1);
  random(w, DataType::Half, s.k * (s.c / s.groups) * 9, -0.5, 0.5);
  output(y, DataType::Half, s.n * s.k * s.h * s.w);
  // Built here, not loaded from an earlier run's disk cache.
  ::setenv("CUDNN_MLIR_PLAN_CACHE", "0", 1);
  cmrtGraph g = build(groupedConvGraph(DataType::Half, s), CMRT_GRAPH_DEFAULT);
  ASSERT_NE(g, nullptr);
  cmrtGraphInfo i = info(g);
  EXPECT_EQ(i.origin, CMRT_PLAN_AUTOTUNED);
  int64_t uids[] = {1, 2, 3};
  void *ptrs[] = {x.device, w.device, y.device};
  ASSERT_EQ(cmrtGraphExecute(g, stream, uids, ptrs, 3), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  CUDA_OK(cudaStreamSynchronize(stream));
  CMRT_OK(cmrtGraphRelease(g));
  download(y);
  double err =
      relL2(y.host, convReference(s, DataType::Double, x.host, w.host));
  EXPECT_LT(err, 2e-3);
  std::printf("timed grouped conv fp16, 5 groups of 24 (%s): rel-L2 %.3g\n",
              i.engine, err);
  // Turned off, the heuristics' choice stands.
  ::setenv("CUDNN_MLIR_PLAN_TIMING", "0", 1);
  s.h = s.w = 12; // another graph, not the cached one
  cmrtGraph h = build(groupedConvGraph(DataType::Half, s), CMRT_GRAPH_DEFAULT);
  ::unsetenv("CUDNN_MLIR_PLAN_TIMING");
  ::unsetenv("CUDNN_MLIR_PLAN_CACHE");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(info(h).origin, CMRT_PLAN_HEURISTICS);
  CMRT_OK(cmrtGraphRelease(h));
}

//===-- The workspace cap -------------------------------------------------===//

TEST_F(GpuPlanTest, WorkspaceCapIsHonouredOrRefusedClearly) {
  ConvShape s;
  s.n = 8;
  s.c = s.k = 64;
  s.h = s.w = 32;
  Buffer x, w, b, y;
  random(x, DataType::Half, s.n * s.c * s.h * s.w, -1, 1);
  random(w, DataType::Half, s.k * s.c * 9, -0.5, 0.5);
  random(b, DataType::Half, s.k, -0.5, 0.5);
  output(y, DataType::Half, s.n * s.k * s.h * s.w);
  // No workspace at all: whatever engine wins must need none.
  cmrtGraph g = build(convBiasReluGraph(DataType::Half, s),
                      CMRT_GRAPH_WORKSPACE_KIB(0));
  ASSERT_NE(g, nullptr);
  cmrtGraphInfo i = info(g);
  EXPECT_EQ(i.workspaceBytes, 0);
  int64_t uids[] = {1, 2, 4, 6};
  void *ptrs[] = {x.device, w.device, b.device, y.device};
  ASSERT_EQ(cmrtGraphExecute(g, stream, uids, ptrs, 4), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  CUDA_OK(cudaStreamSynchronize(stream));
  CMRT_OK(cmrtGraphRelease(g));
  download(y);
  double err = relL2(y.host, convBiasReluReference(s, x.host, w.host, b.host));
  EXPECT_LT(err, 2e-3);
  std::printf("conv+bias+relu fp16 with no workspace (%s): rel-L2 %.3g\n",
              i.engine, err);
}

//===-- CUDA-graph capture ------------------------------------------------===//

TEST_F(GpuPlanTest, CaptureRefusesBuildingButCapturesExecution) {
  ConvShape s;
  Buffer x, w, b, y;
  random(x, DataType::Half, s.n * s.c * s.h * s.w, -1, 1);
  random(w, DataType::Half, s.k * s.c * 9, -0.5, 0.5);
  random(b, DataType::Half, s.k, -0.5, 0.5);
  output(y, DataType::Half, s.n * s.k * s.h * s.w);
  GraphDescription desc = convBiasReluGraph(DataType::Half, s);
  cmrtGraph built = build(desc, CMRT_GRAPH_DEFAULT); // before capture
  ASSERT_NE(built, nullptr);
  CUDA_OK(cudaStreamSynchronize(stream));

  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  // Another graph would need a build: refused, clearly, capture intact.
  std::vector<int64_t> other = serialize(rowSumGraph(2, 64, 256));
  cmrtGraph refused = nullptr;
  EXPECT_EQ(cmrtGraphGetOrBuild(other.data(),
                                static_cast<int64_t>(other.size()), 0, stream,
                                &refused),
            CMRT_ERROR_STREAM_CAPTURE);
  EXPECT_EQ(refused, nullptr);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage()).find("being captured"),
            std::string::npos)
      << cmrtGetLastErrorMessage();
  // The built one is a cache hit, and its execution is captured.
  cmrtGraph hit = build(desc, CMRT_GRAPH_DEFAULT);
  ASSERT_NE(hit, nullptr);
  int64_t uids[] = {1, 2, 4, 6};
  void *ptrs[] = {x.device, w.device, b.device, y.device};
  EXPECT_EQ(cmrtGraphExecute(hit, stream, uids, ptrs, 4), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  cudaGraph_t captured = nullptr;
  cudaGraphExec_t exec = endCapture(stream, captured);
  ASSERT_NE(exec, nullptr);
  // Nothing ran yet: y is still poison. Launch the CUDA graph, then check.
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  download(y);
  double err = relL2(y.host, convBiasReluReference(s, x.host, w.host, b.host));
  EXPECT_LT(err, 2e-3);
  std::printf("conv+bias+relu fp16 replayed from a CUDA graph: rel-L2 %.3g\n",
              err);
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(captured));
  CMRT_OK(cmrtGraphRelease(built));
  CMRT_OK(cmrtGraphRelease(hit));
}

// The split conv->conv graph keeps its scratch tensor in the stream's
// workspace pool (at least n*c*h*w*2 bytes), so its size is known.
TEST_F(GpuPlanTest, WorkspaceUsedByACaptureOutlivesGrowth) {
  // A stream of its own: its pool starts empty whatever ran before.
  cudaStream_t own = nullptr, plain = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
  CUDA_OK(cudaStreamCreateWithFlags(&plain, cudaStreamNonBlocking));
  auto buildOn = [&](const ConvShape &shape, cudaStream_t on) {
    return build(convConvGraph(DataType::Half, shape), CMRT_GRAPH_DEFAULT, on);
  };
  auto poolOf = [&](cudaStream_t on) {
    cmrtWorkspaceInfo i{};
    EXPECT_EQ(cmrtGetWorkspaceInfo(0, on, &i), CMRT_SUCCESS);
    return i;
  };
  ConvShape small; // scratch 2*32*16*16*2 bytes
  ConvShape large = small;
  large.n = 16;
  large.h = large.w = 64; // scratch 4 MiB
  Buffer x, w1, w2, y;
  random(x, DataType::Half, small.n * small.c * small.h * small.w, -1, 1);
  random(w1, DataType::Half, small.c * small.c * 9, -0.2, 0.2);
  random(w2, DataType::Half, small.c * small.c * 9, -0.2, 0.2);
  output(y, DataType::Half, small.n * small.c * small.h * small.w);
  cmrtGraph first = buildOn(small, own);
  ASSERT_NE(first, nullptr);
  cmrtWorkspaceInfo before = poolOf(own);
  EXPECT_GT(before.bytes, 0);
  EXPECT_EQ(before.captured, 0);

  // Capture one execution: the CUDA graph holds the pool buffer's address.
  CUDA_OK(cudaStreamSynchronize(own));
  CUDA_OK(cudaStreamBeginCapture(own, cudaStreamCaptureModeThreadLocal));
  int64_t uids[] = {1, 2, 4, 5};
  void *ptrs[] = {x.device, w1.device, w2.device, y.device};
  EXPECT_EQ(cmrtGraphExecute(first, own, uids, ptrs, 4), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  cudaGraph_t captured = nullptr;
  cudaGraphExec_t exec = endCapture(own, captured);
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(poolOf(own).captured, 1);

  // A larger graph on the same stream grows the pool: the captured buffer
  // is kept (retired), not freed under the CUDA graph.
  cmrtGraph second = buildOn(large, own);
  ASSERT_NE(second, nullptr);
  cmrtWorkspaceInfo after = poolOf(own);
  ASSERT_GT(after.bytes, before.bytes) << "the larger graph must grow the pool";
  EXPECT_EQ(after.retiredBytes, before.bytes);
  EXPECT_EQ(after.captured, 0);

  // The stream's next allocation (which would reuse a freed block) and the
  // replay: it still computes the right result.
  void *scribble = nullptr;
  CUDA_OK(cudaMallocAsync(&scribble, static_cast<size_t>(before.bytes), own));
  CUDA_OK(cudaMemsetAsync(scribble, 0xFF, static_cast<size_t>(before.bytes),
                          own));
  CUDA_OK(cudaGraphLaunch(exec, own));
  CUDA_OK(cudaFreeAsync(scribble, own));
  CUDA_OK(cudaStreamSynchronize(own));
  download(y);
  std::vector<double> mid =
      convReference(small, DataType::Half, x.host, w1.host);
  double err =
      relL2(y.host, convReference(small, DataType::Double, mid, w2.host));
  EXPECT_LT(err, 2e-3);
  std::printf("split conv->conv replayed after the pool grew: rel-L2 %.3g\n",
              err);

  // Without a capture a growth frees the old buffer (nothing retired).
  cmrtGraph plainFirst = buildOn(small, plain);
  cmrtGraph plainSecond = buildOn(large, plain);
  ASSERT_NE(plainFirst, nullptr);
  ASSERT_NE(plainSecond, nullptr);
  EXPECT_EQ(poolOf(plain).retiredBytes, 0);

  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(captured));
  for (cmrtGraph g : {first, second, plainFirst, plainSecond})
    CMRT_OK(cmrtGraphRelease(g));
  CUDA_OK(cudaStreamSynchronize(plain));
  CUDA_OK(cudaStreamDestroy(own));
  CUDA_OK(cudaStreamDestroy(plain));
}

//===-- The disk cache across processes -----------------------------------===//

struct ProbeRun {
  int exitCode = -1;
  int origin = -1;
  double firstCallUs = 0;
  std::string output;
};

/// Runs PlanCacheProbe in a fresh process with the cache in `dir` and the
/// log in `log`, after the environment assignments `env`.
ProbeRun runProbe(const std::string &dir, const std::string &log,
                  const std::string &env = "") {
  std::string cmd = env + " CUDNN_MLIR_CACHE_DIR='" + dir +
                    "' CUDNN_MLIR_LOG='" + log +
                    "' '" CMRT_PLAN_CACHE_PROBE "' 2>&1";
  ProbeRun run;
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return run;
  char buf[512];
  while (std::fgets(buf, sizeof(buf), pipe))
    run.output += buf;
  int status = pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  size_t at = run.output.find("origin=");
  if (at != std::string::npos)
    std::sscanf(run.output.c_str() + at, "origin=%d", &run.origin);
  at = run.output.find("first_call_us=");
  if (at != std::string::npos)
    std::sscanf(run.output.c_str() + at, "first_call_us=%lf",
                &run.firstCallUs);
  return run;
}

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(GpuDiskCache, SecondProcessLoadsThePlanAndACorruptFileIsRebuilt) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
    GTEST_SKIP() << "no CUDA GPU";
  std::string dir = "/tmp/cmrt-disk-cache-" + std::to_string(::getpid());
  std::string log = dir + ".log";
  ASSERT_EQ(std::system(("rm -rf '" + dir + "' '" + log + "'").c_str()), 0);

  ProbeRun cold = runProbe(dir, log);
  ASSERT_EQ(cold.exitCode, 0) << cold.output;
  EXPECT_EQ(cold.origin, CMRT_PLAN_HEURISTICS) << cold.output;
  ProbeRun loaded = runProbe(dir, log);
  ASSERT_EQ(loaded.exitCode, 0) << loaded.output;
  EXPECT_EQ(loaded.origin, CMRT_PLAN_DISK_CACHE) << loaded.output;
  std::printf("first call: cold process %.0f us, with the disk cache %.0f "
              "us\n  %s  %s",
              cold.firstCallUs, loaded.firstCallUs, cold.output.c_str(),
              loaded.output.c_str());

  // Corrupt every stored plan: the next process rebuilds and re-stores.
  std::string corrupt =
      "for f in '" + dir +
      "'/plans/*.cmrtplan; do printf 'garbage' | dd of=\"$f\" "
      "bs=1 seek=100 conv=notrunc 2>/dev/null; done";
  ASSERT_EQ(std::system(corrupt.c_str()), 0);
  ProbeRun rebuilt = runProbe(dir, log);
  ASSERT_EQ(rebuilt.exitCode, 0) << rebuilt.output;
  EXPECT_EQ(rebuilt.origin, CMRT_PLAN_HEURISTICS) << rebuilt.output;
  ProbeRun reloaded = runProbe(dir, log);
  ASSERT_EQ(reloaded.exitCode, 0) << reloaded.output;
  EXPECT_EQ(reloaded.origin, CMRT_PLAN_DISK_CACHE) << reloaded.output;

  // CUDNN_MLIR_LOG recorded builds, engines, the corrupt file and runs.
  std::string text = readText(log);
  EXPECT_NE(text.find("[cudnn-mlir] built graph on device"), std::string::npos)
      << text;
  EXPECT_NE(text.find(", engine "), std::string::npos) << text;
  EXPECT_NE(text.find("(disk cache)"), std::string::npos) << text;
  EXPECT_NE(text.find("(the file is corrupt)"), std::string::npos) << text;
  EXPECT_NE(text.find("executed graph (heuristics, engine"), std::string::npos)
      << text;
  EXPECT_EQ(std::system(("rm -rf '" + dir + "' '" + log + "'").c_str()), 0);
}

TEST(GpuDiskCache, StoringAPlanEvictsToTheCap) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
    GTEST_SKIP() << "no CUDA GPU";
  std::string dir = "/tmp/cmrt-disk-cache-cap-" + std::to_string(::getpid());
  std::string log = dir + ".log";
  // A 2 MiB plan file last used an hour ago, over the 1 MiB cap.
  std::string fill = "rm -rf '" + dir + "' '" + log + "' && mkdir -p '" + dir +
                     "/plans' && head -c 2097152 /dev/zero > '" + dir +
                     "/plans/old.cmrtplan' && touch -d '1 hour ago' '" + dir +
                     "/plans/old.cmrtplan'";
  ASSERT_EQ(std::system(fill.c_str()), 0);
  ProbeRun run = runProbe(dir, log, "CUDNN_MLIR_PLAN_CACHE_MAX_MB=1");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_EQ(run.origin, CMRT_PLAN_HEURISTICS) << run.output;
  std::set<std::string> left = cmrt::test_util::filesIn(dir + "/plans");
  EXPECT_EQ(left.count("old.cmrtplan"), 0u);
  EXPECT_EQ(left.size(), 1u); // the plan just stored
  EXPECT_NE(readText(log).find("plan cache: removed 1 least recently used"),
            std::string::npos)
      << readText(log);
  // The stored plan loads in the next process.
  ProbeRun loaded = runProbe(dir, log, "CUDNN_MLIR_PLAN_CACHE_MAX_MB=1");
  ASSERT_EQ(loaded.exitCode, 0) << loaded.output;
  EXPECT_EQ(loaded.origin, CMRT_PLAN_DISK_CACHE) << loaded.output;
  EXPECT_EQ(std::system(("rm -rf '" + dir + "' '" + log + "'").c_str()), 0);
}

} // namespace
