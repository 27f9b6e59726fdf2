//===- CudnnNormOps.cpp - cudnn normalization op verifiers ----------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"
#include "VerifierUtils.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;

namespace {
/// The shapes of a normalization's per-element parameters (scale, bias) and
/// of its statistics (mean, inv_variance, running stats) for an input shape.
struct NormShapes {
  SmallVector<int64_t> param, stats;
};
} // namespace

static NormShapes getNormShapes(NormMode mode, ArrayRef<int64_t> x) {
  NormShapes shapes;
  shapes.param.assign(x.size(), 1);
  shapes.stats.assign(x.size(), 1);
  switch (mode) {
  case NormMode::batch:
    shapes.param[1] = shapes.stats[1] = x[1];
    break;
  case NormMode::instance:
    shapes.param[1] = shapes.stats[1] = x[1];
    shapes.stats[0] = x[0];
    break;
  case NormMode::layer:
  case NormMode::rms:
    shapes.param.assign(x.begin(), x.end());
    shapes.param[0] = 1;
    shapes.stats[0] = x[0];
    break;
  }
  return shapes;
}

static LogicalResult expectPresence(Operation *op, StringRef name,
                                    Value value, bool wanted, StringRef why) {
  if (static_cast<bool>(value) == wanted)
    return success();
  return op->emitOpError("expects ")
         << (wanted ? "" : "no ") << name << " " << why << ", but got "
         << (value ? "one" : "none");
}

static LogicalResult expectNormInput(Operation *op, TensorDescType x) {
  if (x.getRank() < 2)
    return op->emitOpError("expects x of rank >= 2 (N, C, ...), but got ")
           << x.getRank();
  return success();
}

LogicalResult NormForwardOp::verify() {
  TensorDescType x = getX().getType();
  if (failed(expectNormInput(*this, x)))
    return failure();
  NormMode mode = getMode();
  FwdPhase phase = getPhase();
  bool training = phase == FwdPhase::training;
  bool batch = mode == NormMode::batch, rms = mode == NormMode::rms;
  std::string why = ("for " + stringifyNormMode(mode) + " norm " +
                     stringifyFwdPhase(phase))
                        .str();
  if (getEpsilon().convertToFloat() < 0)
    return emitOpError("expects epsilon >= 0, but got ")
           << getEpsilon().convertToFloat();
  if (std::optional<APFloat> momentum = getMomentum()) {
    if (!batch || !training)
      return emitOpError("expects momentum only for batch norm training, but "
                         "got it ")
             << why;
    float m = momentum->convertToFloat();
    if (m < 0 || m > 1)
      return emitOpError("expects momentum in [0, 1], but got ") << m;
  }
  bool running = getMomentum().has_value();
  StringRef runningWhy = running ? "with momentum" : "without momentum";
  if ((!rms && failed(expectPresence(*this, "operand bias", getBias(), true,
                                     why))) ||
      failed(expectPresence(*this, "operand mean", getMean(),
                            batch && !training, why)) ||
      failed(expectPresence(*this, "operand inv_variance", getInvVariance(),
                            batch && !training, why)) ||
      failed(expectPresence(*this, "result saved_mean", getSavedMean(),
                            training && !rms, why)) ||
      failed(expectPresence(*this, "result saved_inv_variance",
                            getSavedInvVariance(), training, why)) ||
      failed(expectPresence(*this, "operand running_mean", getRunningMean(),
                            running, runningWhy)) ||
      failed(expectPresence(*this, "operand running_var", getRunningVar(),
                            running, runningWhy)) ||
      failed(expectPresence(*this, "result next_running_mean",
                            getNextRunningMean(), running, runningWhy)) ||
      failed(expectPresence(*this, "result next_running_var",
                            getNextRunningVar(), running, runningWhy)))
    return failure();
  NormShapes shapes = getNormShapes(mode, x.getShape());
  std::string shapeWhy = ("for " + stringifyNormMode(mode) + " norm").str();
  if (failed(expectShape(*this, "y", getY(), x.getShape(), "(x's shape)")))
    return failure();
  for (auto [name, value] : {std::pair<StringRef, Value>{"scale", getScale()},
                             {"bias", getBias()}}) {
    if (failed(expectShape(*this, name, value, shapes.param, shapeWhy)))
      return failure();
  }
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"mean", getMean()},
        {"inv_variance", getInvVariance()},
        {"running_mean", getRunningMean()},
        {"running_var", getRunningVar()},
        {"saved_mean", getSavedMean()},
        {"saved_inv_variance", getSavedInvVariance()},
        {"next_running_mean", getNextRunningMean()},
        {"next_running_var", getNextRunningVar()}}) {
    if (failed(expectShape(*this, name, value, shapes.stats, shapeWhy)))
      return failure();
  }
  return success();
}

LogicalResult NormBackwardOp::verify() {
  TensorDescType x = getX().getType();
  if (failed(expectNormInput(*this, x)))
    return failure();
  NormMode mode = getMode();
  bool rms = mode == NormMode::rms;
  std::string why = ("for " + stringifyNormMode(mode) + " norm").str();
  if (failed(expectPresence(*this, "operand mean", getMean(), !rms, why)) ||
      (!rms &&
       failed(expectPresence(*this, "result dbias", getDbias(), true, why))))
    return failure();
  NormShapes shapes = getNormShapes(mode, x.getShape());
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"dy", getDy()}, {"dx", getDx()}}) {
    if (failed(expectShape(*this, name, value, x.getShape(), "(x's shape)")))
      return failure();
  }
  for (auto [name, value] : {std::pair<StringRef, Value>{"scale", getScale()},
                             {"dscale", getDscale()},
                             {"dbias", getDbias()}}) {
    if (failed(expectShape(*this, name, value, shapes.param, why)))
      return failure();
  }
  for (auto [name, value] : {std::pair<StringRef, Value>{"mean", getMean()},
                             {"inv_variance", getInvVariance()}}) {
    if (failed(expectShape(*this, name, value, shapes.stats, why)))
      return failure();
  }
  return success();
}

/// [1, C, 1...] for an N x C x ... input.
static SmallVector<int64_t> perChannelShape(ArrayRef<int64_t> x) {
  SmallVector<int64_t> shape(x.size(), 1);
  shape[1] = x[1];
  return shape;
}

LogicalResult GenStatsOp::verify() {
  TensorDescType x = getX().getType();
  if (failed(expectNormInput(*this, x)))
    return failure();
  SmallVector<int64_t> expected = perChannelShape(x.getShape());
  for (auto [name, value] : {std::pair<StringRef, Value>{"sum", getSum()},
                             {"sq_sum", getSqSum()}}) {
    if (failed(expectShape(*this, name, value, expected, "(per channel)")))
      return failure();
  }
  return success();
}

LogicalResult BnFinalizeOp::verify() {
  ArrayRef<int64_t> sum = getSum().getType().getShape();
  if (sum.size() < 2 || !llvm::equal(sum, perChannelShape(sum)))
    return emitOpError("expects sum of shape [1, C, 1...], but got ")
           << formatShape(sum);
  if (getAccumulationCount() < 1)
    return emitOpError("expects accumulation_count >= 1, but got ")
           << getAccumulationCount();
  if (getEpsilon().convertToFloat() < 0)
    return emitOpError("expects epsilon >= 0, but got ")
           << getEpsilon().convertToFloat();
  SmallVector<std::pair<StringRef, Value>> all = {
      {"sq_sum", getSqSum()},
      {"scale", getScale()},
      {"bias", getBias()},
      {"running_mean", getRunningMean()},
      {"running_var", getRunningVar()},
      {"eq_scale", getEqScale()},
      {"eq_bias", getEqBias()},
      {"saved_mean", getSavedMean()},
      {"saved_inv_std", getSavedInvStd()},
      {"next_running_mean", getNextRunningMean()},
      {"next_running_var", getNextRunningVar()}};
  for (auto [name, value] : all) {
    if (failed(expectShape(*this, name, value, sum, "(sum's shape)")))
      return failure();
  }
  return success();
}
