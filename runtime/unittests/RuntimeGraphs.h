//===- RuntimeGraphs.h - the graphs the GPU tests run -----------*- C++ -*-===//
//
// Shared by the GPU tests (which build and run them) and the CPU tests
// (which validate and dump them), so a malformed test graph shows up on any
// machine.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_UNITTESTS_RUNTIMEGRAPHS_H
#define CUDNN_MLIR_RUNTIME_UNITTESTS_RUNTIMEGRAPHS_H

#include "cudnn-mlir-runtime/GraphDescription.h"

namespace cmrt::graph::test {

inline Tensor typed(int64_t uid, DataType type, std::vector<int64_t> dims,
                    std::vector<int64_t> strides, bool isVirtual = false) {
  Tensor t;
  t.uid = uid;
  t.dataType = static_cast<int64_t>(type);
  t.dims = std::move(dims);
  t.strides = std::move(strides);
  t.isVirtual = isVirtual;
  return t;
}

struct ConvShape {
  int64_t n = 2, c = 32, k = 32, h = 16, w = 16, r = 3, s = 3, pad = 1;
  int64_t stride = 1;
  int64_t groups = 1; // groupedConvGraph's; the filter has c / groups
};

/// NCHW dims with NHWC strides [H*W*C, 1, W*C, C].
inline std::vector<int64_t> nhwc(int64_t n, int64_t c, int64_t h, int64_t w) {
  (void)n;
  return {h * w * c, 1, w * c, c};
}

/// relu(conv(x, w) + bias): x 1, w 2, conv 3 (virtual, float), bias 4
/// [1,K,1,1], sum 5 (virtual, float), y 6. `io` is the type of x, w, bias,
/// y; compute is float.
inline GraphDescription convBiasReluGraph(DataType io, const ConvShape &sh) {
  GraphDescription g;
  int64_t oh = sh.h + 2 * sh.pad - sh.r + 1, ow = sh.w + 2 * sh.pad - sh.s + 1;
  g.tensors = {
      typed(1, io, {sh.n, sh.c, sh.h, sh.w}, nhwc(sh.n, sh.c, sh.h, sh.w)),
      typed(2, io, {sh.k, sh.c, sh.r, sh.s}, nhwc(sh.k, sh.c, sh.r, sh.s)),
      typed(3, DataType::Float, {sh.n, sh.k, oh, ow}, nhwc(sh.n, sh.k, oh, ow),
            true),
      typed(4, io, {1, sh.k, 1, 1}, {sh.k, 1, sh.k, sh.k}),
      typed(5, DataType::Float, {sh.n, sh.k, oh, ow}, nhwc(sh.n, sh.k, oh, ow),
            true),
      typed(6, io, {sh.n, sh.k, oh, ow}, nhwc(sh.n, sh.k, oh, ow))};
  ConvAttrs conv;
  conv.spatialDims = 2;
  conv.stride = {1, 1};
  conv.prePadding = conv.postPadding = {sh.pad, sh.pad};
  conv.dilation = {1, 1};
  PointwiseAttrs add;
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  PointwiseAttrs relu;
  relu.mode = static_cast<int64_t>(PointwiseMode::ReluFwd);
  relu.set(PointwiseParam::ReluLowerClip, 0.0);
  g.ops = {{OpKind::ConvFprop, conv, {1, 2}, {3}},
           {OpKind::Pointwise, add, {3, 4}, {5}},
           {OpKind::Pointwise, relu, {5}, {6}}};
  return g;
}

/// a [1,M,K] x b [1,K,N] -> c [1,M,N], all of type `io`: UIDs a 1, b 2, c 3.
inline GraphDescription matmulGraph(DataType io, int64_t m, int64_t k,
                                    int64_t n) {
  GraphDescription g;
  g.tensors = {typed(1, io, {1, m, k}, {m * k, k, 1}),
               typed(2, io, {1, k, n}, {k * n, n, 1}),
               typed(3, io, {1, m, n}, {m * n, n, 1})};
  g.ops = {{OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3}}};
  return g;
}

/// a [1,M,K] x b [1,K,N] -> c (virtual, float) + bias [1,1,N] -> y [1,M,N]:
/// UIDs a 1, b 2, c 3, bias 4, y 5.
inline GraphDescription matmulBiasGraph(DataType io, int64_t m, int64_t k,
                                        int64_t n) {
  GraphDescription g = matmulGraph(io, m, k, n);
  g.tensors[2] = typed(3, DataType::Float, {1, m, n}, {m * n, n, 1}, true);
  g.tensors.push_back(typed(4, io, {1, 1, n}, {n, n, 1}));
  g.tensors.push_back(typed(5, io, {1, m, n}, {m * n, n, 1}));
  PointwiseAttrs add;
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  g.ops.push_back({OpKind::Pointwise, add, {3, 4}, {5}});
  return g;
}

/// conv(conv(x, w1), w2), both "same" 3x3 convs with C = K, NHWC/KRSC: x 1,
/// w1 2, the first conv's output 3 (virtual, of type `io`), w2 4, y 5. No
/// cuDNN engine fuses two convolutions, so this is the graph that exercises
/// the split fallback.
inline GraphDescription convConvGraph(DataType io, const ConvShape &sh) {
  GraphDescription g;
  g.tensors = {
      typed(1, io, {sh.n, sh.c, sh.h, sh.w}, nhwc(sh.n, sh.c, sh.h, sh.w)),
      typed(2, io, {sh.c, sh.c, sh.r, sh.s}, nhwc(sh.c, sh.c, sh.r, sh.s)),
      typed(3, io, {sh.n, sh.c, sh.h, sh.w}, nhwc(sh.n, sh.c, sh.h, sh.w),
            true),
      typed(4, io, {sh.c, sh.c, sh.r, sh.s}, nhwc(sh.c, sh.c, sh.r, sh.s)),
      typed(5, io, {sh.n, sh.c, sh.h, sh.w}, nhwc(sh.n, sh.c, sh.h, sh.w))};
  ConvAttrs conv;
  conv.spatialDims = 2;
  conv.stride = {1, 1};
  conv.prePadding = conv.postPadding = {sh.pad, sh.pad};
  conv.dilation = {1, 1};
  g.ops = {{OpKind::ConvFprop, conv, {1, 2}, {3}},
           {OpKind::ConvFprop, conv, {3, 4}, {5}}};
  return g;
}

/// Sum over the last dim in memory of a row-major [B, R, C] float array,
/// described as NCHW dims [B, C, R, 1] with NHWC strides (cuDNN's reduction
/// engines want channels-last): x UID 1 -> y [B, 1, R, 1] (UID 2), y's
/// memory a row-major [B, R].
inline GraphDescription rowSumGraph(int64_t b, int64_t rows, int64_t cols) {
  GraphDescription g;
  g.tensors = {typed(1, DataType::Float, {b, cols, rows, 1},
                     {rows * cols, 1, cols, cols}),
               typed(2, DataType::Float, {b, 1, rows, 1}, {rows, 1, 1, 1})};
  ReductionAttrs sum;
  sum.mode = static_cast<int64_t>(ReductionMode::Add);
  g.ops = {{OpKind::Reduction, sum, {1}, {2}}};
  return g;
}

//===-- The graphs of GpuOpsTest.cpp --------------------------------------===//

/// floor((in + 2 * pad - window) / stride) + 1.
inline int64_t windowOut(int64_t in, int64_t window, int64_t pad,
                         int64_t stride) {
  return (in + 2 * pad - window) / stride + 1;
}

/// NCHW dims laid out channels-last, or packed NCHW.
inline std::vector<int64_t> layout(const std::vector<int64_t> &d,
                                   bool channelsLast) {
  return channelsLast ? nhwc(d[0], d[1], d[2], d[3]) : packedStrides(d);
}

inline ConvAttrs convAttrs(const ConvShape &sh) {
  ConvAttrs conv;
  conv.spatialDims = 2;
  conv.stride = {sh.stride, sh.stride};
  conv.prePadding = conv.postPadding = {sh.pad, sh.pad};
  conv.dilation = {1, 1};
  return conv;
}

/// The image, filter and output dims of a conv of shape `sh`.
inline std::vector<int64_t> convX(const ConvShape &sh) {
  return {sh.n, sh.c, sh.h, sh.w};
}
inline std::vector<int64_t> convW(const ConvShape &sh) {
  return {sh.k, sh.c, sh.r, sh.s};
}
inline std::vector<int64_t> convY(const ConvShape &sh) {
  return {sh.n, sh.k, windowOut(sh.h, sh.r, sh.pad, sh.stride),
          windowOut(sh.w, sh.s, sh.pad, sh.stride)};
}

/// conv(x, w) alone with sh.groups groups: x 1, w 2 [K, C/groups, R, S],
/// y 3, all of type `io` and NHWC; compute is float.
inline GraphDescription groupedConvGraph(DataType io, const ConvShape &sh) {
  std::vector<int64_t> x = convX(sh), y = convY(sh);
  std::vector<int64_t> w = {sh.k, sh.c / sh.groups, sh.r, sh.s};
  GraphDescription g;
  g.tensors = {typed(1, io, x, layout(x, true)),
               typed(2, io, w, layout(w, true)),
               typed(3, io, y, layout(y, true))};
  g.ops = {{OpKind::ConvFprop, convAttrs(sh), {1, 2}, {3}}};
  return g;
}

/// EfficientNet-B0's first expansion conv at batch 32: 1x1, 16 to 96
/// channels at 112x112.
inline ConvShape efficientNetExpansion() {
  ConvShape sh;
  sh.n = 32;
  sh.c = 16;
  sh.k = 96;
  sh.h = sh.w = 112;
  sh.r = sh.s = 1;
  sh.pad = 0;
  return sh;
}

/// conv -> * scale -> + bias -> SiLU (x * sigmoid(x)), channels-last: an
/// EfficientNet conv with its batch norm and activation. UIDs: scale 1,
/// bias 2, x 3, w 4, y 9; virtual 5-8 (float).
inline GraphDescription convScaleBiasSiluGraph(DataType io,
                                               const ConvShape &sh) {
  GraphDescription g;
  std::vector<int64_t> y = convY(sh);
  g.tensors = {typed(1, io, {1, sh.k, 1, 1}, {sh.k, 1, sh.k, sh.k}),
               typed(2, io, {1, sh.k, 1, 1}, {sh.k, 1, sh.k, sh.k}),
               typed(3, io, convX(sh), layout(convX(sh), true)),
               typed(4, io, convW(sh), layout(convW(sh), true))};
  for (int64_t uid = 5; uid <= 8; ++uid)
    g.tensors.push_back(typed(uid, DataType::Float, y, layout(y, true), true));
  g.tensors.push_back(typed(9, io, y, layout(y, true)));
  PointwiseAttrs mul, add, sigmoid;
  mul.mode = static_cast<int64_t>(PointwiseMode::Mul);
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  sigmoid.mode = static_cast<int64_t>(PointwiseMode::SigmoidFwd);
  g.ops = {{OpKind::ConvFprop, convAttrs(sh), {3, 4}, {5}},
           {OpKind::Pointwise, mul, {5, 1}, {6}},
           {OpKind::Pointwise, add, {6, 2}, {7}},
           {OpKind::Pointwise, sigmoid, {7}, {8}},
           {OpKind::Pointwise, mul, {7, 8}, {9}}};
  return g;
}

/// dx = conv_dgrad(dy, w): dy 1, w 2, dx 3, all of type `io`, channels-last
/// (KRSC filter) or packed NCHW (KCRS).
inline GraphDescription convDgradGraph(DataType io, const ConvShape &sh,
                                       bool channelsLast) {
  GraphDescription g;
  g.tensors = {typed(1, io, convY(sh), layout(convY(sh), channelsLast)),
               typed(2, io, convW(sh), layout(convW(sh), channelsLast)),
               typed(3, io, convX(sh), layout(convX(sh), channelsLast))};
  g.ops = {{OpKind::ConvDgrad, convAttrs(sh), {1, 2}, {3}}};
  return g;
}

/// dw = conv_wgrad(x, dy): x 1, dy 2, dw 3, laid out as convDgradGraph's.
inline GraphDescription convWgradGraph(DataType io, const ConvShape &sh,
                                       bool channelsLast) {
  GraphDescription g;
  g.tensors = {typed(1, io, convX(sh), layout(convX(sh), channelsLast)),
               typed(2, io, convY(sh), layout(convY(sh), channelsLast)),
               typed(3, io, convW(sh), layout(convW(sh), channelsLast))};
  g.ops = {{OpKind::ConvWgrad, convAttrs(sh), {1, 2}, {3}}};
  return g;
}

/// y = alpha * conv(x, w), NHWC: x 1, w 2, y 3. The runtime fuses alpha as
/// a multiply by a by-value scalar.
inline GraphDescription convAlphaGraph(DataType io, const ConvShape &sh,
                                       double alpha) {
  GraphDescription g;
  g.tensors = {typed(1, io, convX(sh), layout(convX(sh), true)),
               typed(2, io, convW(sh), layout(convW(sh), true)),
               typed(3, io, convY(sh), layout(convY(sh), true))};
  ConvAttrs conv = convAttrs(sh);
  conv.alpha = alpha;
  g.ops = {{OpKind::ConvFprop, conv, {1, 2}, {3}}};
  return g;
}

/// convAlphaGraph(fp16, default shape, alpha 1) with beta 0.5: valid (y is
/// a real tensor with a prior value), but not expressible in the frontend.
inline GraphDescription convBetaGraph() {
  GraphDescription g = convAlphaGraph(DataType::Half, ConvShape{}, 1.0);
  std::get<ConvAttrs>(g.ops[0].attrs).beta = 0.5;
  return g;
}

/// relu(conv(x, w) + bias + residual), NHWC: x 1, w 2, conv 3 (virtual,
/// float), bias 4 [1,K,1,1], biased 5 (virtual), residual 6 (y's shape),
/// sum 7 (virtual), y 8.
inline GraphDescription convBiasAddReluGraph(DataType io, const ConvShape &sh) {
  std::vector<int64_t> y = convY(sh);
  GraphDescription g;
  g.tensors = {typed(1, io, convX(sh), layout(convX(sh), true)),
               typed(2, io, convW(sh), layout(convW(sh), true)),
               typed(3, DataType::Float, y, layout(y, true), true),
               typed(4, io, {1, sh.k, 1, 1}, {sh.k, 1, sh.k, sh.k}),
               typed(5, DataType::Float, y, layout(y, true), true),
               typed(6, io, y, layout(y, true)),
               typed(7, DataType::Float, y, layout(y, true), true),
               typed(8, io, y, layout(y, true))};
  PointwiseAttrs add;
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  PointwiseAttrs relu;
  relu.mode = static_cast<int64_t>(PointwiseMode::ReluFwd);
  g.ops = {{OpKind::ConvFprop, convAttrs(sh), {1, 2}, {3}},
           {OpKind::Pointwise, add, {3, 4}, {5}},
           {OpKind::Pointwise, add, {5, 6}, {7}},
           {OpKind::Pointwise, relu, {7}, {8}}};
  return g;
}

/// gelu(a [1,M,K] x b [1,K,N] + bias [1,1,N]) with GELU_FWD (erf): a 1,
/// b 2, c 3 (virtual, float), bias 4, biased 5 (virtual, float), y 6.
inline GraphDescription matmulBiasGeluGraph(DataType io, int64_t m, int64_t k,
                                            int64_t n) {
  GraphDescription g = matmulBiasGraph(io, m, k, n);
  g.tensors[4].dataType = static_cast<int64_t>(DataType::Float);
  g.tensors[4].isVirtual = true;
  g.tensors.push_back(typed(6, io, {1, m, n}, {m * n, n, 1}));
  PointwiseAttrs gelu;
  gelu.mode = static_cast<int64_t>(PointwiseMode::GeluFwd);
  g.ops.push_back({OpKind::Pointwise, gelu, {5}, {6}});
  return g;
}

/// The [N, C, H, W] input of the normalization, pooling and statistics
/// graphs, channels-last.
struct NormShape {
  int64_t n = 4, c = 32, h = 16, w = 16;
  std::vector<int64_t> dims() const { return {n, c, h, w}; }
  int64_t count() const { return n * h * w; } // elements per channel
};

/// A float [1, C, 1, 1] tensor (per-channel parameters and statistics).
inline Tensor perChannel(int64_t uid, int64_t c) {
  return typed(uid, DataType::Float, {1, c, 1, 1}, {c, 1, c, c});
}

/// Batch norm training with running statistics, x/y of type `io` NHWC and
/// float statistics: x 1, scale 2, bias 3, running mean 4, running var 5 ->
/// y 6, saved mean 7, saved inv variance 8, next running mean 9, next
/// running var 10.
inline GraphDescription batchNormTrainingGraph(DataType io, const NormShape &s,
                                               double epsilon,
                                               double momentum) {
  GraphDescription g;
  g.tensors = {typed(1, io, s.dims(), layout(s.dims(), true))};
  for (int64_t uid = 2; uid <= 10; ++uid)
    g.tensors.push_back(perChannel(uid, s.c));
  g.tensors[5] = typed(6, io, s.dims(), layout(s.dims(), true));
  NormForwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Batch);
  a.phase = static_cast<int64_t>(NormPhase::Training);
  a.epsilon = epsilon;
  a.momentum = momentum;
  g.ops = {{OpKind::NormForward, a, {1, 2, 3, 0, 0, 4, 5}, {6, 7, 8, 9, 10}}};
  return g;
}

/// Batch norm inference: x 1, scale 2, bias 3, mean 4, inv variance 5 ->
/// y 6 (x/y of type `io` NHWC, the rest float).
inline GraphDescription batchNormInferenceGraph(DataType io,
                                                const NormShape &s) {
  GraphDescription g;
  g.tensors = {typed(1, io, s.dims(), layout(s.dims(), true))};
  for (int64_t uid = 2; uid <= 5; ++uid)
    g.tensors.push_back(perChannel(uid, s.c));
  g.tensors.push_back(typed(6, io, s.dims(), layout(s.dims(), true)));
  NormForwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Batch);
  a.phase = static_cast<int64_t>(NormPhase::Inference);
  g.ops = {{OpKind::NormForward, a, {1, 2, 3, 4, 5, 0, 0}, {6, 0, 0, 0, 0}}};
  return g;
}

/// Batch norm backward: dy 1, x 2 (type `io`, NHWC), scale 3, saved mean 4,
/// saved inv variance 5 (float) -> dx 6 (`io`), dscale 7, dbias 8 (float).
inline GraphDescription batchNormBackwardGraph(DataType io,
                                               const NormShape &s) {
  GraphDescription g;
  g.tensors = {typed(1, io, s.dims(), layout(s.dims(), true)),
               typed(2, io, s.dims(), layout(s.dims(), true)),
               perChannel(3, s.c),
               perChannel(4, s.c),
               perChannel(5, s.c),
               typed(6, io, s.dims(), layout(s.dims(), true)),
               perChannel(7, s.c),
               perChannel(8, s.c)};
  NormBackwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Batch);
  g.ops = {{OpKind::NormBackward, a, {1, 2, 3, 4, 5}, {6, 7, 8}}};
  return g;
}

/// Layer norm over the hidden dim of `rows` rows, described as
/// [rows, hidden, 1, 1] channels-last (so each row is contiguous): x 1
/// (`io`), scale 2, bias 3 ([1, hidden, 1, 1] float) -> y 4 (`io`) and, in
/// training, saved mean 5 and saved inv variance 6 ([rows, 1, 1, 1] float).
inline GraphDescription layerNormGraph(DataType io, int64_t rows,
                                       int64_t hidden, NormPhase phase,
                                       double epsilon) {
  std::vector<int64_t> x = {rows, hidden, 1, 1}, p = {1, hidden, 1, 1},
                       st = {rows, 1, 1, 1};
  bool training = phase == NormPhase::Training;
  GraphDescription g;
  g.tensors = {typed(1, io, x, layout(x, true)),
               typed(2, DataType::Float, p, layout(p, true)),
               typed(3, DataType::Float, p, layout(p, true)),
               typed(4, io, x, layout(x, true))};
  if (training)
    for (int64_t uid : {5, 6})
      g.tensors.push_back(typed(uid, DataType::Float, st, layout(st, true)));
  NormForwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Layer);
  a.phase = static_cast<int64_t>(phase);
  a.epsilon = epsilon;
  std::vector<int64_t> outputs = {4, training ? 5 : 0, training ? 6 : 0, 0, 0};
  g.ops = {{OpKind::NormForward, a, {1, 2, 3, 0, 0, 0, 0}, outputs}};
  return g;
}

/// RMS norm training without bias, laid out as layerNormGraph: x 1,
/// scale 2 -> y 3, saved inv variance 4.
inline GraphDescription rmsNormTrainingGraph(DataType io, int64_t rows,
                                             int64_t hidden, double epsilon) {
  std::vector<int64_t> x = {rows, hidden, 1, 1}, p = {1, hidden, 1, 1},
                       st = {rows, 1, 1, 1};
  GraphDescription g;
  g.tensors = {typed(1, io, x, layout(x, true)),
               typed(2, DataType::Float, p, layout(p, true)),
               typed(3, io, x, layout(x, true)),
               typed(4, DataType::Float, st, layout(st, true))};
  NormForwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Rms);
  a.phase = static_cast<int64_t>(NormPhase::Training);
  a.epsilon = epsilon;
  g.ops = {{OpKind::NormForward, a, {1, 2, 0, 0, 0, 0, 0}, {3, 0, 4, 0, 0}}};
  return g;
}

/// Layer norm backward, laid out as layerNormGraph: dy 1, x 2 (`io`),
/// scale 3 ([1, hidden, 1, 1] float), saved mean 4, saved inv variance 5
/// ([rows, 1, 1, 1] float) -> dx 6 (`io`), dscale 7, dbias 8 (float).
inline GraphDescription layerNormBackwardGraph(DataType io, int64_t rows,
                                               int64_t hidden) {
  std::vector<int64_t> x = {rows, hidden, 1, 1}, p = {1, hidden, 1, 1},
                       st = {rows, 1, 1, 1};
  GraphDescription g;
  g.tensors = {typed(1, io, x, layout(x, true)),
               typed(2, io, x, layout(x, true)),
               typed(3, DataType::Float, p, layout(p, true)),
               typed(4, DataType::Float, st, layout(st, true)),
               typed(5, DataType::Float, st, layout(st, true)),
               typed(6, io, x, layout(x, true)),
               typed(7, DataType::Float, p, layout(p, true)),
               typed(8, DataType::Float, p, layout(p, true))};
  NormBackwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Layer);
  g.ops = {{OpKind::NormBackward, a, {1, 2, 3, 4, 5}, {6, 7, 8}}};
  return g;
}

/// Instance norm training, x/y of type `io` NHWC: x 1, scale 2, bias 3
/// (float [1, C, 1, 1]) -> y 4, saved mean 5, saved inv variance 6 (float
/// [N, C, 1, 1]).
inline GraphDescription
instanceNormTrainingGraph(DataType io, const NormShape &s, double epsilon) {
  std::vector<int64_t> st = {s.n, s.c, 1, 1};
  GraphDescription g;
  g.tensors = {typed(1, io, s.dims(), layout(s.dims(), true)),
               perChannel(2, s.c),
               perChannel(3, s.c),
               typed(4, io, s.dims(), layout(s.dims(), true)),
               typed(5, DataType::Float, st, layout(st, true)),
               typed(6, DataType::Float, st, layout(st, true))};
  NormForwardAttrs a;
  a.mode = static_cast<int64_t>(NormMode::Instance);
  a.phase = static_cast<int64_t>(NormPhase::Training);
  a.epsilon = epsilon;
  g.ops = {{OpKind::NormForward, a, {1, 2, 3, 0, 0, 0, 0}, {4, 5, 6, 0, 0}}};
  return g;
}

/// Per-channel sum and sum of squares: x 1 (`io`, NHWC) -> sum 2, sq_sum 3
/// (float [1, C, 1, 1]).
inline GraphDescription genStatsGraph(DataType io, const NormShape &s) {
  GraphDescription g;
  g.tensors = {typed(1, io, s.dims(), layout(s.dims(), true)),
               perChannel(2, s.c), perChannel(3, s.c)};
  g.ops = {{OpKind::GenStats, GenStatsAttrs{}, {1}, {2, 3}}};
  return g;
}

/// cuDNN's ConvBNfprop pattern: y = conv(relu(x * scale + bias), w), and
/// genstats of y, NHWC: x 1, scale 2, bias 3 ([1, C, 1, 1], type `io`),
/// scaled 4, biased 5, activated 6 (virtual, float), w 7, y 8 (`io`),
/// sum 9, sq_sum 10 (float [1, K, 1, 1]).
inline GraphDescription scaleBiasReluConvGenStatsGraph(DataType io,
                                                       const ConvShape &sh) {
  std::vector<int64_t> x = convX(sh), y = convY(sh);
  GraphDescription g;
  g.tensors = {typed(1, io, x, layout(x, true)),
               typed(2, io, {1, sh.c, 1, 1}, {sh.c, 1, sh.c, sh.c}),
               typed(3, io, {1, sh.c, 1, 1}, {sh.c, 1, sh.c, sh.c})};
  for (int64_t uid : {4, 5, 6})
    g.tensors.push_back(typed(uid, DataType::Float, x, layout(x, true), true));
  g.tensors.push_back(typed(7, io, convW(sh), layout(convW(sh), true)));
  g.tensors.push_back(typed(8, io, y, layout(y, true)));
  g.tensors.push_back(perChannel(9, sh.k));
  g.tensors.push_back(perChannel(10, sh.k));
  PointwiseAttrs mul, add, relu;
  mul.mode = static_cast<int64_t>(PointwiseMode::Mul);
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  relu.mode = static_cast<int64_t>(PointwiseMode::ReluFwd);
  g.ops = {{OpKind::Pointwise, mul, {1, 2}, {4}},
           {OpKind::Pointwise, add, {4, 3}, {5}},
           {OpKind::Pointwise, relu, {5}, {6}},
           {OpKind::ConvFprop, convAttrs(sh), {6, 7}, {8}},
           {OpKind::GenStats, GenStatsAttrs{}, {8}, {9, 10}}};
  return g;
}

/// bn_finalize of `count` elements per channel, all float [1, C, 1, 1]:
/// sum 1, sq_sum 2, scale 3, bias 4, running mean 5, running var 6 ->
/// eq_scale 7, eq_bias 8, saved mean 9, saved inv std 10, next running
/// mean 11, next running var 12.
inline GraphDescription bnFinalizeGraph(int64_t c, int64_t count,
                                        double epsilon, double momentum) {
  GraphDescription g;
  for (int64_t uid = 1; uid <= 12; ++uid)
    g.tensors.push_back(perChannel(uid, c));
  BnFinalizeAttrs a;
  a.epsilon = epsilon;
  a.momentum = momentum;
  a.accumulationCount = count;
  g.ops = {{OpKind::BnFinalize, a, {1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}}};
  return g;
}

/// Pooling, NHWC: x 1 -> y 2 (both `io`), a square `window`, `stride` and
/// symmetric `pad`.
inline GraphDescription poolGraph(DataType io, ResampleMode mode,
                                  const NormShape &s, int64_t window,
                                  int64_t stride, int64_t pad) {
  std::vector<int64_t> y = {s.n, s.c, windowOut(s.h, window, pad, stride),
                            windowOut(s.w, window, pad, stride)};
  GraphDescription g;
  g.tensors = {typed(1, io, s.dims(), layout(s.dims(), true)),
               typed(2, io, y, layout(y, true))};
  ResampleAttrs a;
  a.mode = static_cast<int64_t>(mode);
  a.spatialDims = 2;
  a.window = {window, window};
  a.stride = {stride, stride};
  a.prePadding = a.postPadding = {pad, pad};
  g.ops = {{OpKind::Resample, a, {1}, {2}}};
  return g;
}

/// Per-channel (column) sum of a float NHWC tensor: x 1 -> y 2 [1, C, 1, 1].
inline GraphDescription channelSumGraph(const NormShape &s) {
  GraphDescription g;
  g.tensors = {typed(1, DataType::Float, s.dims(), layout(s.dims(), true)),
               perChannel(2, s.c)};
  ReductionAttrs sum;
  sum.mode = static_cast<int64_t>(ReductionMode::Add);
  g.ops = {{OpKind::Reduction, sum, {1}, {2}}};
  return g;
}

/// What GpuOpsTest.cpp runs with. The CPU tests validate opsTestGraphs(),
/// built from the same values.
struct OpsTestParams {
  static ConvShape dgrad() { // stride 2: dy is 8x8, dx 16x16
    ConvShape s;
    s.stride = 2;
    return s;
  }
  static constexpr double kEpsilon = 1e-5, kMomentum = 0.1, kAlpha = 0.5;
  static constexpr int64_t kRows = 256, kHidden = 128; // layer and rms norm
  static constexpr int64_t kMatmulM = 64, kMatmulK = 128, kMatmulN = 96;
  static constexpr int64_t kPoolWindow = 3, kPoolStride = 2, kPoolPad = 1;
};

inline std::vector<GraphDescription> opsTestGraphs() {
  using P = OpsTestParams;
  NormShape ns;
  std::vector<GraphDescription> all = {
      convDgradGraph(DataType::Float, P::dgrad(), false),
      convDgradGraph(DataType::Half, P::dgrad(), true),
      convWgradGraph(DataType::Float, ConvShape{}, false),
      convWgradGraph(DataType::Half, ConvShape{}, true),
      convAlphaGraph(DataType::Half, ConvShape{}, P::kAlpha),
      convBetaGraph(),
      convBiasAddReluGraph(DataType::Half, ConvShape{}),
      convBiasAddReluGraph(DataType::BFloat16, ConvShape{}),
      matmulBiasGeluGraph(DataType::Half, P::kMatmulM, P::kMatmulK,
                          P::kMatmulN),
      batchNormTrainingGraph(DataType::Half, ns, P::kEpsilon, P::kMomentum),
      batchNormTrainingGraph(DataType::BFloat16, ns, P::kEpsilon, P::kMomentum),
      batchNormInferenceGraph(DataType::Half, ns),
      batchNormBackwardGraph(DataType::Half, ns),
      layerNormGraph(DataType::Float, P::kRows, P::kHidden, NormPhase::Training,
                     P::kEpsilon),
      layerNormGraph(DataType::BFloat16, P::kRows, P::kHidden,
                     NormPhase::Training, P::kEpsilon),
      layerNormGraph(DataType::Half, P::kRows, P::kHidden, NormPhase::Inference,
                     P::kEpsilon),
      rmsNormTrainingGraph(DataType::Float, P::kRows, P::kHidden, P::kEpsilon),
      layerNormBackwardGraph(DataType::Float, P::kRows, P::kHidden),
      instanceNormTrainingGraph(DataType::Half, ns, P::kEpsilon),
      genStatsGraph(DataType::Half, ns),
      scaleBiasReluConvGenStatsGraph(DataType::Half, ConvShape{}),
      bnFinalizeGraph(ns.c, ns.count(), P::kEpsilon, P::kMomentum),
      channelSumGraph(ns)};
  for (ResampleMode mode :
       {ResampleMode::MaxPool, ResampleMode::AvgIncludePadding,
        ResampleMode::AvgExcludePadding})
    all.push_back(poolGraph(DataType::Half, mode, ns, P::kPoolWindow,
                            P::kPoolStride, P::kPoolPad));
  return all;
}

} // namespace cmrt::graph::test

#endif // CUDNN_MLIR_RUNTIME_UNITTESTS_RUNTIMEGRAPHS_H
