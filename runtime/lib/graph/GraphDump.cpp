//===- GraphDump.cpp - readable dumps of graph descriptions ---------------===//
//
// What error messages and logs show of a graph: every tensor (UID, type,
// dims, strides, alignment, virtual/by-value) and every op (kind, the
// attributes that matter, operands by slot name). CUDA-free, so unit-tested
// on any machine.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphValidation.h"

#include <cstdio>

using namespace cmrt::graph;
using cmrt::graph::detail::formatList;

Status cmrt::graph::checkOptions(uint64_t options) {
  if (options & ~kKnownGraphOptions) {
    char buf[320];
    std::snprintf(buf, sizeof(buf),
                  "expects graph options made of CMRT_GRAPH_EXACT_FP32 (1), "
                  "CMRT_GRAPH_DETERMINISTIC (2), CMRT_GRAPH_AUTOTUNE (4), "
                  "CMRT_GRAPH_WORKSPACE_LIMIT (8) with a cap in bits 32..63 "
                  "and CMRT_GRAPH_NO_SPLIT (16), "
                  "but got 0x%llx",
                  static_cast<unsigned long long>(options));
    return {CMRT_ERROR_INVALID_ARGUMENT, buf};
  }
  if ((options >> 32) && !(options & CMRT_GRAPH_WORKSPACE_LIMIT)) {
    char buf[200];
    std::snprintf(buf, sizeof(buf),
                  "expects a workspace cap in bits 32..63 only with "
                  "CMRT_GRAPH_WORKSPACE_LIMIT (8), but got 0x%llx",
                  static_cast<unsigned long long>(options));
    return {CMRT_ERROR_INVALID_ARGUMENT, buf};
  }
  return Status::success();
}

std::string cmrt::graph::dataTypeName(int64_t dataType) {
  switch (static_cast<DataType>(dataType)) {
  case DataType::Float: return "float";
  case DataType::Double: return "double";
  case DataType::Half: return "half";
  case DataType::Int8: return "int8";
  case DataType::Int32: return "int32";
  case DataType::Uint8: return "uint8";
  case DataType::BFloat16: return "bfloat16";
  case DataType::Int64: return "int64";
  case DataType::Boolean: return "boolean";
  case DataType::Fp8E4M3: return "fp8_e4m3";
  case DataType::Fp8E5M2: return "fp8_e5m2";
  }
  return "dtype(" + std::to_string(dataType) + ")";
}

std::string cmrt::graph::pointwiseModeName(int64_t mode) {
  using M = PointwiseMode;
  switch (static_cast<M>(mode)) {
  case M::Add: return "add";
  case M::Mul: return "mul";
  case M::Min: return "min";
  case M::Max: return "max";
  case M::Sqrt: return "sqrt";
  case M::AddSquare: return "add_square";
  case M::Div: return "div";
  case M::Mod: return "mod";
  case M::Pow: return "pow";
  case M::Sub: return "sub";
  case M::Abs: return "abs";
  case M::Ceil: return "ceil";
  case M::Cos: return "cos";
  case M::Exp: return "exp";
  case M::Floor: return "floor";
  case M::Log: return "log";
  case M::Neg: return "neg";
  case M::Rsqrt: return "rsqrt";
  case M::Sin: return "sin";
  case M::Tan: return "tan";
  case M::Erf: return "erf";
  case M::Identity: return "identity";
  case M::Reciprocal: return "reciprocal";
  case M::ReluFwd: return "relu_fwd";
  case M::TanhFwd: return "tanh_fwd";
  case M::SigmoidFwd: return "sigmoid_fwd";
  case M::EluFwd: return "elu_fwd";
  case M::GeluFwd: return "gelu_fwd";
  case M::SoftplusFwd: return "softplus_fwd";
  case M::SwishFwd: return "swish_fwd";
  case M::GeluApproxTanhFwd: return "gelu_approx_tanh_fwd";
  case M::ReluBwd: return "relu_bwd";
  case M::TanhBwd: return "tanh_bwd";
  case M::SigmoidBwd: return "sigmoid_bwd";
  case M::EluBwd: return "elu_bwd";
  case M::GeluBwd: return "gelu_bwd";
  case M::SoftplusBwd: return "softplus_bwd";
  case M::SwishBwd: return "swish_bwd";
  case M::GeluApproxTanhBwd: return "gelu_approx_tanh_bwd";
  case M::CmpEq: return "cmp_eq";
  case M::CmpNeq: return "cmp_neq";
  case M::CmpGt: return "cmp_gt";
  case M::CmpGe: return "cmp_ge";
  case M::CmpLt: return "cmp_lt";
  case M::CmpLe: return "cmp_le";
  case M::LogicalAnd: return "logical_and";
  case M::LogicalOr: return "logical_or";
  case M::LogicalNot: return "logical_not";
  case M::GenIndex: return "gen_index";
  case M::BinarySelect: return "binary_select";
  }
  return "mode(" + std::to_string(mode) + ")";
}

std::string cmrt::graph::reductionModeName(int64_t mode) {
  using R = ReductionMode;
  switch (static_cast<R>(mode)) {
  case R::Add: return "add";
  case R::Mul: return "mul";
  case R::Min: return "min";
  case R::Max: return "max";
  case R::Amax: return "amax";
  case R::Avg: return "avg";
  case R::Norm1: return "norm1";
  case R::Norm2: return "norm2";
  }
  return "mode(" + std::to_string(mode) + ")";
}

std::string cmrt::graph::normModeName(int64_t mode) {
  switch (static_cast<NormMode>(mode)) {
  case NormMode::Layer: return "layer";
  case NormMode::Instance: return "instance";
  case NormMode::Batch: return "batch";
  case NormMode::Rms: return "rms";
  }
  return "mode(" + std::to_string(mode) + ")";
}

std::string cmrt::graph::resampleModeName(int64_t mode) {
  switch (static_cast<ResampleMode>(mode)) {
  case ResampleMode::AvgIncludePadding: return "avg_include_padding";
  case ResampleMode::MaxPool: return "max_pool";
  case ResampleMode::AvgExcludePadding: return "avg_exclude_padding";
  }
  return "mode(" + std::to_string(mode) + ")";
}

namespace {

std::string fmt(double value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", value);
  return buf;
}

std::string scalarText(const Tensor &t) {
  switch (static_cast<DataType>(t.dataType)) {
  case DataType::Float:
  case DataType::Double:
  case DataType::Half:
  case DataType::BFloat16:
    return fmt(wordToDouble(t.scalar));
  default:
    return std::to_string(t.scalar);
  }
}

std::string phaseName(int64_t phase) {
  switch (static_cast<NormPhase>(phase)) {
  case NormPhase::Inference: return "inference";
  case NormPhase::Training: return "training";
  }
  return "phase(" + std::to_string(phase) + ")";
}

/// " batch training compute float": a norm's mode, forward phase (none for
/// a backward norm) and compute type. Appended piece by piece: GCC 12 warns
/// (-Wrestrict, falsely) on `" " + std::string`.
std::string normText(int64_t mode, int64_t computeType,
                     std::optional<int64_t> phase = std::nullopt) {
  std::string s(" ");
  s += normModeName(mode);
  if (phase) {
    s += " ";
    s += phaseName(*phase);
  }
  s += " compute ";
  s += dataTypeName(computeType);
  return s;
}

/// " <attributes>" of each attribute struct (GraphOps.def's Attrs column):
/// what a dump line shows between the op's name and its operands.
std::string attrText(const ConvAttrs &a) {
  std::string s = " compute " + dataTypeName(a.computeType);
  if (a.mode == static_cast<int64_t>(ConvMode::Convolution))
    s += " mode convolution";
  s += " pad " + formatList(a.prePadding) + "/" + formatList(a.postPadding) +
       " stride " + formatList(a.stride) + " dilation " +
       formatList(a.dilation);
  if (a.alpha != 1.0 || a.beta != 0.0)
    s += " alpha " + fmt(a.alpha) + " beta " + fmt(a.beta);
  return s;
}

std::string attrText(const MatmulAttrs &a) {
  return " compute " + dataTypeName(a.computeType);
}

/// " <mode> compute <type>", appended piece by piece (see normText).
std::string modeText(const std::string &mode, int64_t computeType) {
  std::string s(" ");
  s += mode;
  s += " compute ";
  s += dataTypeName(computeType);
  return s;
}

std::string attrText(const PointwiseAttrs &a) {
  std::string s = modeText(pointwiseModeName(a.mode), a.computeType);
  for (const auto &[key, value] : a.params) {
    if (key == static_cast<int64_t>(PointwiseParam::Axis))
      s += " axis " + std::to_string(value);
    else
      s += " param" + std::to_string(key) + " " + fmt(wordToDouble(value));
  }
  return s;
}

std::string attrText(const ReductionAttrs &a) {
  return modeText(reductionModeName(a.mode), a.computeType);
}

std::string attrText(const NormForwardAttrs &a) {
  std::string s = normText(a.mode, a.computeType, a.phase);
  s += " epsilon ";
  s += fmt(a.epsilon);
  if (a.momentum) {
    s += " momentum ";
    s += fmt(*a.momentum);
  }
  return s;
}

std::string attrText(const NormBackwardAttrs &a) {
  return normText(a.mode, a.computeType);
}

std::string attrText(const GenStatsAttrs &a) {
  return " compute " + dataTypeName(a.computeType);
}

std::string attrText(const BnFinalizeAttrs &a) {
  std::string s = " compute " + dataTypeName(a.computeType);
  s += " epsilon ";
  s += fmt(a.epsilon);
  s += " momentum ";
  s += fmt(a.momentum);
  s += " accumulation_count ";
  s += std::to_string(a.accumulationCount);
  return s;
}

std::string attrText(const SdpaAttrs &a) {
  return " compute " + dataTypeName(a.computeType) + " scale " + fmt(a.scale);
}

std::string attrText(const ResampleAttrs &a) {
  std::string s = modeText(resampleModeName(a.mode), a.computeType);
  s += " window " + formatList(a.window) + " pad " + formatList(a.prePadding) +
       "/" + formatList(a.postPadding) + " stride " + formatList(a.stride);
  return s;
}

std::string operands(const std::vector<int64_t> &uids,
                     const std::vector<detail::Slot> &slots) {
  std::string s;
  for (size_t i = 0; i < uids.size(); ++i) {
    if (uids[i] == 0)
      continue;
    if (!s.empty())
      s += " ";
    s += (i < slots.size() ? slots[i].name : "?") + std::string("=") +
         std::to_string(uids[i]);
  }
  return s;
}

} // namespace

std::string cmrt::graph::dumpGraph(const GraphDescription &graph) {
  std::string out = "graph: " + std::to_string(graph.tensors.size()) +
                    (graph.tensors.size() == 1 ? " tensor, " : " tensors, ") +
                    std::to_string(graph.ops.size()) +
                    (graph.ops.size() == 1 ? " op\n" : " ops\n");
  for (const Tensor &t : graph.tensors) {
    out += "  tensor UID " + std::to_string(t.uid) + ": " +
           dataTypeName(t.dataType) + " " + formatList(t.dims) + " strides " +
           formatList(t.strides) + " align " + std::to_string(t.alignment);
    if (t.isVirtual)
      out += " virtual";
    if (t.isByValue)
      out += " by-value " + scalarText(t);
    out += "\n";
  }
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const Op &op = graph.ops[i];
    static const detail::OpSchema unknown;
    const detail::OpSchema &schema =
        detail::attrsMatchKind(op) ? detail::schemaFor(op) : unknown;
    std::string attrs =
        std::visit([](const auto &a) { return attrText(a); }, op.attrs);
    out += "  " + describeOp(i, op.kind) + attrs + ": " +
           operands(op.inputs, schema.inputs) + " -> " +
           operands(op.outputs, schema.outputs) + "\n";
  }
  return out;
}
