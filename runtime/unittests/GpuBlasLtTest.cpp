//===- GpuBlasLtTest.cpp - matmul graphs run on cuBLASLt, on a GPU --------===//
//
// Needs a CUDA GPU (CTest label `gpu`). Matmul graphs of the cuBLASLt form
// (graph/BlasLtForm.h) built with CUDNN_MLIR_CUBLASLT=always run on
// cuBLASLt (cmrtGraphGetInfo says so) and match a float64 CPU reference:
// relative L2 error <= 2e-3 for f16 outputs, 1e-2 for bf16 (8-bit
// mantissa). By default the build times cuBLASLt against cuDNN and either
// may win: the output is checked all the same; with =0 cuDNN runs.
//
//===----------------------------------------------------------------------===//

#include "GpuTestFixture.h"
#include "GraphTestUtil.h"
#include "cudnn-mlir-runtime/Graph.h"

#include <cstdlib>
#include <functional>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

/// Sets CUDNN_MLIR_CUBLASLT for one test and clears the graph cache (a
/// graph built under another setting would be reused).
struct BlasLtSetting {
  explicit BlasLtSetting(const char *value) {
    if (value)
      setenv("CUDNN_MLIR_CUBLASLT", value, 1);
    else
      unsetenv("CUDNN_MLIR_CUBLASLT");
    cmrtGraphCacheClear();
  }
  ~BlasLtSetting() {
    unsetenv("CUDNN_MLIR_CUBLASLT");
    cmrtGraphCacheClear();
  }
};

Tensor typedTensor(int64_t uid, DataType type, std::vector<int64_t> dims,
                   bool isVirtual = false) {
  Tensor t = tensor(uid, std::move(dims), isVirtual);
  t.dataType = static_cast<int64_t>(isVirtual ? DataType::Float : type);
  return t;
}

/// act(x [B, L, K] x w^T + bias) with w stored [N, K] (a linear): x 1, w 2,
/// product 3, bias 4, y 5 (or biased 5 virtual and y 6 with an activation).
GraphDescription linearGraph(DataType io, int64_t b, int64_t l, int64_t k,
                             int64_t n, PointwiseMode act) {
  bool hasAct = act != PointwiseMode::Identity;
  GraphDescription g;
  Tensor w = typedTensor(2, io, {1, k, n});
  w.strides = {n * k, 1, k};
  g.tensors = {
      typedTensor(1, io, {b, l, k}), w, typedTensor(3, io, {b, l, n}, true),
      typedTensor(4, io, {1, 1, n}), typedTensor(5, io, {b, l, n}, hasAct)};
  g.ops = {op(OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Add), {3, 4}, {5})};
  if (hasAct) {
    PointwiseAttrs a = pointwise(act);
    if (act == PointwiseMode::ReluFwd)
      a.set(PointwiseParam::ReluLowerClip, 0.0);
    g.tensors.push_back(typedTensor(6, io, {b, l, n}));
    g.ops.push_back(op(OpKind::Pointwise, a, {5}, {6}));
  }
  return g;
}

double activate(PointwiseMode act, double v) {
  if (act == PointwiseMode::ReluFwd)
    return v > 0 ? v : 0;
  if (act == PointwiseMode::GeluApproxTanhFwd)
    return 0.5 * v *
           (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
  return v;
}

class GpuBlasLtTest : public GpuGraphTest {
protected:
  /// Runs a linear (shapes as linearGraph) and checks it; returns the plan
  /// origin through `origin`.
  void runLinear(DataType io, int64_t b, int64_t l, int64_t k, int64_t n,
                 PointwiseMode act, double tolerance, cmrtPlanOrigin &origin) {
    Buffer x, w, bias, y;
    random(x, io, b * l * k, -1, 1);
    random(w, io, n * k, -0.5, 0.5);
    random(bias, io, n, -0.5, 0.5);
    output(y, io, b * l * n);
    GraphDescription g = linearGraph(io, b, l, k, n, act);
    int64_t out = act == PointwiseMode::Identity ? 5 : 6;
    ASSERT_NO_FATAL_FAILURE(run(g, CMRT_GRAPH_DEFAULT, {1, 2, 4, out},
                                {x.device, w.device, bias.device, y.device}));
    origin = originOf(g);
    download(y);
    std::vector<double> want(y.host.size());
    for (int64_t r = 0; r < b * l; ++r)
      for (int64_t c = 0; c < n; ++c) {
        double acc = bias.host[c];
        for (int64_t p = 0; p < k; ++p)
          acc += x.host[r * k + p] * w.host[c * k + p];
        want[r * n + c] = activate(act, acc);
      }
    double err = relL2(y.host, want);
    EXPECT_LT(err, tolerance);
    std::printf("linear %lldx%lldx%lld %s: %s, rel-L2 %.3g\n",
                static_cast<long long>(b * l), static_cast<long long>(n),
                static_cast<long long>(k),
                pointwiseModeName(static_cast<int64_t>(act)).c_str(),
                originName(origin), err);
  }

  cmrtPlanOrigin originOf(const GraphDescription &g) {
    std::vector<int64_t> words = serialize(g);
    cmrtGraph h = nullptr;
    EXPECT_EQ(cmrtGraphGetOrBuild(words.data(),
                                  static_cast<int64_t>(words.size()),
                                  CMRT_GRAPH_DEFAULT, stream, &h),
              CMRT_SUCCESS);
    cmrtGraphInfo info{};
    EXPECT_EQ(cmrtGraphGetInfo(h, &info), CMRT_SUCCESS);
    cmrtGraphRelease(h);
    engine = info.engine;
    return info.origin;
  }

  static const char *originName(cmrtPlanOrigin o) {
    return o == CMRT_PLAN_CUBLASLT ? "cuBLASLt" : "cuDNN";
  }

  std::string engine;
};

TEST_F(GpuBlasLtTest, LinearBiasReluOnCublasLt) {
  BlasLtSetting setting("always");
  cmrtPlanOrigin origin{};
  runLinear(DataType::Half, 4, 50, 96, 80, PointwiseMode::ReluFwd, 2e-3,
            origin);
  EXPECT_EQ(origin, CMRT_PLAN_CUBLASLT);
  EXPECT_EQ(engine.rfind("cublasLt algo", 0), 0u) << engine;
}

TEST_F(GpuBlasLtTest, BatchOneBf16GeluTanhOnCublasLt) {
  BlasLtSetting setting("always");
  cmrtPlanOrigin origin{};
  runLinear(DataType::BFloat16, 1, 1, 512, 1000,
            PointwiseMode::GeluApproxTanhFwd, 1e-2, origin);
  EXPECT_EQ(origin, CMRT_PLAN_CUBLASLT);
}

TEST_F(GpuBlasLtTest, BatchedScaledMatmulOnCublasLt) {
  BlasLtSetting setting("always");
  // scores = q [6, 40, 32] x k^T * 0.125, k stored [6, 40, 32].
  const int64_t bh = 6, l = 40, d = 32;
  Buffer q, kk, y;
  random(q, DataType::Half, bh * l * d, -1, 1);
  random(kk, DataType::Half, bh * l * d, -1, 1);
  output(y, DataType::Half, bh * l * l);
  GraphDescription g;
  Tensor kt = typedTensor(2, DataType::Half, {bh, d, l});
  kt.strides = {l * d, 1, d};
  Tensor scale = typedTensor(4, DataType::Float, {1, 1, 1});
  scale.isByValue = true;
  scale.scalar = doubleToWord(0.125);
  g.tensors = {typedTensor(1, DataType::Half, {bh, l, d}), kt,
               typedTensor(3, DataType::Half, {bh, l, l}, true), scale,
               typedTensor(5, DataType::Half, {bh, l, l})};
  g.ops = {op(OpKind::Matmul, MatmulAttrs{}, {1, 2}, {3}),
           op(OpKind::Pointwise, pointwise(PointwiseMode::Mul), {3, 4}, {5})};
  ASSERT_NO_FATAL_FAILURE(
      run(g, CMRT_GRAPH_DEFAULT, {1, 2, 5}, {q.device, kk.device, y.device}));
  EXPECT_EQ(originOf(g), CMRT_PLAN_CUBLASLT);
  download(y);
  std::vector<double> want(y.host.size());
  for (int64_t i = 0; i < bh; ++i)
    for (int64_t r = 0; r < l; ++r)
      for (int64_t c = 0; c < l; ++c) {
        double acc = 0;
        for (int64_t p = 0; p < d; ++p)
          acc += q.host[(i * l + r) * d + p] * kk.host[(i * l + c) * d + p];
        want[(i * l + r) * l + c] = 0.125 * acc;
      }
  double err = relL2(y.host, want);
  EXPECT_LT(err, 2e-3);
  std::printf("batched q x k^T * 0.125: rel-L2 %.3g\n", err);
}

TEST_F(GpuBlasLtTest, TimedChoiceIsRightEitherWay) {
  BlasLtSetting setting(nullptr);
  cmrtPlanOrigin origin{};
  // A skinny linear (batch 32, AlexNet's classifier) and a wide one.
  runLinear(DataType::Half, 1, 32, 9216, 4096, PointwiseMode::ReluFwd, 2e-3,
            origin);
  runLinear(DataType::Half, 8, 197, 768, 3072, PointwiseMode::Identity, 2e-3,
            origin);
}

TEST_F(GpuBlasLtTest, OffKeepsCudnn) {
  BlasLtSetting setting("0");
  cmrtPlanOrigin origin{};
  runLinear(DataType::Half, 4, 50, 96, 80, PointwiseMode::ReluFwd, 2e-3,
            origin);
  EXPECT_NE(origin, CMRT_PLAN_CUBLASLT);
}

} // namespace
