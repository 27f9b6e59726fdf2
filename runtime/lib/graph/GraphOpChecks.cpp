//===- GraphOpChecks.cpp - attribute and shape rules of each op kind ------===//
//
// Runs after the operand slots are known to resolve to tensors of the graph
// (GraphValidation.cpp), so required inputs and outputs are non-null here.
// The rules mirror the `cudnn` dialect's verifiers: the compiler should never
// produce a description that fails them, and the runtime must not trust that.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphValidation.h"

#include "cudnn-mlir-runtime/SlidingWindow.h"

#include <cmath>
#include <cstdio>

using namespace cmrt::graph;
using namespace cmrt::graph::detail;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// "0.5", "1e-05": doubles as a reader wants them in messages.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

Status checkComputeType(const OpView &v, int64_t computeType) {
  if (isKnownDataType(computeType))
    return Status::success();
  return Status::invalid(v.name() + " expects a cudnnDataType_t compute "
                                    "type, but got " + str(computeType));
}

Status checkMode(const OpView &v, const char *what, int64_t mode,
                 std::initializer_list<int64_t> allowed) {
  for (int64_t a : allowed)
    if (mode == a)
      return Status::success();
  std::vector<int64_t> list(allowed);
  return Status::invalid(v.name() + " expects a " + what + " in " +
                         formatList(list) + ", but got " + str(mode));
}

Status checkRank(const OpView &v, const Tensor &t, const std::string &name,
                 size_t rank, const char *why) {
  if (t.dims.size() == rank)
    return Status::success();
  return Status::invalid(v.name() + " expects " + name + " of rank " +
                         str(rank) + " (" + why + "), but got " +
                         str(t.dims.size()));
}

Status checkSameDims(const OpView &v, const Tensor &a, const std::string &an,
                     const Tensor &b, const std::string &bn) {
  if (a.dims == b.dims)
    return Status::success();
  return Status::invalid(v.name() + " expects " + bn + " to have the dims of " +
                         an + " " + formatList(a.dims) + ", but got " +
                         formatList(b.dims));
}

/// "expects <what> to be <want>, but got <got>": one extent against another.
Status checkEqual(const OpView &v, const std::string &what, int64_t want,
                  int64_t got) {
  if (want == got)
    return Status::success();
  return Status::invalid(v.name() + " expects " + what + " to be " + str(want) +
                         ", but got " + str(got));
}

/// One value per spatial dimension, each at least `min`.
Status checkSpatialArray(const OpView &v, const char *what, int64_t spatialDims,
                         const std::vector<int64_t> &values, int64_t min) {
  if (static_cast<int64_t>(values.size()) != spatialDims)
    return Status::invalid(v.name() + " expects " + str(spatialDims) + " " +
                           what + " values (one per spatial dim), but got " +
                           str(values.size()));
  for (int64_t x : values)
    if (x < min)
      return Status::invalid(v.name() + " expects every " + what +
                             " value to be at least " + str(min) +
                             ", but got " + formatList(values));
  return Status::success();
}

Status checkSpatialDims(const OpView &v, int64_t spatialDims) {
  if (spatialDims >= 1 && spatialDims <= kMaxRank - 2)
    return Status::success();
  return Status::invalid(v.name() + " expects spatial dims in [1, " +
                         str(kMaxRank - 2) + "], but got " + str(spatialDims));
}

/// The shared tail of conv and resample: output spatial extents.
Status checkWindowedDims(const OpView &v, const Tensor &x, const Tensor &y,
                         const std::string &yName,
                         const std::vector<int64_t> &window,
                         const std::vector<int64_t> &stride,
                         const std::vector<int64_t> &pre,
                         const std::vector<int64_t> &post,
                         const std::vector<int64_t> &dilation) {
  for (size_t i = 0; i < window.size(); ++i) {
    // No output (or an overflowing one) reads as 0: never a valid dim.
    int64_t expected =
        slidingWindowOutputSize(x.dims[i + 2], window[i], pre[i], post[i],
                                stride[i], dilation[i])
            .value_or(0);
    if (y.dims[i + 2] == expected && expected >= 1)
      continue;
    return Status::invalid(
        v.name() + " expects " + yName + " dim " + str(i + 2) + " to be " +
        str(expected) + " = (" + str(x.dims[i + 2]) + " + " + str(pre[i]) +
        " + " + str(post[i]) + " - " + str(dilation[i]) + " * (" +
        str(window[i]) + " - 1) - 1) / " + str(stride[i]) + " + 1, but got " +
        str(y.dims[i + 2]));
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// The image input, filter and image output of any of the three conv kinds,
/// with the names the op's schema gives them.
struct ConvRoles {
  const Tensor *x, *w, *y;
  std::string xName, wName, yName;
};

ConvRoles convRoles(const OpView &v) {
  switch (v.op.kind) {
  case OpKind::ConvDgrad: // (dy, w) -> dx
    return {v.output(0), v.input(1), v.input(0), v.outputName(0),
            v.inputName(1), v.inputName(0)};
  case OpKind::ConvWgrad: // (x, dy) -> dw
    return {v.input(0), v.output(0), v.input(1), v.inputName(0),
            v.outputName(0), v.inputName(1)};
  default: // (x, w) -> y
    return {v.input(0), v.input(1), v.output(0), v.inputName(0),
            v.inputName(1), v.outputName(0)};
  }
}

Status checkConvAttrs(const OpView &v, const ConvAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkMode(v, "cudnnConvolutionMode_t", a.mode, {0, 1}));
  CMRT_TRY(checkSpatialDims(v, a.spatialDims));
  CMRT_TRY(checkSpatialArray(v, "stride", a.spatialDims, a.stride, 1));
  CMRT_TRY(checkSpatialArray(v, "pre_padding", a.spatialDims, a.prePadding, 0));
  CMRT_TRY(checkSpatialArray(v, "post_padding", a.spatialDims, a.postPadding, 0));
  return checkSpatialArray(v, "dilation", a.spatialDims, a.dilation, 1);
}

Status checkConvChannels(const OpView &v, const ConvRoles &r) {
  const auto &x = r.x->dims, &w = r.w->dims, &y = r.y->dims;
  if (x[0] != y[0])
    return Status::invalid(v.name() + " expects " + r.yName + " dim 0 to be " +
                           "the batch " + str(x[0]) + " of " + r.xName +
                           ", but got " + str(y[0]));
  if (w[0] != y[1])
    return Status::invalid(v.name() + " expects " + r.yName + " dim 1 to be " +
                           "the output channels " + str(w[0]) + " of " +
                           r.wName + ", but got " + str(y[1]));
  if (x[1] % w[1] != 0 || w[0] % (x[1] / w[1]) != 0)
    return Status::invalid(v.name() + " expects " + r.wName + " dim 1 to " +
                           "divide the channels " + str(x[1]) + " of " +
                           r.xName + " into groups that divide " + str(w[0]) +
                           " output channels, but got " + str(w[1]));
  return Status::success();
}

Status checkConv(const OpView &v, const ConvAttrs &a) {
  CMRT_TRY(checkConvAttrs(v, a));
  if (a.beta != 0 && v.output(0)->isVirtual)
    return Status::invalid(v.name() + " expects beta 0 for the virtual " +
                           v.outputName(0) + " (beta blends in the output's "
                           "prior value, which a virtual tensor does not "
                           "have), but got " + num(a.beta));
  ConvRoles r = convRoles(v);
  size_t rank = static_cast<size_t>(a.spatialDims) + 2;
  CMRT_TRY(checkRank(v, *r.x, r.xName, rank, "spatial dims + 2"));
  CMRT_TRY(checkRank(v, *r.w, r.wName, rank, "spatial dims + 2"));
  CMRT_TRY(checkRank(v, *r.y, r.yName, rank, "spatial dims + 2"));
  CMRT_TRY(checkConvChannels(v, r));
  std::vector<int64_t> window(r.w->dims.begin() + 2, r.w->dims.end());
  return checkWindowedDims(v, *r.x, *r.y, r.yName, window, a.stride,
                           a.prePadding, a.postPadding, a.dilation);
}

//===----------------------------------------------------------------------===//
// Matmul, pointwise, reduction, resample
//===----------------------------------------------------------------------===//

Status checkMatmul(const OpView &v, const MatmulAttrs &attrs) {
  CMRT_TRY(checkComputeType(v, attrs.computeType));
  const Tensor &a = *v.input(0), &b = *v.input(1), &c = *v.output(0);
  size_t rank = a.dims.size();
  if (rank < 2)
    return Status::invalid(v.name() + " expects " + v.inputName(0) +
                           " of rank at least 2, but got " + str(rank));
  CMRT_TRY(checkRank(v, b, v.inputName(1), rank, "the rank of a"));
  CMRT_TRY(checkRank(v, c, v.outputName(0), rank, "the rank of a"));
  size_t m = rank - 2, n = rank - 1;
  CMRT_TRY(checkEqual(v,
                      v.inputName(1) + " dim " + str(m) + " (K, a's last dim)",
                      a.dims[n], b.dims[m]));
  CMRT_TRY(checkEqual(v, v.outputName(0) + " dim " + str(m) + " (M)", a.dims[m],
                      c.dims[m]));
  CMRT_TRY(checkEqual(v, v.outputName(0) + " dim " + str(n) + " (N)", b.dims[n],
                      c.dims[n]));
  for (size_t i = 0; i < m; ++i)
    for (const Tensor *t : {&a, &b})
      if (t->dims[i] != c.dims[i] && t->dims[i] != 1)
        return Status::invalid(
            v.name() + " expects batch dim " + str(i) + " of " +
            (t == &a ? v.inputName(0) : v.inputName(1)) + " to be " +
            str(c.dims[i]) + " or 1 (broadcast to c), but got " +
            str(t->dims[i]));
  return Status::success();
}

/// Each input has the output's rank and each dim equals the output's or 1.
Status checkBroadcast(const OpView &v, size_t input) {
  const Tensor &x = *v.input(input), &y = *v.output(0);
  bool ok = x.dims.size() == y.dims.size();
  for (size_t i = 0; ok && i < x.dims.size(); ++i)
    ok = x.dims[i] == y.dims[i] || x.dims[i] == 1;
  if (ok)
    return Status::success();
  return Status::invalid(v.name() + " expects input " + v.inputName(input) +
                         " to broadcast to " + v.outputName(0) + " " +
                         formatList(y.dims) + ", but got " +
                         formatList(x.dims));
}

/// The modes each optional pointwise parameter belongs to.
bool paramAllowed(int64_t key, int64_t mode) {
  using M = PointwiseMode;
  auto is = [&](M fwd, M bwd) {
    return mode == static_cast<int64_t>(fwd) ||
           mode == static_cast<int64_t>(bwd);
  };
  switch (static_cast<PointwiseParam>(key)) {
  case PointwiseParam::ReluLowerClip:
  case PointwiseParam::ReluUpperClip:
  case PointwiseParam::ReluLowerClipSlope: return is(M::ReluFwd, M::ReluBwd);
  case PointwiseParam::EluAlpha: return is(M::EluFwd, M::EluBwd);
  case PointwiseParam::SoftplusBeta: return is(M::SoftplusFwd, M::SoftplusBwd);
  case PointwiseParam::SwishBeta: return is(M::SwishFwd, M::SwishBwd);
  case PointwiseParam::Axis: return is(M::GenIndex, M::GenIndex);
  }
  return false;
}

Status checkPointwiseParams(const OpView &v, const PointwiseAttrs &a) {
  int64_t previous = -1;
  for (const auto &[key, value] : a.params) {
    if (key <= previous)
      return Status::invalid(v.name() + " expects parameter keys in " +
                             "ascending order without repeats, but got " +
                             str(key) + " after " + str(previous));
    if (!paramAllowed(key, a.mode))
      return Status::invalid(v.name() + " expects no parameter " + str(key) +
                             " (cudnnBackendAttributeName_t) for pointwise "
                             "mode " + str(a.mode) + ", but got one");
    previous = key;
  }
  if (a.mode == static_cast<int64_t>(PointwiseMode::GenIndex) &&
      !a.get(PointwiseParam::Axis))
    return Status::invalid(v.name() + " expects an axis parameter for "
                                      "gen_index, but got none");
  return Status::success();
}

Status checkPointwise(const OpView &v, const PointwiseAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkPointwiseParams(v, a));
  for (size_t i = 0; i < v.op.inputs.size(); ++i)
    CMRT_TRY(checkBroadcast(v, i));
  return Status::success();
}

Status checkReduction(const OpView &v, const ReductionAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkMode(v, "cudnnReduceTensorOp_t", a.mode,
                     {0, 1, 2, 3, 4, 5, 6, 7}));
  const Tensor &x = *v.input(0), &y = *v.output(0);
  CMRT_TRY(checkRank(v, y, v.outputName(0), x.dims.size(), "the rank of x"));
  for (size_t i = 0; i < x.dims.size(); ++i)
    if (y.dims[i] != x.dims[i] && y.dims[i] != 1)
      return Status::invalid(v.name() + " expects " + v.outputName(0) +
                             " dim " + str(i) + " to be " + str(x.dims[i]) +
                             " or 1 (reduced), but got " + str(y.dims[i]));
  return Status::success();
}

Status checkResample(const OpView &v, const ResampleAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkMode(v, "cudnnResampleMode_t", a.mode, {2, 3, 4}));
  // cuDNN pools over 1 to 3 spatial dims, and so does the dialect.
  if (a.spatialDims < 1 || a.spatialDims > 3)
    return Status::invalid(v.name() + " expects spatial dims in [1, 3], but "
                           "got " + str(a.spatialDims));
  CMRT_TRY(checkSpatialArray(v, "window", a.spatialDims, a.window, 1));
  CMRT_TRY(checkSpatialArray(v, "stride", a.spatialDims, a.stride, 1));
  CMRT_TRY(checkSpatialArray(v, "pre_padding", a.spatialDims, a.prePadding, 0));
  CMRT_TRY(checkSpatialArray(v, "post_padding", a.spatialDims, a.postPadding, 0));
  const Tensor &x = *v.input(0), &y = *v.output(0);
  size_t rank = static_cast<size_t>(a.spatialDims) + 2;
  CMRT_TRY(checkRank(v, x, v.inputName(0), rank, "spatial dims + 2"));
  CMRT_TRY(checkRank(v, y, v.outputName(0), rank, "spatial dims + 2"));
  for (size_t i = 0; i < 2; ++i)
    CMRT_TRY(checkEqual(v, v.outputName(0) + " dim " + str(i), x.dims[i],
                        y.dims[i]));
  std::vector<int64_t> ones(a.window.size(), 1);
  return checkWindowedDims(v, x, y, v.outputName(0), a.window, a.stride,
                           a.prePadding, a.postPadding, ones);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

Status checkNonNegative(const OpView &v, const char *what, double value) {
  if (value >= 0)
    return Status::success();
  return Status::invalid(v.name() + " expects " + what + " >= 0, but got " +
                         num(value));
}

/// An optional operand that the mode and phase require or forbid.
Status checkPresence(const OpView &v, const Tensor *t, const char *slot,
                     bool wanted, const std::string &why) {
  if ((t != nullptr) == wanted)
    return Status::success();
  return Status::invalid(v.name() + " expects " + (wanted ? "" : "no ") +
                         slot + " " + why + ", but got " +
                         (t ? "one" : "none (UID 0)"));
}

/// Shapes of a normalization's parameters (scale, bias, dscale, dbias) and
/// statistics (mean, inv_variance, running and saved stats) for x's dims,
/// as the `cudnn` dialect defines them per mode.
struct NormShapes {
  std::vector<int64_t> param, stats;
};

NormShapes normShapes(int64_t mode, const std::vector<int64_t> &x) {
  NormShapes s{std::vector<int64_t>(x.size(), 1),
               std::vector<int64_t>(x.size(), 1)};
  switch (static_cast<NormMode>(mode)) {
  case NormMode::Batch:
    s.param[1] = s.stats[1] = x[1];
    break;
  case NormMode::Instance:
    s.param[1] = s.stats[1] = x[1];
    s.stats[0] = x[0];
    break;
  case NormMode::Layer:
  case NormMode::Rms:
    s.param = x;
    s.param[0] = 1;
    s.stats[0] = x[0];
    break;
  }
  return s;
}

Status checkNormShape(const OpView &v, const Tensor *t,
                      const std::string &name,
                      const std::vector<int64_t> &want, const char *what,
                      int64_t mode) {
  if (!t || t->dims == want)
    return Status::success();
  return Status::invalid(v.name() + " expects " + name + " to be the " +
                         what + " shape " + formatList(want) + " of " +
                         normModeName(mode) + " norm, but got " +
                         formatList(t->dims));
}

Status checkNormInput(const OpView &v, size_t xSlot) {
  const Tensor &x = *v.input(xSlot);
  if (x.dims.size() >= 2)
    return Status::success();
  return Status::invalid(v.name() + " expects " + v.inputName(xSlot) +
                         " of rank at least 2 (N, C, ...), but got " +
                         str(x.dims.size()));
}

/// Which optional slots norm_forward's mode and phase require.
Status checkNormForwardPresence(const OpView &v, const NormForwardAttrs &a) {
  bool training = a.phase == static_cast<int64_t>(NormPhase::Training);
  bool batch = a.mode == static_cast<int64_t>(NormMode::Batch);
  bool rms = a.mode == static_cast<int64_t>(NormMode::Rms);
  std::string why = std::string("for ") + normModeName(a.mode) + " norm " +
                    (training ? "training" : "inference");
  bool running = v.input(5) || v.input(6) || v.output(3) || v.output(4);
  bool allRunning = v.input(5) && v.input(6) && v.output(3) && v.output(4);
  if (running && !allRunning)
    return Status::invalid(v.name() + " expects running_mean, running_var, "
                           "next_running_mean and next_running_var together, "
                           "but got only some of them");
  if (running != a.momentum.has_value())
    return Status::invalid(v.name() + " expects momentum exactly when it " +
                           "updates running statistics, but got " +
                           (running ? "none" : "momentum without them"));
  if (a.momentum && !(batch && training))
    return Status::invalid(v.name() + " expects momentum only for batch "
                           "norm training, but got it " + why);
  if (a.momentum && !(*a.momentum >= 0 && *a.momentum <= 1))
    return Status::invalid(v.name() + " expects momentum in [0, 1], but got " +
                           num(*a.momentum));
  if (!rms) // rms norm's bias is optional
    CMRT_TRY(checkPresence(v, v.input(2), "bias", true, why));
  CMRT_TRY(checkPresence(v, v.input(3), "mean", batch && !training, why));
  CMRT_TRY(checkPresence(v, v.input(4), "inv_variance", batch && !training,
                         why));
  CMRT_TRY(checkPresence(v, v.output(1), "saved_mean", training && !rms, why));
  return checkPresence(v, v.output(2), "saved_inv_variance", training, why);
}

Status checkNormForward(const OpView &v, const NormForwardAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkMode(v, "cudnnBackendNormMode_t", a.mode, {0, 1, 2, 4}));
  CMRT_TRY(checkMode(v, "cudnnBackendNormFwdPhase_t", a.phase, {0, 1}));
  CMRT_TRY(checkNonNegative(v, "epsilon", a.epsilon));
  CMRT_TRY(checkNormInput(v, 0));
  CMRT_TRY(checkSameDims(v, *v.input(0), v.inputName(0), *v.output(0),
                         v.outputName(0)));
  CMRT_TRY(checkNormForwardPresence(v, a));
  NormShapes s = normShapes(a.mode, v.input(0)->dims);
  for (size_t i : {1, 2})
    CMRT_TRY(checkNormShape(v, v.input(i), v.inputName(i), s.param,
                            "parameter", a.mode));
  for (size_t i : {3, 4, 5, 6})
    CMRT_TRY(checkNormShape(v, v.input(i), v.inputName(i), s.stats,
                            "statistics", a.mode));
  for (size_t i : {1, 2, 3, 4})
    CMRT_TRY(checkNormShape(v, v.output(i), v.outputName(i), s.stats,
                            "statistics", a.mode));
  return Status::success();
}

Status checkNormBackward(const OpView &v, const NormBackwardAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkMode(v, "cudnnBackendNormMode_t", a.mode, {0, 1, 2, 4}));
  CMRT_TRY(checkNormInput(v, 1));
  CMRT_TRY(checkSameDims(v, *v.input(1), v.inputName(1), *v.input(0),
                         v.inputName(0)));
  CMRT_TRY(checkSameDims(v, *v.input(1), v.inputName(1), *v.output(0),
                         v.outputName(0)));
  bool rms = a.mode == static_cast<int64_t>(NormMode::Rms);
  std::string why = std::string("for ") + normModeName(a.mode) + " norm";
  CMRT_TRY(checkPresence(v, v.input(3), "mean", !rms, why));
  if (!rms)
    CMRT_TRY(checkPresence(v, v.output(2), "dbias", true, why));
  NormShapes s = normShapes(a.mode, v.input(1)->dims);
  CMRT_TRY(checkNormShape(v, v.input(2), v.inputName(2), s.param, "parameter",
                          a.mode));
  for (size_t i : {1, 2})
    CMRT_TRY(checkNormShape(v, v.output(i), v.outputName(i), s.param,
                            "parameter", a.mode));
  for (size_t i : {3, 4})
    CMRT_TRY(checkNormShape(v, v.input(i), v.inputName(i), s.stats,
                            "statistics", a.mode));
  return Status::success();
}

/// [1, C, 1...] for an [N, C, ...] tensor.
std::vector<int64_t> perChannel(const std::vector<int64_t> &dims) {
  std::vector<int64_t> shape(dims.size(), 1);
  shape[1] = dims[1];
  return shape;
}

Status checkGenStats(const OpView &v, const GenStatsAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkNormInput(v, 0));
  std::vector<int64_t> want = perChannel(v.input(0)->dims);
  for (size_t i = 0; i < 2; ++i)
    if (v.output(i)->dims != want)
      return Status::invalid(v.name() + " expects " + v.outputName(i) +
                             " to be per-channel " + formatList(want) +
                             ", but got " + formatList(v.output(i)->dims));
  return Status::success();
}

Status checkBnFinalize(const OpView &v, const BnFinalizeAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  CMRT_TRY(checkNonNegative(v, "epsilon", a.epsilon));
  if (a.accumulationCount <= 0)
    return Status::invalid(v.name() + " expects a positive accumulation "
                           "count, but got " + str(a.accumulationCount));
  const Tensor &sum = *v.input(0);
  if (sum.dims.size() < 2 || sum.dims != perChannel(sum.dims))
    return Status::invalid(v.name() + " expects " + v.inputName(0) +
                           " of per-channel shape [1, C, 1...], but got " +
                           formatList(sum.dims));
  for (size_t i = 1; i < v.op.inputs.size(); ++i)
    CMRT_TRY(checkSameDims(v, sum, v.inputName(0), *v.input(i),
                           v.inputName(i)));
  for (size_t i = 0; i < v.op.outputs.size(); ++i)
    CMRT_TRY(checkSameDims(v, sum, v.inputName(0), *v.output(i),
                           v.outputName(i)));
  return Status::success();
}

/// q [B, H, S, D], k [B, Hk, Skv, D], v [B, Hk, Skv, Dv], o [B, H, S, Dv],
/// H a multiple of Hk (grouped-query attention), all f16 or all bf16 (the
/// only inputs cuDNN's attention engines take); bias, when present, has each
/// dim of [B, H, S, Skv] or 1.
Status checkSdpa(const OpView &v, const SdpaAttrs &a) {
  CMRT_TRY(checkComputeType(v, a.computeType));
  if (!std::isfinite(a.scale))
    return Status::invalid(v.name() + " expects a finite scale, but got " +
                           num(a.scale));
  const Tensor &q = *v.input(0), &k = *v.input(1), &val = *v.input(2),
               &o = *v.output(0);
  const char *why = "[batch, heads, sequence, head dim]";
  for (size_t i = 0; i < 3; ++i)
    CMRT_TRY(checkRank(v, *v.input(i), v.inputName(i), 4, why));
  CMRT_TRY(checkRank(v, o, v.outputName(0), 4, why));
  int64_t half = static_cast<int64_t>(DataType::Half),
          bf16 = static_cast<int64_t>(DataType::BFloat16);
  if (q.dataType != half && q.dataType != bf16)
    return Status::invalid(v.name() + " expects " + v.inputName(0) +
                           " of half or bfloat16 (cuDNN's attention inputs), "
                           "but got " +
                           dataTypeName(q.dataType));
  for (const Tensor *t : {&k, &val, &o})
    if (t->dataType != q.dataType)
      return Status::invalid(
          v.name() + " expects q, k, v and o of one data type, " +
          dataTypeName(q.dataType) + ", but got " + dataTypeName(t->dataType));
  CMRT_TRY(checkEqual(v, "k's batch", q.dims[0], k.dims[0]));
  CMRT_TRY(checkEqual(v, "v's batch", q.dims[0], val.dims[0]));
  CMRT_TRY(checkEqual(v, "k's head dim (q's)", q.dims[3], k.dims[3]));
  CMRT_TRY(checkEqual(v, "v's heads (k's)", k.dims[1], val.dims[1]));
  CMRT_TRY(checkEqual(v, "v's sequence length (k's)", k.dims[2], val.dims[2]));
  std::vector<int64_t> want = {q.dims[0], q.dims[1], q.dims[2], val.dims[3]};
  if (o.dims != want)
    return Status::invalid(v.name() + " expects " + v.outputName(0) + " " +
                           formatList(want) +
                           " (q's batch, heads and "
                           "sequence, v's head dim), but got " +
                           formatList(o.dims));
  if (q.dims[1] % k.dims[1] != 0)
    return Status::invalid(v.name() + " expects q's heads (" + str(q.dims[1]) +
                           ") to be a multiple of k's, but "
                           "got " +
                           str(k.dims[1]));
  if (const Tensor *bias = v.input(3)) {
    std::vector<int64_t> scores = {q.dims[0], q.dims[1], q.dims[2], k.dims[2]};
    bool ok = bias->dims.size() == 4;
    for (size_t i = 0; ok && i < 4; ++i)
      ok = bias->dims[i] == scores[i] || bias->dims[i] == 1;
    if (!ok)
      return Status::invalid(v.name() + " expects " + v.inputName(3) +
                             " to broadcast to the scores " +
                             formatList(scores) + ", but got " +
                             formatList(bias->dims));
  }
  return Status::success();
}

struct Dispatch {
  const OpView &v;
  Status operator()(const ConvAttrs &a) const { return checkConv(v, a); }
  Status operator()(const MatmulAttrs &a) const { return checkMatmul(v, a); }
  Status operator()(const PointwiseAttrs &a) const {
    return checkPointwise(v, a);
  }
  Status operator()(const ReductionAttrs &a) const {
    return checkReduction(v, a);
  }
  Status operator()(const NormForwardAttrs &a) const {
    return checkNormForward(v, a);
  }
  Status operator()(const NormBackwardAttrs &a) const {
    return checkNormBackward(v, a);
  }
  Status operator()(const GenStatsAttrs &a) const {
    return checkGenStats(v, a);
  }
  Status operator()(const BnFinalizeAttrs &a) const {
    return checkBnFinalize(v, a);
  }
  Status operator()(const ResampleAttrs &a) const {
    return checkResample(v, a);
  }
  Status operator()(const SdpaAttrs &a) const { return checkSdpa(v, a); }
};

} // namespace

Status cmrt::graph::detail::checkOpAttributes(const OpView &view) {
  return std::visit(Dispatch{view}, view.op.attrs);
}
