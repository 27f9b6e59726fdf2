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

/// a [1,M,K] x b [1,K,N] -> c (virtual, float) + bias [1,1,N] -> y [1,M,N]:
/// UIDs a 1, b 2, c 3, bias 4, y 5.
inline GraphDescription matmulBiasGraph(DataType io, int64_t m, int64_t k,
                                        int64_t n) {
  GraphDescription g;
  g.tensors = {typed(1, io, {1, m, k}, {m * k, k, 1}),
               typed(2, io, {1, k, n}, {k * n, n, 1}),
               typed(3, DataType::Float, {1, m, n}, {m * n, n, 1}, true),
               typed(4, io, {1, 1, n}, {n, n, 1}),
               typed(5, io, {1, m, n}, {m * n, n, 1})};
  PointwiseAttrs add;
  add.mode = static_cast<int64_t>(PointwiseMode::Add);
  g.ops = {{OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3}},
           {OpKind::Pointwise, add, {3, 4}, {5}}};
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

} // namespace cmrt::graph::test

#endif // CUDNN_MLIR_RUNTIME_UNITTESTS_RUNTIMEGRAPHS_H
