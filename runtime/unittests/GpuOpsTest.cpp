//===- GpuOpsTest.cpp - each translated op kind on a GPU ------------------===//
//
// Needs a CUDA GPU and cuDNN 9 (CTest label `gpu`). One test per op or
// fused pattern: build through the C ABI, check that one fused cuDNN graph
// ran (not the split fallback), and compare against a float64 CPU reference
// with a stated tolerance (relative L2 error; the measured value is printed).
// Graphs come from RuntimeGraphs.h, which the CPU tests validate.
//
// Tolerances: fp32 with CMRT_GRAPH_EXACT_FP32 1e-5; float statistics 1e-4
// (one-pass variance in fp32); fp16 outputs 2e-3 (rounding alone is about
// 3e-4); bf16 outputs 1e-2 (rounding alone is about 2e-3); max pooling is
// exact.
//
// A graph cuDNN has no engine for on the test machine is a finding, not a
// skip: its test asserts the clear CMRT_ERROR_NOT_SUPPORTED naming the op
// (expectRefused), and docs/runtime.md records it.
//
//===----------------------------------------------------------------------===//

#include "GpuTestFixture.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

using P = OpsTestParams;

/// Where element (n, c, h, w) of a rank-4 tensor of the graph lives.
struct Index4 {
  std::vector<int64_t> dims, strides;
  size_t operator()(int64_t n, int64_t c, int64_t h, int64_t w) const {
    return static_cast<size_t>(n * strides[0] + c * strides[1] +
                               h * strides[2] + w * strides[3]);
  }
  size_t size() const {
    size_t n = 1;
    for (int64_t d : dims)
      n *= static_cast<size_t>(d);
    return n;
  }
};

Index4 indexOf(const GraphDescription &g, int64_t uid) {
  for (const Tensor &t : g.tensors)
    if (t.uid == uid)
      return {t.dims, t.strides};
  ADD_FAILURE() << "no tensor UID " << uid;
  return {{0, 0, 0, 0}, {0, 0, 0, 0}};
}

/// Calls f(x index, w index, y index) for every multiply of a convolution
/// of shape `s` (cross-correlation, zero padding).
void forEachTap(const ConvShape &s, const Index4 &x, const Index4 &w,
                const Index4 &y,
                const std::function<void(size_t, size_t, size_t)> &f) {
  std::vector<int64_t> yd = convY(s);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t k = 0; k < s.k; ++k)
      for (int64_t p = 0; p < yd[2]; ++p)
        for (int64_t q = 0; q < yd[3]; ++q)
          for (int64_t r = 0; r < s.r; ++r)
            for (int64_t t = 0; t < s.s; ++t) {
              int64_t ih = p * s.stride + r - s.pad;
              int64_t iw = q * s.stride + t - s.pad;
              if (ih < 0 || ih >= s.h || iw < 0 || iw >= s.w)
                continue;
              for (int64_t c = 0; c < s.c; ++c)
                f(x(n, c, ih, iw), w(k, c, r, t), y(n, k, p, q));
            }
}

/// Calls f(index, channel) for every element of an [N, C, H, W] tensor.
void forEachElement(const Index4 &t,
                    const std::function<void(size_t, int64_t)> &f) {
  for (int64_t n = 0; n < t.dims[0]; ++n)
    for (int64_t c = 0; c < t.dims[1]; ++c)
      for (int64_t h = 0; h < t.dims[2]; ++h)
        for (int64_t w = 0; w < t.dims[3]; ++w)
          f(t(n, c, h, w), c);
}

class GpuOpsTest : public GpuGraphTest {
protected:
  /// Builds `desc` as one fused cuDNN graph and runs it on `stream`.
  void runFused(const GraphDescription &desc, cmrtGraphOptions options,
                std::vector<int64_t> uids, std::vector<void *> ptrs) {
    std::vector<int64_t> w = serialize(desc);
    cmrtGraph g = nullptr;
    ASSERT_EQ(cmrtGraphGetOrBuild(w.data(), static_cast<int64_t>(w.size()),
                                  options, stream, &g),
              CMRT_SUCCESS)
        << cmrtGetLastErrorMessage();
    cmrtGraphInfo info{};
    EXPECT_EQ(cmrtGraphGetInfo(g, &info), CMRT_SUCCESS);
    EXPECT_EQ(info.origin, CMRT_PLAN_HEURISTICS) << "not one fused graph";
    EXPECT_EQ(info.parts, 1);
    std::printf("  engine: %s\n", info.engine);
    cmrtStatus st = cmrtGraphExecute(g, stream, uids.data(), ptrs.data(),
                                     static_cast<int64_t>(uids.size()));
    std::string msg = cmrtGetLastErrorMessage();
    CMRT_OK(cmrtGraphRelease(g));
    ASSERT_EQ(st, CMRT_SUCCESS) << msg;
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaGetLastError());
  }

  /// A graph cuDNN has no engine for here: CMRT_ERROR_NOT_SUPPORTED with a
  /// message that names the op (`op`, e.g. "op #0 (norm_forward)").
  void expectRefused(const GraphDescription &desc, cmrtGraphOptions options,
                     const std::string &op) {
    std::vector<int64_t> w = serialize(desc);
    cmrtGraph g = nullptr;
    cmrtStatus st = cmrtGraphGetOrBuild(
        w.data(), static_cast<int64_t>(w.size()), options, stream, &g);
    std::string msg = cmrtGetLastErrorMessage();
    EXPECT_EQ(st, CMRT_ERROR_NOT_SUPPORTED) << msg;
    EXPECT_EQ(g, nullptr);
    EXPECT_NE(msg.find(op), std::string::npos) << msg;
    std::printf("  refused (recorded in docs/runtime.md): %s\n",
                msg.substr(0, msg.find('\n')).c_str());
    CMRT_OK(cmrtGraphRelease(g));
  }

  /// Uploads `values`, each rounded to `type` first.
  void values(Buffer &b, DataType type, const std::vector<double> &v) {
    b.type = type;
    b.host.resize(v.size());
    for (size_t i = 0; i < v.size(); ++i)
      b.host[i] = roundTo(type, static_cast<float>(v[i]));
    upload(b);
  }

  static void report(const char *what, const std::vector<double> &got,
                     const std::vector<double> &want, double tol) {
    double err = relL2(got, want);
    std::printf("%-44s rel-L2 %.3g (tol %.0e)\n", what, err, tol);
    EXPECT_LT(err, tol) << what;
  }
};

//===-- Device and versions (for the record) ------------------------------===//

TEST_F(GpuOpsTest, ReportsDeviceAndVersions) {
  cudaDeviceProp prop{};
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  cmrtVersionInfo v{};
  CMRT_OK(cmrtGetVersionInfo(&v));
  std::printf("device: %s (sm %d%d), cuDNN %d loaded (%d built), CUDA "
              "runtime %d, driver %d, frontend %d\n",
              prop.name, prop.major, prop.minor, v.cudnnLoaded, v.cudnnBuild,
              v.cudaRuntime, v.cudaDriver, v.cudnnFrontend);
}

//===-- Convolution backward data and filter ------------------------------===//

class GpuConvGradTest : public GpuOpsTest {
protected:
  void dgrad(DataType io, bool channelsLast, cmrtGraphOptions options,
             double tol, const char *what) {
    ConvShape s = P::dgrad();
    GraphDescription g = convDgradGraph(io, s, channelsLast);
    Index4 dy = indexOf(g, 1), w = indexOf(g, 2), dx = indexOf(g, 3);
    Buffer bdy, bw, bdx;
    random(bdy, io, dy.size(), -1, 1);
    random(bw, io, w.size(), -0.5, 0.5);
    output(bdx, io, dx.size());
    runFused(g, options, {1, 2, 3}, {bdy.device, bw.device, bdx.device});
    download(bdx);
    std::vector<double> want(dx.size(), 0.0);
    forEachTap(s, dx, w, dy, [&](size_t xi, size_t wi, size_t yi) {
      want[xi] += bdy.host[yi] * bw.host[wi];
    });
    report(what, bdx.host, want, tol);
  }

  void wgrad(DataType io, bool channelsLast, cmrtGraphOptions options,
             double tol, const char *what) {
    ConvShape s;
    GraphDescription g = convWgradGraph(io, s, channelsLast);
    Index4 x = indexOf(g, 1), dy = indexOf(g, 2), dw = indexOf(g, 3);
    Buffer bx, bdy, bdw;
    random(bx, io, x.size(), -1, 1);
    random(bdy, io, dy.size(), -1, 1);
    output(bdw, io, dw.size());
    runFused(g, options, {1, 2, 3}, {bx.device, bdy.device, bdw.device});
    download(bdw);
    std::vector<double> want(dw.size(), 0.0);
    forEachTap(s, x, dw, dy, [&](size_t xi, size_t wi, size_t yi) {
      want[wi] += bx.host[xi] * bdy.host[yi];
    });
    report(what, bdw.host, want, tol);
  }
};

TEST_F(GpuConvGradTest, DgradFloatExactNchw) {
  dgrad(DataType::Float, false, CMRT_GRAPH_EXACT_FP32, 1e-5,
        "conv dgrad fp32 exact NCHW, stride 2");
}

TEST_F(GpuConvGradTest, DgradHalfNhwc) {
  dgrad(DataType::Half, true, CMRT_GRAPH_DEFAULT, 2e-3,
        "conv dgrad fp16 NHWC, stride 2");
}

TEST_F(GpuConvGradTest, WgradFloatExactNchw) {
  wgrad(DataType::Float, false, CMRT_GRAPH_EXACT_FP32, 1e-5,
        "conv wgrad fp32 exact NCHW");
}

TEST_F(GpuConvGradTest, WgradHalfNhwc) {
  wgrad(DataType::Half, true, CMRT_GRAPH_DEFAULT, 2e-3, "conv wgrad fp16 NHWC");
}

//===-- Convolution alpha, and conv + bias + residual + relu
//----------------===//

TEST_F(GpuOpsTest, ConvAlphaHalfNhwc) {
  ConvShape s;
  GraphDescription g = convAlphaGraph(DataType::Half, s, P::kAlpha);
  Index4 x = indexOf(g, 1), w = indexOf(g, 2), y = indexOf(g, 3);
  Buffer bx, bw, by;
  random(bx, DataType::Half, x.size(), -1, 1);
  random(bw, DataType::Half, w.size(), -0.5, 0.5);
  output(by, DataType::Half, y.size());
  runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 3}, {bx.device, bw.device, by.device});
  download(by);
  std::vector<double> want(y.size(), 0.0);
  forEachTap(s, x, w, y, [&](size_t xi, size_t wi, size_t yi) {
    want[yi] += P::kAlpha * bx.host[xi] * bw.host[wi];
  });
  report("0.5 * conv fp16 NHWC (alpha as fused mul)", by.host, want, 2e-3);
}

// beta blends into y's prior value; cudnn-frontend fixes a convolution's
// beta at 0, so the runtime refuses it by name instead of dropping it.
TEST_F(GpuOpsTest, ConvBetaIsRefusedClearly) {
  expectRefused(convBetaGraph(), CMRT_GRAPH_DEFAULT,
                "op #0 (conv_fprop): beta 0.5 (blending in the output's prior "
                "value) is not supported");
}

class GpuConvFusionTest : public GpuOpsTest {
protected:
  void convBiasAddRelu(DataType io, double tol, const char *what) {
    ConvShape s;
    GraphDescription g = convBiasAddReluGraph(io, s);
    Index4 x = indexOf(g, 1), w = indexOf(g, 2), y = indexOf(g, 8);
    Buffer bx, bw, bb, br, by;
    random(bx, io, x.size(), -1, 1);
    random(bw, io, w.size(), -0.5, 0.5);
    random(bb, io, static_cast<size_t>(s.k), -0.5, 0.5);
    random(br, io, y.size(), -1, 1);
    output(by, io, y.size());
    runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 4, 6, 8},
             {bx.device, bw.device, bb.device, br.device, by.device});
    download(by);
    std::vector<double> want(y.size(), 0.0);
    forEachTap(s, x, w, y, [&](size_t xi, size_t wi, size_t yi) {
      want[yi] += bx.host[xi] * bw.host[wi];
    });
    forEachElement(y, [&](size_t i, int64_t k) {
      double v = want[i] + bb.host[static_cast<size_t>(k)] + br.host[i];
      want[i] = v > 0 ? v : 0;
    });
    report(what, by.host, want, tol);
  }
};

TEST_F(GpuConvFusionTest, ConvBiasAddReluHalfNhwc) {
  convBiasAddRelu(DataType::Half, 2e-3, "conv+bias+add+relu fp16 NHWC");
}

TEST_F(GpuConvFusionTest, ConvBiasAddReluBf16Nhwc) {
  convBiasAddRelu(DataType::BFloat16, 1e-2, "conv+bias+add+relu bf16 NHWC");
}

//===-- matmul + bias + gelu ----------------------------------------------===//

TEST_F(GpuOpsTest, MatmulBiasGeluHalf) {
  const int64_t m = P::kMatmulM, k = P::kMatmulK, n = P::kMatmulN;
  Buffer a, b, bias, y;
  random(a, DataType::Half, m * k, -1, 1);
  random(b, DataType::Half, k * n, -0.25, 0.25);
  random(bias, DataType::Half, n, -1, 1);
  output(y, DataType::Half, m * n);
  runFused(matmulBiasGeluGraph(DataType::Half, m, k, n), CMRT_GRAPH_DEFAULT,
           {1, 2, 4, 6}, {a.device, b.device, bias.device, y.device});
  download(y);
  std::vector<double> want =
      matmulBiasReference(a.host, b.host, bias.host, m, k, n);
  for (double &v : want)
    v = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
  report("matmul+bias+gelu(erf) fp16", y.host, want, 2e-3);
}

// fp32: cuDNN's matmul engines compute in TF32 whatever their notes say
// (ExactFp32.h), so with CMRT_GRAPH_EXACT_FP32 the runtime refuses the graph
// by name (split or not); without the option it runs, on TF32, within
// TF32's tolerance. With NVIDIA_TF32_OVERRIDE=0 cuDNN computes in fp32, but
// on the H100 (cuDNN 9.14) no exact engine takes the fused epilogue and the
// split cannot run a pointwise op alone, so there the matmul alone is
// checked, exactly.
TEST_F(GpuOpsTest, MatmulBiasGeluFloat) {
  const int64_t m = P::kMatmulM, k = P::kMatmulK, n = P::kMatmulN;
  Buffer a, b, bias, y;
  random(a, DataType::Float, m * k, -1, 1);
  random(b, DataType::Float, k * n, -0.25, 0.25);
  random(bias, DataType::Float, n, -1, 1);
  output(y, DataType::Float, m * n);
  GraphDescription graph = matmulBiasGeluGraph(DataType::Float, m, k, n);
  const char *tf32 = std::getenv("NVIDIA_TF32_OVERRIDE");
  if (tf32 && std::string(tf32) == "0") {
    runFused(matmulGraph(DataType::Float, m, k, n), CMRT_GRAPH_EXACT_FP32,
             {1, 2, 3}, {a.device, b.device, y.device});
    download(y);
    std::vector<double> zero(n, 0.0);
    report("matmul fp32 exact (NVIDIA_TF32_OVERRIDE=0)", y.host,
           matmulBiasReference(a.host, b.host, zero, m, k, n), 1e-5);
    return;
  }
  expectRefused(graph, CMRT_GRAPH_EXACT_FP32,
                "op #0 (matmul): an fp32 matmul cannot be kept exact");
  runFused(graph, CMRT_GRAPH_DEFAULT, {1, 2, 4, 6},
           {a.device, b.device, bias.device, y.device});
  download(y);
  std::vector<double> want =
      matmulBiasReference(a.host, b.host, bias.host, m, k, n);
  for (double &v : want)
    v = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
  report("matmul+bias+gelu fp32 on TF32", y.host, want, 5e-3);
}

//===-- Batch norm --------------------------------------------------------===//

/// Per-channel mean and biased variance of an [N, C, H, W] tensor.
void channelStats(const Index4 &x, const std::vector<double> &v,
                  std::vector<double> &mean, std::vector<double> &var) {
  size_t c = static_cast<size_t>(x.dims[1]);
  double count = static_cast<double>(x.size() / c);
  mean.assign(c, 0.0);
  var.assign(c, 0.0);
  forEachElement(x, [&](size_t i, int64_t ch) { mean[ch] += v[i] / count; });
  forEachElement(x, [&](size_t i, int64_t ch) {
    var[ch] += (v[i] - mean[ch]) * (v[i] - mean[ch]) / count;
  });
}

class GpuBatchNormTest : public GpuOpsTest {
protected:
  void training(DataType io, double tol, const char *what) {
    NormShape ns;
    GraphDescription g =
        batchNormTrainingGraph(io, ns, P::kEpsilon, P::kMomentum);
    Index4 x = indexOf(g, 1);
    size_t c = static_cast<size_t>(ns.c);
    Buffer bx, scale, bias, rm, rv, y, mean, inv, nrm, nrv;
    random(bx, io, x.size(), -1, 3); // mean near 1: no cancellation
    random(scale, DataType::Float, c, 0.5, 1.5);
    random(bias, DataType::Float, c, -0.5, 0.5);
    random(rm, DataType::Float, c, -0.5, 0.5);
    random(rv, DataType::Float, c, 0.5, 1.5);
    output(y, io, x.size());
    for (Buffer *b : {&mean, &inv, &nrm, &nrv})
      output(*b, DataType::Float, c);
    runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
             {bx.device, scale.device, bias.device, rm.device, rv.device,
              y.device, mean.device, inv.device, nrm.device, nrv.device});
    for (Buffer *b : {&y, &mean, &inv, &nrm, &nrv})
      download(*b);

    std::vector<double> mu, var;
    channelStats(x, bx.host, mu, var);
    double count = static_cast<double>(ns.count());
    std::vector<double> wantY(x.size()), wantInv(c), wantRm(c), wantRv(c),
        biasedRv(c);
    for (size_t i = 0; i < c; ++i) {
      wantInv[i] = 1 / std::sqrt(var[i] + P::kEpsilon);
      wantRm[i] = (1 - P::kMomentum) * rm.host[i] + P::kMomentum * mu[i];
      wantRv[i] = (1 - P::kMomentum) * rv.host[i] +
                  P::kMomentum * var[i] * count / (count - 1);
      biasedRv[i] = (1 - P::kMomentum) * rv.host[i] + P::kMomentum * var[i];
    }
    forEachElement(x, [&](size_t i, int64_t ch) {
      wantY[i] =
          scale.host[ch] * (bx.host[i] - mu[ch]) * wantInv[ch] + bias.host[ch];
    });
    report(what, y.host, wantY, tol);
    report("  saved mean", mean.host, mu, 1e-4);
    report("  saved inv variance", inv.host, wantInv, 1e-4);
    report("  next running mean (momentum 0.1)", nrm.host, wantRm, 1e-4);
    report("  next running var (unbiased variance)", nrv.host, wantRv, 1e-4);
    std::printf("  (next running var against the biased variance: %.3g)\n",
                relL2(nrv.host, biasedRv));
  }
};

TEST_F(GpuBatchNormTest, TrainingHalfNhwc) {
  training(DataType::Half, 2e-3, "batch norm training fp16 NHWC: y");
}

TEST_F(GpuBatchNormTest, TrainingBf16Nhwc) {
  training(DataType::BFloat16, 1e-2, "batch norm training bf16 NHWC: y");
}

TEST_F(GpuBatchNormTest, InferenceHalfNhwc) {
  NormShape ns;
  GraphDescription g = batchNormInferenceGraph(DataType::Half, ns);
  Index4 x = indexOf(g, 1);
  size_t c = static_cast<size_t>(ns.c);
  Buffer bx, scale, bias, mean, inv, y;
  random(bx, DataType::Half, x.size(), -1, 3);
  random(scale, DataType::Float, c, 0.5, 1.5);
  random(bias, DataType::Float, c, -0.5, 0.5);
  random(mean, DataType::Float, c, 0.5, 1.5);
  random(inv, DataType::Float, c, 0.5, 1.5);
  output(y, DataType::Half, x.size());
  runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 3, 4, 5, 6},
           {bx.device, scale.device, bias.device, mean.device, inv.device,
            y.device});
  download(y);
  std::vector<double> want(x.size());
  forEachElement(x, [&](size_t i, int64_t ch) {
    want[i] = scale.host[ch] * (bx.host[i] - mean.host[ch]) * inv.host[ch] +
              bias.host[ch];
  });
  report("batch norm inference fp16 NHWC", y.host, want, 2e-3);
}

TEST_F(GpuBatchNormTest, BackwardHalfNhwc) {
  NormShape ns;
  GraphDescription g = batchNormBackwardGraph(DataType::Half, ns);
  Index4 x = indexOf(g, 2);
  size_t c = static_cast<size_t>(ns.c);
  Buffer dy, bx, scale, mean, inv, dx, dscale, dbias;
  random(dy, DataType::Half, x.size(), -1, 1);
  random(bx, DataType::Half, x.size(), -1, 3);
  random(scale, DataType::Float, c, 0.5, 1.5);
  std::vector<double> mu, var, invStd(c);
  channelStats(x, bx.host, mu, var);
  for (size_t i = 0; i < c; ++i)
    invStd[i] = 1 / std::sqrt(var[i] + P::kEpsilon);
  values(mean, DataType::Float, mu);
  values(inv, DataType::Float, invStd);
  output(dx, DataType::Half, x.size());
  output(dscale, DataType::Float, c);
  output(dbias, DataType::Float, c);
  runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 3, 4, 5, 6, 7, 8},
           {dy.device, bx.device, scale.device, mean.device, inv.device,
            dx.device, dscale.device, dbias.device});
  for (Buffer *b : {&dx, &dscale, &dbias})
    download(*b);

  // With the mean and inv variance (as uploaded) of x itself:
  // dx = scale * inv / M * (M * dy - dbias - xhat * dscale).
  double count = static_cast<double>(ns.count());
  std::vector<double> wantDb(c, 0.0), wantDs(c, 0.0), wantDx(x.size());
  auto xhat = [&](size_t i, int64_t ch) {
    return (bx.host[i] - mean.host[ch]) * inv.host[ch];
  };
  forEachElement(x, [&](size_t i, int64_t ch) {
    wantDb[ch] += dy.host[i];
    wantDs[ch] += dy.host[i] * xhat(i, ch);
  });
  forEachElement(x, [&](size_t i, int64_t ch) {
    wantDx[i] =
        scale.host[ch] * inv.host[ch] *
        (dy.host[i] - wantDb[ch] / count - xhat(i, ch) * wantDs[ch] / count);
  });
  report("batch norm backward fp16 NHWC: dx", dx.host, wantDx, 2e-3);
  report("  dscale", dscale.host, wantDs, 1e-4);
  report("  dbias", dbias.host, wantDb, 1e-4);
}

//===-- genstats and bn_finalize ------------------------------------------===//

// Finding: cuDNN 9.14 on sm90 has no engine for genstats on its own ("No
// valid engine configs"; the runtime-fusion engines want an MMA, pointwise
// or resample node). It runs behind a convolution (the test below).
TEST_F(GpuOpsTest, GenStatsAloneIsRefusedClearly) {
  expectRefused(genStatsGraph(DataType::Half, NormShape{}), CMRT_GRAPH_DEFAULT,
                "op #0 (genstats)");
}

TEST_F(GpuOpsTest, ScaleBiasReluConvGenStatsHalfNhwc) {
  ConvShape s;
  GraphDescription g = scaleBiasReluConvGenStatsGraph(DataType::Half, s);
  Index4 x = indexOf(g, 1), w = indexOf(g, 7), y = indexOf(g, 8);
  size_t c = static_cast<size_t>(s.c), k = static_cast<size_t>(s.k);
  Buffer bx, scale, bias, bw, by, sum, sq;
  random(bx, DataType::Half, x.size(), -1, 1);
  random(scale, DataType::Half, c, 0.5, 1.5);
  random(bias, DataType::Half, c, -0.5, 0.5);
  random(bw, DataType::Half, w.size(), -0.1, 0.5); // y mostly positive
  output(by, DataType::Half, y.size());
  output(sum, DataType::Float, k);
  output(sq, DataType::Float, k);
  runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 3, 7, 8, 9, 10},
           {bx.device, scale.device, bias.device, bw.device, by.device,
            sum.device, sq.device});
  for (Buffer *b : {&by, &sum, &sq})
    download(*b);
  std::vector<double> act(x.size()), want(y.size(), 0.0);
  forEachElement(x, [&](size_t i, int64_t ch) {
    double v = bx.host[i] * scale.host[ch] + bias.host[ch];
    act[i] = v > 0 ? v : 0;
  });
  forEachTap(s, x, w, y, [&](size_t xi, size_t wi, size_t yi) {
    want[yi] += act[xi] * bw.host[wi];
  });
  report("scale+bias+relu+conv fp16 NHWC: y", by.host, want, 2e-3);
  // The statistics of y as stored; genstats may read y before its rounding
  // to fp16 (2^-11 relative per element).
  std::vector<double> wantSum(k, 0.0), wantSq(k, 0.0);
  forEachElement(y, [&](size_t i, int64_t ch) {
    wantSum[ch] += by.host[i];
    wantSq[ch] += by.host[i] * by.host[i];
  });
  report("  genstats sum", sum.host, wantSum, 1e-3);
  report("  genstats sq_sum", sq.host, wantSq, 1e-3);
}

TEST_F(GpuOpsTest, BnFinalizeFloat) {
  NormShape ns;
  size_t c = static_cast<size_t>(ns.c);
  double count = static_cast<double>(ns.count());
  // Sums of `count` values in [-1, 3] per channel (mean 1, E[x^2] 7/3).
  std::vector<double> sums(c), sqs(c);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (size_t i = 0; i < c; ++i) {
    sums[i] = count * (1 + jitter(rng));
    sqs[i] = count * (7.0 / 3 + jitter(rng));
  }
  Buffer sum, sq, scale, bias, rm, rv;
  values(sum, DataType::Float, sums);
  values(sq, DataType::Float, sqs);
  random(scale, DataType::Float, c, 0.5, 1.5);
  random(bias, DataType::Float, c, -0.5, 0.5);
  random(rm, DataType::Float, c, -0.5, 0.5);
  random(rv, DataType::Float, c, 0.5, 1.5);
  Buffer eqScale, eqBias, mean, invStd, nrm, nrv;
  for (Buffer *b : {&eqScale, &eqBias, &mean, &invStd, &nrm, &nrv})
    output(*b, DataType::Float, c);
  runFused(bnFinalizeGraph(ns.c, ns.count(), P::kEpsilon, P::kMomentum),
           CMRT_GRAPH_DEFAULT, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
           {sum.device, sq.device, scale.device, bias.device, rm.device,
            rv.device, eqScale.device, eqBias.device, mean.device,
            invStd.device, nrm.device, nrv.device});
  for (Buffer *b : {&eqScale, &eqBias, &mean, &invStd, &nrm, &nrv})
    download(*b);
  std::vector<double> wMean(c), wInv(c), wScale(c), wBias(c), wRm(c), wRv(c),
      biasedRv(c);
  for (size_t i = 0; i < c; ++i) {
    double m = sum.host[i] / count, var = sq.host[i] / count - m * m;
    wMean[i] = m;
    wInv[i] = 1 / std::sqrt(var + P::kEpsilon);
    wScale[i] = scale.host[i] * wInv[i];
    wBias[i] = bias.host[i] - m * wScale[i];
    wRm[i] = (1 - P::kMomentum) * rm.host[i] + P::kMomentum * m;
    wRv[i] = (1 - P::kMomentum) * rv.host[i] +
             P::kMomentum * var * count / (count - 1);
    biasedRv[i] = (1 - P::kMomentum) * rv.host[i] + P::kMomentum * var;
  }
  report("bn_finalize fp32: eq_scale", eqScale.host, wScale, 1e-5);
  report("  eq_bias", eqBias.host, wBias, 1e-5);
  report("  saved mean", mean.host, wMean, 1e-5);
  report("  saved inv std", invStd.host, wInv, 1e-5);
  report("  next running mean", nrm.host, wRm, 1e-5);
  report("  next running var (unbiased variance)", nrv.host, wRv, 1e-5);
  std::printf("  (next running var against the biased variance: %.3g)\n",
              relL2(nrv.host, biasedRv));
}

//===-- Layer norm and RMS norm -------------------------------------------===//

class GpuLayerNormTest : public GpuOpsTest {
protected:
  /// Row r, column h of the [rows, hidden] activations is element
  /// r * hidden + h (channels-last [rows, hidden, 1, 1]).
  void layerNorm(DataType io, NormPhase phase, double tol, const char *what) {
    const int64_t rows = P::kRows, hidden = P::kHidden;
    bool training = phase == NormPhase::Training;
    GraphDescription g = layerNormGraph(io, rows, hidden, phase, P::kEpsilon);
    Buffer bx, scale, bias, y, mean, inv;
    random(bx, io, rows * hidden, -1, 3);
    random(scale, DataType::Float, hidden, 0.5, 1.5);
    random(bias, DataType::Float, hidden, -0.5, 0.5);
    output(y, io, rows * hidden);
    std::vector<int64_t> uids = {1, 2, 3, 4};
    std::vector<void *> ptrs = {bx.device, scale.device, bias.device, y.device};
    if (training) {
      output(mean, DataType::Float, rows);
      output(inv, DataType::Float, rows);
      uids.insert(uids.end(), {5, 6});
      ptrs.insert(ptrs.end(), {mean.device, inv.device});
    }
    runFused(g, CMRT_GRAPH_DEFAULT, uids, ptrs);
    download(y);
    std::vector<double> wantY(rows * hidden), wantMean(rows), wantInv(rows);
    for (int64_t r = 0; r < rows; ++r) {
      const double *row = &bx.host[r * hidden];
      double mu = 0, var = 0;
      for (int64_t h = 0; h < hidden; ++h)
        mu += row[h] / hidden;
      for (int64_t h = 0; h < hidden; ++h)
        var += (row[h] - mu) * (row[h] - mu) / hidden;
      wantMean[r] = mu;
      wantInv[r] = 1 / std::sqrt(var + P::kEpsilon);
      for (int64_t h = 0; h < hidden; ++h)
        wantY[r * hidden + h] =
            scale.host[h] * (row[h] - mu) * wantInv[r] + bias.host[h];
    }
    report(what, y.host, wantY, tol);
    if (!training)
      return;
    download(mean);
    download(inv);
    report("  saved mean", mean.host, wantMean, 1e-4);
    report("  saved inv variance", inv.host, wantInv, 1e-4);
  }
};

TEST_F(GpuLayerNormTest, TrainingFloat) {
  layerNorm(DataType::Float, NormPhase::Training, 1e-5,
            "layer norm training fp32 [256 x 128]: y");
}

TEST_F(GpuLayerNormTest, TrainingBf16) {
  layerNorm(DataType::BFloat16, NormPhase::Training, 1e-2,
            "layer norm training bf16 [256 x 128]: y");
}

TEST_F(GpuLayerNormTest, InferenceHalf) {
  layerNorm(DataType::Half, NormPhase::Inference, 2e-3,
            "layer norm inference fp16 [256 x 128]");
}

TEST_F(GpuLayerNormTest, BackwardFloat) {
  const int64_t rows = P::kRows, hidden = P::kHidden;
  Buffer dy, bx, scale, mean, inv, dx, dscale, dbias;
  random(dy, DataType::Float, rows * hidden, -1, 1);
  random(bx, DataType::Float, rows * hidden, -1, 3);
  random(scale, DataType::Float, hidden, 0.5, 1.5);
  std::vector<double> mu(rows), r(rows);
  for (int64_t i = 0; i < rows; ++i) {
    const double *row = &bx.host[i * hidden];
    double m = 0, var = 0;
    for (int64_t h = 0; h < hidden; ++h)
      m += row[h] / hidden;
    for (int64_t h = 0; h < hidden; ++h)
      var += (row[h] - m) * (row[h] - m) / hidden;
    mu[i] = m;
    r[i] = 1 / std::sqrt(var + P::kEpsilon);
  }
  values(mean, DataType::Float, mu);
  values(inv, DataType::Float, r);
  output(dx, DataType::Float, rows * hidden);
  output(dscale, DataType::Float, hidden);
  output(dbias, DataType::Float, hidden);
  runFused(layerNormBackwardGraph(DataType::Float, rows, hidden),
           CMRT_GRAPH_DEFAULT, {1, 2, 3, 4, 5, 6, 7, 8},
           {dy.device, bx.device, scale.device, mean.device, inv.device,
            dx.device, dscale.device, dbias.device});
  for (Buffer *b : {&dx, &dscale, &dbias})
    download(*b);
  // With g = dy * scale and xhat = (x - mean) * inv, per row:
  // dx = inv * (g - mean(g) - xhat * mean(g * xhat)).
  std::vector<double> wantDx(rows * hidden), wantDs(hidden, 0.0),
      wantDb(hidden, 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    double mg = 0, mgx = 0;
    for (int64_t h = 0; h < hidden; ++h) {
      size_t e = static_cast<size_t>(i * hidden + h);
      double xhat = (bx.host[e] - mean.host[i]) * inv.host[i];
      double gv = dy.host[e] * scale.host[h];
      mg += gv / hidden;
      mgx += gv * xhat / hidden;
      wantDb[h] += dy.host[e];
      wantDs[h] += dy.host[e] * xhat;
    }
    for (int64_t h = 0; h < hidden; ++h) {
      size_t e = static_cast<size_t>(i * hidden + h);
      double xhat = (bx.host[e] - mean.host[i]) * inv.host[i];
      wantDx[e] = inv.host[i] * (dy.host[e] * scale.host[h] - mg - xhat * mgx);
    }
  }
  report("layer norm backward fp32 [256 x 128]: dx", dx.host, wantDx, 1e-5);
  report("  dscale", dscale.host, wantDs, 1e-5);
  report("  dbias", dbias.host, wantDb, 1e-5);
}

TEST_F(GpuOpsTest, InstanceNormTrainingHalfNhwc) {
  NormShape ns;
  GraphDescription g =
      instanceNormTrainingGraph(DataType::Half, ns, P::kEpsilon);
  Index4 x = indexOf(g, 1), st = indexOf(g, 5);
  size_t c = static_cast<size_t>(ns.c);
  Buffer bx, scale, bias, y, mean, inv;
  random(bx, DataType::Half, x.size(), -1, 3);
  random(scale, DataType::Float, c, 0.5, 1.5);
  random(bias, DataType::Float, c, -0.5, 0.5);
  output(y, DataType::Half, x.size());
  output(mean, DataType::Float, st.size());
  output(inv, DataType::Float, st.size());
  runFused(g, CMRT_GRAPH_DEFAULT, {1, 2, 3, 4, 5, 6},
           {bx.device, scale.device, bias.device, y.device, mean.device,
            inv.device});
  for (Buffer *b : {&y, &mean, &inv})
    download(*b);
  double hw = static_cast<double>(ns.h * ns.w);
  std::vector<double> wantMean(st.size(), 0.0), var(st.size(), 0.0),
      wantInv(st.size()), wantY(x.size());
  auto each = [&](const std::function<void(size_t, size_t, int64_t)> &f) {
    for (int64_t n = 0; n < ns.n; ++n)
      for (int64_t ch = 0; ch < ns.c; ++ch)
        for (int64_t h = 0; h < ns.h; ++h)
          for (int64_t w = 0; w < ns.w; ++w)
            f(x(n, ch, h, w), st(n, ch, 0, 0), ch);
  };
  each([&](size_t i, size_t s, int64_t) { wantMean[s] += bx.host[i] / hw; });
  each([&](size_t i, size_t s, int64_t) {
    var[s] += (bx.host[i] - wantMean[s]) * (bx.host[i] - wantMean[s]) / hw;
  });
  for (size_t s = 0; s < st.size(); ++s)
    wantInv[s] = 1 / std::sqrt(var[s] + P::kEpsilon);
  each([&](size_t i, size_t s, int64_t ch) {
    wantY[i] = scale.host[ch] * (bx.host[i] - wantMean[s]) * wantInv[s] +
               bias.host[ch];
  });
  report("instance norm training fp16 NHWC: y", y.host, wantY, 2e-3);
  report("  saved mean", mean.host, wantMean, 1e-4);
  report("  saved inv variance", inv.host, wantInv, 1e-4);
}

TEST_F(GpuOpsTest, RmsNormTrainingFloat) {
  const int64_t rows = P::kRows, hidden = P::kHidden;
  Buffer bx, scale, y, inv;
  random(bx, DataType::Float, rows * hidden, -1, 3);
  random(scale, DataType::Float, hidden, 0.5, 1.5);
  output(y, DataType::Float, rows * hidden);
  output(inv, DataType::Float, rows);
  runFused(rmsNormTrainingGraph(DataType::Float, rows, hidden, P::kEpsilon),
           CMRT_GRAPH_DEFAULT, {1, 2, 3, 4},
           {bx.device, scale.device, y.device, inv.device});
  download(y);
  download(inv);
  std::vector<double> wantY(rows * hidden), wantInv(rows);
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = &bx.host[r * hidden];
    double ms = 0;
    for (int64_t h = 0; h < hidden; ++h)
      ms += row[h] * row[h] / hidden;
    wantInv[r] = 1 / std::sqrt(ms + P::kEpsilon);
    for (int64_t h = 0; h < hidden; ++h)
      wantY[r * hidden + h] = scale.host[h] * row[h] * wantInv[r];
  }
  report("rms norm training fp32 [256 x 128]: y", y.host, wantY, 1e-5);
  report("  saved inv rms", inv.host, wantInv, 1e-4);
}

//===-- Pooling through resample ------------------------------------------===//

class GpuPoolTest : public GpuOpsTest {
protected:
  void pool(ResampleMode mode, double tol, const char *what) {
    NormShape ns;
    const int64_t win = P::kPoolWindow, st = P::kPoolStride, pad = P::kPoolPad;
    GraphDescription g = poolGraph(DataType::Half, mode, ns, win, st, pad);
    Index4 x = indexOf(g, 1), y = indexOf(g, 2);
    Buffer bx, by;
    random(bx, DataType::Half, x.size(), -1, 1);
    output(by, DataType::Half, y.size());
    runFused(g, CMRT_GRAPH_DEFAULT, {1, 2}, {bx.device, by.device});
    download(by);
    std::vector<double> want(y.size());
    for (int64_t n = 0; n < ns.n; ++n)
      for (int64_t c = 0; c < ns.c; ++c)
        for (int64_t p = 0; p < y.dims[2]; ++p)
          for (int64_t q = 0; q < y.dims[3]; ++q) {
            double mx = -INFINITY, sum = 0;
            int64_t inside = 0;
            for (int64_t i = 0; i < win; ++i)
              for (int64_t j = 0; j < win; ++j) {
                int64_t h = p * st - pad + i, w = q * st - pad + j;
                if (h < 0 || h >= ns.h || w < 0 || w >= ns.w)
                  continue;
                double v = bx.host[x(n, c, h, w)];
                mx = std::max(mx, v);
                sum += v;
                ++inside;
              }
            double v = mode == ResampleMode::MaxPool ? mx
                       : mode == ResampleMode::AvgIncludePadding
                           ? sum / static_cast<double>(win * win)
                           : sum / static_cast<double>(inside);
            want[y(n, c, p, q)] = v;
          }
    report(what, by.host, want, tol);
  }
};

TEST_F(GpuPoolTest, MaxHalfNhwc) {
  pool(ResampleMode::MaxPool, 1e-6, "max pool 3x3/2 pad 1 fp16 NHWC");
}

TEST_F(GpuPoolTest, AvgIncludePaddingHalfNhwc) {
  pool(ResampleMode::AvgIncludePadding, 1e-3,
       "avg pool incl. padding 3x3/2 pad 1 fp16 NHWC");
}

TEST_F(GpuPoolTest, AvgExcludePaddingHalfNhwc) {
  pool(ResampleMode::AvgExcludePadding, 1e-3,
       "avg pool excl. padding 3x3/2 pad 1 fp16 NHWC");
}

//===-- Reduction: per-channel (column) sum -------------------------------===//

TEST_F(GpuOpsTest, ChannelSumFloat) {
  NormShape ns;
  GraphDescription g = channelSumGraph(ns);
  Index4 x = indexOf(g, 1);
  Buffer bx, y;
  random(bx, DataType::Float, x.size(), -1, 3);
  output(y, DataType::Float, static_cast<size_t>(ns.c));
  runFused(g, CMRT_GRAPH_DEFAULT, {1, 2}, {bx.device, y.device});
  download(y);
  std::vector<double> want(static_cast<size_t>(ns.c), 0.0);
  forEachElement(x, [&](size_t i, int64_t ch) { want[ch] += bx.host[i]; });
  report("channel sum fp32 NHWC [4,32,16,16] -> [1,32,1,1]", y.host, want,
         1e-5);
}

} // namespace
