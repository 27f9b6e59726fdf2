//===- EngineErrataTest.cpp - which graphs the engine errata cover --------===//

#include "graph/EngineErrata.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

/// A 3x3 window over a 3x3 input without padding: a 1x1 output.
ConvShape toOneByOne() {
  ConvShape sh;
  sh.h = sh.w = sh.r = sh.s = 3;
  sh.pad = 0;
  return sh;
}

TEST(EngineErrataTest, Fp32ConvToOneByOneOutputDeselectsRuntimeCompiled) {
  std::string why = whyRuntimeCompiledEnginesAreDeselected(
      convBiasReluGraph(DataType::Float, toOneByOne()));
  EXPECT_NE(why.find("op #0 (conv_fprop) is an fp32 convolution from a "
                     "larger input to a 1x1 output"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("eng4, eng7"), std::string::npos) << why;
  // A 4x3 input under a 4x3 window: 1x1 as well.
  ConvShape tall = toOneByOne();
  tall.h = tall.r = 4;
  EXPECT_FALSE(whyRuntimeCompiledEnginesAreDeselected(
                   convBiasReluGraph(DataType::Float, tall))
                   .empty());
}

TEST(EngineErrataTest, OtherGraphsKeepEveryEngine) {
  // A 2x1 output.
  ConvShape twoByOne = toOneByOne();
  twoByOne.h = 4;
  EXPECT_EQ(whyRuntimeCompiledEnginesAreDeselected(
                convBiasReluGraph(DataType::Float, twoByOne)),
            "");
  // A 1x1 input under a 1x1 window (squeeze-and-excitation's convs).
  ConvShape pointwise;
  pointwise.h = pointwise.w = pointwise.r = pointwise.s = 1;
  pointwise.pad = 0;
  EXPECT_EQ(whyRuntimeCompiledEnginesAreDeselected(
                convBiasReluGraph(DataType::Float, pointwise)),
            "");
  // fp16 and bf16 inputs.
  EXPECT_EQ(whyRuntimeCompiledEnginesAreDeselected(
                convBiasReluGraph(DataType::Half, toOneByOne())),
            "");
  EXPECT_EQ(whyRuntimeCompiledEnginesAreDeselected(
                convBiasReluGraph(DataType::BFloat16, toOneByOne())),
            "");
  // A matmul.
  EXPECT_EQ(whyRuntimeCompiledEnginesAreDeselected(
                matmulBiasGraph(DataType::Float, 8, 32, 16)),
            "");
}

} // namespace
