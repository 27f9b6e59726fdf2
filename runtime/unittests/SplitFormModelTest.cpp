//===- SplitFormModelTest.cpp - the split form fusion by timing prices ----===//

#include "graph/SplitFormModel.h"
#include "GraphTestUtil.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

TEST(SplitFormModel, ConvEpilogueIsOneAnchorAndOneGeneratedKernel) {
  ConvShape sh; // defaults: small NHWC fp16 conv
  GraphDescription fused = convBiasReluGraph(DataType::Half, sh);
  ASSERT_TRUE(validate(fused).ok()) << validate(fused).message;
  SplitFormModel model = modelSplitForm(fused);
  ASSERT_EQ(model.anchors.size(), 1u);
  const GraphDescription &conv = model.anchors[0];
  EXPECT_TRUE(validate(conv).ok()) << validate(conv).message;
  ASSERT_EQ(conv.ops.size(), 1u);
  EXPECT_EQ(conv.ops[0].kind, OpKind::ConvFprop);
  // The conv's output (virtual float in the fused graph) is stored as the
  // graph's output type, as the compiled split form stores it.
  ASSERT_EQ(conv.tensors.size(), 3u);
  EXPECT_FALSE(conv.tensors[2].isVirtual);
  EXPECT_EQ(conv.tensors[2].dataType, static_cast<int64_t>(DataType::Half));
  EXPECT_EQ(model.generatedKernels, 1);
  // The epilogue reads the conv's output and the bias and writes y; the
  // sum between the add and the ReLU stays in registers.
  int64_t y = tensorSpanBytes(fused.tensors[5]);
  int64_t bias = tensorSpanBytes(fused.tensors[3]);
  EXPECT_EQ(model.generatedBytes, y + bias + y);
}

TEST(SplitFormModel, PrologueAndEpilogueAreTwoGeneratedKernels) {
  ConvShape sh;
  GraphDescription fused = convBiasReluGraph(DataType::Half, sh);
  // A ReLU on x before the conv: x 1 -> 7 (virtual) -> conv.
  Tensor x = fused.tensors[0];
  Tensor relu = x;
  relu.uid = 7;
  relu.isVirtual = true;
  relu.dataType = static_cast<int64_t>(DataType::Float);
  fused.tensors.push_back(relu);
  Op pre = fused.ops[2];
  pre.inputs = {1};
  pre.outputs = {7};
  fused.ops[0].inputs[0] = 7;
  fused.ops.insert(fused.ops.begin(), pre);
  ASSERT_TRUE(validate(fused).ok()) << validate(fused).message;
  SplitFormModel model = modelSplitForm(fused);
  ASSERT_EQ(model.anchors.size(), 1u);
  EXPECT_TRUE(validate(model.anchors[0]).ok());
  EXPECT_EQ(model.generatedKernels, 2);
  // The prologue reads x and writes its result (stored as half, like x).
  int64_t xBytes = tensorSpanBytes(x);
  int64_t y = tensorSpanBytes(fused.tensors[5]);
  int64_t bias = tensorSpanBytes(fused.tensors[3]);
  EXPECT_EQ(model.generatedBytes, 2 * xBytes + y + bias + y);
}

TEST(SplitFormModel, EfficientNetConvBatchNormSilu) {
  // The graph GpuPlanTest times: 1x1, 16 to 96 channels at 112x112.
  GraphDescription fused =
      convScaleBiasSiluGraph(DataType::Half, efficientNetExpansion());
  ASSERT_TRUE(validate(fused).ok()) << validate(fused).message;
  SplitFormModel model = modelSplitForm(fused);
  ASSERT_EQ(model.anchors.size(), 1u);
  EXPECT_TRUE(validate(model.anchors[0]).ok());
  EXPECT_EQ(model.generatedKernels, 1);
  // Reads the conv's half output, the scale and bias; writes y.
  int64_t y = 32LL * 96 * 112 * 112 * 2;
  EXPECT_EQ(model.generatedBytes, 2 * y + 2 * 96 * 2);
}

TEST(SplitFormModel, PointwiseOnlyGraphHasNoAnchor) {
  GraphDescription g;
  g.tensors = {tensor(1, {1, 4, 8, 8}), tensor(2, {1, 4, 8, 8}, true),
               tensor(3, {1, 4, 8, 8})};
  g.ops = {op(OpKind::Pointwise, pointwise(PointwiseMode::Abs), {1}, {2}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Abs), {2}, {3})};
  SplitFormModel model = modelSplitForm(g);
  EXPECT_TRUE(model.anchors.empty());
  EXPECT_EQ(model.generatedBytes, 2 * 4 * 8 * 8 * 4);
}

TEST(SplitFormModel, SplitWinsOnlyByMarginAndAbsoluteSaving) {
  // EfficientNet-B0-like: the runtime-compiled plan 157 us against the
  // conv alone 35 us and the generated kernel 50 us.
  std::string why = whySplitFormWinsByTiming({157.0, 35.0, 50.0});
  EXPECT_NE(why.find("157.0 us"), std::string::npos) << why;
  EXPECT_NE(why.find("about 85.0 us"), std::string::npos) << why;
  // Within the margin: fused stays.
  EXPECT_EQ(whySplitFormWinsByTiming({100.0, 45.0, 40.0}), "");
  // Past the margin but saving less than kSplitMinSavingUs: fused stays.
  EXPECT_EQ(whySplitFormWinsByTiming({9.0, 3.0, 3.0}), "");
  EXPECT_NE(whySplitFormWinsByTiming({20.0, 5.0, 5.0}), "");
  // Nothing measured: fused stays.
  EXPECT_EQ(whySplitFormWinsByTiming({0.0, 5.0, 5.0}), "");
  EXPECT_EQ(whySplitFormWinsByTiming({50.0, 0.0, 0.0}), "");
}

} // namespace
