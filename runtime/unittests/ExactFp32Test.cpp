//===- ExactFp32Test.cpp - which graphs cannot keep fp32 exact ------------===//

#include "graph/ExactFp32.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

TEST(ExactFp32Test, Fp32MatmulOnTf32DevicesIsRefusedByName) {
  std::string why =
      whyFp32CannotBeExact(matmulBiasGraph(DataType::Float, 8, 32, 16), 90,
                           nullptr);
  EXPECT_NE(why.find("op #0 (matmul): an fp32 matmul cannot be kept exact"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("compute capability 9.0"), std::string::npos) << why;
  EXPECT_NE(why.find("NVIDIA_TF32_OVERRIDE=0"), std::string::npos) << why;
  EXPECT_NE(why.find("allow-tf32-matmul=true"), std::string::npos) << why;
  // Any other value of the override leaves TF32 on.
  EXPECT_FALSE(whyFp32CannotBeExact(matmulBiasGraph(DataType::Float, 8, 32,
                                                    16),
                                    80, "1")
                   .empty());
}

TEST(ExactFp32Test, WhatStaysExactIsAccepted) {
  GraphDescription fp32Matmul = matmulBiasGraph(DataType::Float, 8, 32, 16);
  // No TF32 before compute capability 8.0.
  EXPECT_EQ(whyFp32CannotBeExact(fp32Matmul, 75, nullptr), "");
  // cuDNN reads the override and computes in fp32.
  EXPECT_EQ(whyFp32CannotBeExact(fp32Matmul, 90, "0"), "");
  // Half inputs: TF32 does not apply (the accumulation is fp32 either way).
  EXPECT_EQ(whyFp32CannotBeExact(matmulBiasGraph(DataType::Half, 8, 32, 16),
                                 90, nullptr),
            "");
  // Convolutions: the numerical-note filter keeps them exact.
  EXPECT_EQ(whyFp32CannotBeExact(convBiasReluGraph(DataType::Float,
                                                   ConvShape{}),
                                 90, nullptr),
            "");
}

} // namespace
