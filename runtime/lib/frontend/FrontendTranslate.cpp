//===- FrontendTranslate.cpp - description -> cudnn-frontend ops ----------===//
//
// Compiled with -fexceptions -frtti. Throws UnsupportedGraph (and whatever
// the frontend throws); FrontendGraph.cpp catches both.
//
//===----------------------------------------------------------------------===//

#include "frontend/FrontendTranslate.h"
#include "graph/GraphValidation.h"

#include <array>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace fe = cudnn_frontend;
using namespace cmrt;
using namespace cmrt::graph;

namespace {

using TensorPtr = std::shared_ptr<fe::graph::Tensor_attributes>;

fe::DataType_t toFe(int64_t dataType) {
  switch (static_cast<DataType>(dataType)) {
  case DataType::Float: return fe::DataType_t::FLOAT;
  case DataType::Double: return fe::DataType_t::DOUBLE;
  case DataType::Half: return fe::DataType_t::HALF;
  case DataType::Int8: return fe::DataType_t::INT8;
  case DataType::Int32: return fe::DataType_t::INT32;
  case DataType::Uint8: return fe::DataType_t::UINT8;
  case DataType::BFloat16: return fe::DataType_t::BFLOAT16;
  case DataType::Int64: return fe::DataType_t::INT64;
  case DataType::Boolean: return fe::DataType_t::BOOLEAN;
  case DataType::Fp8E4M3: return fe::DataType_t::FP8_E4M3;
  case DataType::Fp8E5M2: return fe::DataType_t::FP8_E5M2;
  }
  throw UnsupportedGraph{"data type " + dataTypeName(dataType)};
}

fe::PointwiseMode_t toFePointwise(int64_t mode) {
  using M = PointwiseMode;
  using F = fe::PointwiseMode_t;
  switch (static_cast<M>(mode)) {
  case M::Add: return F::ADD;
  case M::Mul: return F::MUL;
  case M::Min: return F::MIN;
  case M::Max: return F::MAX;
  case M::Sqrt: return F::SQRT;
  case M::AddSquare: return F::ADD_SQUARE;
  case M::Div: return F::DIV;
  case M::Mod: return F::MOD;
  case M::Pow: return F::POW;
  case M::Sub: return F::SUB;
  case M::Abs: return F::ABS;
  case M::Ceil: return F::CEIL;
  case M::Cos: return F::COS;
  case M::Exp: return F::EXP;
  case M::Floor: return F::FLOOR;
  case M::Log: return F::LOG;
  case M::Neg: return F::NEG;
  case M::Rsqrt: return F::RSQRT;
  case M::Sin: return F::SIN;
  case M::Tan: return F::TAN;
  case M::Erf: return F::ERF;
  case M::Identity: return F::IDENTITY;
  case M::Reciprocal: return F::RECIPROCAL;
  case M::ReluFwd: return F::RELU_FWD;
  case M::TanhFwd: return F::TANH_FWD;
  case M::SigmoidFwd: return F::SIGMOID_FWD;
  case M::EluFwd: return F::ELU_FWD;
  case M::GeluFwd: return F::GELU_FWD;
  case M::SoftplusFwd: return F::SOFTPLUS_FWD;
  case M::SwishFwd: return F::SWISH_FWD;
  case M::GeluApproxTanhFwd: return F::GELU_APPROX_TANH_FWD;
  case M::ReluBwd: return F::RELU_BWD;
  case M::TanhBwd: return F::TANH_BWD;
  case M::SigmoidBwd: return F::SIGMOID_BWD;
  case M::EluBwd: return F::ELU_BWD;
  case M::GeluBwd: return F::GELU_BWD;
  case M::SoftplusBwd: return F::SOFTPLUS_BWD;
  case M::SwishBwd: return F::SWISH_BWD;
  case M::GeluApproxTanhBwd: return F::GELU_APPROX_TANH_BWD;
  case M::CmpEq: return F::CMP_EQ;
  case M::CmpNeq: return F::CMP_NEQ;
  case M::CmpGt: return F::CMP_GT;
  case M::CmpGe: return F::CMP_GE;
  case M::CmpLt: return F::CMP_LT;
  case M::CmpLe: return F::CMP_LE;
  case M::LogicalAnd: return F::LOGICAL_AND;
  case M::LogicalOr: return F::LOGICAL_OR;
  case M::LogicalNot: return F::LOGICAL_NOT;
  case M::GenIndex: return F::GEN_INDEX;
  case M::BinarySelect: return F::BINARY_SELECT;
  }
  throw UnsupportedGraph{"pointwise mode " + std::to_string(mode)};
}

fe::ReductionMode_t toFeReduction(int64_t mode) {
  using R = ReductionMode;
  using F = fe::ReductionMode_t;
  switch (static_cast<R>(mode)) {
  case R::Add: return F::ADD;
  case R::Mul: return F::MUL;
  case R::Min: return F::MIN;
  case R::Max: return F::MAX;
  case R::Amax: return F::AMAX;
  case R::Avg: return F::AVG;
  case R::Norm1: return F::NORM1;
  case R::Norm2: return F::NORM2;
  }
  throw UnsupportedGraph{"reduction mode " + std::to_string(mode)};
}

fe::ResampleMode_t toFeResample(int64_t mode) {
  switch (static_cast<ResampleMode>(mode)) {
  case ResampleMode::AvgIncludePadding:
    return fe::ResampleMode_t::AVGPOOL_INCLUDE_PADDING;
  case ResampleMode::MaxPool: return fe::ResampleMode_t::MAXPOOL;
  case ResampleMode::AvgExcludePadding:
    return fe::ResampleMode_t::AVGPOOL_EXCLUDE_PADDING;
  }
  throw UnsupportedGraph{"resample mode " + std::to_string(mode)};
}

fe::NormFwdPhase_t toFePhase(int64_t phase) {
  return phase == static_cast<int64_t>(NormPhase::Training)
             ? fe::NormFwdPhase_t::TRAINING
             : fe::NormFwdPhase_t::INFERENCE;
}

fe::graph::Tensor_attributes byValueAttributes(const Tensor &t) {
  double d = wordToDouble(t.scalar);
  switch (static_cast<DataType>(t.dataType)) {
  case DataType::Float: return fe::graph::Tensor_attributes(float(d));
  case DataType::Double: return fe::graph::Tensor_attributes(d);
  case DataType::Half:
    return fe::graph::Tensor_attributes(__float2half(float(d)));
  case DataType::BFloat16:
    return fe::graph::Tensor_attributes(__float2bfloat16(float(d)));
  case DataType::Int32:
    return fe::graph::Tensor_attributes(static_cast<int32_t>(t.scalar));
  case DataType::Int64:
    return fe::graph::Tensor_attributes(static_cast<int64_t>(t.scalar));
  default:
    throw UnsupportedGraph{"by-value tensor UID " + std::to_string(t.uid) +
                      " of type " + dataTypeName(t.dataType)};
  }
}

void describe(fe::graph::Tensor_attributes &a, const Tensor &t) {
  a.set_uid(t.uid)
      .set_name("t" + std::to_string(t.uid))
      .set_dim(t.dims)
      .set_stride(t.strides)
      .set_data_type(toFe(t.dataType))
      .set_alignment(t.alignment)
      .set_is_virtual(t.isVirtual);
}

template <typename ConvAttributes>
ConvAttributes convAttributes(const ConvAttrs &a, const std::string &name) {
  ConvAttributes attrs;
  attrs.set_name(name)
      .set_compute_data_type(toFe(a.computeType))
      .set_convolution_mode(a.mode == static_cast<int64_t>(ConvMode::Convolution)
                                ? fe::ConvolutionMode_t::CONVOLUTION
                                : fe::ConvolutionMode_t::CROSS_CORRELATION)
      .set_pre_padding(a.prePadding)
      .set_post_padding(a.postPadding)
      .set_stride(a.stride)
      .set_dilation(a.dilation);
  return attrs;
}

struct Translator {
  const GraphDescription &desc;
  fe::graph::Graph &g;
  std::unordered_map<int64_t, const Tensor *> tensors;
  std::unordered_map<int64_t, TensorPtr> built;

  TensorPtr in(int64_t uid) { return built.at(uid); }
  /// Null for an absent optional operand (UID 0).
  TensorPtr optIn(int64_t uid) { return uid ? in(uid) : nullptr; }

  void out(int64_t uid, const TensorPtr &t) {
    if (!t)
      throw UnsupportedGraph{"the frontend returned no tensor for UID " +
                        std::to_string(uid)};
    describe(*t, *tensors.at(uid));
    built[uid] = t;
  }

  /// An optional result: the frontend makes one exactly when the
  /// description asks for it (validation guarantees the pairing the
  /// frontend needs), so a mismatch is a gap in the translation.
  void optOut(const std::string &op, const char *slot, int64_t uid,
              const TensorPtr &t) {
    if (uid)
      return out(uid, t);
    if (t)
      throw UnsupportedGraph{op + ": the frontend always produces " + slot +
                             ", but the description has none (UID 0)"};
  }

  /// A by-value scalar the frontend takes as a tensor (epsilon, momentum,
  /// alpha, accumulation count).
  TensorPtr scalar(float value) {
    return g.tensor(fe::graph::Tensor_attributes(value));
  }
  TensorPtr scalar(int64_t value) {
    return g.tensor(fe::graph::Tensor_attributes(value));
  }

  void run() {
    std::unordered_set<int64_t> produced;
    for (const Tensor &t : desc.tensors)
      tensors[t.uid] = &t;
    for (const Op &op : desc.ops)
      for (int64_t uid : op.outputs)
        if (uid)
          produced.insert(uid);
    for (const Tensor &t : desc.tensors) {
      if (produced.count(t.uid))
        continue;
      fe::graph::Tensor_attributes a =
          t.isByValue ? byValueAttributes(t) : fe::graph::Tensor_attributes();
      describe(a, t);
      built[t.uid] = g.tensor(a);
    }
    for (size_t i = 0; i < desc.ops.size(); ++i)
      addOp(i, desc.ops[i]);
  }

  /// The frontend fixes a convolution's alpha at 1 and beta at 0. Alpha
  /// becomes a fused multiply by a by-value scalar; beta (blending in the
  /// output's prior value) has no frontend expression.
  void convOut(size_t index, const Op &op, const ConvAttrs &a,
               const TensorPtr &conv) {
    std::string name = describeOp(index, op.kind);
    if (a.beta != 0.0) {
      char beta[32];
      std::snprintf(beta, sizeof(beta), "%g", a.beta);
      throw UnsupportedGraph{
          name + ": beta " + beta +
          " (blending in the output's prior value) is not supported: "
          "cudnn-frontend fixes a convolution's beta at 0"};
    }
    int64_t uid = op.outputs[0];
    if (a.alpha == 1.0)
      return out(uid, conv);
    const Tensor &y = *tensors.at(uid);
    conv->set_is_virtual(true)
        .set_dim(y.dims)
        .set_stride(y.strides)
        .set_data_type(toFe(a.computeType));
    auto mul = fe::graph::Pointwise_attributes()
                   .set_name("op" + std::to_string(index) + "_alpha")
                   .set_mode(fe::PointwiseMode_t::MUL)
                   .set_compute_data_type(toFe(a.computeType));
    out(uid, g.pointwise(conv, scalar(static_cast<float>(a.alpha)), mul));
  }

  /// y = ((x - mean) * inv_variance) * scale + bias as fused pointwise ops.
  /// cuDNN 9.14 has no engine for a batch norm inference node of its own
  /// (Graph::batchnorm_inference: "No valid engine configs" on sm90; cuDNN
  /// takes it only inside its BN-inference + dReLU + dBN pattern), while the
  /// runtime-fusion engines take this chain alone or behind a convolution
  /// or matmul. epsilon is unused: inv_variance already holds it.
  void addBatchNormInference(const Op &op, const std::string &name,
                             fe::DataType_t compute) {
    const std::vector<int64_t> &x = op.inputs;
    const Tensor &y = *tensors.at(op.outputs[0]);
    auto step = [&](const TensorPtr &a, const TensorPtr &b,
                    fe::PointwiseMode_t mode, const char *what) {
      auto attrs = fe::graph::Pointwise_attributes()
                       .set_name(name + what)
                       .set_mode(mode)
                       .set_compute_data_type(compute);
      return g.pointwise(a, b, attrs);
    };
    auto virtualOf = [&](TensorPtr t) {
      t->set_is_virtual(true)
          .set_dim(y.dims)
          .set_stride(y.strides)
          .set_data_type(compute);
      return t;
    };
    TensorPtr centered =
        virtualOf(step(in(x[0]), in(x[3]), fe::PointwiseMode_t::SUB, "_sub"));
    TensorPtr normed =
        virtualOf(step(centered, in(x[4]), fe::PointwiseMode_t::MUL, "_inv"));
    TensorPtr scaled =
        virtualOf(step(normed, in(x[1]), fe::PointwiseMode_t::MUL, "_scale"));
    out(op.outputs[0],
        step(scaled, in(x[2]), fe::PointwiseMode_t::ADD, "_bias"));
  }

  void addNormForward(size_t index, const Op &op, const std::string &name) {
    const auto &a = std::get<NormForwardAttrs>(op.attrs);
    const std::vector<int64_t> &x = op.inputs, &y = op.outputs;
    std::string what = describeOp(index, op.kind);
    fe::DataType_t compute = toFe(a.computeType);
    fe::NormFwdPhase_t phase = toFePhase(a.phase);
    bool training = phase == fe::NormFwdPhase_t::TRAINING;
    TensorPtr epsilon = scalar(static_cast<float>(a.epsilon));
    switch (static_cast<NormMode>(a.mode)) {
    case NormMode::Batch: {
      if (!training)
        return addBatchNormInference(op, name, compute);
      fe::graph::Batchnorm_attributes attrs;
      attrs.set_name(name).set_compute_data_type(compute);
      attrs.set_epsilon(epsilon);
      if (a.momentum) {
        TensorPtr mean = in(x[5]), var = in(x[6]);
        TensorPtr momentum = scalar(static_cast<float>(*a.momentum));
        attrs.set_previous_running_stats(mean, var, momentum);
      }
      auto [ty, mean, invVar, nextMean, nextVar] =
          g.batchnorm(in(x[0]), in(x[1]), in(x[2]), attrs);
      out(y[0], ty);
      optOut(what, "saved_mean", y[1], mean);
      optOut(what, "saved_inv_variance", y[2], invVar);
      optOut(what, "next_running_mean", y[3], nextMean);
      optOut(what, "next_running_var", y[4], nextVar);
      return;
    }
    case NormMode::Layer: {
      fe::graph::Layernorm_attributes attrs;
      attrs.set_name(name).set_compute_data_type(compute);
      attrs.set_forward_phase(phase).set_epsilon(epsilon);
      auto [ty, mean, invVar] =
          g.layernorm(in(x[0]), in(x[1]), optIn(x[2]), attrs);
      out(y[0], ty);
      optOut(what, "saved_mean", y[1], mean);
      optOut(what, "saved_inv_variance", y[2], invVar);
      return;
    }
    case NormMode::Rms: {
      fe::graph::Rmsnorm_attributes attrs;
      attrs.set_name(name).set_compute_data_type(compute);
      attrs.set_forward_phase(phase).set_epsilon(epsilon);
      if (x[2]) {
        TensorPtr bias = in(x[2]);
        attrs.set_bias(bias);
      }
      auto [ty, invVar] = g.rmsnorm(in(x[0]), in(x[1]), attrs);
      out(y[0], ty);
      optOut(what, "saved_inv_variance", y[2], invVar);
      return;
    }
    case NormMode::Instance: {
      fe::graph::Instancenorm_attributes attrs;
      attrs.set_name(name).set_compute_data_type(compute);
      attrs.set_forward_phase(phase).set_epsilon(epsilon);
      auto [ty, mean, invVar] =
          g.instancenorm(in(x[0]), in(x[1]), in(x[2]), attrs);
      out(y[0], ty);
      optOut(what, "saved_mean", y[1], mean);
      optOut(what, "saved_inv_variance", y[2], invVar);
      return;
    }
    }
    throw UnsupportedGraph{what + ": norm mode " + std::to_string(a.mode)};
  }

  void addNormBackward(size_t index, const Op &op, const std::string &name) {
    const auto &a = std::get<NormBackwardAttrs>(op.attrs);
    const std::vector<int64_t> &x = op.inputs, &y = op.outputs;
    std::string what = describeOp(index, op.kind);
    fe::DataType_t compute = toFe(a.computeType);
    // Inputs (dy, x, scale, mean, inv_variance).
    std::array<TensorPtr, 3> grads;
    switch (static_cast<NormMode>(a.mode)) {
    case NormMode::Batch: {
      auto attrs = fe::graph::Batchnorm_backward_attributes()
                       .set_name(name)
                       .set_compute_data_type(compute);
      attrs.set_saved_mean_and_inv_variance(in(x[3]), in(x[4]));
      grads = g.batchnorm_backward(in(x[0]), in(x[1]), in(x[2]), attrs);
      break;
    }
    case NormMode::Layer: {
      auto attrs = fe::graph::Layernorm_backward_attributes()
                       .set_name(name)
                       .set_compute_data_type(compute);
      attrs.set_saved_mean_and_inv_variance(in(x[3]), in(x[4]));
      grads = g.layernorm_backward(in(x[0]), in(x[1]), in(x[2]), attrs);
      break;
    }
    case NormMode::Rms: {
      auto attrs = fe::graph::Rmsnorm_backward_attributes()
                       .set_name(name)
                       .set_compute_data_type(compute);
      attrs.has_dbias(y[2] != 0);
      grads =
          g.rmsnorm_backward(in(x[0]), in(x[1]), in(x[2]), in(x[4]), attrs);
      break;
    }
    case NormMode::Instance: {
      auto attrs = fe::graph::Instancenorm_backward_attributes()
                       .set_name(name)
                       .set_compute_data_type(compute);
      attrs.set_saved_mean_and_inv_variance(in(x[3]), in(x[4]));
      grads = g.instancenorm_backward(in(x[0]), in(x[1]), in(x[2]), attrs);
      break;
    }
    default:
      throw UnsupportedGraph{what + ": norm mode " + std::to_string(a.mode)};
    }
    out(y[0], grads[0]);
    out(y[1], grads[1]);
    optOut(what, "dbias", y[2], grads[2]);
  }

  void addBnFinalize(const Op &op, const std::string &name) {
    const auto &a = std::get<BnFinalizeAttrs>(op.attrs);
    const std::vector<int64_t> &x = op.inputs;
    fe::graph::BN_finalize_attributes attrs;
    attrs.set_name(name).set_compute_data_type(toFe(a.computeType));
    TensorPtr mean = in(x[4]), var = in(x[5]);
    TensorPtr momentum = scalar(static_cast<float>(a.momentum));
    attrs.set_previous_running_stats(mean, var, momentum);
    auto results = g.bn_finalize(
        in(x[0]), in(x[1]), in(x[2]), in(x[3]),
        scalar(static_cast<float>(a.epsilon)), scalar(a.accumulationCount),
        attrs);
    for (size_t i = 0; i < results.size(); ++i)
      out(op.outputs[i], results[i]);
  }

  void addResample(const Op &op, const std::string &name) {
    const auto &a = std::get<ResampleAttrs>(op.attrs);
    bool max = a.mode == static_cast<int64_t>(ResampleMode::MaxPool);
    auto attrs = fe::graph::Resample_attributes()
                     .set_name(name)
                     .set_compute_data_type(toFe(a.computeType))
                     .set_resampling_mode(toFeResample(a.mode))
                     .set_padding_mode(max ? fe::PaddingMode_t::NEG_INF_PAD
                                           : fe::PaddingMode_t::ZERO_PAD)
                     .set_generate_index(false)
                     .set_window(a.window)
                     .set_stride(a.stride)
                     .set_pre_padding(a.prePadding)
                     .set_post_padding(a.postPadding);
    auto [y, index] = g.resample(in(op.inputs[0]), attrs);
    (void)index; // null: no index output is asked for
    out(op.outputs[0], y);
  }

  /// Inference attention: no softmax statistics are asked for. The
  /// frontend expands the node into ops whose internal tensors take the
  /// graph's intermediate type (the scores, in the compute type).
  void addSdpa(const Op &op, const std::string &name) {
    const auto &a = std::get<SdpaAttrs>(op.attrs);
    g.set_intermediate_data_type(toFe(a.computeType))
        .set_compute_data_type(toFe(a.computeType));
    const std::vector<int64_t> &x = op.inputs;
    auto attrs = fe::graph::SDPA_attributes()
                     .set_name(name)
                     .set_compute_data_type(toFe(a.computeType))
                     .set_generate_stats(false)
                     .set_attn_scale(static_cast<float>(a.scale));
    if (TensorPtr bias = optIn(x[3]))
      attrs.set_bias(bias);
    auto [o, stats] = g.sdpa(in(x[0]), in(x[1]), in(x[2]), attrs);
    (void)stats; // null: generate_stats is off
    out(op.outputs[0], o);
  }

  void addOp(size_t index, const Op &op) {
    std::string name = "op" + std::to_string(index);
    const std::vector<int64_t> &x = op.inputs;
    switch (op.kind) {
    case OpKind::ConvFprop: {
      const auto &a = std::get<ConvAttrs>(op.attrs);
      auto attrs = convAttributes<fe::graph::Conv_fprop_attributes>(a, name);
      convOut(index, op, a, g.conv_fprop(in(x[0]), in(x[1]), attrs));
      return;
    }
    case OpKind::ConvDgrad: {
      const auto &a = std::get<ConvAttrs>(op.attrs);
      auto attrs = convAttributes<fe::graph::Conv_dgrad_attributes>(a, name);
      convOut(index, op, a, g.conv_dgrad(in(x[0]), in(x[1]), attrs));
      return;
    }
    case OpKind::ConvWgrad: {
      const auto &a = std::get<ConvAttrs>(op.attrs);
      auto attrs = convAttributes<fe::graph::Conv_wgrad_attributes>(a, name);
      // Description order (x, dy); the frontend takes (dy, x).
      convOut(index, op, a, g.conv_wgrad(in(x[1]), in(x[0]), attrs));
      return;
    }
    case OpKind::Matmul: {
      const auto &a = std::get<MatmulAttrs>(op.attrs);
      auto attrs = fe::graph::Matmul_attributes().set_name(name)
                       .set_compute_data_type(toFe(a.computeType));
      out(op.outputs[0], g.matmul(in(x[0]), in(x[1]), attrs));
      return;
    }
    case OpKind::Pointwise: {
      const auto &a = std::get<PointwiseAttrs>(op.attrs);
      fe::graph::Pointwise_attributes attrs;
      attrs.set_name(name)
          .set_mode(toFePointwise(a.mode))
          .set_compute_data_type(toFe(a.computeType));
      for (const auto &[key, value] : a.params) {
        float v = static_cast<float>(wordToDouble(value));
        switch (static_cast<PointwiseParam>(key)) {
        case PointwiseParam::ReluLowerClip: attrs.set_relu_lower_clip(v); break;
        case PointwiseParam::ReluUpperClip: attrs.set_relu_upper_clip(v); break;
        case PointwiseParam::ReluLowerClipSlope:
          attrs.set_relu_lower_clip_slope(v);
          break;
        case PointwiseParam::EluAlpha: attrs.set_elu_alpha(v); break;
        case PointwiseParam::SoftplusBeta: attrs.set_softplus_beta(v); break;
        case PointwiseParam::SwishBeta: attrs.set_swish_beta(v); break;
        case PointwiseParam::Axis: attrs.set_axis(value); break;
        }
      }
      TensorPtr y;
      switch (detail::pointwiseArity(a.mode)) {
      case 1: y = g.pointwise(in(x[0]), attrs); break;
      case 2: y = g.pointwise(in(x[0]), in(x[1]), attrs); break;
      case 3: y = g.pointwise(in(x[0]), in(x[1]), in(x[2]), attrs); break;
      default:
        throw UnsupportedGraph{describeOp(index, op.kind) + ": mode " +
                          pointwiseModeName(a.mode)};
      }
      out(op.outputs[0], y);
      return;
    }
    case OpKind::Reduction: {
      const auto &a = std::get<ReductionAttrs>(op.attrs);
      auto attrs = fe::graph::Reduction_attributes().set_name(name)
                       .set_mode(toFeReduction(a.mode))
                       .set_compute_data_type(toFe(a.computeType));
      out(op.outputs[0], g.reduction(in(x[0]), attrs));
      return;
    }
    case OpKind::NormForward: return addNormForward(index, op, name);
    case OpKind::NormBackward: return addNormBackward(index, op, name);
    case OpKind::GenStats: {
      const auto &a = std::get<GenStatsAttrs>(op.attrs);
      auto attrs = fe::graph::Genstats_attributes().set_name(name)
                       .set_compute_data_type(toFe(a.computeType));
      auto [sum, sqSum] = g.genstats(in(x[0]), attrs);
      out(op.outputs[0], sum);
      out(op.outputs[1], sqSum);
      return;
    }
    case OpKind::BnFinalize: return addBnFinalize(op, name);
    case OpKind::Resample: return addResample(op, name);
    case OpKind::Sdpa:
      return addSdpa(op, name);
    }
    throw UnsupportedGraph{describeOp(index, op.kind) + ": unknown op kind"};
  }
};


} // namespace

void cmrt::translateToFrontend(const GraphDescription &desc,
                               fe::graph::Graph &g) {
  Translator{desc, g, {}, {}}.run();
}
