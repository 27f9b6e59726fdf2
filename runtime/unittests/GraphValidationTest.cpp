//===- GraphValidationTest.cpp - one case per validation message ----------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "GraphTestUtil.h"
#include "RuntimeGraphs.h"

#include <gtest/gtest.h>

#include <functional>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

struct ValidationCase {
  const char *name;
  OpKind base; // the valid graph singleOp(base) that `mutate` breaks
  std::function<void(GraphDescription &)> mutate;
  const char *expected;
};

void PrintTo(const ValidationCase &c, std::ostream *os) { *os << c.name; }

class ValidationError : public ::testing::TestWithParam<ValidationCase> {};

TEST_P(ValidationError, IsReportedWithItsMessage) {
  GraphDescription g = singleOp(GetParam().base);
  ASSERT_TRUE(validate(g).ok());
  GetParam().mutate(g);
  Status s = validate(g);
  EXPECT_EQ(s.code, CMRT_ERROR_INVALID_GRAPH);
  EXPECT_NE(s.message.find(GetParam().expected), std::string::npos)
      << s.message;
}

ConvAttrs &conv(GraphDescription &g) {
  return std::get<ConvAttrs>(g.ops[0].attrs);
}
template <typename T> T &attrs(GraphDescription &g, size_t op = 0) {
  return std::get<T>(g.ops[op].attrs);
}
void setDims(Tensor &t, std::vector<int64_t> dims) {
  t.strides = packedStrides(dims);
  t.dims = std::move(dims);
}

using K = OpKind;
using G = GraphDescription;

const ValidationCase kCases[] = {
    // Graph and tensors.
    {"NoOps", K::Pointwise, [](G &g) { g.ops.clear(); },
     "expects at least one op, but got none"},
    {"NonPositiveUid", K::Pointwise, [](G &g) { g.tensors[0].uid = -3; },
     "tensor UID -3 expects a positive UID (0 marks an absent operand), but "
     "got -3"},
    {"UnknownDataType", K::Pointwise, [](G &g) { g.tensors[0].dataType = 5; },
     "tensor UID 1 expects a cudnnDataType_t value, but got 5"},
    {"RankZero", K::Pointwise, [](G &g) { setDims(g.tensors[0], {}); },
     "tensor UID 1 expects a rank in [1, 8], but got 0"},
    {"RankNine", K::Pointwise,
     [](G &g) { setDims(g.tensors[0], std::vector<int64_t>(9, 1)); },
     "tensor UID 1 expects a rank in [1, 8], but got 9"},
    {"NonPositiveDim", K::Pointwise,
     [](G &g) { g.tensors[0].dims = {2, 0}; },
     "tensor UID 1 expects positive dims, but got [2, 0]"},
    {"StrideCount", K::Pointwise, [](G &g) { g.tensors[1].strides = {1}; },
     "tensor UID 2 expects 2 strides (one per dim), but got 1"},
    {"NonPositiveStride", K::Pointwise,
     [](G &g) { g.tensors[1].strides = {8, -1}; },
     "tensor UID 2 expects positive strides, but got [8, -1]"},
    {"AlignmentNotPowerOfTwo", K::Pointwise,
     [](G &g) { g.tensors[1].alignment = 12; },
     "tensor UID 2 expects a power-of-two byte alignment, but got 12"},
    {"VirtualAndByValue", K::Pointwise,
     [](G &g) { g.tensors[0].isVirtual = g.tensors[0].isByValue = true; },
     "tensor UID 1 expects to be either virtual or by-value, but got both"},
    {"ByValueNotScalar", K::Pointwise,
     [](G &g) { g.tensors[0].isByValue = true; },
     "tensor UID 1 is by-value and expects every dim to be 1, but got [2, 8]"},
    {"DuplicateUid", K::Pointwise, [](G &g) { g.tensors[1].uid = 1; },
     "tensor UID 1 expects a unique UID, but got it twice"},
    // Operands.
    {"AttrsOfAnotherKind", K::Pointwise,
     [](G &g) { g.ops[0].attrs = MatmulAttrs{}; },
     "op #0 (pointwise) expects the attributes of its kind, but got another "
     "kind's"},
    {"UnknownPointwiseMode", K::Pointwise,
     [](G &g) { attrs<PointwiseAttrs>(g).mode = 99; },
     "op #0 (pointwise) expects a known pointwise mode, but got 99"},
    {"InputCount", K::Pointwise, [](G &g) { g.ops[0].inputs = {1, 1}; },
     "op #0 (pointwise) expects 1 inputs (x), but got 2"},
    {"MissingRequiredInput", K::ConvFprop,
     [](G &g) { g.ops[0].inputs[1] = 0; },
     "op #0 (conv_fprop) expects input w, but got none (UID 0)"},
    {"UnknownUid", K::Pointwise, [](G &g) { g.ops[0].outputs = {77}; },
     "op #0 (pointwise) expects output y to be a tensor of the graph, but "
     "got unknown UID 77"},
    {"ByValueOutput", K::Pointwise,
     [](G &g) {
       setDims(g.tensors[1], {1, 1});
       setDims(g.tensors[0], {1, 1});
       g.tensors[1].isByValue = true;
     },
     "op #0 (pointwise) expects output y (UID 2) to live in memory, but got "
     "a by-value tensor"},
    // Dataflow.
    {"ProducedTwice", K::Pointwise,
     [](G &g) { g.ops.push_back(g.ops[0]); },
     "tensor UID 2 expects one producer, but is produced by op #0 "
     "(pointwise) and op #1 (pointwise)"},
    {"ReadsBeforeProduced", K::ConvFprop,
     [](G &g) { std::swap(g.ops[1], g.ops[2]); },
     "op #1 (pointwise) reads tensor UID 5 and expects it to be produced by "
     "an earlier op, but it is produced by op #2 (pointwise)"},
    {"ReadsOwnOutput", K::Pointwise,
     [](G &g) {
       g.ops[0].attrs = pointwise(PointwiseMode::Add);
       g.ops[0].inputs = {1, 2};
     },
     "op #0 (pointwise) reads tensor UID 2 and expects it to be produced by "
     "an earlier op"},
    {"VirtualGraphInput", K::Pointwise,
     [](G &g) { g.tensors[0].isVirtual = true; },
     "virtual tensor UID 1 expects to be produced by an op, but got a graph "
     "input"},
    {"VirtualGraphOutput", K::Pointwise,
     [](G &g) { g.tensors[1].isVirtual = true; },
     "virtual tensor UID 2 expects to be read by an op, but got a graph "
     "output"},
    {"UnusedTensor", K::Pointwise,
     [](G &g) { g.tensors.push_back(tensor(9, {1})); },
     "tensor UID 9 expects to be used by an op, but no op reads or writes it"},
    // Convolution.
    {"ComputeType", K::ConvFprop, [](G &g) { conv(g).computeType = 42; },
     "op #0 (conv_fprop) expects a cudnnDataType_t compute type, but got 42"},
    {"ConvMode", K::ConvFprop, [](G &g) { conv(g).mode = 2; },
     "op #0 (conv_fprop) expects a cudnnConvolutionMode_t in [0, 1], but got "
     "2"},
    {"SpatialDimsRange", K::ConvFprop, [](G &g) { conv(g).spatialDims = 0; },
     "op #0 (conv_fprop) expects spatial dims in [1, 6], but got 0"},
    {"ConvStrideLength", K::ConvFprop, [](G &g) { conv(g).stride = {1}; },
     "op #0 (conv_fprop) expects 2 stride values (one per spatial dim), but "
     "got 1"},
    {"ConvPrePaddingLength", K::ConvFprop,
     [](G &g) { conv(g).prePadding = {1, 1, 1}; },
     "expects 2 pre_padding values (one per spatial dim), but got 3"},
    {"ConvPostPaddingLength", K::ConvFprop,
     [](G &g) { conv(g).postPadding = {}; },
     "expects 2 post_padding values (one per spatial dim), but got 0"},
    {"ConvDilationLength", K::ConvFprop, [](G &g) { conv(g).dilation = {1}; },
     "expects 2 dilation values (one per spatial dim), but got 1"},
    {"ConvZeroStride", K::ConvFprop, [](G &g) { conv(g).stride = {1, 0}; },
     "expects every stride value to be at least 1, but got [1, 0]"},
    {"ConvNegativePadding", K::ConvFprop,
     [](G &g) { conv(g).prePadding = {-1, 1}; },
     "expects every pre_padding value to be at least 0, but got [-1, 1]"},
    {"ConvRank", K::ConvFprop, [](G &g) { setDims(g.tensors[1], {16, 8, 3}); },
     "op #0 (conv_fprop) expects w (UID 2) of rank 4 (spatial dims + 2), but "
     "got 3"},
    {"ConvBatch", K::ConvDgrad,
     [](G &g) { setDims(g.tensors[0], {2, 16, 8, 8}); },
     "op #0 (conv_dgrad) expects dy (UID 1) dim 0 to be the batch 1 of dx "
     "(UID 3), but got 2"},
    {"ConvOutputChannels", K::ConvWgrad,
     [](G &g) { setDims(g.tensors[1], {1, 32, 16, 16}); },
     "op #0 (conv_wgrad) expects dy (UID 2) dim 1 to be the output channels "
     "16 of dw (UID 3), but got 32"},
    {"ConvGroups", K::ConvDgrad,
     [](G &g) { setDims(g.tensors[1], {16, 3, 3, 3}); },
     "expects w (UID 2) dim 1 to divide the channels 8 of dx (UID 3) into "
     "groups"},
    {"ConvBetaIntoVirtualOutput", K::ConvFprop,
     [](G &g) { conv(g).beta = 0.5; },
     "op #0 (conv_fprop) expects beta 0 for the virtual y (UID 3) (beta "
     "blends in the output's prior value, which a virtual tensor does not "
     "have), but got 0.5"},
    {"ConvOutputFormula", K::ConvFprop,
     [](G &g) { conv(g).stride = {2, 2}; },
     "op #0 (conv_fprop) expects y (UID 3) dim 2 to be 8 = (16 + 1 + 1 - 1 * "
     "(3 - 1) - 1) / 2 + 1, but got 16"},
    // Matmul.
    {"MatmulRank", K::Matmul,
     [](G &g) {
       setDims(g.tensors[0], {8});
     },
     "op #0 (matmul) expects a (UID 1) of rank at least 2, but got 1"},
    {"MatmulRankMismatch", K::Matmul,
     [](G &g) { setDims(g.tensors[1], {8, 3}); },
     "op #0 (matmul) expects b (UID 2) of rank 3 (the rank of a), but got 2"},
    {"MatmulK", K::Matmul, [](G &g) { setDims(g.tensors[1], {1, 6, 3}); },
     "op #0 (matmul) expects b (UID 2) dim 1 (K, a's last dim) to be 8, but "
     "got 6"},
    {"MatmulM", K::Matmul, [](G &g) { setDims(g.tensors[2], {2, 5, 3}); },
     "op #0 (matmul) expects c (UID 3) dim 1 (M) to be 4, but got 5"},
    {"MatmulN", K::Matmul, [](G &g) { setDims(g.tensors[2], {2, 4, 7}); },
     "op #0 (matmul) expects c (UID 3) dim 2 (N) to be 3, but got 7"},
    {"MatmulBatch", K::Matmul, [](G &g) { setDims(g.tensors[1], {3, 8, 3}); },
     "op #0 (matmul) expects batch dim 0 of b (UID 2) to be 2 or 1 "
     "(broadcast to c), but got 3"},
    // Pointwise.
    {"PointwiseBroadcast", K::ConvFprop,
     [](G &g) { setDims(g.tensors[3], {1, 8, 1, 1}); },
     "op #1 (pointwise) expects input b (UID 4) to broadcast to y (UID 5) "
     "[1, 16, 16, 16], but got [1, 8, 1, 1]"},
    {"PointwiseParamOrder", K::ConvFprop,
     [](G &g) {
       attrs<PointwiseAttrs>(g, 2).params = {{4, 0}, {3, 0}};
     },
     "op #2 (pointwise) expects parameter keys in ascending order without "
     "repeats, but got 3 after 4"},
    {"PointwiseParamForMode", K::Pointwise,
     [](G &g) {
       attrs<PointwiseAttrs>(g).set(PointwiseParam::SwishBeta, 1.0);
     },
     "op #0 (pointwise) expects no parameter 8 (cudnnBackendAttributeName_t) "
     "for pointwise mode 13, but got one"},
    {"GenIndexAxis", K::Pointwise,
     [](G &g) {
       attrs<PointwiseAttrs>(g).mode =
           static_cast<int64_t>(PointwiseMode::GenIndex);
     },
     "op #0 (pointwise) expects an axis parameter for gen_index, but got "
     "none"},
    // Reduction and resample.
    {"ReductionMode", K::Reduction,
     [](G &g) { attrs<ReductionAttrs>(g).mode = 8; },
     "op #0 (reduction) expects a cudnnReduceTensorOp_t in [0, 1, 2, 3, 4, 5, "
     "6, 7], but got 8"},
    {"ReductionDims", K::Reduction,
     [](G &g) { setDims(g.tensors[1], {2, 4, 1}); },
     "op #0 (reduction) expects y (UID 2) dim 1 to be 8 or 1 (reduced), but "
     "got 4"},
    {"ResampleMode", K::Resample,
     [](G &g) { attrs<ResampleAttrs>(g).mode = 0; },
     "op #0 (resample) expects a cudnnResampleMode_t in [2, 3, 4], but got 0"},
    {"ResampleSpatialDims", K::Resample,
     [](G &g) { attrs<ResampleAttrs>(g).spatialDims = 4; },
     "op #0 (resample) expects spatial dims in [1, 3], but got 4"},
    {"ResampleWindowLength", K::Resample,
     [](G &g) { attrs<ResampleAttrs>(g).window = {2}; },
     "op #0 (resample) expects 2 window values (one per spatial dim), but "
     "got 1"},
    {"ResampleChannels", K::Resample,
     [](G &g) { setDims(g.tensors[1], {1, 5, 4, 4}); },
     "op #0 (resample) expects y (UID 2) dim 1 to be 4, but got 5"},
    {"ResampleOutputFormula", K::Resample,
     [](G &g) { setDims(g.tensors[1], {1, 4, 4, 3}); },
     "op #0 (resample) expects y (UID 2) dim 3 to be 4 = (8 + 0 + 0 - 1 * (2 "
     "- 1) - 1) / 2 + 1, but got 3"},
    // Attention.
    {"SdpaScale", K::Sdpa,
     [](G &g) { attrs<SdpaAttrs>(g).scale = 1.0 / 0.0; },
     "op #0 (sdpa) expects a finite scale, but got inf"},
    {"SdpaRank", K::Sdpa, [](G &g) { setDims(g.tensors[0], {2, 4, 16}); },
     "op #0 (sdpa) expects q (UID 1) of rank 4 ([batch, heads, sequence, "
     "head dim]), but got 3"},
    {"SdpaFloat", K::Sdpa,
     [](G &g) {
       for (Tensor &t : g.tensors)
         t.dataType = static_cast<int64_t>(DataType::Float);
     },
     "op #0 (sdpa) expects q (UID 1) of half or bfloat16 (cuDNN's attention "
     "inputs), but got float"},
    {"SdpaMixedTypes", K::Sdpa,
     [](G &g) {
       g.tensors[2].dataType = static_cast<int64_t>(DataType::BFloat16);
     },
     "op #0 (sdpa) expects q, k, v and o of one data type, half, but got "
     "bfloat16"},
    {"SdpaHeadDim", K::Sdpa,
     [](G &g) { setDims(g.tensors[1], {2, 2, 24, 32}); },
     "op #0 (sdpa) expects k's head dim (q's) to be 64, but got 32"},
    {"SdpaKvLength", K::Sdpa,
     [](G &g) { setDims(g.tensors[2], {2, 2, 20, 64}); },
     "op #0 (sdpa) expects v's sequence length (k's) to be 24, but got 20"},
    {"SdpaOutput", K::Sdpa,
     [](G &g) { setDims(g.tensors[4], {2, 4, 24, 64}); },
     "op #0 (sdpa) expects o (UID 5) [2, 4, 16, 64] (q's batch, heads and "
     "sequence, v's head dim), but got [2, 4, 24, 64]"},
    {"SdpaHeads", K::Sdpa,
     [](G &g) {
       setDims(g.tensors[1], {2, 3, 24, 64});
       setDims(g.tensors[2], {2, 3, 24, 64});
     },
     "op #0 (sdpa) expects q's heads (4) to be a multiple of k's, but got 3"},
    {"SdpaBias", K::Sdpa, [](G &g) { setDims(g.tensors[3], {1, 4, 16, 20}); },
     "op #0 (sdpa) expects bias (UID 4) to broadcast to the scores [2, 4, "
     "16, 24], but got [1, 4, 16, 20]"},
    // Normalization.
    {"NormMode", K::NormForward,
     [](G &g) { attrs<NormForwardAttrs>(g).mode = 3; },
     "op #0 (norm_forward) expects a cudnnBackendNormMode_t in [0, 1, 2, 4], "
     "but got 3"},
    {"NormPhase", K::NormForward,
     [](G &g) { attrs<NormForwardAttrs>(g).phase = 2; },
     "expects a cudnnBackendNormFwdPhase_t in [0, 1], but got 2"},
    {"NormEpsilon", K::NormForward,
     [](G &g) { attrs<NormForwardAttrs>(g).epsilon = -1; },
     "op #0 (norm_forward) expects epsilon >= 0, but got -1"},
    {"NormRank", K::NormForward,
     [](G &g) {
       setDims(g.tensors[0], {8});
       setDims(g.tensors[5], {8});
     },
     "op #0 (norm_forward) expects x (UID 1) of rank at least 2 (N, C, ...), "
     "but got 1"},
    {"NormForwardShape", K::NormForward,
     [](G &g) { setDims(g.tensors[5], {2, 8, 4, 5}); },
     "op #0 (norm_forward) expects y (UID 6) to have the dims of x (UID 1) "
     "[2, 8, 4, 4], but got [2, 8, 4, 5]"},
    {"NormRunningStatsTogether", K::NormForward,
     [](G &g) {
       g.ops[0].outputs[4] = 0;
       g.tensors.pop_back();
     },
     "expects running_mean, running_var, next_running_mean and "
     "next_running_var together, but got only some of them"},
    {"NormMomentum", K::NormForward,
     [](G &g) { attrs<NormForwardAttrs>(g).momentum.reset(); },
     "op #0 (norm_forward) expects momentum exactly when it updates running "
     "statistics, but got none"},
    {"NormMomentumOnlyForBatchTraining", K::NormForward,
     [](G &g) {
       attrs<NormForwardAttrs>(g).mode = static_cast<int64_t>(NormMode::Layer);
     },
     "op #0 (norm_forward) expects momentum only for batch norm training, "
     "but got it for layer norm training"},
    {"NormMomentumRange", K::NormForward,
     [](G &g) { attrs<NormForwardAttrs>(g).momentum = 1.5; },
     "op #0 (norm_forward) expects momentum in [0, 1], but got 1.5"},
    {"NormBiasRequired", K::NormForward,
     [](G &g) {
       g.ops[0].inputs[2] = 0;
       g.tensors.erase(g.tensors.begin() + 2);
     },
     "op #0 (norm_forward) expects bias for batch norm training, but got none "
     "(UID 0)"},
    {"NormMeanOnlyForBatchInference", K::NormForward,
     [](G &g) { g.ops[0].inputs[3] = 4; },
     "op #0 (norm_forward) expects no mean for batch norm training, but got "
     "one"},
    {"NormSavedMeanInTraining", K::NormForward,
     [](G &g) {
       g.ops[0].outputs[1] = 0;
       g.tensors.erase(g.tensors.begin() + 6);
     },
     "op #0 (norm_forward) expects saved_mean for batch norm training, but "
     "got none (UID 0)"},
    {"NormParameterShape", K::NormForward,
     [](G &g) { setDims(g.tensors[1], {1, 4, 1, 1}); },
     "op #0 (norm_forward) expects scale (UID 2) to be the parameter shape "
     "[1, 8, 1, 1] of batch norm, but got [1, 4, 1, 1]"},
    {"NormStatisticsShape", K::NormForward,
     [](G &g) { setDims(g.tensors[6], {2, 8, 1, 1}); },
     "op #0 (norm_forward) expects saved_mean (UID 7) to be the statistics "
     "shape [1, 8, 1, 1] of batch norm, but got [2, 8, 1, 1]"},
    {"NormBackwardShape", K::NormBackward,
     [](G &g) { setDims(g.tensors[0], {2, 8, 4, 2}); },
     "op #0 (norm_backward) expects dy (UID 1) to have the dims of x (UID 2)"},
    {"NormBackwardNoMeanForRms", K::NormBackward,
     [](G &g) {
       attrs<NormBackwardAttrs>(g).mode = static_cast<int64_t>(NormMode::Rms);
     },
     "op #0 (norm_backward) expects no mean for rms norm, but got one"},
    {"NormBackwardDbiasRequired", K::NormBackward,
     [](G &g) {
       g.ops[0].outputs[2] = 0;
       g.tensors.pop_back();
     },
     "op #0 (norm_backward) expects dbias for batch norm, but got none (UID "
     "0)"},
    {"NormBackwardParameterShape", K::NormBackward,
     [](G &g) { setDims(g.tensors[6], {1, 4, 1, 1}); },
     "op #0 (norm_backward) expects dscale (UID 7) to be the parameter shape "
     "[1, 8, 1, 1] of batch norm, but got [1, 4, 1, 1]"},
    {"NormBackwardStatisticsShape", K::NormBackward,
     [](G &g) { setDims(g.tensors[4], {2, 8, 1, 1}); },
     "op #0 (norm_backward) expects inv_variance (UID 5) to be the "
     "statistics shape [1, 8, 1, 1] of batch norm, but got [2, 8, 1, 1]"},
    {"GenStatsRank", K::GenStats,
     [](G &g) {
       setDims(g.tensors[0], {8});
       setDims(g.tensors[1], {1});
       setDims(g.tensors[2], {1});
     },
     "op #0 (genstats) expects x (UID 1) of rank at least 2 (N, C, ...), but "
     "got 1"},
    {"GenStatsPerChannel", K::GenStats,
     [](G &g) { setDims(g.tensors[2], {1, 8, 4, 1}); },
     "op #0 (genstats) expects sq_sum (UID 3) to be per-channel [1, 8, 1, 1], "
     "but got [1, 8, 4, 1]"},
    {"BnFinalizeCount", K::BnFinalize,
     [](G &g) { attrs<BnFinalizeAttrs>(g, 1).accumulationCount = 0; },
     "op #1 (bn_finalize) expects a positive accumulation count, but got 0"},
    {"BnFinalizeEpsilon", K::BnFinalize,
     [](G &g) { attrs<BnFinalizeAttrs>(g, 1).epsilon = -0.5; },
     "op #1 (bn_finalize) expects epsilon >= 0, but got -0.5"},
    {"BnFinalizePerChannel", K::BnFinalize,
     [](G &g) {
       g.ops.erase(g.ops.begin());
       g.tensors.erase(g.tensors.begin());
       for (Tensor &t : g.tensors) {
         setDims(t, {1, 8, 2, 1});
         t.isVirtual = false;
       }
     },
     "op #0 (bn_finalize) expects sum (UID 2) of per-channel shape [1, C, "
     "1...], but got [1, 8, 2, 1]"},
    {"BnFinalizeShape", K::BnFinalize,
     [](G &g) { setDims(g.tensors[5], {1, 4, 1, 1}); },
     "op #1 (bn_finalize) expects running_mean (UID 6) to have the dims of "
     "sum (UID "
     "2) [1, 8, 1, 1], but got [1, 4, 1, 1]"},
};

INSTANTIATE_TEST_SUITE_P(
    Graph, ValidationError, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<ValidationCase> &info) {
      return std::string(info.param.name);
    });

// A beta that blends into a real output's prior value is a valid
// description (the runtime answers CMRT_ERROR_NOT_SUPPORTED when building).
TEST(Validation, BetaIntoARealOutputIsValid) {
  GraphDescription g = singleOp(OpKind::ConvDgrad);
  conv(g).beta = 0.5;
  EXPECT_TRUE(validate(g).ok()) << validate(g).message;
}

// Each op kind in each mode the runtime translates, as the GPU tests run
// them (GpuOpsTest.cpp): a mistake in a test graph shows up without a GPU.
TEST(Validation, GpuOpsTestGraphsAreValid) {
  std::vector<GraphDescription> graphs = opsTestGraphs();
  EXPECT_EQ(graphs.size(), 26u);
  for (const GraphDescription &g : graphs) {
    Status s = validate(g);
    EXPECT_TRUE(s.ok()) << s.message << "\n" << dumpGraph(g);
  }
}

// Layer, rms and instance norm shapes: parameters over all but N,
// statistics per sample (per sample and channel for instance norm).
TEST(Validation, NormShapesFollowTheMode) {
  GraphDescription ln =
      layerNormGraph(DataType::Float, 4, 8, NormPhase::Training, 1e-5);
  ASSERT_TRUE(validate(ln).ok()) << validate(ln).message;
  setDims(ln.tensors[4], {1, 1, 1, 1}); // saved mean must be [4, 1, 1, 1]
  Status s = validate(ln);
  EXPECT_NE(s.message.find("op #0 (norm_forward) expects saved_mean (UID 5) "
                           "to be the statistics shape [4, 1, 1, 1] of layer "
                           "norm, but got [1, 1, 1, 1]"),
            std::string::npos)
      << s.message;

  GraphDescription rms = rmsNormTrainingGraph(DataType::Float, 4, 8, 1e-5);
  rms.ops[0].outputs[1] = 4; // rms norm has no saved mean
  s = validate(rms);
  EXPECT_NE(s.message.find("expects no saved_mean for rms norm training, but "
                           "got one"),
            std::string::npos)
      << s.message;

  GraphDescription in = singleOp(OpKind::NormForward);
  auto &a = std::get<NormForwardAttrs>(in.ops[0].attrs);
  a.mode = static_cast<int64_t>(NormMode::Instance);
  a.momentum.reset();
  in.ops[0].inputs = {1, 2, 3, 0, 0, 0, 0};
  in.ops[0].outputs = {6, 7, 8, 0, 0};
  in.tensors.resize(8); // drop running stats 9, 10 and inputs 4, 5 below
  in.tensors.erase(in.tensors.begin() + 3, in.tensors.begin() + 5);
  for (size_t i : {4, 5}) // saved stats: per sample and channel
    setDims(in.tensors[i], {2, 8, 1, 1});
  EXPECT_TRUE(validate(in).ok()) << validate(in).message;
}

} // namespace
