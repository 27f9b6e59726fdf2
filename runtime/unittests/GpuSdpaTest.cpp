//===- GpuSdpaTest.cpp - attention graphs on cuDNN, on a GPU --------------===//
//
// Needs a CUDA GPU (CTest label `gpu`). A graph of one sdpa op runs on
// cuDNN's fused attention engines and matches a float64 CPU reference of
// softmax(scale * q k^T + bias) v: relative L2 error <= 2e-3 for f16
// outputs, 1e-2 for bf16 (8-bit mantissa). Shapes cover ViT-B/16's odd
// sequence (197), grouped-query heads, a key length unlike the query's,
// a broadcast bias, and q/k/v read through strides (heads interleaved in
// a [S, B, H*D] buffer, as a projection writes them).
//
//===----------------------------------------------------------------------===//

#include "GpuTestFixture.h"
#include "GraphTestUtil.h"
#include "cudnn-mlir-runtime/Graph.h"

#include <cmath>
#include <cstdio>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

struct SdpaShape {
  int64_t b, h, hk, s, skv, d, dv;
  bool bias = false;
  /// q, k, v, o stored [S, B, H, D] (a [S, B, H*D] buffer) instead of
  /// packed [B, H, S, D].
  bool sequenceMajor = false;
};

/// Strides of a [B, H, S, D] view: packed, or over [S, B, H, D] storage.
std::vector<int64_t> stridesFor(const SdpaShape &s, int64_t heads, int64_t seq,
                                int64_t dim) {
  if (!s.sequenceMajor)
    return packedStrides({s.b, heads, seq, dim});
  return {heads * dim, dim, s.b * heads * dim, 1};
}

Tensor attnTensor(int64_t uid, DataType type, const SdpaShape &s, int64_t heads,
                  int64_t seq, int64_t dim) {
  Tensor t = tensor(uid, {s.b, heads, seq, dim});
  t.dataType = static_cast<int64_t>(type);
  t.strides = stridesFor(s, heads, seq, dim);
  return t;
}

/// Element (b, h, i, j) of a [B, H, S, D] view with `strides`.
int64_t at(const std::vector<int64_t> &strides, int64_t b, int64_t h, int64_t i,
           int64_t j) {
  return b * strides[0] + h * strides[1] + i * strides[2] + j * strides[3];
}

class GpuSdpaTest : public GpuGraphTest {
protected:
  void runSdpa(DataType io, const SdpaShape &s, double scale,
               double tolerance) {
    GraphDescription g;
    g.tensors = {attnTensor(1, io, s, s.h, s.s, s.d),
                 attnTensor(2, io, s, s.hk, s.skv, s.d),
                 attnTensor(3, io, s, s.hk, s.skv, s.dv),
                 attnTensor(5, io, s, s.h, s.s, s.dv)};
    if (s.bias) {
      // One bias per query head and position pair, shared by the batch.
      Tensor bias = tensor(4, {1, s.h, s.s, s.skv});
      bias.dataType = static_cast<int64_t>(io);
      g.tensors.push_back(bias);
    }
    SdpaAttrs a;
    a.scale = scale;
    g.ops = {op(OpKind::Sdpa, a, {1, 2, 3, s.bias ? 4 : 0}, {5})};

    Buffer q, k, v, bias, o;
    random(q, io, s.b * s.h * s.s * s.d, -1, 1);
    random(k, io, s.b * s.hk * s.skv * s.d, -1, 1);
    random(v, io, s.b * s.hk * s.skv * s.dv, -1, 1);
    output(o, io, s.b * s.h * s.s * s.dv);
    std::vector<int64_t> uids = {1, 2, 3, 5};
    std::vector<void *> pointers = {q.device, k.device, v.device, o.device};
    if (s.bias) {
      random(bias, io, s.h * s.s * s.skv, -2, 2);
      uids.push_back(4);
      pointers.push_back(bias.device);
    }
    ASSERT_NO_FATAL_FAILURE(run(g, CMRT_GRAPH_DEFAULT, uids, pointers));
    download(o);

    const std::vector<int64_t> &qs = g.tensors[0].strides,
                               &ks = g.tensors[1].strides,
                               &vs = g.tensors[2].strides,
                               &os = g.tensors[3].strides;
    std::vector<double> want(o.host.size()), got(o.host.size());
    std::vector<double> p(s.skv);
    int64_t group = s.h / s.hk;
    for (int64_t b = 0; b < s.b; ++b)
      for (int64_t h = 0; h < s.h; ++h)
        for (int64_t i = 0; i < s.s; ++i) {
          double max = -INFINITY, sum = 0;
          for (int64_t j = 0; j < s.skv; ++j) {
            double dot = 0;
            for (int64_t d = 0; d < s.d; ++d)
              dot += q.host[at(qs, b, h, i, d)] *
                     k.host[at(ks, b, h / group, j, d)];
            p[j] = scale * dot +
                   (s.bias ? bias.host[(h * s.s + i) * s.skv + j] : 0.0);
            max = std::max(max, p[j]);
          }
          for (double &x : p)
            sum += (x = std::exp(x - max));
          for (int64_t d = 0; d < s.dv; ++d) {
            double acc = 0;
            for (int64_t j = 0; j < s.skv; ++j)
              acc += p[j] * v.host[at(vs, b, h / group, j, d)];
            int64_t index = at(os, b, h, i, d);
            want[index] = acc / sum;
            got[index] = o.host[index];
          }
        }
    double err = relL2(got, want);
    EXPECT_LT(err, tolerance);
    std::printf("sdpa %s b%lld h%lld/%lld s%lld skv%lld d%lld/%lld%s%s: "
                "rel-L2 %.3g\n",
                io == DataType::Half ? "f16" : "bf16",
                static_cast<long long>(s.b), static_cast<long long>(s.h),
                static_cast<long long>(s.hk), static_cast<long long>(s.s),
                static_cast<long long>(s.skv), static_cast<long long>(s.d),
                static_cast<long long>(s.dv), s.bias ? " bias" : "",
                s.sequenceMajor ? " [S,B,H*D]" : "", err);
  }
};

TEST_F(GpuSdpaTest, VitShapeHalf) {
  // ViT-B/16's attention at batch 2: 12 heads of 64 over 197 tokens.
  runSdpa(DataType::Half, {2, 12, 12, 197, 197, 64, 64}, 0.125, 2e-3);
}

TEST_F(GpuSdpaTest, FoldedHeadsBfloat16) {
  // Heads folded into the batch ([B*H, 1, S, D]), as a 3-d bmm chain is.
  runSdpa(DataType::BFloat16, {24, 1, 1, 50, 50, 32, 32}, 1 / std::sqrt(32.0),
          1e-2);
}

TEST_F(GpuSdpaTest, GroupedQueryCrossAttentionWithBias) {
  runSdpa(DataType::Half, {2, 4, 2, 16, 40, 64, 64, /*bias=*/true}, 0.125,
          2e-3);
}

TEST_F(GpuSdpaTest, SequenceMajorStrides) {
  runSdpa(DataType::Half,
          {3, 8, 8, 77, 77, 64, 64, /*bias=*/false, /*sequenceMajor=*/true},
          0.125, 2e-3);
}

} // namespace
