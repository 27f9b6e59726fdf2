//===- BlasLtFormTest.cpp - which graphs are one cuBLASLt matmul ----------===//
//
// graph/BlasLtForm.h on hand-made descriptions: the shapes the compiler
// emits for linears (batch folded into m, a transposed weight), batched
// matmuls, the epilogues cuBLASLt has, and a reason for each that it has
// not. Every graph is validated first, as the runtime's are.

#include "graph/BlasLtForm.h"
#include "GraphTestUtil.h"
#include "cudnn-mlir-runtime/Graph.h"

#include <gtest/gtest.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

Tensor half(int64_t uid, std::vector<int64_t> dims, bool isVirtual = false) {
  Tensor t = tensor(uid, std::move(dims), isVirtual);
  t.dataType =
      static_cast<int64_t>(isVirtual ? DataType::Float : DataType::Half);
  return t;
}

Tensor scalar(int64_t uid, double value, int rank) {
  Tensor t = tensor(uid, std::vector<int64_t>(rank, 1));
  t.isByValue = true;
  t.scalar = doubleToWord(value);
  return t;
}

/// x [B, L, K] x w^T (w stored [N, K]) + bias [1, 1, N], then `act` (if
/// not Identity): a linear over a [B, L, K] input as the compiler emits it.
/// UIDs: x 1, w 2, product 3, bias 4, biased 5, y 6.
GraphDescription linear(int64_t b, int64_t l, int64_t k, int64_t n,
                        PointwiseMode act = PointwiseMode::Identity) {
  GraphDescription g;
  Tensor w = half(2, {1, k, n});
  w.strides = {n * k, 1, k}; // the [N, K] weight, transposed
  g.tensors = {half(1, {b, l, k}), w, half(3, {b, l, n}, true),
               half(4, {1, 1, n}),
               half(5, {b, l, n}, act != PointwiseMode::Identity)};
  g.ops = {op(OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Add), {3, 4}, {5})};
  if (act != PointwiseMode::Identity) {
    g.tensors.push_back(half(6, {b, l, n}));
    g.ops.push_back(op(OpKind::Pointwise, pointwise(act), {5}, {6}));
  }
  return g;
}

BlasLtForm formOf(const GraphDescription &g) {
  EXPECT_TRUE(validate(g).ok()) << validate(g).message;
  BlasLtForm form;
  std::string whyNot;
  EXPECT_TRUE(blasLtFormOf(g, form, whyNot)) << whyNot;
  return form;
}

std::string whyNotOf(const GraphDescription &g) {
  EXPECT_TRUE(validate(g).ok()) << validate(g).message;
  BlasLtForm form;
  std::string whyNot;
  EXPECT_FALSE(blasLtFormOf(g, form, whyNot));
  return whyNot;
}

TEST(BlasLtFormTest, LinearFoldsTheBatchIntoM) {
  BlasLtForm f = formOf(linear(8, 197, 768, 3072));
  EXPECT_EQ(f.m, 8 * 197);
  EXPECT_EQ(f.n, 3072);
  EXPECT_EQ(f.k, 768);
  EXPECT_EQ(f.batch, 1);
  EXPECT_FALSE(f.a.columnMajor);
  EXPECT_EQ(f.a.ld, 768);
  EXPECT_TRUE(f.b.columnMajor); // the stored [N, K] weight
  EXPECT_EQ(f.b.ld, 768);
  EXPECT_EQ(f.d.ld, 3072);
  EXPECT_EQ(f.biasUid, 4);
  EXPECT_EQ(f.d.uid, 5);
  EXPECT_EQ(f.activation, LtActivation::None);
  EXPECT_EQ(describeBlasLtForm(f), "matmul 1576x3072x768 (x1) half + bias");
}

TEST(BlasLtFormTest, ReluAndTanhGeluAreEpilogues) {
  GraphDescription relu = linear(1, 32, 64, 16, PointwiseMode::ReluFwd);
  std::get<PointwiseAttrs>(relu.ops[2].attrs)
      .set(PointwiseParam::ReluLowerClip, 0.0);
  EXPECT_EQ(formOf(relu).activation, LtActivation::Relu);
  EXPECT_EQ(formOf(linear(1, 32, 64, 16, PointwiseMode::GeluApproxTanhFwd))
                .activation,
            LtActivation::GeluTanh);
}

TEST(BlasLtFormTest, ErfGeluAndClippedReluAreNot) {
  // cuBLASLt's GELU is the tanh approximation; PyTorch's default is erf.
  EXPECT_EQ(whyNotOf(linear(1, 32, 64, 16, PointwiseMode::GeluFwd)),
            "a gelu_fwd cuBLASLt's epilogue does not have");
  GraphDescription clipped = linear(1, 32, 64, 16, PointwiseMode::ReluFwd);
  std::get<PointwiseAttrs>(clipped.ops[2].attrs)
      .set(PointwiseParam::ReluUpperClip, 6.0);
  EXPECT_EQ(whyNotOf(clipped), "a relu_fwd cuBLASLt's epilogue does not have");
}

TEST(BlasLtFormTest, BatchedMatmulWithScale) {
  // Attention scores: q [B*H, L, D] x k^T [B*H, D, L] * scale.
  GraphDescription g;
  Tensor k = half(2, {12, 64, 197});
  k.strides = {197 * 64, 1, 64};
  g.tensors = {half(1, {12, 197, 64}), k, half(3, {12, 197, 197}, true),
               scalar(4, 0.125, 3), half(5, {12, 197, 197})};
  g.ops = {op(OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Mul), {3, 4}, {5})};
  BlasLtForm f = formOf(g);
  EXPECT_EQ(f.batch, 12);
  EXPECT_EQ(f.m, 197);
  EXPECT_EQ(f.a.batchStride, 197 * 64);
  EXPECT_EQ(f.b.batchStride, 197 * 64);
  EXPECT_EQ(f.d.batchStride, 197 * 197);
  EXPECT_DOUBLE_EQ(f.alpha, 0.125);
  EXPECT_EQ(f.biasUid, 0);
}

TEST(BlasLtFormTest, PlainMatmulWithMultipleBatchDims) {
  GraphDescription g;
  g.tensors = {half(1, {2, 3, 16, 32}), half(2, {2, 3, 32, 8}),
               half(3, {2, 3, 16, 8})};
  g.ops = {op(OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3})};
  BlasLtForm f = formOf(g);
  EXPECT_EQ(f.batch, 6);
  EXPECT_EQ(f.a.batchStride, 16 * 32);
  EXPECT_EQ(f.d.uid, 3);
}

TEST(BlasLtFormTest, WhatDoesNotFit) {
  // A residual add after the bias: a second add of a full tensor.
  GraphDescription residual = linear(1, 32, 64, 16);
  residual.tensors[4].isVirtual = true;
  residual.tensors[4].dataType = static_cast<int64_t>(DataType::Float);
  residual.tensors.push_back(half(6, {1, 32, 16}));
  residual.tensors.push_back(half(7, {1, 32, 16}));
  residual.ops.push_back(
      op(OpKind::Pointwise, pointwise(PointwiseMode::Add), {5, 6}, {7}));
  EXPECT_EQ(whyNotOf(residual), "a add cuBLASLt's epilogue does not have");

  // fp32 operands stay on their exact path.
  GraphDescription fp32 = linear(1, 32, 64, 16);
  for (Tensor &t : fp32.tensors)
    t.dataType = static_cast<int64_t>(DataType::Float);
  EXPECT_EQ(whyNotOf(fp32), "matmul operands not both f16 or both bf16");

  // A bias of another type than the output.
  GraphDescription bias = linear(1, 32, 64, 16);
  bias.tensors[3].dataType = static_cast<int64_t>(DataType::Float);
  EXPECT_EQ(whyNotOf(bias), "a bias of type float for an output of type half");

  // A one-row output whose columns are strided: not row-major.
  GraphDescription strided = linear(1, 1, 64, 16);
  strided.tensors[4].strides = {64, 1, 4};
  EXPECT_EQ(whyNotOf(strided), "an output whose rows are not contiguous");

  // Not a matmul graph at all.
  EXPECT_EQ(whyNotOf(convBiasRelu()), "a conv_fprop op");
}

} // namespace
