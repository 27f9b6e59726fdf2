//===- PlanTimingTest.cpp - which graphs have their plans timed -----------===//

#include "graph/PlanTiming.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

/// RegNetY-1.6GF's 3x3 conv at 14x14, batch 32: 14 groups of 24 channels.
ConvShape regNetStage3(int64_t groups) {
  ConvShape sh;
  sh.n = 32;
  sh.c = sh.k = 336;
  sh.h = sh.w = 14;
  sh.groups = groups;
  return sh;
}

TEST(PlanTimingTest, AGroupedConvAloneIsTimed) {
  ::unsetenv("CUDNN_MLIR_PLAN_TIMING");
  std::string why =
      whyPlansAreTimed(groupedConvGraph(DataType::Half, regNetStage3(14)));
  EXPECT_NE(why.find("op #0 (conv_fprop) is a grouped convolution (14 "
                     "groups of 24 channels)"),
            std::string::npos)
      << why;
  // Any data type: timing picks the fastest, whatever it is.
  EXPECT_NE(
      whyPlansAreTimed(groupedConvGraph(DataType::Float, regNetStage3(14))),
      "");
  EXPECT_NE(
      whyPlansAreTimed(groupedConvGraph(DataType::BFloat16, regNetStage3(2))),
      "");
}

TEST(PlanTimingTest, OtherGraphsKeepTheHeuristicsChoice) {
  ::unsetenv("CUDNN_MLIR_PLAN_TIMING");
  // Not grouped.
  EXPECT_EQ(whyPlansAreTimed(groupedConvGraph(DataType::Half, regNetStage3(1))),
            "");
  // Depthwise: one channel per group.
  EXPECT_EQ(
      whyPlansAreTimed(groupedConvGraph(DataType::Half, regNetStage3(336))),
      "");
  // A grouped conv with an epilogue: a fused graph (FusionCost.h decides).
  GraphDescription fused = convBiasReluGraph(DataType::Half, regNetStage3(1));
  fused.tensors[1].dims = {336, 24, 3, 3};
  fused.tensors[1].strides = nhwc(336, 24, 3, 3);
  EXPECT_EQ(whyPlansAreTimed(fused), "");
  EXPECT_EQ(whyPlansAreTimed(matmulGraph(DataType::Half, 64, 64, 64)), "");
}

TEST(PlanTimingTest, EnvironmentTurnsItOff) {
  GraphDescription g = groupedConvGraph(DataType::Half, regNetStage3(14));
  ::setenv("CUDNN_MLIR_PLAN_TIMING", "1", 1);
  EXPECT_NE(whyPlansAreTimed(g), "");
  ::setenv("CUDNN_MLIR_PLAN_TIMING", "0", 1);
  EXPECT_EQ(whyPlansAreTimed(g), "");
  ::unsetenv("CUDNN_MLIR_PLAN_TIMING");
}

} // namespace
