//===- RnnConfigTest.cpp - RNN configs: checks, math type, algorithm ------===//

#include "graph/RnnConfig.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

using namespace cmrt;
using namespace cmrt::rnn;

namespace {

// cudnnDataType_t and cudnnRNNAlgo_t values.
constexpr int64_t kFloat = 0, kDouble = 1, kHalf = 2;
constexpr int64_t kLstm = 2, kGru = 3, kTanh = 1;

cmrtRnnConfig lstm(int64_t hidden, int64_t dataType = kFloat) {
  cmrtRnnConfig c{};
  c.version = CMRT_RNN_CONFIG_VERSION;
  c.cell = kLstm;
  c.bias = 2;
  c.algo = -1;
  c.dataType = dataType;
  c.inputSize = hidden;
  c.hiddenSize = hidden;
  c.numLayers = 1;
  c.maxSeqLength = 128;
  c.batch = 32;
  return c;
}

const DeviceTraits kH100{9, 0, 132};

std::string messageOf(const cmrtRnnConfig &c) {
  return validateConfig(c).message;
}

TEST(RnnConfig, AcceptsWhatTorchNnLstmCanBe) {
  cmrtRnnConfig c = lstm(256);
  EXPECT_TRUE(validateConfig(c).ok());
  c.projSize = 64;
  c.direction = 1;
  c.numLayers = 4;
  c.layout = 2;
  c.dropout = 0.5;
  c.flags = CMRT_RNN_TRAINABLE | CMRT_RNN_VARIABLE_LENGTHS;
  EXPECT_TRUE(validateConfig(c).ok()) << messageOf(c);
}

TEST(RnnConfig, NamesTheFieldAndWhatItGot) {
  cmrtRnnConfig c = lstm(256);
  c.hiddenSize = 0;
  EXPECT_EQ(messageOf(c),
            "cmrtRnnConfig expects hiddenSize in 1..2^31-1, but got 0");
  c = lstm(256);
  c.version = 7;
  EXPECT_EQ(validateConfig(c).code, CMRT_ERROR_VERSION_MISMATCH);
  c = lstm(256);
  c.cell = kGru;
  c.projSize = 16;
  EXPECT_EQ(messageOf(c), "cmrtRnnConfig expects projSize 0, or 0 < projSize "
                          "< hiddenSize (256) for an lstm, but got 16 for gru");
  c = lstm(256);
  c.dropout = 1.0;
  EXPECT_EQ(messageOf(c), "cmrtRnnConfig expects dropout in [0, 1), but got "
                          "1.000000");
  c = lstm(256);
  c.flags = 8;
  EXPECT_NE(messageOf(c).find("expects flags"), std::string::npos);
  c = lstm(256);
  c.layout = 3;
  EXPECT_NE(messageOf(c).find("layout in 0..2"), std::string::npos);
}

TEST(RnnConfig, RefusesWhatCudnnOrPyTorchHasNoKernelOrParametersFor) {
  cmrtRnnConfig c = lstm(256);
  c.dataType = 3; // int8
  EXPECT_EQ(validateConfig(c).code, CMRT_ERROR_NOT_SUPPORTED);
  c = lstm(256);
  c.bias = 1; // one input bias: PyTorch has no such parameters
  EXPECT_EQ(validateConfig(c).code, CMRT_ERROR_NOT_SUPPORTED);
  c = lstm(256);
  c.algo = 1;
  c.projSize = 128;
  EXPECT_EQ(validateConfig(c).code, CMRT_ERROR_NOT_SUPPORTED);
  c = lstm(256);
  c.algo = 3;
  c.flags = CMRT_RNN_VARIABLE_LENGTHS;
  EXPECT_EQ(messageOf(c), "cmrtRnnConfig expects algo 0 (standard) with "
                          "variable-length or packed sequences, but got 3");
  c = lstm(256, kDouble);
  c.algo = 1;
  EXPECT_EQ(validateConfig(c).code, CMRT_ERROR_NOT_SUPPORTED);
}

TEST(RnnConfig, ShapeIsTheTorchNnArguments) {
  cmrtRnnConfig c = lstm(64);
  c.inputSize = 10;
  c.projSize = 16;
  c.direction = 1;
  c.numLayers = 3;
  c.bias = 0;
  RnnShape s = shapeOf(c);
  EXPECT_EQ(s.cell, Cell::Lstm);
  EXPECT_EQ(s.inputSize, 10);
  EXPECT_EQ(s.hiddenSize, 64);
  EXPECT_EQ(s.numLayers, 3);
  EXPECT_TRUE(s.bidirectional);
  EXPECT_FALSE(s.hasBiases);
  EXPECT_EQ(s.projSize, 16);
}

TEST(RnnConfig, DefaultMathIsExactForFp32AndTensorOpsForHalf) {
  EXPECT_EQ(chooseMathType(lstm(64, kFloat)), 3);  // CUDNN_FMA_MATH
  EXPECT_EQ(chooseMathType(lstm(64, kHalf)), 1);   // CUDNN_TENSOR_OP_MATH
  EXPECT_EQ(chooseMathType(lstm(64, 9)), 1);       // bfloat16
  EXPECT_EQ(chooseMathType(lstm(64, kDouble)), 0); // CUDNN_DEFAULT_MATH
  cmrtRnnConfig c = lstm(64, kFloat);
  c.math = 2; // TF32 allowed by the caller
  EXPECT_EQ(chooseMathType(c), 2);
}

TEST(RnnConfig, SmallHiddenSizesUsePersistentKernels) {
  EXPECT_EQ(chooseAlgo(lstm(192), kH100), Algo::PersistStaticSmallH);
  EXPECT_EQ(chooseAlgo(lstm(256), kH100), Algo::Standard);
  // Backward has lower limits, and training shares one algorithm.
  cmrtRnnConfig c = lstm(192);
  c.flags = CMRT_RNN_TRAINABLE;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  c.hiddenSize = 128;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::PersistStaticSmallH);
  c = lstm(384);
  c.cell = kTanh;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::PersistStaticSmallH);
  c.flags = CMRT_RNN_TRAINABLE;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
}

TEST(RnnConfig, PersistentKernelsNeedFixedLengthsNoProjectionNoDouble) {
  cmrtRnnConfig c = lstm(64);
  c.flags = CMRT_RNN_VARIABLE_LENGTHS;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  c = lstm(64);
  c.layout = 1; // packed
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  c = lstm(64);
  c.projSize = 32;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  EXPECT_EQ(chooseAlgo(lstm(64, kDouble), kH100), Algo::Standard);
  c = lstm(64);
  c.algo = 0; // the caller's choice wins
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
}

TEST(RnnConfig, StaticPersistentKernelsForSomeHalfShapes) {
  cmrtRnnConfig c = lstm(256, kHalf);
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::PersistStatic);
  c.batch = 256; // measured only up to 128
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  c = lstm(256, kHalf);
  c.cell = kGru;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  c = lstm(256, kHalf);
  c.numLayers = 4;
  EXPECT_EQ(chooseAlgo(c, kH100), Algo::Standard);
  c = lstm(256, kHalf);
  EXPECT_EQ(chooseAlgo(c, DeviceTraits{8, 6, 84}), Algo::Standard);
  EXPECT_EQ(chooseAlgo(lstm(256, kFloat), kH100), Algo::Standard);
}

TEST(RnnConfig, AutotuningTimesPersistentKernelsOnlyWhereTheyCanRunAndPay) {
  std::vector<Algo> all{Algo::Standard, Algo::PersistStatic,
                        Algo::PersistDynamic, Algo::PersistStaticSmallH};
  EXPECT_EQ(tuningCandidates(lstm(128), kH100), all);
  cmrtRnnConfig c = lstm(1024);
  EXPECT_EQ(tuningCandidates(c, kH100),
            (std::vector<Algo>{Algo::Standard, Algo::PersistStatic,
                               Algo::PersistDynamic}));
  c.batch = 256;
  EXPECT_EQ(tuningCandidates(c, kH100), std::vector<Algo>{Algo::Standard});
  c = lstm(128);
  c.projSize = 64;
  EXPECT_EQ(tuningCandidates(c, kH100), std::vector<Algo>{Algo::Standard});
  c = lstm(128);
  c.flags = CMRT_RNN_VARIABLE_LENGTHS | CMRT_RNN_AUTOTUNE;
  EXPECT_TRUE(validateConfig(c).ok());
  EXPECT_EQ(tuningCandidates(c, kH100), std::vector<Algo>{Algo::Standard});
  EXPECT_EQ(tuningCandidates(lstm(128, kDouble), kH100),
            std::vector<Algo>{Algo::Standard});
}

TEST(RnnConfig, CAbiValidatesBeforeLookingForAGpu) {
  cmrtRnnConfig c = lstm(256);
  c.numLayers = 0;
  cmrtRnn rnn = nullptr;
  EXPECT_EQ(cmrtRnnGetOrBuild(&c, nullptr, &rnn), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cmrtGetLastErrorMessage(),
               "cmrtRnnConfig expects numLayers in 1..2^31-1, but got 0");
  EXPECT_EQ(rnn, nullptr);
  EXPECT_EQ(cmrtRnnGetOrBuild(nullptr, nullptr, &rnn),
            CMRT_ERROR_INVALID_ARGUMENT);
  cmrtRnnInfo info;
  EXPECT_EQ(cmrtRnnGetInfo(nullptr, &info), CMRT_ERROR_INVALID_ARGUMENT);
  cmrtRnnBuffers buffers{};
  EXPECT_EQ(cmrtRnnForward(nullptr, nullptr, 0, &buffers),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cmrtGetLastErrorMessage(),
               "cmrtRnnForward expects an RNN from cmrtRnnGetOrBuild, but got "
               "null");
  EXPECT_EQ(cmrtRnnRelease(nullptr), CMRT_SUCCESS);
}

} // namespace
