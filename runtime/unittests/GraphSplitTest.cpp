//===- GraphSplitTest.cpp - one graph per op, without a GPU ---------------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphSplit.h"
#include "GraphTestUtil.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

TEST(GraphSplit, EachOpBecomesAValidGraphAndVirtualsBecomeScratch) {
  GraphDescription fused = convBiasReluGraph(DataType::Half, {});
  ASSERT_TRUE(validate(fused).ok()) << validate(fused).message;
  SplitGraph split = splitPerOp(fused);
  ASSERT_EQ(split.parts.size(), 3u);
  for (const GraphDescription &part : split.parts) {
    Status s = validate(part);
    EXPECT_TRUE(s.ok()) << s.message << "\n" << dumpGraph(part);
    EXPECT_EQ(part.ops.size(), 1u);
    for (const Tensor &t : part.tensors)
      EXPECT_FALSE(t.isVirtual) << "UID " << t.uid;
  }
  // conv: x, w -> 3; add: 3, bias -> 5; relu: 5 -> y.
  EXPECT_EQ(split.parts[0].tensors.size(), 3u);
  EXPECT_EQ(split.parts[1].tensors.size(), 3u);
  EXPECT_EQ(split.parts[2].tensors.size(), 2u);

  // UIDs 3 and 5 (float [2,32,16,16]) are scratch, 256-byte aligned.
  ASSERT_EQ(split.scratch.size(), 2u);
  EXPECT_EQ(split.scratch[0].uid, 3);
  EXPECT_EQ(split.scratch[1].uid, 5);
  const int64_t bytes = 2 * 32 * 16 * 16 * 4;
  EXPECT_EQ(split.scratch[0].bytes, bytes);
  EXPECT_EQ(split.scratch[0].offset, 0);
  EXPECT_EQ(split.scratch[1].offset % kScratchAlignment, 0);
  EXPECT_GE(split.scratch[1].offset, bytes);
  EXPECT_EQ(split.scratchBytes % kScratchAlignment, 0);
  EXPECT_GE(split.scratchBytes, 2 * bytes);
  EXPECT_EQ(split.parts[1].tensors[0].alignment, kScratchAlignment);
}

TEST(GraphSplit, ConvChainSplitsIntoTwoConvs) {
  GraphDescription fused = convConvGraph(DataType::Half, {});
  ASSERT_TRUE(validate(fused).ok()) << validate(fused).message;
  SplitGraph split = splitPerOp(fused);
  ASSERT_EQ(split.parts.size(), 2u);
  for (const GraphDescription &part : split.parts)
    EXPECT_TRUE(validate(part).ok()) << validate(part).message;
  ASSERT_EQ(split.scratch.size(), 1u);
  EXPECT_EQ(split.scratch[0].uid, 3);
}

TEST(GraphSplit, ByValueScalarsStayByValue) {
  GraphDescription g;
  Tensor x = tensor(1, {1, 4, 8, 8});
  Tensor s = tensor(2, {1, 1, 1, 1});
  s.isByValue = true;
  s.scalar = doubleToWord(2.0);
  Tensor mid = tensor(3, {1, 4, 8, 8}, /*isVirtual=*/true);
  Tensor y = tensor(4, {1, 4, 8, 8});
  g.tensors = {x, s, mid, y};
  g.ops = {op(OpKind::Pointwise, pointwise(PointwiseMode::Mul), {1, 2}, {3}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Abs), {3}, {4})};
  ASSERT_TRUE(validate(g).ok()) << validate(g).message;
  SplitGraph split = splitPerOp(g);
  ASSERT_EQ(split.parts.size(), 2u);
  EXPECT_TRUE(split.parts[0].tensors[1].isByValue);
  EXPECT_TRUE(validate(split.parts[0]).ok());
  EXPECT_EQ(tensorSpanBytes(split.parts[0].tensors[2]), 4 * 8 * 8 * 4);
}

TEST(TensorSpan, FollowsStridesNotJustDims) {
  Tensor t = tensor(1, {2, 3});
  EXPECT_EQ(tensorSpanBytes(t), 6 * 4);
  t.strides = {8, 1}; // padded rows
  EXPECT_EQ(tensorSpanBytes(t), (8 + 2 + 1) * 4);
  t.dataType = static_cast<int64_t>(DataType::Half);
  EXPECT_EQ(tensorSpanBytes(t), (8 + 2 + 1) * 2);
  EXPECT_EQ(dataTypeBytes(static_cast<int64_t>(DataType::Int64)), 8);
  EXPECT_EQ(dataTypeBytes(42), 0);
}

} // namespace
