//===- FusionCostTest.cpp - which fused graphs lose to their split form ---===//

#include "cudnn-mlir-runtime/FusionCost.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

/// convBiasReluGraph with the filter cut to `groups` groups.
GraphDescription groupedConvBiasRelu(DataType io, const ConvShape &sh,
                                     int64_t groups) {
  GraphDescription g = convBiasReluGraph(io, sh);
  Tensor &w = g.tensors[1];
  int64_t perGroup = sh.c / groups;
  w.dims = {sh.k, perGroup, sh.r, sh.s};
  w.strides = nhwc(sh.k, perGroup, sh.r, sh.s);
  return g;
}

/// ResNeXt-50's 3x3 conv at 56x56, batch 32: 32 groups of 8 channels.
ConvShape resnextStage1() {
  ConvShape sh;
  sh.n = 32;
  sh.c = sh.k = 256;
  sh.h = sh.w = 56;
  return sh;
}

/// scale * x + bias -> relu -> conv: the prologue's output (virtual, float)
/// is the conv's input. UIDs: x 1, scale 2, bias 3, w 4, y 5; virtual 10+.
GraphDescription prologueConv(DataType io, const ConvShape &sh) {
  GraphDescription g;
  std::vector<int64_t> x = convX(sh), y = convY(sh);
  g.tensors = {typed(1, io, x, layout(x, true)),
               typed(2, io, {1, sh.c, 1, 1}, {sh.c, 1, sh.c, sh.c}),
               typed(3, io, {1, sh.c, 1, 1}, {sh.c, 1, sh.c, sh.c}),
               typed(4, io, convW(sh), layout(convW(sh), true)),
               typed(5, io, y, layout(y, true)),
               typed(10, DataType::Float, x, layout(x, true), true),
               typed(11, DataType::Float, x, layout(x, true), true),
               typed(12, DataType::Float, x, layout(x, true), true)};
  PointwiseAttrs mul, add, relu;
  mul.mode = static_cast<int64_t>(PointwiseMode::Mul);
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  relu.mode = static_cast<int64_t>(PointwiseMode::ReluFwd);
  g.ops = {{OpKind::Pointwise, mul, {1, 2}, {10}},
           {OpKind::Pointwise, add, {10, 3}, {11}},
           {OpKind::Pointwise, relu, {11}, {12}},
           {OpKind::ConvFprop, convAttrs(sh), {12, 4}, {5}}};
  return g;
}

TEST(FusionCostTest, GroupedConvRunsSplit) {
  std::string why = whyRuntimeCompiledFusionLosesToSplit(
      groupedConvBiasRelu(DataType::Half, resnextStage1(), 32));
  EXPECT_NE(why.find("op #0 (conv_fprop) is a grouped convolution (32 "
                     "groups of 8 channels)"),
            std::string::npos)
      << why;
  EXPECT_NE(whyRuntimeCompiledFusionLosesToSplit(
                groupedConvBiasRelu(DataType::BFloat16, resnextStage1(), 32)),
            "");
  // Small ones too: RegNetY-400MF's 55 groups of 8 at 7x7, batch 1.
  ConvShape small;
  small.n = 1;
  small.c = small.k = 440;
  small.h = small.w = 7;
  EXPECT_NE(whyRuntimeCompiledFusionLosesToSplit(
                groupedConvBiasRelu(DataType::Half, small, 55)),
            "");
}

TEST(FusionCostTest, ConvsThatKeepTheirFusedGraph) {
  // Depthwise: one channel per group.
  EXPECT_EQ(whyRuntimeCompiledFusionLosesToSplit(
                groupedConvBiasRelu(DataType::Half, resnextStage1(), 256)),
            "");
  // Not grouped, epilogue only.
  EXPECT_EQ(whyRuntimeCompiledFusionLosesToSplit(
                convBiasReluGraph(DataType::Half, resnextStage1())),
            "");
  // fp32: its own rules (exact precision, errata) decide.
  EXPECT_EQ(whyRuntimeCompiledFusionLosesToSplit(
                groupedConvBiasRelu(DataType::Float, resnextStage1(), 32)),
            "");
  ConvShape vgg;
  vgg.c = 64;
  EXPECT_EQ(
      whyRuntimeCompiledFusionLosesToSplit(prologueConv(DataType::Float, vgg)),
      "");
}

TEST(FusionCostTest, PrologueKeepsItsFusedGraph) {
  // Measured on whole models, split prologues lost (FusionCost.h).
  ConvShape vgg;
  vgg.n = 32;
  vgg.c = 64;
  vgg.k = 128;
  vgg.h = vgg.w = 112;
  EXPECT_EQ(
      whyRuntimeCompiledFusionLosesToSplit(prologueConv(DataType::Half, vgg)),
      "");
}

TEST(FusionCostTest, AConvAloneIsNeverJudged) {
  ConvShape sh = resnextStage1();
  GraphDescription g = groupedConvBiasRelu(DataType::Half, sh, 32);
  g.ops.resize(1);
  g.tensors[2].isVirtual = false;
  EXPECT_EQ(whyRuntimeCompiledFusionLosesToSplit(g), "");
}

TEST(FusionCostTest, EnvironmentTurnsItOff) {
  ::unsetenv("CUDNN_MLIR_FUSION_BY_COST");
  EXPECT_TRUE(fusionByCostEnabled());
  ::setenv("CUDNN_MLIR_FUSION_BY_COST", "1", 1);
  EXPECT_TRUE(fusionByCostEnabled());
  ::setenv("CUDNN_MLIR_FUSION_BY_COST", "0", 1);
  EXPECT_FALSE(fusionByCostEnabled());
  ::unsetenv("CUDNN_MLIR_FUSION_BY_COST");
}

} // namespace
