//===- CudnnRnnOps.cpp - #cudnn.rnn_config and the RNN op verifiers -------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"
#include "VerifierUtils.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;

LogicalResult
RnnConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      RnnCellMode cell, int64_t inputSize, int64_t hiddenSize,
                      int64_t projSize, int64_t numLayers,
                      RnnDirection direction, RnnBiasMode bias,
                      RnnDataLayout layout, MathType math, FloatAttr dropout) {
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"input_size",
                                                           inputSize},
                             {"hidden_size", hiddenSize},
                             {"num_layers", numLayers}}) {
    if (value < 1)
      return emitError() << "expects " << name << " >= 1, but got " << value;
  }
  if (projSize < 0)
    return emitError() << "expects proj_size >= 0 (0: no projection), but got "
                       << projSize;
  if (projSize > 0 && cell != RnnCellMode::lstm)
    return emitError() << "expects proj_size = 0 for a non-lstm cell, but got "
                       << projSize << " for " << stringifyRnnCellMode(cell);
  if (projSize > 0 && projSize >= hiddenSize)
    return emitError() << "expects proj_size < hidden_size = " << hiddenSize
                       << ", but got " << projSize;
  // Unreachable from textual IR (the parser requires dropout); guards C++
  // builders that pass a null attribute.
  if (!dropout)
    return emitError() << "expects a dropout probability, but got none";
  double p = dropout.getValueAsDouble();
  if (!(p >= 0 && p < 1))
    return emitError() << "expects dropout in [0, 1), but got " << p;
  return success();
}

/// x, y and their gradients: rank 3 with the vector size last. Returns the
/// shape, for deriving the others from.
static FailureOr<SmallVector<int64_t>>
verifySequence(Operation *op, StringRef name, Value value, int64_t vectorSize,
               StringRef vectorWhat) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return failure();
  if (type.getRank() != 3)
    return op->emitOpError("expects ")
           << name << " of rank 3 ([seq, batch, vector] or [batch, seq, "
           << "vector]), but got " << type.getRank();
  if (!extentsCompatible(type.getShape()[2], vectorSize))
    return op->emitOpError("expects ")
           << name << "'s last dim to be " << vectorWhat << " = "
           << vectorSize << ", but got " << type.getShape()[2];
  return SmallVector<int64_t>(type.getShape());
}

namespace {
/// The shapes every tensor of one RNN call must have, from the config and
/// the shape of x or y.
struct RnnShapes {
  SmallVector<int64_t> x, y, h, c;
};
} // namespace

static RnnShapes getRnnShapes(RnnConfigAttr config, ArrayRef<int64_t> seq) {
  bool batchMajor = config.getLayout() == RnnDataLayout::batch_major_unpacked;
  int64_t batch = seq[batchMajor ? 0 : 1];
  int64_t states = config.getNumLayers() * config.getNumDirections();
  RnnShapes shapes;
  shapes.x.assign(seq.begin(), seq.end());
  shapes.x[2] = config.getInputSize();
  shapes.y = shapes.x;
  shapes.y[2] = config.getNumDirections() * config.getOutputSize();
  shapes.h = {states, batch, config.getOutputSize()};
  shapes.c = {states, batch, config.getHiddenSize()};
  return shapes;
}

/// Cell states exist for LSTM only.
static LogicalResult expectCellState(Operation *op, RnnConfigAttr config,
                                     StringRef name, Value value) {
  bool lstm = config.getCell() == RnnCellMode::lstm;
  if (lstm == static_cast<bool>(value))
    return success();
  return op->emitOpError("expects ")
         << (lstm ? "" : "no ") << name << " for a "
         << stringifyRnnCellMode(config.getCell()) << " cell, but got "
         << (value ? "one" : "none");
}

static LogicalResult expectRank1(Operation *op, StringRef name, Value value) {
  if (!value)
    return success();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && type.getRank() != 1)
    return op->emitOpError("expects ")
           << name << " of rank 1 (a flat buffer), but got " << type;
  return success();
}

static LogicalResult expectSeqLengths(Operation *op, Value value,
                                      int64_t batch) {
  if (!value)
    return success();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && (type.getRank() != 1 || !type.getElementType().isInteger(32) ||
               !extentsCompatible(type.getShape()[0], batch)))
    return op->emitOpError("expects seq_lengths of type tensor<")
           << (ShapedType::isDynamic(batch) ? std::string("?")
                                            : std::to_string(batch))
           << "xi32>, but got " << type;
  return success();
}

/// States, inputs and outputs share the element type of the reference.
static LogicalResult
expectElementType(Operation *op, Value reference,
                  ArrayRef<std::pair<StringRef, Value>> values) {
  Type expected = getElementTypeOrSelf(reference.getType());
  for (auto [name, value] : values) {
    if (value && getElementTypeOrSelf(value.getType()) != expected)
      return op->emitOpError("expects ")
             << name << " with element type " << expected << ", but got "
             << getElementTypeOrSelf(value.getType());
  }
  return success();
}

LogicalResult RnnForwardOp::verify() {
  RnnConfigAttr config = getConfig();
  FailureOr<SmallVector<int64_t>> x = verifySequence(
      *this, "x", getX(), config.getInputSize(), "input_size");
  if (failed(x))
    return failure();
  RnnShapes shapes = getRnnShapes(config, *x);
  bool training = getPhase() == FwdPhase::training;
  if (failed(expectCellState(*this, config, "cx", getCx())) ||
      failed(expectCellState(*this, config, "cy", getCy())) ||
      failed(expectShape(*this, "y", getY(), shapes.y)) ||
      failed(expectShape(*this, "hx", getHx(), shapes.h)) ||
      failed(expectShape(*this, "hy", getHy(), shapes.h)) ||
      failed(expectShape(*this, "cx", getCx(), shapes.c)) ||
      failed(expectShape(*this, "cy", getCy(), shapes.c)) ||
      failed(expectRank1(*this, "weights", getWeights())) ||
      failed(expectRank1(*this, "reserve_space", getReserveSpace())) ||
      failed(expectSeqLengths(*this, getSeqLengths(), shapes.h[1])) ||
      failed(expectElementType(*this, getX(),
                               {{"y", getY()},
                                {"hx", getHx()},
                                {"hy", getHy()},
                                {"cx", getCx()},
                                {"cy", getCy()}})))
    return failure();
  if (training != static_cast<bool>(getReserveSpace()))
    return emitOpError("expects ")
           << (training ? "a" : "no") << " reserve_space result in "
           << stringifyFwdPhase(getPhase()) << ", but got "
           << (getReserveSpace() ? "one" : "none");
  return success();
}

LogicalResult RnnBackwardDataOp::verify() {
  RnnConfigAttr config = getConfig();
  FailureOr<SmallVector<int64_t>> y = verifySequence(
      *this, "y", getY(), config.getNumDirections() * config.getOutputSize(),
      "dirs * (proj_size or hidden_size)");
  if (failed(y))
    return failure();
  RnnShapes shapes = getRnnShapes(config, *y);
  if (failed(expectCellState(*this, config, "cx", getCx())) ||
      failed(expectCellState(*this, config, "dcy", getDcy())) ||
      failed(expectCellState(*this, config, "dcx", getDcx())) ||
      failed(expectShape(*this, "dy", getDy(), shapes.y)) ||
      failed(expectShape(*this, "dx", getDx(), shapes.x)) ||
      failed(expectShape(*this, "hx", getHx(), shapes.h)) ||
      failed(expectShape(*this, "dhy", getDhy(), shapes.h)) ||
      failed(expectShape(*this, "dhx", getDhx(), shapes.h)) ||
      failed(expectShape(*this, "cx", getCx(), shapes.c)) ||
      failed(expectShape(*this, "dcy", getDcy(), shapes.c)) ||
      failed(expectShape(*this, "dcx", getDcx(), shapes.c)) ||
      failed(expectRank1(*this, "weights", getWeights())) ||
      failed(expectRank1(*this, "reserve_space", getReserveSpace())) ||
      failed(expectSeqLengths(*this, getSeqLengths(), shapes.h[1])) ||
      failed(expectElementType(*this, getY(),
                               {{"dy", getDy()},
                                {"dx", getDx()},
                                {"hx", getHx()},
                                {"dhy", getDhy()},
                                {"dhx", getDhx()},
                                {"cx", getCx()},
                                {"dcy", getDcy()},
                                {"dcx", getDcx()}})))
    return failure();
  return success();
}

LogicalResult RnnBackwardWeightsOp::verify() {
  RnnConfigAttr config = getConfig();
  FailureOr<SmallVector<int64_t>> x = verifySequence(
      *this, "x", getX(), config.getInputSize(), "input_size");
  if (failed(x))
    return failure();
  RnnShapes shapes = getRnnShapes(config, *x);
  if (failed(expectShape(*this, "y", getY(), shapes.y)) ||
      failed(expectShape(*this, "hx", getHx(), shapes.h)) ||
      failed(expectRank1(*this, "reserve_space", getReserveSpace())) ||
      failed(expectRank1(*this, "dweights", getDweights())) ||
      failed(expectSeqLengths(*this, getSeqLengths(), shapes.h[1])) ||
      failed(expectElementType(*this, getX(),
                               {{"y", getY()}, {"hx", getHx()}})))
    return failure();
  return success();
}
