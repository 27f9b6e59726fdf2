//===- GraphSchema.cpp - operand slots, modes and data types --------------===//

#include "GraphValidation.h"

using namespace cmrt::graph;
using namespace cmrt::graph::detail;

int cmrt::graph::detail::pointwiseArity(int64_t mode) {
  using M = PointwiseMode;
  switch (static_cast<M>(mode)) {
  case M::Sqrt: case M::Abs: case M::Ceil: case M::Cos: case M::Exp:
  case M::Floor: case M::Log: case M::Neg: case M::Rsqrt: case M::Sin:
  case M::Tan: case M::Erf: case M::Identity: case M::Reciprocal:
  case M::ReluFwd: case M::TanhFwd: case M::SigmoidFwd: case M::EluFwd:
  case M::GeluFwd: case M::SoftplusFwd: case M::SwishFwd:
  case M::GeluApproxTanhFwd: case M::LogicalNot: case M::GenIndex:
    return 1;
  case M::Add: case M::Mul: case M::Min: case M::Max: case M::AddSquare:
  case M::Div: case M::Mod: case M::Pow: case M::Sub:
  case M::ReluBwd: case M::TanhBwd: case M::SigmoidBwd: case M::EluBwd:
  case M::GeluBwd: case M::SoftplusBwd: case M::SwishBwd:
  case M::GeluApproxTanhBwd: case M::CmpEq: case M::CmpNeq: case M::CmpGt:
  case M::CmpGe: case M::CmpLt: case M::CmpLe: case M::LogicalAnd:
  case M::LogicalOr:
    return 2;
  case M::BinarySelect:
    return 3;
  }
  return 0;
}

namespace {

OpSchema pointwiseSchema(int64_t mode) {
  bool backward = mode >= 200 && mode < 300;
  switch (pointwiseArity(mode)) {
  case 1: return {{{"x", true}}, {{"y", true}}};
  case 2:
    if (backward)
      return {{{"dy", true}, {"x", true}}, {{"dx", true}}};
    return {{{"x", true}, {"b", true}}, {{"y", true}}};
  case 3: return {{{"x", true}, {"b", true}, {"mask", true}}, {{"y", true}}};
  }
  return {{}, {{"y", true}}}; // no inputs: reported as an unknown mode
}

} // namespace

OpSchema cmrt::graph::detail::schemaFor(const Op &op) {
  switch (op.kind) {
  case OpKind::ConvFprop: return {{{"x", true}, {"w", true}}, {{"y", true}}};
  case OpKind::ConvDgrad: return {{{"dy", true}, {"w", true}}, {{"dx", true}}};
  case OpKind::ConvWgrad: return {{{"x", true}, {"dy", true}}, {{"dw", true}}};
  case OpKind::Matmul: return {{{"a", true}, {"b", true}}, {{"c", true}}};
  case OpKind::Pointwise:
    return pointwiseSchema(std::get<PointwiseAttrs>(op.attrs).mode);
  case OpKind::Reduction:
  case OpKind::Resample: return {{{"x", true}}, {{"y", true}}};
  case OpKind::NormForward:
    return {{{"x", true}, {"scale", true}, {"bias", false}, {"mean", false},
             {"inv_variance", false}, {"running_mean", false},
             {"running_var", false}},
            {{"y", true}, {"saved_mean", false},
             {"saved_inv_variance", false}, {"next_running_mean", false},
             {"next_running_var", false}}};
  case OpKind::NormBackward:
    return {{{"dy", true}, {"x", true}, {"scale", true}, {"mean", false},
             {"inv_variance", true}},
            {{"dx", true}, {"dscale", true}, {"dbias", false}}};
  case OpKind::GenStats:
    return {{{"x", true}}, {{"sum", true}, {"sq_sum", true}}};
  case OpKind::BnFinalize:
    return {{{"sum", true}, {"sq_sum", true}, {"scale", true}, {"bias", true},
             {"running_mean", true}, {"running_var", true}},
            {{"eq_scale", true}, {"eq_bias", true}, {"saved_mean", true},
             {"saved_inv_std", true}, {"next_running_mean", true},
             {"next_running_var", true}}};
  }
  return {};
}

bool cmrt::graph::detail::isKnownDataType(int64_t dataType) {
  switch (static_cast<DataType>(dataType)) {
  case DataType::Float: case DataType::Double: case DataType::Half:
  case DataType::Int8: case DataType::Int32: case DataType::Uint8:
  case DataType::BFloat16: case DataType::Int64: case DataType::Boolean:
  case DataType::Fp8E4M3: case DataType::Fp8E5M2:
    return true;
  }
  return false;
}

bool cmrt::graph::detail::attrsMatchKind(const Op &op) {
  switch (op.kind) {
  case OpKind::ConvFprop:
  case OpKind::ConvDgrad:
  case OpKind::ConvWgrad: return std::holds_alternative<ConvAttrs>(op.attrs);
  case OpKind::Matmul: return std::holds_alternative<MatmulAttrs>(op.attrs);
  case OpKind::Pointwise:
    return std::holds_alternative<PointwiseAttrs>(op.attrs);
  case OpKind::Reduction:
    return std::holds_alternative<ReductionAttrs>(op.attrs);
  case OpKind::NormForward:
    return std::holds_alternative<NormForwardAttrs>(op.attrs);
  case OpKind::NormBackward:
    return std::holds_alternative<NormBackwardAttrs>(op.attrs);
  case OpKind::GenStats:
    return std::holds_alternative<GenStatsAttrs>(op.attrs);
  case OpKind::BnFinalize:
    return std::holds_alternative<BnFinalizeAttrs>(op.attrs);
  case OpKind::Resample:
    return std::holds_alternative<ResampleAttrs>(op.attrs);
  }
  return false;
}

const Tensor *OpView::lookup(const std::vector<int64_t> &uids,
                             size_t i) const {
  if (i >= uids.size() || uids[i] == 0)
    return nullptr;
  auto it = tensors.find(uids[i]);
  return it == tensors.end() ? nullptr : it->second;
}

std::string OpView::inputName(size_t i) const {
  return std::string(schema.inputs[i].name) + " (UID " +
         std::to_string(op.inputs[i]) + ")";
}

std::string OpView::outputName(size_t i) const {
  return std::string(schema.outputs[i].name) + " (UID " +
         std::to_string(op.outputs[i]) + ")";
}

std::string cmrt::graph::detail::formatList(const std::vector<int64_t> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}
