//===- GraphDescription.h - the compact graph description -------*- C++ -*-===//
//
// The format in which compiled code hands a cuDNN graph to the runtime: a flat
// array of int64 words that the compiler embeds as a constant. This header is
// the format's one specification, and its writer is header-only and needs
// neither cuDNN nor MLIR, so the LLVM lowering and the runtime include the
// same definitions. docs/runtime.md has the word-by-word table.
//
// Every enum-valued word uses cuDNN's own numbering (cudnnDataType_t,
// cudnnPointwiseMode_t, cudnnReduceTensorOp_t, cudnnConvolutionMode_t,
// cudnnBackendNormMode_t, cudnnBackendNormFwdPhase_t, cudnnResampleMode_t,
// cudnnBackendAttributeName_t for pointwise parameters), exactly like the
// `cudnn` dialect; the runtime static_asserts the values against cudnn.h.
//
// Layout (one word each unless noted; records follow each other densely):
//   header:  magic, version, total word count, tensor count, op count
//   tensor:  uid, data type, flags, alignment, rank, dims[rank],
//            stride count, strides[stride count], [scalar if by-value]
//   op:      kind, attribute count, attributes[attribute count],
//            input count, inputs[input count], output count, outputs[...]
// Floating-point values are IEEE-754 double bit patterns. UID 0 in an op's
// input or output slot means "this optional operand is absent".
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GRAPHDESCRIPTION_H
#define CUDNN_MLIR_RUNTIME_GRAPHDESCRIPTION_H

#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

namespace cmrt::graph {

/// "CMRTGRPH" read as a little-endian int64.
inline constexpr int64_t kMagic = 0x4850524754524D43;
/// Bumped on any change to the layout; the runtime refuses other versions.
inline constexpr int64_t kFormatVersion = 1;
inline constexpr int64_t kHeaderWords = 5;
inline constexpr int64_t kMaxRank = 8;

/// Tensor flag bits.
inline constexpr int64_t kFlagVirtual = 1;
inline constexpr int64_t kFlagByValue = 2;
inline constexpr int64_t kKnownFlags = kFlagVirtual | kFlagByValue;

/// cudnnDataType_t.
enum class DataType : int64_t {
  Float = 0,
  Double = 1,
  Half = 2,
  Int8 = 3,
  Int32 = 4,
  Uint8 = 6,
  BFloat16 = 9,
  Int64 = 10,
  Boolean = 11,
  Fp8E4M3 = 12,
  Fp8E5M2 = 13,
};

/// The operation in an op record: one enumerator per line of GraphOps.def.
/// Our own numbering: cuDNN has no enum that names graph operations short of
/// backend descriptor types.
enum class OpKind : int64_t {
#define CMRT_GRAPH_OP(K, V, N, A, I, O) K = V,
#include "cudnn-mlir-runtime/GraphOps.def"
};

/// cudnnPointwiseMode_t.
enum class PointwiseMode : int64_t {
  Add = 0, Mul = 1, Min = 2, Max = 3, Sqrt = 4, AddSquare = 5, Div = 6,
  Mod = 7, Pow = 8, Sub = 9, Abs = 10, Ceil = 11, Cos = 12, Exp = 13,
  Floor = 14, Log = 15, Neg = 16, Rsqrt = 17, Sin = 18, Tan = 19, Erf = 20,
  Identity = 21, Reciprocal = 22,
  ReluFwd = 100, TanhFwd = 101, SigmoidFwd = 102, EluFwd = 103,
  GeluFwd = 104, SoftplusFwd = 105, SwishFwd = 106, GeluApproxTanhFwd = 107,
  ReluBwd = 200, TanhBwd = 201, SigmoidBwd = 202, EluBwd = 203,
  GeluBwd = 204, SoftplusBwd = 205, SwishBwd = 206, GeluApproxTanhBwd = 207,
  CmpEq = 300, CmpNeq = 301, CmpGt = 302, CmpGe = 303, CmpLt = 304,
  CmpLe = 305, LogicalAnd = 400, LogicalOr = 401, LogicalNot = 402,
  GenIndex = 501, BinarySelect = 601,
};

/// cudnnConvolutionMode_t.
enum class ConvMode : int64_t { Convolution = 0, CrossCorrelation = 1 };

/// cudnnReduceTensorOp_t (the modes the dialect has).
enum class ReductionMode : int64_t {
  Add = 0, Mul = 1, Min = 2, Max = 3, Amax = 4, Avg = 5, Norm1 = 6, Norm2 = 7,
};

/// cudnnBackendNormMode_t (the modes the dialect has).
enum class NormMode : int64_t { Layer = 0, Instance = 1, Batch = 2, Rms = 4 };

/// cudnnBackendNormFwdPhase_t.
enum class NormPhase : int64_t { Inference = 0, Training = 1 };

/// cudnnResampleMode_t (the pooling modes).
enum class ResampleMode : int64_t {
  AvgIncludePadding = 2, MaxPool = 3, AvgExcludePadding = 4,
};

/// Keys of optional pointwise parameters: cudnnBackendAttributeName_t.
enum class PointwiseParam : int64_t {
  ReluLowerClip = 3,
  ReluUpperClip = 4,
  ReluLowerClipSlope = 5,
  EluAlpha = 6,
  SoftplusBeta = 7,
  SwishBeta = 8,
  Axis = 9, // an integer, not a double
};

inline int64_t doubleToWord(double value) {
  int64_t word;
  std::memcpy(&word, &value, sizeof(word));
  return word;
}

inline double wordToDouble(int64_t word) {
  double value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

struct Tensor {
  int64_t uid = 0;
  int64_t dataType = static_cast<int64_t>(DataType::Float);
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
  int64_t alignment = 16;
  bool isVirtual = false;
  bool isByValue = false;
  /// By-value tensors only: a double's bits for floating-point data types,
  /// the value itself for integer and boolean ones.
  int64_t scalar = 0;

  bool operator==(const Tensor &o) const {
    return uid == o.uid && dataType == o.dataType && dims == o.dims &&
           strides == o.strides && alignment == o.alignment &&
           isVirtual == o.isVirtual && isByValue == o.isByValue &&
           scalar == o.scalar;
  }
};

/// Convolution forward, backward data and backward filter.
/// Inputs: fprop (x, w), dgrad (dy, w), wgrad (x, dy). Outputs: y / dx / dw.
struct ConvAttrs {
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  int64_t mode = static_cast<int64_t>(ConvMode::CrossCorrelation);
  double alpha = 1.0;
  double beta = 0.0;
  int64_t spatialDims = 0;
  std::vector<int64_t> stride, prePadding, postPadding, dilation;

  bool operator==(const ConvAttrs &o) const {
    return computeType == o.computeType && mode == o.mode &&
           doubleToWord(alpha) == doubleToWord(o.alpha) &&
           doubleToWord(beta) == doubleToWord(o.beta) &&
           spatialDims == o.spatialDims && stride == o.stride &&
           prePadding == o.prePadding && postPadding == o.postPadding &&
           dilation == o.dilation;
  }
};

/// Inputs (a, b), output (c).
struct MatmulAttrs {
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  bool operator==(const MatmulAttrs &o) const {
    return computeType == o.computeType;
  }
};

/// Inputs: 1 (unary), 2 (binary; backward modes take (dy, x)) or 3
/// (binary_select: (x, b, mask)); one output.
struct PointwiseAttrs {
  int64_t mode = static_cast<int64_t>(PointwiseMode::Identity);
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  /// (PointwiseParam, value word) pairs in ascending key order.
  std::vector<std::pair<int64_t, int64_t>> params;

  PointwiseAttrs &set(PointwiseParam key, double value) {
    return setWord(key, doubleToWord(value));
  }
  PointwiseAttrs &setAxis(int64_t axis) {
    return setWord(PointwiseParam::Axis, axis);
  }
  std::optional<int64_t> get(PointwiseParam key) const {
    for (const auto &[k, v] : params)
      if (k == static_cast<int64_t>(key))
        return v;
    return std::nullopt;
  }
  bool operator==(const PointwiseAttrs &o) const {
    return mode == o.mode && computeType == o.computeType &&
           params == o.params;
  }

private:
  PointwiseAttrs &setWord(PointwiseParam key, int64_t word) {
    auto k = static_cast<int64_t>(key);
    auto it = params.begin();
    while (it != params.end() && it->first < k)
      ++it;
    if (it != params.end() && it->first == k)
      it->second = word;
    else
      params.insert(it, {k, word});
    return *this;
  }
};

/// Input (x), output (y): y has x's rank, each dim equal to x's or 1.
struct ReductionAttrs {
  int64_t mode = static_cast<int64_t>(ReductionMode::Add);
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  bool operator==(const ReductionAttrs &o) const {
    return mode == o.mode && computeType == o.computeType;
  }
};

/// Inputs (x, scale, bias, mean, inv_variance, running_mean, running_var),
/// outputs (y, saved_mean, saved_inv_variance, next_running_mean,
/// next_running_var); 0 marks an absent optional slot.
struct NormForwardAttrs {
  int64_t mode = static_cast<int64_t>(NormMode::Batch);
  int64_t phase = static_cast<int64_t>(NormPhase::Inference);
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  double epsilon = 1e-5;
  std::optional<double> momentum;
  bool operator==(const NormForwardAttrs &o) const {
    return mode == o.mode && phase == o.phase &&
           computeType == o.computeType &&
           doubleToWord(epsilon) == doubleToWord(o.epsilon) &&
           momentum.has_value() == o.momentum.has_value() &&
           (!momentum || doubleToWord(*momentum) == doubleToWord(*o.momentum));
  }
};

/// Inputs (dy, x, scale, mean, inv_variance), outputs (dx, dscale, dbias).
struct NormBackwardAttrs {
  int64_t mode = static_cast<int64_t>(NormMode::Batch);
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  bool operator==(const NormBackwardAttrs &o) const {
    return mode == o.mode && computeType == o.computeType;
  }
};

/// Input (x), outputs (sum, sq_sum).
struct GenStatsAttrs {
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  bool operator==(const GenStatsAttrs &o) const {
    return computeType == o.computeType;
  }
};

/// Inputs (sum, sq_sum, scale, bias, running_mean, running_var), outputs
/// (eq_scale, eq_bias, saved_mean, saved_inv_std, next_running_mean,
/// next_running_var).
struct BnFinalizeAttrs {
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  double epsilon = 1e-5;
  double momentum = 0.1;
  int64_t accumulationCount = 1;
  bool operator==(const BnFinalizeAttrs &o) const {
    return computeType == o.computeType &&
           doubleToWord(epsilon) == doubleToWord(o.epsilon) &&
           doubleToWord(momentum) == doubleToWord(o.momentum) &&
           accumulationCount == o.accumulationCount;
  }
};

/// Pooling. Input (x), output (y).
struct ResampleAttrs {
  int64_t mode = static_cast<int64_t>(ResampleMode::MaxPool);
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  int64_t spatialDims = 0;
  std::vector<int64_t> window, stride, prePadding, postPadding;
  bool operator==(const ResampleAttrs &o) const {
    return mode == o.mode && computeType == o.computeType &&
           spatialDims == o.spatialDims && window == o.window &&
           stride == o.stride && prePadding == o.prePadding &&
           postPadding == o.postPadding;
  }
};

/// Scaled dot-product attention for inference. Inputs (q [B, H, S, D],
/// k [B, Hk, Skv, D], v [B, Hk, Skv, Dv], bias? with each dim of
/// [B, H, S, Skv] or 1), output (o [B, H, S, Dv]): o = softmax(scale *
/// q k^T + bias) v, the softmax over Skv, computed in `computeType`.
struct SdpaAttrs {
  int64_t computeType = static_cast<int64_t>(DataType::Float);
  double scale = 1.0;
  bool operator==(const SdpaAttrs &o) const {
    return computeType == o.computeType &&
           doubleToWord(scale) == doubleToWord(o.scale);
  }
};

using OpAttrs =
    std::variant<ConvAttrs, MatmulAttrs, PointwiseAttrs, ReductionAttrs,
                 NormForwardAttrs, NormBackwardAttrs, GenStatsAttrs,
                 BnFinalizeAttrs, ResampleAttrs, SdpaAttrs>;

struct Op {
  OpKind kind = OpKind::Pointwise;
  OpAttrs attrs;
  std::vector<int64_t> inputs;  // UIDs; 0 = absent optional operand
  std::vector<int64_t> outputs; // UIDs; 0 = absent optional result
  bool operator==(const Op &o) const {
    return kind == o.kind && attrs == o.attrs && inputs == o.inputs &&
           outputs == o.outputs;
  }
};

struct GraphDescription {
  std::vector<Tensor> tensors;
  std::vector<Op> ops;
  bool operator==(const GraphDescription &o) const {
    return tensors == o.tensors && ops == o.ops;
  }
};

/// Row-major packed strides for `dims` (the default layout).
inline std::vector<int64_t> packedStrides(const std::vector<int64_t> &dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i > 1; --i)
    strides[i - 2] = strides[i - 1] * dims[i - 1];
  return strides;
}

/// A printable name for an op kind, used in every diagnostic.
inline const char *opKindName(OpKind kind) {
  switch (kind) {
#define CMRT_GRAPH_OP(K, V, N, A, I, O)                                        \
  case OpKind::K:                                                              \
    return N;
#include "cudnn-mlir-runtime/GraphOps.def"
  }
  return "unknown";
}

/// Every OpKind value, in GraphOps.def's order.
inline constexpr int64_t kOpKindValues[] = {
#define CMRT_GRAPH_OP(K, V, N, A, I, O) V,
#include "cudnn-mlir-runtime/GraphOps.def"
};

namespace detail {

inline void appendList(std::vector<int64_t> &out,
                       const std::vector<int64_t> &list) {
  out.push_back(static_cast<int64_t>(list.size()));
  out.insert(out.end(), list.begin(), list.end());
}

inline void appendAttrs(std::vector<int64_t> &out, const ConvAttrs &a) {
  out.insert(out.end(), {a.computeType, a.mode, doubleToWord(a.alpha),
                         doubleToWord(a.beta), a.spatialDims});
  for (const auto *list : {&a.stride, &a.prePadding, &a.postPadding,
                           &a.dilation})
    appendList(out, *list);
}
inline void appendAttrs(std::vector<int64_t> &out, const MatmulAttrs &a) {
  out.push_back(a.computeType);
}
inline void appendAttrs(std::vector<int64_t> &out, const PointwiseAttrs &a) {
  out.insert(out.end(), {a.mode, a.computeType,
                         static_cast<int64_t>(a.params.size())});
  for (const auto &[key, value] : a.params)
    out.insert(out.end(), {key, value});
}
inline void appendAttrs(std::vector<int64_t> &out, const ReductionAttrs &a) {
  out.insert(out.end(), {a.mode, a.computeType});
}
inline void appendAttrs(std::vector<int64_t> &out, const NormForwardAttrs &a) {
  out.insert(out.end(), {a.mode, a.phase, a.computeType,
                         doubleToWord(a.epsilon), a.momentum ? 1 : 0,
                         a.momentum ? doubleToWord(*a.momentum) : 0});
}
inline void appendAttrs(std::vector<int64_t> &out,
                        const NormBackwardAttrs &a) {
  out.insert(out.end(), {a.mode, a.computeType});
}
inline void appendAttrs(std::vector<int64_t> &out, const GenStatsAttrs &a) {
  out.push_back(a.computeType);
}
inline void appendAttrs(std::vector<int64_t> &out, const BnFinalizeAttrs &a) {
  out.insert(out.end(), {a.computeType, doubleToWord(a.epsilon),
                         doubleToWord(a.momentum), a.accumulationCount});
}
inline void appendAttrs(std::vector<int64_t> &out, const ResampleAttrs &a) {
  out.insert(out.end(), {a.mode, a.computeType, a.spatialDims});
  for (const auto *list : {&a.window, &a.stride, &a.prePadding,
                           &a.postPadding})
    appendList(out, *list);
}
inline void appendAttrs(std::vector<int64_t> &out, const SdpaAttrs &a) {
  out.insert(out.end(), {a.computeType, doubleToWord(a.scale)});
}

inline void appendTensor(std::vector<int64_t> &out, const Tensor &t) {
  int64_t flags = (t.isVirtual ? kFlagVirtual : 0) |
                  (t.isByValue ? kFlagByValue : 0);
  out.insert(out.end(), {t.uid, t.dataType, flags, t.alignment});
  appendList(out, t.dims);
  appendList(out, t.strides);
  if (t.isByValue)
    out.push_back(t.scalar);
}

inline void appendOp(std::vector<int64_t> &out, const Op &op) {
  out.push_back(static_cast<int64_t>(op.kind));
  std::vector<int64_t> attrs;
  std::visit([&](const auto &a) { appendAttrs(attrs, a); }, op.attrs);
  appendList(out, attrs);
  appendList(out, op.inputs);
  appendList(out, op.outputs);
}

} // namespace detail

/// Writes `graph` in the format above. Writes what it is given: the runtime,
/// not the writer, validates.
inline std::vector<int64_t> serialize(const GraphDescription &graph) {
  std::vector<int64_t> out = {kMagic, kFormatVersion, 0,
                              static_cast<int64_t>(graph.tensors.size()),
                              static_cast<int64_t>(graph.ops.size())};
  for (const Tensor &t : graph.tensors)
    detail::appendTensor(out, t);
  for (const Op &op : graph.ops)
    detail::appendOp(out, op);
  out[2] = static_cast<int64_t>(out.size());
  return out;
}

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_GRAPHDESCRIPTION_H
