//===- FrontendTranslate.cpp - description -> cudnn-frontend ops ----------===//
//
// Compiled with -fexceptions -frtti. Throws UnsupportedGraph (and whatever
// the frontend throws); FrontendGraph.cpp catches both.
//
//===----------------------------------------------------------------------===//

#include "FrontendTranslate.h"
#include "GraphValidation.h"

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
  if (a.alpha != 1.0 || a.beta != 0.0)
    throw UnsupportedGraph{name + ": alpha/beta other than 1/0 (not supported "
                             "yet)"};
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

  void out(int64_t uid, const TensorPtr &t) {
    if (!t)
      throw UnsupportedGraph{"the frontend returned no tensor for UID " +
                        std::to_string(uid)};
    describe(*t, *tensors.at(uid));
    built[uid] = t;
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

  void addOp(size_t index, const Op &op) {
    std::string name = "op" + std::to_string(index);
    const std::vector<int64_t> &x = op.inputs;
    switch (op.kind) {
    case OpKind::ConvFprop: {
      auto attrs = convAttributes<fe::graph::Conv_fprop_attributes>(
          std::get<ConvAttrs>(op.attrs), name);
      out(op.outputs[0], g.conv_fprop(in(x[0]), in(x[1]), attrs));
      return;
    }
    case OpKind::ConvDgrad: {
      auto attrs = convAttributes<fe::graph::Conv_dgrad_attributes>(
          std::get<ConvAttrs>(op.attrs), name);
      out(op.outputs[0], g.conv_dgrad(in(x[0]), in(x[1]), attrs));
      return;
    }
    case OpKind::ConvWgrad: {
      auto attrs = convAttributes<fe::graph::Conv_wgrad_attributes>(
          std::get<ConvAttrs>(op.attrs), name);
      // Description order (x, dy); the frontend takes (dy, x).
      out(op.outputs[0], g.conv_wgrad(in(x[1]), in(x[0]), attrs));
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
    case OpKind::NormForward:
    case OpKind::NormBackward:
    case OpKind::GenStats:
    case OpKind::BnFinalize:
    case OpKind::Resample:
      break;
    }
    throw UnsupportedGraph{describeOp(index, op.kind) +
                      " is not supported by the runtime yet"};
  }
};


} // namespace

void cmrt::translateToFrontend(const GraphDescription &desc,
                               fe::graph::Graph &g) {
  Translator{desc, g, {}, {}}.run();
}
