//===- CudnnEnums.cpp - the description's enums match cudnn.h -------------===//
//
// GraphDescription.h cannot include cudnn.h (the compiler includes it too and
// builds without cuDNN headers), so it restates cuDNN's values; this file
// fails the build if they ever disagree.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/GraphDescription.h"

#include <cudnn.h>

using namespace cmrt::graph;

#define CMRT_SAME(ours, theirs)                                                \
  static_assert(static_cast<int64_t>(ours) == static_cast<int64_t>(theirs),    \
                #ours " must equal " #theirs)

CMRT_SAME(DataType::Float, CUDNN_DATA_FLOAT);
CMRT_SAME(DataType::Double, CUDNN_DATA_DOUBLE);
CMRT_SAME(DataType::Half, CUDNN_DATA_HALF);
CMRT_SAME(DataType::Int8, CUDNN_DATA_INT8);
CMRT_SAME(DataType::Int32, CUDNN_DATA_INT32);
CMRT_SAME(DataType::Uint8, CUDNN_DATA_UINT8);
CMRT_SAME(DataType::BFloat16, CUDNN_DATA_BFLOAT16);
CMRT_SAME(DataType::Int64, CUDNN_DATA_INT64);
CMRT_SAME(DataType::Boolean, CUDNN_DATA_BOOLEAN);
CMRT_SAME(DataType::Fp8E4M3, CUDNN_DATA_FP8_E4M3);
CMRT_SAME(DataType::Fp8E5M2, CUDNN_DATA_FP8_E5M2);

CMRT_SAME(PointwiseMode::Add, CUDNN_POINTWISE_ADD);
CMRT_SAME(PointwiseMode::Mul, CUDNN_POINTWISE_MUL);
CMRT_SAME(PointwiseMode::Min, CUDNN_POINTWISE_MIN);
CMRT_SAME(PointwiseMode::Max, CUDNN_POINTWISE_MAX);
CMRT_SAME(PointwiseMode::Sqrt, CUDNN_POINTWISE_SQRT);
CMRT_SAME(PointwiseMode::AddSquare, CUDNN_POINTWISE_ADD_SQUARE);
CMRT_SAME(PointwiseMode::Div, CUDNN_POINTWISE_DIV);
CMRT_SAME(PointwiseMode::Mod, CUDNN_POINTWISE_MOD);
CMRT_SAME(PointwiseMode::Pow, CUDNN_POINTWISE_POW);
CMRT_SAME(PointwiseMode::Sub, CUDNN_POINTWISE_SUB);
CMRT_SAME(PointwiseMode::Abs, CUDNN_POINTWISE_ABS);
CMRT_SAME(PointwiseMode::Ceil, CUDNN_POINTWISE_CEIL);
CMRT_SAME(PointwiseMode::Cos, CUDNN_POINTWISE_COS);
CMRT_SAME(PointwiseMode::Exp, CUDNN_POINTWISE_EXP);
CMRT_SAME(PointwiseMode::Floor, CUDNN_POINTWISE_FLOOR);
CMRT_SAME(PointwiseMode::Log, CUDNN_POINTWISE_LOG);
CMRT_SAME(PointwiseMode::Neg, CUDNN_POINTWISE_NEG);
CMRT_SAME(PointwiseMode::Rsqrt, CUDNN_POINTWISE_RSQRT);
CMRT_SAME(PointwiseMode::Sin, CUDNN_POINTWISE_SIN);
CMRT_SAME(PointwiseMode::Tan, CUDNN_POINTWISE_TAN);
CMRT_SAME(PointwiseMode::Erf, CUDNN_POINTWISE_ERF);
CMRT_SAME(PointwiseMode::Identity, CUDNN_POINTWISE_IDENTITY);
CMRT_SAME(PointwiseMode::Reciprocal, CUDNN_POINTWISE_RECIPROCAL);
CMRT_SAME(PointwiseMode::ReluFwd, CUDNN_POINTWISE_RELU_FWD);
CMRT_SAME(PointwiseMode::TanhFwd, CUDNN_POINTWISE_TANH_FWD);
CMRT_SAME(PointwiseMode::SigmoidFwd, CUDNN_POINTWISE_SIGMOID_FWD);
CMRT_SAME(PointwiseMode::EluFwd, CUDNN_POINTWISE_ELU_FWD);
CMRT_SAME(PointwiseMode::GeluFwd, CUDNN_POINTWISE_GELU_FWD);
CMRT_SAME(PointwiseMode::SoftplusFwd, CUDNN_POINTWISE_SOFTPLUS_FWD);
CMRT_SAME(PointwiseMode::SwishFwd, CUDNN_POINTWISE_SWISH_FWD);
CMRT_SAME(PointwiseMode::GeluApproxTanhFwd, CUDNN_POINTWISE_GELU_APPROX_TANH_FWD);
CMRT_SAME(PointwiseMode::ReluBwd, CUDNN_POINTWISE_RELU_BWD);
CMRT_SAME(PointwiseMode::TanhBwd, CUDNN_POINTWISE_TANH_BWD);
CMRT_SAME(PointwiseMode::SigmoidBwd, CUDNN_POINTWISE_SIGMOID_BWD);
CMRT_SAME(PointwiseMode::EluBwd, CUDNN_POINTWISE_ELU_BWD);
CMRT_SAME(PointwiseMode::GeluBwd, CUDNN_POINTWISE_GELU_BWD);
CMRT_SAME(PointwiseMode::SoftplusBwd, CUDNN_POINTWISE_SOFTPLUS_BWD);
CMRT_SAME(PointwiseMode::SwishBwd, CUDNN_POINTWISE_SWISH_BWD);
CMRT_SAME(PointwiseMode::GeluApproxTanhBwd, CUDNN_POINTWISE_GELU_APPROX_TANH_BWD);
CMRT_SAME(PointwiseMode::CmpEq, CUDNN_POINTWISE_CMP_EQ);
CMRT_SAME(PointwiseMode::CmpNeq, CUDNN_POINTWISE_CMP_NEQ);
CMRT_SAME(PointwiseMode::CmpGt, CUDNN_POINTWISE_CMP_GT);
CMRT_SAME(PointwiseMode::CmpGe, CUDNN_POINTWISE_CMP_GE);
CMRT_SAME(PointwiseMode::CmpLt, CUDNN_POINTWISE_CMP_LT);
CMRT_SAME(PointwiseMode::CmpLe, CUDNN_POINTWISE_CMP_LE);
CMRT_SAME(PointwiseMode::LogicalAnd, CUDNN_POINTWISE_LOGICAL_AND);
CMRT_SAME(PointwiseMode::LogicalOr, CUDNN_POINTWISE_LOGICAL_OR);
CMRT_SAME(PointwiseMode::LogicalNot, CUDNN_POINTWISE_LOGICAL_NOT);
CMRT_SAME(PointwiseMode::GenIndex, CUDNN_POINTWISE_GEN_INDEX);
CMRT_SAME(PointwiseMode::BinarySelect, CUDNN_POINTWISE_BINARY_SELECT);

CMRT_SAME(PointwiseParam::ReluLowerClip, CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP);
CMRT_SAME(PointwiseParam::ReluUpperClip, CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP);
CMRT_SAME(PointwiseParam::ReluLowerClipSlope,
          CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE);
CMRT_SAME(PointwiseParam::EluAlpha, CUDNN_ATTR_POINTWISE_ELU_ALPHA);
CMRT_SAME(PointwiseParam::SoftplusBeta, CUDNN_ATTR_POINTWISE_SOFTPLUS_BETA);
CMRT_SAME(PointwiseParam::SwishBeta, CUDNN_ATTR_POINTWISE_SWISH_BETA);
CMRT_SAME(PointwiseParam::Axis, CUDNN_ATTR_POINTWISE_AXIS);

CMRT_SAME(ConvMode::Convolution, CUDNN_CONVOLUTION);
CMRT_SAME(ConvMode::CrossCorrelation, CUDNN_CROSS_CORRELATION);

CMRT_SAME(ReductionMode::Add, CUDNN_REDUCE_TENSOR_ADD);
CMRT_SAME(ReductionMode::Mul, CUDNN_REDUCE_TENSOR_MUL);
CMRT_SAME(ReductionMode::Min, CUDNN_REDUCE_TENSOR_MIN);
CMRT_SAME(ReductionMode::Max, CUDNN_REDUCE_TENSOR_MAX);
CMRT_SAME(ReductionMode::Amax, CUDNN_REDUCE_TENSOR_AMAX);
CMRT_SAME(ReductionMode::Avg, CUDNN_REDUCE_TENSOR_AVG);
CMRT_SAME(ReductionMode::Norm1, CUDNN_REDUCE_TENSOR_NORM1);
CMRT_SAME(ReductionMode::Norm2, CUDNN_REDUCE_TENSOR_NORM2);

CMRT_SAME(NormMode::Layer, CUDNN_LAYER_NORM);
CMRT_SAME(NormMode::Instance, CUDNN_INSTANCE_NORM);
CMRT_SAME(NormMode::Batch, CUDNN_BATCH_NORM);
CMRT_SAME(NormMode::Rms, CUDNN_RMS_NORM);
CMRT_SAME(NormPhase::Inference, CUDNN_NORM_FWD_INFERENCE);
CMRT_SAME(NormPhase::Training, CUDNN_NORM_FWD_TRAINING);

CMRT_SAME(ResampleMode::AvgIncludePadding,
          CUDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING);
CMRT_SAME(ResampleMode::MaxPool, CUDNN_RESAMPLE_MAXPOOL);
CMRT_SAME(ResampleMode::AvgExcludePadding,
          CUDNN_RESAMPLE_AVGPOOL_EXCLUDE_PADDING);
