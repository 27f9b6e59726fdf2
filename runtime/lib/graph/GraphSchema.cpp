//===- GraphSchema.cpp - operand slots, modes and data types --------------===//
//
// What GraphOps.def declares of each op kind, expanded: its operand slots,
// its attribute struct; plus the pointwise modes' arities.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphValidation.h"

#include <map>
#include <string_view>

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

/// "x scale bias?" -> slots x, scale (required) and bias (optional).
std::vector<Slot> parseSlots(std::string_view spec) {
  std::vector<Slot> slots;
  while (!spec.empty()) {
    size_t space = spec.find(' ');
    std::string_view word = spec.substr(0, space);
    spec = space == std::string_view::npos ? "" : spec.substr(space + 1);
    if (word.empty())
      continue;
    bool optional = word.back() == '?';
    if (optional)
      word.remove_suffix(1);
    slots.push_back({std::string(word), !optional});
  }
  return slots;
}

/// The schema GraphOps.def declares for each kind; empty for "*" kinds.
const std::map<OpKind, OpSchema> &declaredSchemas() {
  static const std::map<OpKind, OpSchema> schemas = {
#define CMRT_GRAPH_OP(K, V, N, A, I, O)                                        \
  {OpKind::K, {parseSlots(I), parseSlots(O)}},
#include "cudnn-mlir-runtime/GraphOps.def"
  };
  return schemas;
}

const OpSchema &pointwiseSchema(int64_t mode) {
  static const OpSchema unary{parseSlots("x"), parseSlots("y")};
  static const OpSchema binary{parseSlots("x b"), parseSlots("y")};
  static const OpSchema backward{parseSlots("dy x"), parseSlots("dx")};
  static const OpSchema select{parseSlots("x b mask"), parseSlots("y")};
  // No inputs: reported as an unknown mode.
  static const OpSchema unknown{{}, parseSlots("y")};
  bool isBackward = mode >= 200 && mode < 300;
  switch (pointwiseArity(mode)) {
  case 1: return unary;
  case 2: return isBackward ? backward : binary;
  case 3: return select;
  }
  return unknown;
}

} // namespace

const OpSchema &cmrt::graph::detail::schemaFor(const Op &op) {
  if (op.kind == OpKind::Pointwise)
    return pointwiseSchema(std::get<PointwiseAttrs>(op.attrs).mode);
  static const OpSchema none;
  auto it = declaredSchemas().find(op.kind);
  return it == declaredSchemas().end() ? none : it->second;
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
#define CMRT_GRAPH_OP(K, V, N, A, I, O)                                        \
  case OpKind::K:                                                              \
    return std::holds_alternative<A>(op.attrs);
#include "cudnn-mlir-runtime/GraphOps.def"
  }
  return false;
}

bool cmrt::graph::detail::defaultAttrsFor(int64_t kind, OpAttrs &out) {
  switch (static_cast<OpKind>(kind)) {
#define CMRT_GRAPH_OP(K, V, N, A, I, O)                                        \
  case OpKind::K:                                                              \
    out = A{};                                                                 \
    return true;
#include "cudnn-mlir-runtime/GraphOps.def"
  }
  return false;
}

TensorIndex cmrt::graph::detail::tensorsByUid(const GraphDescription &graph) {
  TensorIndex index;
  for (const Tensor &t : graph.tensors)
    index.emplace(t.uid, &t);
  return index;
}

bool cmrt::graph::detail::convGroupingOf(const Op &op, const TensorIndex &byUid,
                                         ConvGrouping &out) {
  if (op.kind != OpKind::ConvFprop || op.inputs.size() < 2)
    return false;
  auto x = byUid.find(op.inputs[0]), w = byUid.find(op.inputs[1]);
  if (x == byUid.end() || w == byUid.end())
    return false;
  const Tensor &in = *x->second, &filter = *w->second;
  if (in.dims.size() < 3 || filter.dims.size() < 3 || filter.dims[1] <= 0)
    return false;
  out.input = &in;
  out.filter = &filter;
  out.perGroup = filter.dims[1];
  out.groups = in.dims[1] / out.perGroup;
  return true;
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
