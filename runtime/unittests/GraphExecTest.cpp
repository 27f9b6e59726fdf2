//===- GraphExecTest.cpp - build/cache/execute parts that need no GPU -----===//
//
// Options, the LRU cache, cache keys with options, graph dumps, argument
// checks of the C ABI, and the clear error when there is no GPU. Written to
// hold on a GPU machine too (the no-GPU test skips there).
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphHash.h"
#include "GraphTestUtil.h"
#include "core/LruCache.h"
#include "RuntimeGraphs.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

std::string lastError() { return cmrtGetLastErrorMessage(); }

bool haveGpu() {
  int count = 0;
  bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();
  return ok;
}

//===-- Options -----------------------------------------------------------===//

TEST(GraphOptions, KnownBitsPass) {
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_DEFAULT).ok());
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_EXACT_FP32).ok());
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_DETERMINISTIC).ok());
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_AUTOTUNE).ok());
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_EXACT_FP32 | CMRT_GRAPH_DETERMINISTIC |
                           CMRT_GRAPH_AUTOTUNE)
                  .ok());
}

TEST(GraphOptions, WorkspaceCapRidesInTheHighBits) {
  EXPECT_EQ(workspaceLimitBytes(CMRT_GRAPH_DEFAULT), -1);
  EXPECT_EQ(workspaceLimitBytes(CMRT_GRAPH_WORKSPACE_KIB(0)), 0);
  EXPECT_EQ(workspaceLimitBytes(CMRT_GRAPH_WORKSPACE_KIB(4096) |
                                CMRT_GRAPH_EXACT_FP32),
            4096 * 1024);
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_WORKSPACE_KIB(64)).ok());
  Status s = checkOptions(uint64_t{64} << 32); // a cap without the flag
  EXPECT_EQ(s.code, CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(s.message.find("only with CMRT_GRAPH_WORKSPACE_LIMIT"),
            std::string::npos)
      << s.message;
  // A different cap is a different plan.
  std::vector<int64_t> w = serialize(convBiasRelu());
  int64_t n = static_cast<int64_t>(w.size());
  EXPECT_NE(hashGraphAndOptions(w.data(), n, CMRT_GRAPH_WORKSPACE_KIB(1)),
            hashGraphAndOptions(w.data(), n, CMRT_GRAPH_WORKSPACE_KIB(2)));
}

TEST(GraphOptions, UnknownBitsAreRejected) {
  EXPECT_TRUE(checkOptions(CMRT_GRAPH_NO_SPLIT).ok());
  Status s = checkOptions(32);
  EXPECT_EQ(s.code, CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(s.message.find("but got 0x20"), std::string::npos) << s.message;
  std::vector<int64_t> w = serialize(convBiasRelu());
  cmrtGraph g = reinterpret_cast<cmrtGraph>(1);
  EXPECT_EQ(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()),
                                1ull << 20, nullptr, &g),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g, nullptr);
  EXPECT_NE(lastError().find("CMRT_GRAPH_EXACT_FP32"), std::string::npos);
}

TEST(GraphOptions, OptionsArePartOfTheCacheKey) {
  std::vector<int64_t> w = serialize(convBiasRelu());
  int64_t n = static_cast<int64_t>(w.size());
  uint64_t plain = hashGraphAndOptions(w.data(), n, 0);
  EXPECT_NE(plain, hashGraphAndOptions(w.data(), n, CMRT_GRAPH_EXACT_FP32));
  EXPECT_NE(plain, hashGraphAndOptions(w.data(), n, CMRT_GRAPH_DETERMINISTIC));
  EXPECT_NE(hashGraphAndOptions(w.data(), n, CMRT_GRAPH_EXACT_FP32),
            hashGraphAndOptions(w.data(), n, CMRT_GRAPH_DETERMINISTIC));
  // The continuation of the description's FNV-1a over one more word.
  int64_t zero = 0;
  EXPECT_EQ(plain, hashWords(&zero, 1, hashWords(w.data(), n)));
  EXPECT_EQ(plain, hashGraphAndOptions(w.data(), n, 0)); // stable
}

//===-- LRU cache ---------------------------------------------------------===//

using IntCache = cmrt::LruCache<int, int>;

std::shared_ptr<int> value(int v) { return std::make_shared<int>(v); }

TEST(LruCache, EvictsLeastRecentlyUsed) {
  IntCache c(2);
  c.insert(1, value(10));
  c.insert(2, value(20));
  ASSERT_TRUE(c.get(1)); // 1 is now the most recent
  c.insert(3, value(30)); // evicts 2
  EXPECT_TRUE(c.contains(1));
  EXPECT_FALSE(c.contains(2));
  EXPECT_TRUE(c.contains(3));
  cmrt::LruStats s = c.stats();
  EXPECT_EQ(s.evictions, 1);
  EXPECT_EQ(s.entries, 2);
  EXPECT_EQ(s.capacity, 2);
  EXPECT_EQ(s.hits, 1);
}

TEST(LruCache, ZeroCapacityIsUnlimitedAndShrinkingEvicts) {
  IntCache c(0);
  for (int i = 0; i < 100; ++i)
    c.insert(i, value(i));
  EXPECT_EQ(c.stats().entries, 100);
  c.setCapacity(10);
  EXPECT_EQ(c.stats().entries, 10);
  EXPECT_EQ(c.stats().evictions, 90);
  for (int i = 90; i < 100; ++i)
    EXPECT_TRUE(c.contains(i)) << i;
}

TEST(LruCache, EvictedValueLivesWhileHeld) {
  IntCache c(1);
  c.insert(1, value(10));
  std::shared_ptr<int> held = c.get(1);
  c.insert(2, value(20));
  EXPECT_FALSE(c.contains(1));
  ASSERT_TRUE(held);
  EXPECT_EQ(*held, 10);
}

TEST(LruCache, GetOrBuildBuildsOnceAndCountsHits) {
  IntCache c(4);
  int builds = 0;
  auto build = [&](std::shared_ptr<int> &out) -> Status {
    ++builds;
    out = value(7);
    return Status::success();
  };
  std::shared_ptr<int> v;
  EXPECT_TRUE(c.getOrBuild(5, build, v).ok());
  EXPECT_TRUE(c.getOrBuild(5, build, v).ok());
  EXPECT_EQ(builds, 1);
  EXPECT_EQ(*v, 7);
  EXPECT_EQ(c.stats().builds, 1);
  EXPECT_EQ(c.stats().hits, 1);
}

TEST(LruCache, FailedBuildIsNotCached) {
  IntCache c(4);
  std::shared_ptr<int> v;
  Status s = c.getOrBuild(
      1, [](std::shared_ptr<int> &) { return Status::invalid("nope"); }, v);
  EXPECT_EQ(s.code, CMRT_ERROR_INVALID_GRAPH);
  EXPECT_FALSE(v);
  EXPECT_FALSE(c.contains(1));
  EXPECT_EQ(c.stats().builds, 0);
}

TEST(LruCache, ConcurrentGetOrBuildBuildsEachKeyOnce) {
  IntCache c(0);
  std::atomic<int> builds{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        std::shared_ptr<int> v;
        Status s = c.getOrBuild(
            i % 16,
            [&](std::shared_ptr<int> &out) {
              ++builds;
              out = value(i % 16);
              return Status::success();
            },
            v);
        ASSERT_TRUE(s.ok());
        ASSERT_EQ(*v, i % 16);
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(builds.load(), 16);
  EXPECT_EQ(c.stats().builds, 16);
  EXPECT_EQ(c.stats().hits, 8 * 200 - 16);
}

// Builds, hits and evictions from 8 threads while a ninth changes the cap
// (ThreadSanitizer checks the locking: scripts/sanitize-runtime.sh tsan):
// each value is its key's and outlives its entry's eviction, and the
// counters add up (each call is one hit or one build).
TEST(LruCache, ConcurrentBuildsEvictionsAndCapacityChanges) {
  constexpr int kThreads = 8, kCalls = 400, kKeys = 24;
  IntCache c(4);
  std::atomic<int> builds{0};
  std::atomic<bool> done{false};
  std::thread resizer([&] {
    for (size_t cap = 1; !done; cap = cap % 6 + 1) {
      c.setCapacity(cap);
      EXPECT_LE(c.stats().entries, 6);
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t)
    workers.emplace_back([&, t] {
      std::vector<std::pair<int, std::shared_ptr<int>>> held;
      for (int i = 0; i < kCalls; ++i) {
        int k = (t * 7 + i * 5) % kKeys;
        std::shared_ptr<int> v;
        Status s = c.getOrBuild(
            k,
            [&](std::shared_ptr<int> &out) {
              ++builds;
              out = value(k);
              return Status::success();
            },
            v);
        ASSERT_TRUE(s.ok());
        ASSERT_TRUE(v);
        ASSERT_EQ(*v, k);
        if (i % 40 == 0)
          held.emplace_back(k, v);
      }
      for (auto &[k, v] : held)
        EXPECT_EQ(*v, k);
    });
  for (auto &w : workers)
    w.join();
  done = true;
  resizer.join();
  c.setCapacity(4);
  cmrt::LruStats s = c.stats();
  EXPECT_EQ(s.builds, builds.load());
  EXPECT_EQ(s.hits + s.builds, kThreads * kCalls);
  EXPECT_GT(s.builds, kKeys); // evicted keys were built again
  EXPECT_EQ(s.evictions, s.builds - s.entries);
  EXPECT_LE(s.entries, 4);
}

TEST(LruCache, ClearKeepsCapacity) {
  IntCache c(3);
  c.insert(1, value(1));
  c.clear();
  EXPECT_EQ(c.stats().entries, 0);
  EXPECT_EQ(c.stats().capacity, 3);
}

//===-- Dumps -------------------------------------------------------------===//

TEST(GraphDump, ConvBiasRelu) {
  EXPECT_EQ(dumpGraph(convBiasRelu()),
            "graph: 6 tensors, 3 ops\n"
            "  tensor UID 1: float [1, 8, 16, 16] strides [2048, 1, 128, 8] "
            "align 16\n"
            "  tensor UID 2: float [16, 8, 3, 3] strides [72, 1, 24, 8] "
            "align 16\n"
            "  tensor UID 3: float [1, 16, 16, 16] strides [4096, 256, 16, 1] "
            "align 16 virtual\n"
            "  tensor UID 4: float [1, 16, 1, 1] strides [16, 1, 1, 1] "
            "align 16\n"
            "  tensor UID 5: float [1, 16, 16, 16] strides [4096, 256, 16, 1] "
            "align 16 virtual\n"
            "  tensor UID 6: float [1, 16, 16, 16] strides [4096, 256, 16, 1] "
            "align 16\n"
            "  op #0 (conv_fprop) compute float pad [1, 1]/[1, 1] stride "
            "[1, 1] dilation [1, 1]: x=1 w=2 -> y=3\n"
            "  op #1 (pointwise) add compute float: x=3 b=4 -> y=5\n"
            "  op #2 (pointwise) relu_fwd compute float param3 0: x=5 -> y=6\n");
}

TEST(GraphDump, ByValueAndReductionAndNames) {
  GraphDescription g = singleOp(OpKind::Reduction);
  std::string d = dumpGraph(g);
  EXPECT_NE(d.find("op #0 (reduction) amax compute float: x=1 -> y=2"),
            std::string::npos)
      << d;
  Tensor t = tensor(9, {1});
  t.isByValue = true;
  t.scalar = doubleToWord(0.5);
  g.tensors.push_back(t);
  d = dumpGraph(g);
  EXPECT_NE(d.find("tensor UID 9: float [1] strides [1] align 16 by-value "
                   "0.5"),
            std::string::npos)
      << d;
  EXPECT_EQ(dataTypeName(2), "half");
  EXPECT_EQ(dataTypeName(42), "dtype(42)");
  EXPECT_EQ(pointwiseModeName(107), "gelu_approx_tanh_fwd");
  EXPECT_EQ(pointwiseModeName(99), "mode(99)");
  EXPECT_EQ(reductionModeName(7), "norm2");
}

// Norms show their mode, phase, epsilon and momentum (what the compiler's
// batch norms carry: test/Integration/bn-cudnn-graphs.test reads them).
TEST(GraphDump, NormAttributes) {
  std::string training =
      dumpGraph(batchNormTrainingGraph(DataType::Half, NormShape{}, 1e-5, 0.1));
  EXPECT_NE(training.find("op #0 (norm_forward) batch training compute float "
                          "epsilon 1e-05 momentum 0.1: x=1 scale=2 bias=3 "
                          "running_mean=4 running_var=5 -> y=6 saved_mean=7 "
                          "saved_inv_variance=8 next_running_mean=9 "
                          "next_running_var=10"),
            std::string::npos)
      << training;
  std::string layer = dumpGraph(
      layerNormGraph(DataType::Float, 4, 8, NormPhase::Inference, 0.5));
  EXPECT_NE(layer.find("op #0 (norm_forward) layer inference compute float "
                       "epsilon 0.5: x=1 scale=2 bias=3 -> y=4"),
            std::string::npos)
      << layer;
  std::string backward =
      dumpGraph(batchNormBackwardGraph(DataType::Half, NormShape{}));
  EXPECT_NE(backward.find("op #0 (norm_backward) batch compute float: dy=1 "
                          "x=2 scale=3 mean=4 inv_variance=5 -> dx=6 "
                          "dscale=7 dbias=8"),
            std::string::npos)
      << backward;
  EXPECT_EQ(normModeName(4), "rms");
  EXPECT_EQ(normModeName(3), "mode(3)");
}

// Every attribute struct has its dump text (GraphDump.cpp's overloads, one
// per struct of GraphOps.def): statistics, finalize and pooling too.
TEST(GraphDump, StatisticsFinalizeAndPoolAttributes) {
  std::string stats = dumpGraph(genStatsGraph(DataType::Half, NormShape{}));
  EXPECT_NE(stats.find("op #0 (genstats) compute float: x=1 -> sum=2 "
                       "sq_sum=3"),
            std::string::npos)
      << stats;
  std::string finalize = dumpGraph(bnFinalizeGraph(8, 64, 1e-5, 0.1));
  EXPECT_NE(finalize.find("op #0 (bn_finalize) compute float epsilon 1e-05 "
                          "momentum 0.1 accumulation_count 64: sum=1 "
                          "sq_sum=2 scale=3 bias=4 running_mean=5 "
                          "running_var=6 -> eq_scale=7 eq_bias=8 "
                          "saved_mean=9 saved_inv_std=10 "
                          "next_running_mean=11 next_running_var=12"),
            std::string::npos)
      << finalize;
  std::string pool = dumpGraph(
      poolGraph(DataType::Half, ResampleMode::MaxPool, NormShape{}, 3, 2, 1));
  EXPECT_NE(pool.find("op #0 (resample) max_pool compute float window "
                      "[3, 3] pad [1, 1]/[1, 1] stride [2, 2]: x=1 -> y=2"),
            std::string::npos)
      << pool;
  EXPECT_EQ(resampleModeName(4), "avg_exclude_padding");
  EXPECT_EQ(resampleModeName(1), "mode(1)");
}

TEST(GraphDump, CAbiWritesTruncatesAndReportsLength) {
  std::vector<int64_t> w = serialize(convBiasRelu());
  int64_t n = static_cast<int64_t>(w.size());
  std::string full = dumpGraph(convBiasRelu());
  int64_t needed = 0;
  ASSERT_EQ(cmrtDumpGraphDescription(w.data(), n, nullptr, 0, &needed),
            CMRT_SUCCESS)
      << lastError();
  EXPECT_EQ(needed, static_cast<int64_t>(full.size()) + 1);
  std::vector<char> buf(static_cast<size_t>(needed));
  ASSERT_EQ(cmrtDumpGraphDescription(w.data(), n, buf.data(), needed, nullptr),
            CMRT_SUCCESS);
  EXPECT_EQ(std::string(buf.data()), full);
  char small[8];
  ASSERT_EQ(cmrtDumpGraphDescription(w.data(), n, small, sizeof(small),
                                     nullptr),
            CMRT_SUCCESS);
  EXPECT_EQ(std::string(small), full.substr(0, 7));
  EXPECT_EQ(cmrtDumpGraphDescription(w.data(), n, nullptr, 5, nullptr),
            CMRT_ERROR_INVALID_ARGUMENT);
  w[0] = 0;
  EXPECT_EQ(cmrtDumpGraphDescription(w.data(), n, small, sizeof(small),
                                     nullptr),
            CMRT_ERROR_INVALID_GRAPH);
}

// The graphs the GPU tests run are valid descriptions (checked here so a
// mistake in them shows up without a GPU).
TEST(GpuTestGraphs, AreValid) {
  for (const GraphDescription &g :
       {convBiasReluGraph(DataType::Half, ConvShape{}),
        convBiasReluGraph(DataType::Float, ConvShape{}),
        matmulBiasGraph(DataType::Half, 64, 128, 96), rowSumGraph(2, 64, 256)}) {
    std::vector<int64_t> w = serialize(g);
    EXPECT_EQ(cmrtValidateGraphDescription(w.data(),
                                           static_cast<int64_t>(w.size())),
              CMRT_SUCCESS)
        << lastError() << "\n"
        << dumpGraph(g);
  }
}

//===-- C ABI arguments and the no-GPU path -------------------------------===//

TEST(GraphExec, InvalidGraphIsReportedBeforeLookingForAGpu) {
  std::vector<int64_t> w = serialize(convBiasRelu());
  w[1] = 99; // format version
  cmrtGraph g = nullptr;
  EXPECT_EQ(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()), 0,
                                nullptr, &g),
            CMRT_ERROR_INVALID_GRAPH);
  EXPECT_EQ(g, nullptr);
}

TEST(GraphExec, NullArgumentsAreRejected) {
  std::vector<int64_t> w = serialize(convBiasRelu());
  EXPECT_EQ(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()), 0,
                                nullptr, nullptr),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("non-null out"), std::string::npos);
  int64_t uid = 1;
  void *ptr = nullptr;
  EXPECT_EQ(cmrtGraphExecute(nullptr, nullptr, &uid, &ptr, 1),
            CMRT_ERROR_INVALID_ARGUMENT);
  int64_t bytes = 0;
  EXPECT_EQ(cmrtGraphGetWorkspaceSize(nullptr, &bytes),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cmrtGraphRelease(nullptr), CMRT_SUCCESS);
  cmrtGraphInfo info;
  EXPECT_EQ(cmrtGraphGetInfo(nullptr, &info), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("cmrtGraphGetInfo expects a graph"),
            std::string::npos);
  EXPECT_EQ(cmrtGraphCacheGetStats(nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cmrtGraphCacheSetCapacity(-1), CMRT_ERROR_INVALID_ARGUMENT);
}

TEST(GraphExec, CacheStatsAndCapacityThroughTheCAbi) {
  ASSERT_EQ(cmrtGraphCacheClear(), CMRT_SUCCESS);
  ASSERT_EQ(cmrtGraphCacheSetCapacity(7), CMRT_SUCCESS);
  cmrtGraphCacheStats s{-1, -1, -1, -1, -1};
  ASSERT_EQ(cmrtGraphCacheGetStats(&s), CMRT_SUCCESS);
  EXPECT_EQ(s.builds, 0);
  EXPECT_EQ(s.hits, 0);
  EXPECT_EQ(s.evictions, 0);
  EXPECT_EQ(s.entries, 0);
  EXPECT_EQ(s.capacity, 7);
  ASSERT_EQ(cmrtGraphCacheSetCapacity(1024), CMRT_SUCCESS);
}

TEST(GraphExec, NoGpuGivesAClearErrorNotACrash) {
  if (haveGpu())
    GTEST_SKIP() << "a GPU is present; the GPU tests cover building";
  std::vector<int64_t> w = serialize(convBiasRelu());
  cmrtGraph g = nullptr;
  EXPECT_EQ(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()),
                                CMRT_GRAPH_EXACT_FP32, nullptr, &g),
            CMRT_ERROR_NO_DEVICE);
  EXPECT_EQ(g, nullptr);
  EXPECT_NE(lastError().find("expects a CUDA GPU, but found none"),
            std::string::npos)
      << lastError();
  cmrtGraphCacheStats s{};
  ASSERT_EQ(cmrtGraphCacheGetStats(&s), CMRT_SUCCESS);
  EXPECT_EQ(s.builds, 0);
  EXPECT_EQ(cmrtContextInit(0), CMRT_ERROR_NO_DEVICE);
  EXPECT_NE(lastError().find("expects a CUDA GPU"), std::string::npos);
  EXPECT_EQ(cmrtShutdown(), CMRT_SUCCESS); // nothing to free, no crash
}

} // namespace
