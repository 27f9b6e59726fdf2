//===- LayoutTest.cpp - strided copies, bf16/half rounding, random data ---===//

#include "Layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace cudnn_run;

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(Layout, StorageElements) {
  EXPECT_EQ(stridedStorageElements({}, {}), 1);
  EXPECT_EQ(stridedStorageElements({2, 3}, {3, 1}), 6);
  EXPECT_EQ(stridedStorageElements({2, 3}, {1, 2}), 6);
  EXPECT_EQ(stridedStorageElements({2, 3}, {4, 1}), 7); // padded rows
  EXPECT_EQ(stridedStorageElements({2, 0}, {3, 1}), 0);
  EXPECT_EQ(stridedStorageElements({4, 3}, {0, 1}), 3); // broadcast
  EXPECT_EQ(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(rowMajorStrides({}).empty());
}

TEST(Layout, NchwToNhwcAndBack) {
  const int64_t N = 2, C = 3, H = 4, W = 5;
  std::vector<int64_t> dims = {N, C, H, W};
  std::vector<int64_t> nhwc = {H * W * C, 1, W * C, C};
  std::vector<float> logical(N * C * H * W);
  for (size_t i = 0; i < logical.size(); ++i)
    logical[i] = static_cast<float>(i);
  ASSERT_EQ(stridedStorageElements(dims, nhwc),
            static_cast<int64_t>(logical.size()));

  std::vector<float> strided(logical.size(), -1.0f);
  logicalToStrided(logical.data(), strided.data(), dims, nhwc, 4);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          EXPECT_EQ(strided[((n * H + h) * W + w) * C + c],
                    logical[((n * C + c) * H + h) * W + w]);

  std::vector<float> back(logical.size(), -1.0f);
  stridedToLogical(strided.data(), back.data(), dims, nhwc, 4);
  EXPECT_EQ(back, logical);
}

TEST(Layout, EveryElementSize) {
  std::vector<int64_t> dims = {3, 2};
  std::vector<int64_t> transposed = {1, 3};
  for (int64_t size : {1, 2, 4, 8}) {
    std::vector<uint8_t> logical(6 * size), strided(6 * size), back(6 * size);
    for (size_t i = 0; i < logical.size(); ++i)
      logical[i] = static_cast<uint8_t>(i + 1);
    logicalToStrided(logical.data(), strided.data(), dims, transposed, size);
    // Logical (1, 0) is element 2 and lands at offset 1.
    EXPECT_EQ(std::memcmp(strided.data() + 1 * size, logical.data() + 2 * size,
                          size),
              0);
    stridedToLogical(strided.data(), back.data(), dims, transposed, size);
    EXPECT_EQ(back, logical) << size;
  }
}

TEST(Layout, RankZeroPaddedAndEmpty) {
  double x = 3.5, y = 0;
  logicalToStrided(&x, &y, {}, {}, 8);
  EXPECT_EQ(y, 3.5);

  // Rows padded to 4: the gap stays untouched.
  std::vector<int32_t> logical = {1, 2, 3, 4, 5, 6};
  std::vector<int32_t> strided(7, -9);
  logicalToStrided(logical.data(), strided.data(), {2, 3}, {4, 1}, 4);
  EXPECT_EQ(strided, (std::vector<int32_t>{1, 2, 3, -9, 4, 5, 6}));
  std::vector<int32_t> back(6, 0);
  stridedToLogical(strided.data(), back.data(), {2, 3}, {4, 1}, 4);
  EXPECT_EQ(back, logical);

  int32_t untouched = 7;
  logicalToStrided(logical.data(), &untouched, {0, 3}, {3, 1}, 4);
  EXPECT_EQ(untouched, 7);
}

TEST(Bf16, RoundsToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(-2.0f), 0xc000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(floatToBf16(fromBits(0x3f808000)), 0x3f80);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up.
  EXPECT_EQ(floatToBf16(fromBits(0x3f818000)), 0x3f82);
  // Just above half: up; just below: down.
  EXPECT_EQ(floatToBf16(fromBits(0x3f808001)), 0x3f81);
  EXPECT_EQ(floatToBf16(fromBits(0x3f807fff)), 0x3f80);
  // The largest float rounds to infinity; infinities and NaN survive.
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(floatToBf16(-std::numeric_limits<float>::infinity()), 0xff80);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(std::nanf("")))));
  // A NaN whose payload sits in the low bits alone stays a NaN.
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(fromBits(0x7f800001)))));
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bitsOf(bf16ToFloat(0xc049)), 0xc0490000u);
}

TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // ties to even: infinity
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3c00); // tie, to even
  EXPECT_EQ(floatToHalf(1.0f + 3.0f / 2048), 0x3c02); // tie, to even (up)
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // tie to even: 0
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
  // Every half survives half -> float -> half.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
      continue; // NaNs
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(h))), h) << h;
  }
}

TEST(Uniform, DeterministicAndInRange) {
  UniformSource a(42), b(42), c(43);
  bool differs = false;
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    float x = a.nextFloat();
    EXPECT_EQ(x, b.nextFloat());
    differs |= x != c.nextFloat();
    EXPECT_GE(x, -1.0f);
    EXPECT_LT(x, 1.0f);
    sum += x;
  }
  EXPECT_TRUE(differs);
  EXPECT_NEAR(sum / 10000, 0.0, 0.05);
  // The stream is splitmix64: pinned so the values never change.
  EXPECT_EQ(UniformSource(0).nextBits(), 0xe220a8397b1dcdafull);
}

} // namespace
