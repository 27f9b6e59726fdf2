//===- GemmShapeTest.cpp - row-major GEMMs as cuBLAS's arguments ----------===//

#include "blas/GemmShape.h"

#include <gtest/gtest.h>

#include <climits>

using namespace cmrt::blas;

namespace {

RowMajorGemm plain(int64_t m, int64_t n, int64_t k) {
  RowMajorGemm g;
  g.m = m, g.n = n, g.k = k, g.batch = 1;
  g.lda = k, g.ldb = n, g.ldc = n;
  g.strideA = m * k, g.strideB = k * n, g.strideC = m * n;
  return g;
}

std::string errorOf(const RowMajorGemm &g) {
  ColumnMajorGemm cm;
  return toColumnMajor(g, cm).message;
}

TEST(GemmShapeTest, SwapsTheOperandsAndSizes) {
  // C (2x3) = A (2x4) x B (4x3) is C^T (3x2) = B^T (3x4) x A^T (4x2): B
  // first, m and n swapped, row strides as column-major leading dims.
  RowMajorGemm g = plain(2, 3, 4);
  g.batch = 5, g.strideA = 10, g.strideB = 0, g.strideC = 6;
  ColumnMajorGemm cm;
  ASSERT_TRUE(toColumnMajor(g, cm).ok());
  EXPECT_FALSE(cm.transFirst);
  EXPECT_FALSE(cm.transSecond);
  EXPECT_EQ(cm.m, 3);
  EXPECT_EQ(cm.n, 2);
  EXPECT_EQ(cm.k, 4);
  EXPECT_EQ(cm.ldFirst, 3);     // B's row
  EXPECT_EQ(cm.strideFirst, 0); // one B for the whole batch
  EXPECT_EQ(cm.ldSecond, 4);    // A's row
  EXPECT_EQ(cm.strideSecond, 10);
  EXPECT_EQ(cm.ldc, 3);
  EXPECT_EQ(cm.strideC, 6);
  EXPECT_EQ(cm.batch, 5);
}

TEST(GemmShapeTest, TransposesCarryOverToTheirOperand) {
  // A stored as its transpose (k x m = 4 x 2, ld 2); B as its (n x k =
  // 3 x 4, ld 4): cuBLAS's first (B) gets OP_T, its second (A) too.
  RowMajorGemm g = plain(2, 3, 4);
  g.transA = true, g.lda = 2;
  g.transB = true, g.ldb = 4;
  ColumnMajorGemm cm;
  ASSERT_TRUE(toColumnMajor(g, cm).ok());
  EXPECT_TRUE(cm.transFirst);
  EXPECT_TRUE(cm.transSecond);
  EXPECT_EQ(cm.ldFirst, 4);
  EXPECT_EQ(cm.ldSecond, 2);
  g.transB = false, g.ldb = 3;
  ASSERT_TRUE(toColumnMajor(g, cm).ok());
  EXPECT_FALSE(cm.transFirst);
  EXPECT_TRUE(cm.transSecond);
}

TEST(GemmShapeTest, PaddedRowsAreLeadingDimensions) {
  RowMajorGemm g = plain(2, 3, 4);
  g.lda = 8, g.ldb = 16, g.ldc = 32, g.strideC = 64;
  ColumnMajorGemm cm;
  ASSERT_TRUE(toColumnMajor(g, cm).ok());
  EXPECT_EQ(cm.ldFirst, 16);
  EXPECT_EQ(cm.ldSecond, 8);
  EXPECT_EQ(cm.ldc, 32);
}

TEST(GemmShapeTest, BadArgumentsAreNamed) {
  RowMajorGemm g = plain(0, 3, 4);
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects m >= 1, but got 0");
  g = plain(2, 3, 4);
  g.batch = 0;
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects batch >= 1, but got 0");
  g = plain(2, 3, 4);
  g.lda = 3;
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects lda (a stored row of A) "
                        ">= 4, but got 3");
  g = plain(2, 3, 4);
  g.transA = true; // a stored row of A's transpose is m = 2 long
  g.lda = 2;
  EXPECT_EQ(errorOf(g), "");
  g = plain(2, 3, 4);
  g.transB = true;
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects ldb (a stored row of B) "
                        ">= 4, but got 3");
  g = plain(2, 3, 4);
  g.ldc = 2;
  EXPECT_EQ(errorOf(g),
            "cmrtInvocationGemm expects ldc (a row of C) >= 3, but got 2");
  g = plain(2, 3, 4);
  g.strideA = -1;
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects strideA >= 0, but got -1");
  g = plain(2, 3, 4);
  g.batch = 2, g.strideC = 5;
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects strideC (one C apart) >= "
                        "6, but got 5");
  g = plain(2, 3, int64_t(INT_MAX) + 1);
  g.lda = g.k;
  EXPECT_EQ(errorOf(g), "cmrtInvocationGemm expects k <= 2147483647, but got "
                        "2147483648");
}

} // namespace
