//===- RnnPackedFromTest.cpp - when a kept weight space is repacked -------===//
//
// CPU only: the decision behind packing an RNN's parameters once per
// parameter set (RnnPackedFrom.h), and the C entries that feed it.
//
//===----------------------------------------------------------------------===//

#include "graph/RnnPackedFrom.h"
#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

using cmrt::rnn::PackedFrom;

namespace {

int a, b, c; // stand-ins for parameter buffers: only their addresses count
const void *const params[] = {&a, &b};

TEST(RnnPackedFromTest, NothingIsHeldBeforeTheFirstPack) {
  PackedFrom p;
  EXPECT_FALSE(p.holds(7, params, 2));
}

TEST(RnnPackedFromTest, SameVersionAndPointersAreHeld) {
  PackedFrom p;
  p.record(7, params, 2);
  EXPECT_TRUE(p.holds(7, params, 2));
}

TEST(RnnPackedFromTest, VersionZeroDeclaresNothing) {
  PackedFrom p;
  p.record(0, params, 2);
  EXPECT_FALSE(p.holds(0, params, 2));
}

TEST(RnnPackedFromTest, AnotherVersionRepacks) {
  PackedFrom p;
  p.record(7, params, 2);
  EXPECT_FALSE(p.holds(8, params, 2));
  EXPECT_FALSE(p.holds(0, params, 2));
}

TEST(RnnPackedFromTest, OtherPointersRepack) {
  PackedFrom p;
  p.record(7, params, 2);
  const void *const moved[] = {&a, &c};
  const void *const swapped[] = {&b, &a};
  const void *const fewer[] = {&a};
  EXPECT_FALSE(p.holds(7, moved, 2));
  EXPECT_FALSE(p.holds(7, swapped, 2));
  EXPECT_FALSE(p.holds(7, fewer, 1));
}

TEST(RnnPackedFromTest, ForgottenAfterAFailedPack) {
  PackedFrom p;
  p.record(7, params, 2);
  p.forget();
  EXPECT_FALSE(p.holds(7, params, 2));
}

TEST(RnnPackedFromTest, StatsNeedPointers) {
  int64_t packs = -1, reuses = -1;
  EXPECT_EQ(cmrtRnnGetWeightSpaceStats(nullptr, &reuses),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("expects non-null packs and reuses pointers"),
            std::string::npos);
  ASSERT_EQ(cmrtRnnGetWeightSpaceStats(&packs, &reuses), CMRT_SUCCESS);
  EXPECT_GE(packs, 0);
  EXPECT_GE(reuses, 0);
  EXPECT_EQ(cmrtSetParameterVersion(3), CMRT_SUCCESS);
  EXPECT_EQ(cmrtSetParameterVersion(0), CMRT_SUCCESS);
}

} // namespace
