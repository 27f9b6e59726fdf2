//===- GraphTestUtil.h - small valid graphs for the graph tests -*- C++ -*-===//

#ifndef CUDNN_MLIR_RUNTIME_UNITTESTS_GRAPHTESTUTIL_H
#define CUDNN_MLIR_RUNTIME_UNITTESTS_GRAPHTESTUTIL_H

#include "cudnn-mlir-runtime/GraphDescription.h"

namespace cmrt::graph::test {

inline Tensor tensor(int64_t uid, std::vector<int64_t> dims,
                     bool isVirtual = false) {
  Tensor t;
  t.uid = uid;
  t.strides = packedStrides(dims);
  t.dims = std::move(dims);
  t.isVirtual = isVirtual;
  return t;
}

inline Op op(OpKind kind, OpAttrs attrs, std::vector<int64_t> inputs,
             std::vector<int64_t> outputs) {
  return {kind, std::move(attrs), std::move(inputs), std::move(outputs)};
}

inline ConvAttrs conv2d(int64_t stride, int64_t pad) {
  ConvAttrs a;
  a.spatialDims = 2;
  a.stride = {stride, stride};
  a.prePadding = a.postPadding = {pad, pad};
  a.dilation = {1, 1};
  return a;
}

inline PointwiseAttrs pointwise(PointwiseMode mode) {
  PointwiseAttrs a;
  a.mode = static_cast<int64_t>(mode);
  return a;
}

/// conv(x, w) + bias, then ReLU, NHWC: the fused graph the compiler makes
/// most often. UIDs: x 1, w 2, conv 3 (virtual), bias 4, biased 5
/// (virtual), y 6.
inline GraphDescription convBiasRelu() {
  GraphDescription g;
  g.tensors = {tensor(1, {1, 8, 16, 16}), tensor(2, {16, 8, 3, 3}),
               tensor(3, {1, 16, 16, 16}, true), tensor(4, {1, 16, 1, 1}),
               tensor(5, {1, 16, 16, 16}, true), tensor(6, {1, 16, 16, 16})};
  g.tensors[0].strides = {2048, 1, 128, 8}; // NHWC
  g.tensors[1].strides = {72, 1, 24, 8};
  g.ops = {op(OpKind::ConvFprop, conv2d(1, 1), {1, 2}, {3}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Add), {3, 4}, {5}),
           op(OpKind::Pointwise,
              pointwise(PointwiseMode::ReluFwd)
                  .set(PointwiseParam::ReluLowerClip, 0.0),
              {5}, {6})};
  return g;
}

/// One op of `kind` with tensors that satisfy every rule.
inline GraphDescription singleOp(OpKind kind) {
  GraphDescription g;
  switch (kind) {
  case OpKind::ConvFprop: return convBiasRelu();
  case OpKind::ConvDgrad: // dy, w -> dx
    g.tensors = {tensor(1, {1, 16, 8, 8}), tensor(2, {16, 8, 3, 3}),
                 tensor(3, {1, 8, 16, 16})};
    g.ops = {op(kind, conv2d(2, 1), {1, 2}, {3})};
    return g;
  case OpKind::ConvWgrad: // x, dy -> dw
    g.tensors = {tensor(1, {1, 8, 16, 16}), tensor(2, {1, 16, 16, 16}),
                 tensor(3, {16, 8, 3, 3})};
    g.ops = {op(kind, conv2d(1, 1), {1, 2}, {3})};
    return g;
  case OpKind::Matmul:
    g.tensors = {tensor(1, {2, 4, 8}), tensor(2, {1, 8, 3}),
                 tensor(3, {2, 4, 3})};
    g.ops = {op(kind, MatmulAttrs{}, {1, 2}, {3})};
    return g;
  case OpKind::Pointwise:
    g.tensors = {tensor(1, {2, 8}), tensor(2, {2, 8})};
    g.ops = {op(kind, pointwise(PointwiseMode::Exp), {1}, {2})};
    return g;
  case OpKind::Reduction: {
    g.tensors = {tensor(1, {2, 8, 4}), tensor(2, {2, 1, 1})};
    ReductionAttrs a;
    a.mode = static_cast<int64_t>(ReductionMode::Amax);
    g.ops = {op(kind, a, {1}, {2})};
    return g;
  }
  case OpKind::Resample: {
    g.tensors = {tensor(1, {1, 4, 8, 8}), tensor(2, {1, 4, 4, 4})};
    ResampleAttrs a;
    a.spatialDims = 2;
    a.window = a.stride = {2, 2};
    a.prePadding = a.postPadding = {0, 0};
    g.ops = {op(kind, a, {1}, {2})};
    return g;
  }
  case OpKind::Sdpa: {
    // q 1 [2, 4, 16, 64], k 2 and v 3 [2, 2, 24, 64] (grouped-query), bias 4
    // [1, 4, 16, 24] -> o 5 [2, 4, 16, 64]; all f16.
    int64_t half = static_cast<int64_t>(DataType::Half);
    g.tensors = {tensor(1, {2, 4, 16, 64}), tensor(2, {2, 2, 24, 64}),
                 tensor(3, {2, 2, 24, 64}), tensor(4, {1, 4, 16, 24}),
                 tensor(5, {2, 4, 16, 64})};
    for (Tensor &t : g.tensors)
      t.dataType = half;
    SdpaAttrs a;
    a.scale = 0.125;
    g.ops = {op(kind, a, {1, 2, 3, 4}, {5})};
    return g;
  }
  case OpKind::NormForward: {
    // Batch norm training with running statistics: x 1, scale 2, bias 3,
    // running mean/var 4/5 -> y 6, saved mean/inv var 7/8, next 9/10.
    g.tensors = {tensor(1, {2, 8, 4, 4})};
    for (int64_t uid = 2; uid <= 10; ++uid)
      g.tensors.push_back(tensor(uid, {1, 8, 1, 1}));
    g.tensors[5] = tensor(6, {2, 8, 4, 4});
    NormForwardAttrs a;
    a.phase = static_cast<int64_t>(NormPhase::Training);
    a.momentum = 0.1;
    g.ops = {op(kind, a, {1, 2, 3, 0, 0, 4, 5}, {6, 7, 8, 9, 10})};
    return g;
  }
  case OpKind::NormBackward:
    // dy 1, x 2, scale 3, mean 4, inv_variance 5 -> dx 6, dscale 7, dbias 8.
    g.tensors = {tensor(1, {2, 8, 4, 4}), tensor(2, {2, 8, 4, 4}),
                 tensor(3, {1, 8, 1, 1}), tensor(4, {1, 8, 1, 1}),
                 tensor(5, {1, 8, 1, 1}), tensor(6, {2, 8, 4, 4}),
                 tensor(7, {1, 8, 1, 1}), tensor(8, {1, 8, 1, 1})};
    g.ops = {op(kind, NormBackwardAttrs{}, {1, 2, 3, 4, 5}, {6, 7, 8})};
    return g;
  case OpKind::GenStats:
    g.tensors = {tensor(1, {2, 8, 4, 4}), tensor(2, {1, 8, 1, 1}),
                 tensor(3, {1, 8, 1, 1})};
    g.ops = {op(kind, GenStatsAttrs{}, {1}, {2, 3})};
    return g;
  case OpKind::BnFinalize:
    // genstats(x 1) -> sum 2, sq_sum 3 (virtual), then bn_finalize with
    // scale 4, bias 5, running 6/7 -> outputs 8..13.
    g.tensors = {tensor(1, {2, 8, 4, 4}), tensor(2, {1, 8, 1, 1}, true),
                 tensor(3, {1, 8, 1, 1}, true)};
    for (int64_t uid = 4; uid <= 13; ++uid)
      g.tensors.push_back(tensor(uid, {1, 8, 1, 1}));
    g.ops = {op(OpKind::GenStats, GenStatsAttrs{}, {1}, {2, 3}),
             op(kind, BnFinalizeAttrs{}, {2, 3, 4, 5, 6, 7},
                {8, 9, 10, 11, 12, 13})};
    return g;
  }
  return g;
}

inline const std::vector<OpKind> &allKinds() {
  static const std::vector<OpKind> kinds = {
#define CMRT_GRAPH_OP(K, V, N, A, I, O) OpKind::K,
#include "cudnn-mlir-runtime/GraphOps.def"
  };
  return kinds;
}

} // namespace cmrt::graph::test

#endif // CUDNN_MLIR_RUNTIME_UNITTESTS_GRAPHTESTUTIL_H
