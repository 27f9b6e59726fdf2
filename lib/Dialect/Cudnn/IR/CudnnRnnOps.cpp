//===- CudnnRnnOps.cpp - #cudnn.rnn_config and the RNN op verifiers -------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"
#include "VerifierUtils.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <limits>

// The runtime's (MLIR-free) description of PyTorch's RNN parameters, so that
// the compiler and the runtime that packs them cannot disagree.
#include "cudnn-mlir-runtime/RnnWeightLayout.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;
using mlir::cudnn_mlir::shapesCompatible;

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
    // cudnnSetRNNDescriptor_v8 takes int32 sizes; the bound also keeps the
    // shapes derived from them (gates * hidden_size, ...) far from overflow.
    if (value > std::numeric_limits<int32_t>::max())
      return emitError() << "expects " << name << " <= "
                         << std::numeric_limits<int32_t>::max()
                         << " (cuDNN's int32), but got " << value;
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

RnnShapes mlir::cudnn::getRnnShapes(RnnConfigAttr config,
                                    ArrayRef<int64_t> seq) {
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
  // Training without a reserve space is a forward pass no backward call
  // follows (dropout between layers applies).
  if (!training && getReserveSpace())
    return emitOpError("expects no reserve_space result in inference, but "
                       "got one");
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

//===----------------------------------------------------------------------===//
// PyTorch parameters and the weight space
//===----------------------------------------------------------------------===//

static cmrt::rnn::Cell toRuntimeCell(RnnCellMode cell) {
  // Both have cudnnRNNMode_t's values.
  return static_cast<cmrt::rnn::Cell>(cell);
}

int64_t mlir::cudnn::getRnnGateCount(RnnCellMode cell) {
  return cmrt::rnn::gatesOf(toRuntimeCell(cell));
}

/// The runtime's description of the RNN of `config`, with at most
/// `maxLayers` of its layers.
static cmrt::rnn::RnnShape runtimeShape(RnnConfigAttr config,
                                        int64_t maxLayers) {
  cmrt::rnn::RnnShape shape;
  shape.cell = toRuntimeCell(config.getCell());
  shape.inputSize = config.getInputSize();
  shape.hiddenSize = config.getHiddenSize();
  shape.numLayers = std::min(config.getNumLayers(), maxLayers);
  shape.bidirectional = config.getDirection() == RnnDirection::bidirectional;
  shape.hasBiases = config.getBias() == RnnBiasMode::double_bias;
  shape.projSize = config.getProjSize();
  return shape;
}

int64_t mlir::cudnn::getRnnParamCount(RnnCellMode cell, int64_t numLayers,
                                      bool bidirectional, bool hasBiases,
                                      bool projected) {
  if (numLayers < 1)
    return 0;
  // One layer and direction of placeholder sizes: describing every layer of
  // an absurd num_layers would not end.
  cmrt::rnn::RnnShape shape;
  shape.cell = toRuntimeCell(cell);
  shape.inputSize = 1;
  shape.hiddenSize = 2;
  shape.hasBiases = hasBiases;
  shape.projSize = projected && cell == RnnCellMode::lstm ? 1 : 0;
  cmrt::rnn::WeightLayout layout;
  if (!cmrt::rnn::describeWeights(shape, layout).ok())
    return 0; // Unreachable: the placeholder shape is valid for every cell.
  auto perLayer = static_cast<int64_t>(layout.params.size());
  std::optional<int64_t> count =
      llvm::checkedMul(perLayer * (bidirectional ? 2 : 1), numLayers);
  return count.value_or(std::numeric_limits<int64_t>::max());
}

/// The parameters PyTorch gives an RNN of `config` (from the runtime's
/// describeWeights), when there are `count` of them; otherwise an error
/// naming the first ones.
static FailureOr<std::vector<cmrt::rnn::Param>>
describeParams(RnnConfigAttr config, size_t count, StringRef what,
               function_ref<InFlightDiagnostic()> emitError) {
  RnnBiasMode bias = config.getBias();
  if (bias != RnnBiasMode::double_bias && bias != RnnBiasMode::no_bias)
    return emitError() << "expects bias = double or no_bias (PyTorch's RNNs "
                          "have both biases or none), but got "
                       << stringifyRnnBiasMode(bias);
  int64_t expected = getRnnParamCount(
      config.getCell(), config.getNumLayers(),
      config.getDirection() == RnnDirection::bidirectional,
      bias == RnnBiasMode::double_bias, config.getProjSize() > 0);
  bool matches = expected == static_cast<int64_t>(count);
  // Otherwise three layers, which hold the five names the error shows.
  cmrt::rnn::WeightLayout layout;
  cmrt::graph::Status status = cmrt::rnn::describeWeights(
      runtimeShape(config, matches ? config.getNumLayers() : 3), layout);
  // Unreachable from textual IR: RnnConfigAttr::verify rejects every
  // configuration describeWeights does.
  if (!status.ok())
    return emitError() << status.message;
  if (matches)
    return std::move(layout.params);
  InFlightDiagnostic diag = emitError()
                            << "expects " << expected << " " << what << "s (";
  llvm::interleaveComma(llvm::ArrayRef(layout.params).take_front(5), diag,
                        [&](const cmrt::rnn::Param &p) { diag << p.name; });
  return diag << (expected > 5 ? ", ..." : "") << "), but got " << count;
}

FailureOr<RankedTensorType>
mlir::cudnn::verifyRnnParams(RnnConfigAttr config, TypeRange params,
                             StringRef what,
                             function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<std::vector<cmrt::rnn::Param>> expected =
      describeParams(config, params.size(), what, emitError);
  if (failed(expected))
    return failure();
  Type element;
  std::optional<int64_t> elements = 0;
  for (auto [i, type, param] : llvm::enumerate(params, *expected)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    // Unreachable from the ops (their params are ranked tensors); the TCP
    // conversion hands in whatever a custom op has.
    if (!tensor)
      return emitError() << "expects " << what << " #" << i << " ("
                         << param.name << ") to be a ranked tensor, but got "
                         << type;
    if (!shapesCompatible(tensor.getShape(), param.shape))
      return emitError() << "expects " << what << " #" << i << " ("
                         << param.name << ") of shape "
                         << formatShape(param.shape) << ", but got "
                         << formatShape(tensor.getShape());
    if (i == 0 && !isa<FloatType>(tensor.getElementType()))
      return emitError() << "expects " << what << "s of a float type, but got "
                         << tensor.getElementType();
    if (i == 0)
      element = tensor.getElementType();
    if (tensor.getElementType() != element)
      return emitError() << "expects " << what << " #" << i << " ("
                         << param.name << ") with element type " << element
                         << " (that of " << expected->front().name
                         << "), but got " << tensor.getElementType();
    std::optional<int64_t> size = 1;
    for (int64_t extent : param.shape)
      size = size ? llvm::checkedMul(*size, extent) : size;
    elements = elements && size ? llvm::checkedAdd(*elements, *size)
                                : std::nullopt;
  }
  // Each extent is below 2^34 (int32 sizes, at most 4 gates); their
  // products and sums may not fit.
  if (!elements)
    return emitError() << "expects " << what << "s of at most "
                       << std::numeric_limits<int64_t>::max()
                       << " elements in all, but got more";
  return RankedTensorType::get({*elements}, element);
}

/// Both weight ops: `params` (`what` #i) against the config, and the 1-D
/// weight space `weights` against the parameters' element count.
static LogicalResult verifyWeightOp(Operation *op, RnnConfigAttr config,
                                    TypeRange params, StringRef what,
                                    Value weights) {
  FailureOr<RankedTensorType> expected = verifyRnnParams(
      config, params, what, [&] { return op->emitOpError(); });
  if (failed(expected))
    return failure();
  auto type = cast<RankedTensorType>(weights.getType());
  if (type.getElementType() == expected->getElementType() &&
      shapesCompatible(type.getShape(), expected->getShape()))
    return success();
  return op->emitOpError("expects weights of type ")
         << *expected << " (one element per parameter element), but got "
         << type;
}

LogicalResult RnnPackWeightsOp::verify() {
  return verifyWeightOp(*this, getConfig(), getParams().getTypes(),
                        "parameter", getWeights());
}

LogicalResult RnnUnpackWeightsOp::verify() {
  return verifyWeightOp(*this, getConfig(), getParams().getTypes(), "result",
                        getWeights());
}

LogicalResult RnnExecuteOp::verify() {
  RnnCall call = getCall();
  bool lstm = getConfig().getCell() == RnnCellMode::lstm;
  std::pair<StringRef, Value> all[] = {
      {"x", getX()},         {"y", getY()},
      {"hx", getHx()},       {"hy", getHy()},
      {"cx", getCx()},       {"cy", getCy()},
      {"weights", getWeights()}, {"seq_lengths", getSeqLengths()},
      {"dy", getDy()},       {"dx", getDx()},
      {"dhy", getDhy()},     {"dhx", getDhx()},
      {"dcy", getDcy()},     {"dcx", getDcx()},
      {"dweights", getDweights()}, {"reserve", getReserve()}};
  // Per call: the buffers it needs, and those it may take.
  SmallVector<StringRef> required, optional;
  switch (call) {
  case RnnCall::forward_inference:
  case RnnCall::forward_training:
    required = {"x", "y", "hx", "hy", "weights"};
    optional = {"seq_lengths"};
    if (lstm)
      required.append({"cx", "cy"});
    if (call == RnnCall::forward_training)
      optional.push_back("reserve");
    break;
  case RnnCall::backward_data:
    required = {"y", "dy", "dx", "hx", "weights", "reserve"};
    optional = {"seq_lengths", "dhy", "dhx"};
    if (lstm) {
      required.push_back("cx");
      optional.append({"dcy", "dcx"});
    }
    break;
  case RnnCall::backward_weights:
    required = {"x", "hx", "y", "dweights", "reserve"};
    optional = {"seq_lengths"};
    break;
  case RnnCall::pack_weights:
  case RnnCall::unpack_weights:
    required = {"weights"};
    break;
  }
  for (auto [name, value] : all) {
    bool needed = llvm::is_contained(required, name);
    if (needed && !value)
      return emitOpError("expects ")
             << name << " for " << stringifyRnnCall(call) << ", but got none";
    if (!needed && value && !llvm::is_contained(optional, name)) {
      bool cellState = name == "cx" || name == "cy" || name == "dcy" ||
                       name == "dcx";
      return emitOpError("expects no ")
             << name << " for " << stringifyRnnCall(call)
             << (cellState && !lstm ? " of a non-lstm cell" : "")
             << ", but got one";
    }
  }
  bool weightCopy =
      call == RnnCall::pack_weights || call == RnnCall::unpack_weights;
  if (weightCopy != !getParams().empty())
    return emitOpError("expects ")
           << (weightCopy ? "params" : "no params") << " for "
           << stringifyRnnCall(call) << ", but got " << getParams().size();
  if (Value seq = getX() ? getX() : getDx()) {
    auto type = cast<MemRefType>(seq.getType());
    if (type.getRank() != 3 || !type.hasStaticShape())
      return emitOpError("expects x and dx of static rank-3 shape, but got ")
             << type;
  }
  return success();
}

LogicalResult RnnWeightSpaceOp::verify() {
  // The parameter checks of cudnn.rnn_pack_weights, on the buffers' shapes.
  SmallVector<Type> params;
  for (Value param : getParams()) {
    auto type = cast<MemRefType>(param.getType());
    if (!type.getLayout().isIdentity())
      return emitOpError("expects parameters with the identity layout, but "
                         "got ")
             << type;
    params.push_back(
        RankedTensorType::get(type.getShape(), type.getElementType()));
  }
  FailureOr<RankedTensorType> expected = verifyRnnParams(
      getConfig(), params, "parameter", [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  auto type = cast<MemRefType>(getWeights().getType());
  if (type.getElementType() == expected->getElementType() &&
      type.hasStaticShape() && expected->hasStaticShape() &&
      type.getShape() == expected->getShape() && type.getLayout().isIdentity())
    return success();
  return emitOpError("expects weights of type ")
         << MemRefType::get(expected->getShape(), expected->getElementType())
         << " (one element per parameter element, static), but got " << type;
}

void RnnWeightSpaceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &param : getParamsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &param,
                         SideEffects::DefaultResource::get());
  // The runtime's buffer: (re)filled by this op, owned by the runtime.
  effects.emplace_back(MemoryEffects::Write::get(),
                       cast<OpResult>(getWeights()),
                       SideEffects::DefaultResource::get());
}

void RnnExecuteOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto add = [&](MemoryEffects::Effect *effect, OpOperand &operand) {
    effects.emplace_back(effect, &operand,
                         SideEffects::DefaultResource::get());
  };
  RnnCall call = getCall();
  // What each call writes; cuDNN also updates the reserve space in the
  // backward data pass.
  auto writes = [&](Value v) {
    if (call == RnnCall::unpack_weights)
      return llvm::is_contained(getParams(), v);
    if (call == RnnCall::pack_weights)
      return v == getWeights();
    return v == getY() || v == getHy() || v == getCy() || v == getDx() ||
           v == getDhx() || v == getDcx() || v == getDweights() ||
           (v == getReserve() && call != RnnCall::backward_weights);
  };
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue; // the handle
    add(MemoryEffects::Read::get(), operand);
    if (writes(operand.get()))
      add(MemoryEffects::Write::get(), operand);
  }
}
