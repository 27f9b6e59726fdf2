//===- RnnToCudnn.cpp - PyTorch RNN custom ops to cudnn RNN ops -----------===//
//
// PyTorch's RNNs reach TCP as tcp.custom_op("torch.aten.lstm" | "gru" |
// "rnn_tanh" | "rnn_relu") in the form of the aten `.input` overloads:
// operands input, hx, (cx,) the flat parameters and optionally the lengths
// of padded sequences; attributes has_biases, num_layers, dropout, train,
// bidirectional, batch_first (and proj_size); results output, h_n (, c_n).
// Each becomes cudnn.rnn_pack_weights of the parameters and one
// cudnn.rnn_forward. Everything is checked before anything is created, so a
// wrong op leaves the IR as it was, with one error that names it.
//
//===----------------------------------------------------------------------===//

#include "RnnToCudnn.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using mlir::cudnn_mlir::shapesCompatible;

static std::optional<cudnn::RnnCellMode> rnnCellOf(StringRef name) {
  return llvm::StringSwitch<std::optional<cudnn::RnnCellMode>>(name)
      .Case("torch.aten.lstm", cudnn::RnnCellMode::lstm)
      .Case("torch.aten.gru", cudnn::RnnCellMode::gru)
      .Case("torch.aten.rnn_tanh", cudnn::RnnCellMode::rnn_tanh)
      .Case("torch.aten.rnn_relu", cudnn::RnnCellMode::rnn_relu)
      .Default(std::nullopt);
}

bool cudnn_mlir::isRnnCustomOp(tcp::CustomOp op) {
  return rnnCellOf(op.getOpName()).has_value();
}

/// `type` with a batch of 1 inserted as dim 1: an unbatched tensor as
/// cuDNN sees it.
static RankedTensorType withUnitBatch(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + 1, 1);
  return RankedTensorType::get(shape, type.getElementType());
}

/// [d0, d1, ...] <-> [d0, 1, d1, ...]: the reshape of withUnitBatch.
static SmallVector<ReassociationIndices> unitBatchReassociation(int64_t rank) {
  SmallVector<ReassociationIndices> groups = {{0, 1}};
  for (int64_t d = 2; d <= rank; ++d)
    groups.push_back({d});
  return groups;
}

namespace {
/// One RNN custom op: check() reads and checks everything, rewrite() then
/// cannot fail.
class RnnLowering {
public:
  RnnLowering(tcp::CustomOp op, cudnn::RnnCellMode cell)
      : op(op), cell(cell), lstm(cell == cudnn::RnnCellMode::lstm) {}

  LogicalResult check();
  void rewrite(RewriterBase &rewriter);

private:
  /// Every error names the torch op: "'tcp.custom_op' op torch.aten.gru
  /// expects ...".
  InFlightDiagnostic error() {
    return op.emitOpError() << op.getOpName() << " ";
  }

  LogicalResult readAttributes();
  FailureOr<Attribute> attribute(StringRef name, StringRef kind,
                                 function_ref<bool(Attribute)> accept);
  /// The attribute `name` as an AttrT (BoolAttr, FloatAttr).
  template <typename AttrT>
  FailureOr<AttrT> typedAttr(StringRef name, StringRef kind) {
    FailureOr<Attribute> attr =
        attribute(name, kind, [](Attribute a) { return isa<AttrT>(a); });
    if (failed(attr))
      return failure();
    return cast<AttrT>(*attr);
  }
  FailureOr<int64_t> intAttr(StringRef name, std::optional<int64_t> absent);
  LogicalResult checkCounts();
  LogicalResult checkInput();
  FailureOr<int64_t> hiddenSize();
  LogicalResult checkStatesAndResults();
  LogicalResult expectType(StringRef name, Type actual,
                           ArrayRef<int64_t> batchedShape);
  LogicalResult checkLengths();

  unsigned numStates() const { return lstm ? 2 : 1; }
  ValueRange params() {
    return op.getInputs().slice(1 + numStates(), numParams);
  }

  tcp::CustomOp op;
  cudnn::RnnCellMode cell;
  bool lstm;

  // The attributes.
  bool hasBiases = false, train = false, bidirectional = false,
       batchFirst = false;
  int64_t numLayers = 0, projSize = 0;
  double dropout = 0;

  // What check() derives.
  int64_t numParams = 0;
  Value lengths;
  RankedTensorType input;
  bool unbatched = false;
  cudnn::RnnConfigAttr config;
  RankedTensorType weightsType;
  cudnn::RnnShapes shapes;
};
} // namespace

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// The attribute `name` when `accept` takes it; otherwise an error that
/// calls it `kind` ("a bool").
FailureOr<Attribute>
RnnLowering::attribute(StringRef name, StringRef kind,
                       function_ref<bool(Attribute)> accept) {
  Attribute attr = op->getAttr(name);
  if (attr && accept(attr))
    return attr;
  InFlightDiagnostic diag = error() << "expects " << kind << " attribute '"
                                    << name << "', but got ";
  if (attr)
    return diag << attr;
  return diag << "none";
}

/// An integer attribute (signless, of any width but i1), or `absent` when
/// there is none and it is optional.
FailureOr<int64_t> RnnLowering::intAttr(StringRef name,
                                        std::optional<int64_t> absent) {
  if (!op->getAttr(name) && absent)
    return *absent;
  FailureOr<Attribute> attr = attribute(name, "an integer", [](Attribute a) {
    auto value = dyn_cast<IntegerAttr>(a);
    return value && !isa<BoolAttr>(a) && value.getType().isSignlessInteger();
  });
  if (failed(attr))
    return failure();
  return cast<IntegerAttr>(*attr).getInt();
}

LogicalResult RnnLowering::readAttributes() {
  FailureOr<BoolAttr> biases, training, bidi, first;
  FailureOr<FloatAttr> p;
  FailureOr<int64_t> layers, proj;
  if (failed(biases = typedAttr<BoolAttr>("has_biases", "a bool")) ||
      failed(layers = intAttr("num_layers", std::nullopt)) ||
      failed(p = typedAttr<FloatAttr>("dropout", "a float")) ||
      failed(training = typedAttr<BoolAttr>("train", "a bool")) ||
      failed(bidi = typedAttr<BoolAttr>("bidirectional", "a bool")) ||
      failed(first = typedAttr<BoolAttr>("batch_first", "a bool")) ||
      failed(proj = intAttr("proj_size", 0)))
    return failure();
  hasBiases = biases->getValue();
  numLayers = *layers;
  dropout = p->getValueAsDouble();
  train = training->getValue();
  bidirectional = bidi->getValue();
  batchFirst = first->getValue();
  projSize = *proj;
  // Checked here rather than with the rest of the configuration (which has
  // the same bounds) because the parameter count depends on it.
  if (numLayers < 1 || numLayers > std::numeric_limits<int32_t>::max())
    return error() << "expects num_layers in [1, "
                   << std::numeric_limits<int32_t>::max() << "], but got "
                   << numLayers;
  return success();
}

/// input, hx, (cx,) the parameters, and optionally the lengths.
LogicalResult RnnLowering::checkCounts() {
  numParams = cudnn::getRnnParamCount(cell, numLayers, bidirectional, hasBiases,
                                      projSize > 0);
  int64_t got = op.getInputs().size();
  int64_t operands = 1 + numStates() + numParams;
  if (got != operands && got != operands + 1)
    return error() << "expects " << operands << " operands (input, "
                   << (lstm ? "hx, cx" : "hx") << " and " << numParams
                   << " parameters) or " << operands + 1
                   << " (and lengths), but got " << got;
  if (got == operands + 1)
    lengths = op.getInputs().back();
  unsigned results = 1 + numStates();
  if (op.getNumResults() != results)
    return error() << "expects " << results << " results (output, "
                   << (lstm ? "h_n, c_n" : "h_n") << "), but got "
                   << op.getNumResults();
  return success();
}

LogicalResult RnnLowering::checkInput() {
  Type type = op.getInputs().front().getType();
  input = dyn_cast<RankedTensorType>(type);
  if (!input || (input.getRank() != 3 && input.getRank() != 2))
    return error() << "expects input of rank 3 ([seq, batch, input_size], or "
                      "[batch, seq, input_size] with batch_first) or 2 "
                      "(unbatched), but got "
                   << type;
  unbatched = input.getRank() == 2;
  Type element = input.getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32() &&
      !element.isF64())
    return error() << "expects input with element type f16, bf16, f32 or "
                      "f64, but got "
                   << element;
  if (ShapedType::isDynamic(input.getShape().back()))
    return error() << "expects a static input_size (input's last dim), but "
                      "got "
                   << type;
  return success();
}

/// hidden_size from weight_ih_l0, [gates * hidden_size, input_size]; the
/// rest of its shape is checked with the other parameters.
FailureOr<int64_t> RnnLowering::hiddenSize() {
  int64_t gates = cudnn::getRnnGateCount(cell);
  Type type = params().front().getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor && tensor.getRank() == 2 &&
      !ShapedType::isDynamic(tensor.getDimSize(0)) &&
      tensor.getDimSize(0) > 0 && tensor.getDimSize(0) % gates == 0)
    return tensor.getDimSize(0) / gates;
  return error() << "expects weight_ih_l0 (parameter #0) of shape [" << gates
                 << " * hidden_size, " << input.getShape().back()
                 << "] with a static number of rows, but got " << type;
}

/// `actual` is the tensor of `batchedShape` (without its batch dim when the
/// input is unbatched) with the input's element type.
LogicalResult RnnLowering::expectType(StringRef name, Type actual,
                                      ArrayRef<int64_t> batchedShape) {
  SmallVector<int64_t> shape(batchedShape);
  if (unbatched)
    shape.erase(shape.begin() + 1);
  auto expected = RankedTensorType::get(shape, input.getElementType());
  auto tensor = dyn_cast<RankedTensorType>(actual);
  if (tensor && tensor.getElementType() == expected.getElementType() &&
      shapesCompatible(tensor.getShape(), expected.getShape()))
    return success();
  return error() << "expects " << name << " of type " << expected
                 << ", but got " << actual;
}

LogicalResult RnnLowering::checkStatesAndResults() {
  SmallVector<int64_t> x(input.getShape());
  if (unbatched)
    x.insert(x.begin() + 1, 1);
  shapes = cudnn::getRnnShapes(config, x);
  ValueRange ins = op.getInputs();
  if (failed(expectType("hx", ins[1].getType(), shapes.h)) ||
      (lstm && failed(expectType("cx", ins[2].getType(), shapes.c))) ||
      failed(expectType("output", op.getResult(0).getType(), shapes.y)) ||
      failed(expectType("h_n", op.getResult(1).getType(), shapes.h)) ||
      (lstm && failed(expectType("c_n", op.getResult(2).getType(), shapes.c))))
    return failure();
  return success();
}

/// One length per batch entry, i64 (PyTorch's) or i32 (cuDNN's).
LogicalResult RnnLowering::checkLengths() {
  if (!lengths)
    return success();
  if (unbatched)
    return error() << "expects no lengths with an unbatched input, but got "
                   << lengths.getType();
  auto type = dyn_cast<RankedTensorType>(lengths.getType());
  if (type && type.getRank() == 1 &&
      (type.getElementType().isSignlessInteger(64) ||
       type.getElementType().isSignlessInteger(32)) &&
      shapesCompatible(type.getShape(), {shapes.h[1]}))
    return success();
  std::string batch = cudnn_mlir::formatExtent(shapes.h[1]);
  return error() << "expects lengths of type tensor<" << batch
                 << "xi64> or tensor<" << batch
                 << "xi32> (one per batch entry), but got "
                 << lengths.getType();
}

LogicalResult RnnLowering::check() {
  if (failed(readAttributes()) || failed(checkCounts()) || failed(checkInput()))
    return failure();
  FailureOr<int64_t> hidden = hiddenSize();
  if (failed(hidden))
    return failure();
  MLIRContext *ctx = op.getContext();
  config = cudnn::RnnConfigAttr::getChecked(
      [&] { return error(); }, ctx, cell, input.getShape().back(), *hidden,
      projSize, numLayers,
      bidirectional ? cudnn::RnnDirection::bidirectional
                    : cudnn::RnnDirection::unidirectional,
      hasBiases ? cudnn::RnnBiasMode::double_bias : cudnn::RnnBiasMode::no_bias,
      batchFirst && !unbatched ? cudnn::RnnDataLayout::batch_major_unpacked
                               : cudnn::RnnDataLayout::seq_major_unpacked,
      cudnn::MathType::default_math,
      FloatAttr::get(Float32Type::get(ctx), dropout));
  if (!config)
    return failure();
  FailureOr<RankedTensorType> weights = cudnn::verifyRnnParams(
      config, params().getTypes(), "parameter", [&] { return error(); });
  if (failed(weights))
    return failure();
  weightsType = *weights;
  if (weightsType.getElementType() != input.getElementType())
    return error() << "expects parameters with the input's element type "
                   << input.getElementType() << ", but got "
                   << weightsType.getElementType();
  return failure(failed(checkStatesAndResults()) || failed(checkLengths()));
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

void RnnLowering::rewrite(RewriterBase &rewriter) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  rewriter.setInsertionPoint(op);
  // An unbatched RNN is the batched one with a batch of 1.
  auto batched = [&](Value value) -> Value {
    if (!unbatched)
      return value;
    auto type = cast<RankedTensorType>(value.getType());
    return tensor::ExpandShapeOp::create(
        rewriter, loc, withUnitBatch(type), value,
        unitBatchReassociation(type.getRank()));
  };
  auto batchedType = [&](Value result) -> Type {
    auto type = cast<RankedTensorType>(result.getType());
    return unbatched ? withUnitBatch(type) : type;
  };

  Value handle = cudnn::GetCurrentHandleOp::create(rewriter, loc,
                                                   cudnn::HandleType::get(ctx));
  Value weights = cudnn::RnnPackWeightsOp::create(rewriter, loc, weightsType,
                                                  handle, params(), config);
  // cuDNN takes the lengths as i32.
  Value seqLengths = lengths;
  auto lengthsType = dyn_cast_if_present<RankedTensorType>(
      lengths ? lengths.getType() : Type());
  if (lengthsType && !lengthsType.getElementType().isInteger(32)) {
    auto signedAttr = tcp::SignednessAttr::get(ctx, tcp::Signedness::Signed);
    seqLengths =
        tcp::CastOp::create(rewriter, loc,
                            RankedTensorType::get(lengthsType.getShape(),
                                                  IntegerType::get(ctx, 32)),
                            lengths, signedAttr, signedAttr);
  }
  // The training phase only matters for dropout between layers; without
  // dropout, the inference phase computes the same. No backward call
  // follows (TCP has no RNN backward yet), so no reserve space is kept.
  bool training = train && dropout > 0;
  // In operand order (not left to the evaluation order of arguments).
  ValueRange ins = op.getInputs();
  Value x = batched(ins[0]);
  Value hx = batched(ins[1]);
  Value cx = lstm ? batched(ins[2]) : Value();
  auto forward = cudnn::RnnForwardOp::create(
      rewriter, loc, batchedType(op.getResult(0)), batchedType(op.getResult(1)),
      lstm ? batchedType(op.getResult(2)) : Type(),
      /*reserve_space=*/Type(),
      handle, x, hx, cx, weights, seqLengths, config,
      cudnn::FwdPhaseAttr::get(ctx, training ? cudnn::FwdPhase::training
                                             : cudnn::FwdPhase::inference));

  SmallVector<Value> results = {forward.getY(), forward.getHy()};
  if (lstm)
    results.push_back(forward.getCy());
  for (auto [i, value] : llvm::enumerate(results)) {
    auto type = cast<RankedTensorType>(op.getResult(i).getType());
    if (unbatched)
      results[i] = tensor::CollapseShapeOp::create(
          rewriter, loc, type, value, unitBatchReassociation(type.getRank()));
  }
  rewriter.replaceOp(op, results);
}

LogicalResult cudnn_mlir::convertRnnCustomOp(RewriterBase &rewriter,
                                             tcp::CustomOp op) {
  std::optional<cudnn::RnnCellMode> cell = rnnCellOf(op.getOpName());
  if (!cell)
    return failure();
  RnnLowering lowering(op, *cell);
  if (failed(lowering.check()))
    return failure();
  lowering.rewrite(rewriter);
  return success();
}
