//===- GraphHashTest.cpp - stable hashes, cache keys, hostile input -------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphHash.h"
#include "GraphTestUtil.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

uint64_t hashOf(const GraphDescription &g) {
  std::vector<int64_t> w = serialize(g);
  return hashWords(w.data(), static_cast<int64_t>(w.size()));
}

TEST(GraphHash, FnvOfNothingIsTheOffsetBasis) {
  EXPECT_EQ(hashWords(nullptr, 0), 0xcbf29ce484222325ull);
}

// If this changes, every plan cache on disk is silently invalidated: bump
// kFormatVersion instead of updating the golden value casually.
TEST(GraphHash, GoldenValue) {
  EXPECT_EQ(hashOf(convBiasRelu()), 0x8d9fd59d40c73622ull)
      << std::hex << "0x" << hashOf(convBiasRelu());
}

TEST(GraphHash, CAbiMatchesTheCxxHash) {
  std::vector<int64_t> w = serialize(convBiasRelu());
  uint64_t hash = 0;
  ASSERT_EQ(cmrtHashGraphDescription(w.data(), static_cast<int64_t>(w.size()),
                                     &hash),
            CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  EXPECT_EQ(hash, hashOf(convBiasRelu()));
  EXPECT_EQ(cmrtHashGraphDescription(w.data(), static_cast<int64_t>(w.size()),
                                     nullptr),
            CMRT_ERROR_INVALID_ARGUMENT);
  w[0] = 0;
  EXPECT_EQ(cmrtHashGraphDescription(w.data(), static_cast<int64_t>(w.size()),
                                     &hash),
            CMRT_ERROR_INVALID_GRAPH);
}

// Flipping any single word of the description changes the hash.
TEST(GraphHash, EveryWordMatters) {
  std::vector<int64_t> w = serialize(convBiasRelu());
  std::set<uint64_t> seen = {hashWords(w.data(), w.size())};
  for (size_t i = 0; i < w.size(); ++i) {
    std::vector<int64_t> m = w;
    m[i] += 1;
    EXPECT_TRUE(seen.insert(hashWords(m.data(), m.size())).second)
        << "word " << i;
  }
}

// Field by field, through the writer.
TEST(GraphHash, EveryFieldMatters) {
  GraphDescription base = convBiasRelu();
  std::vector<std::function<void(GraphDescription &)>> edits = {
      [](auto &g) { g.tensors[0].uid = 11; },
      [](auto &g) { g.tensors[0].dataType = 2; },
      [](auto &g) { g.tensors[0].dims[0] = 2; },
      [](auto &g) { g.tensors[0].strides[0] = 4096; },
      [](auto &g) { g.tensors[0].alignment = 8; },
      [](auto &g) { g.tensors[2].isVirtual = false; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).computeType = 2; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).mode = 0; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).alpha = 2; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).beta = 1; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).stride[1] = 2; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).prePadding[0] = 0; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).postPadding[1] = 0; },
      [](auto &g) { std::get<ConvAttrs>(g.ops[0].attrs).dilation[0] = 2; },
      [](auto &g) { std::get<PointwiseAttrs>(g.ops[1].attrs).mode = 1; },
      [](auto &g) {
        std::get<PointwiseAttrs>(g.ops[2].attrs)
            .set(PointwiseParam::ReluLowerClip, 0.5);
      },
      [](auto &g) { g.ops[1].inputs = {4, 3}; },
      [](auto &g) { g.ops[2].outputs = {7}; },
      [](auto &g) { g.ops[0].kind = OpKind::ConvDgrad; },
  };
  std::set<uint64_t> seen = {hashOf(base)};
  for (size_t i = 0; i < edits.size(); ++i) {
    GraphDescription g = base;
    edits[i](g);
    EXPECT_TRUE(seen.insert(hashOf(g)).second) << "edit " << i;
  }
}

TEST(GraphHash, ScalarValueMatters) {
  GraphDescription g = singleOp(OpKind::Pointwise);
  g.tensors[0].isByValue = true;
  g.tensors[0].scalar = doubleToWord(1.0);
  uint64_t a = hashOf(g);
  g.tensors[0].scalar = doubleToWord(2.0);
  EXPECT_NE(a, hashOf(g));
}

TEST(GraphHash, CacheKeyCombinesDeviceAndCudnn) {
  uint64_t h = hashOf(convBiasRelu());
  CacheKey key = makeCacheKey(h, 90, 91400);
  EXPECT_EQ(key, makeCacheKey(h, 90, 91400));
  EXPECT_NE(key, makeCacheKey(h, 100, 91400));
  EXPECT_NE(key, makeCacheKey(h, 90, 91900));
  EXPECT_NE(key, makeCacheKey(h + 1, 90, 91400));
  EXPECT_NE(key.combined(), makeCacheKey(h, 100, 91400).combined());
  EXPECT_NE(key.combined(), makeCacheKey(h, 90, 91900).combined());
  EXPECT_EQ(CacheKeyHasher()(key), static_cast<size_t>(key.combined()));
  EXPECT_EQ(makeCacheKey(0x0123456789abcdefull, 90, 91400).toString(),
            "sm90-cudnn91400-0123456789abcdef");
}

// Mutated and truncated buffers must produce an error or a valid graph, never
// a crash, a hang or an out-of-bounds read (run under ASan to be sure).
TEST(GraphHash, HostileInputNeverCrashes) {
  std::mt19937_64 rng(1234);
  std::vector<std::vector<int64_t>> seeds;
  for (OpKind kind : allKinds())
    seeds.push_back(serialize(singleOp(kind)));
  const int64_t interesting[] = {0,  1,        -1,        2,         8,
                                 9,  1 << 20,  INT64_MAX, INT64_MIN, 3};
  int rejected = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<int64_t> w = seeds[iter % seeds.size()];
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t i = rng() % w.size();
      switch (rng() % 4) {
      case 0: w[i] = interesting[rng() % 10]; break;
      case 1: w[i] = static_cast<int64_t>(rng()); break;
      case 2: w.resize(i); break;
      // A small step in uint64_t, which wraps: INT64_MAX + 1 becomes
      // INT64_MIN (another hostile word) instead of signed overflow.
      case 3:
        w[i] = static_cast<int64_t>(static_cast<uint64_t>(w[i]) + rng() % 5 -
                                    2);
        break;
      }
      if (w.empty())
        break;
    }
    if (rng() % 2 && w.size() > 2)
      w[2] = static_cast<int64_t>(w.size()); // get past the size check
    GraphDescription g;
    Status s = parseAndValidate(w.empty() ? nullptr : w.data(),
                                static_cast<int64_t>(w.size()), g);
    if (!s.ok()) {
      ++rejected;
      EXPECT_FALSE(s.message.empty());
    }
  }
  EXPECT_GT(rejected, 10000);
}

} // namespace
