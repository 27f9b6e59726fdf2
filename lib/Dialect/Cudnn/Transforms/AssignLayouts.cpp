//===- AssignLayouts.cpp - channels-last cuDNN graphs ---------------------===//
//
// Retypes chosen graphs in place (descriptor strides, tensor encodings) and
// puts a cudnn.convert_layout on every edge whose two ends now disagree. Each
// graph converts its own inputs in and its outputs back out; between two
// graphs that agree the pair folds away in the canonicalizer, so the pass
// needs no global analysis to leave no transposes between them.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::cudnn {
#define GEN_PASS_DEF_CUDNNASSIGNLAYOUTSPASS
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"
} // namespace mlir::cudnn

using namespace mlir;
using namespace mlir::cudnn;

namespace {

constexpr StringLiteral kLayoutAttr = "cudnn.layout";
constexpr StringLiteral kChannelsLast = "channels_last";

enum class Policy { Auto, ChannelsLast, Packed };

/// The spatial ops whose engines want channels-last: convolutions, pooling
/// (resample), and batch norm in training and backward. cuDNN runs those
/// batch norms in both layouts (H100, cuDNN 9.19: f16, bf16, f32), and
/// channels-last keeps an fp16 one between channels-last convs free of
/// layout transforms.
bool wantsChannelsLast(Operation *op) {
  if (auto norm = dyn_cast<NormForwardOp>(op))
    return norm.getMode() == NormMode::batch &&
           norm.getPhase() == FwdPhase::training;
  if (auto norm = dyn_cast<NormBackwardOp>(op))
    return norm.getMode() == NormMode::batch;
  return isa<ConvolutionOp, ConvolutionBackwardDataOp,
             ConvolutionBackwardFilterOp, ResampleOp>(op);
}

/// The element type of the first op in the graph that wants channels-last,
/// if it has one.
std::optional<Type> spatialElementType(BuildAndExecGraphOp graph) {
  std::optional<Type> found;
  graph.getBody().walk([&](Operation *op) {
    if (wantsChannelsLast(op)) {
      found = cast<TensorDescType>(op->getOperand(0).getType()).getElementType();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

bool hasChannelsLastForm(TensorDescType desc) {
  return !getChannelsLastStrides(desc.getShape()).empty();
}

/// Every descriptor of rank >= 3 must have static dims to get strides.
bool allDescsStatic(BuildAndExecGraphOp graph) {
  auto ok = [](Type type) {
    auto desc = dyn_cast<TensorDescType>(type);
    return !desc || desc.getRank() < 3 || hasChannelsLastForm(desc);
  };
  Block &body = graph.getBody().front();
  if (!llvm::all_of(body.getArgumentTypes(), ok))
    return false;
  return !graph.getBody()
              .walk([&](Operation *op) {
                return llvm::all_of(op->getResultTypes(), ok)
                           ? WalkResult::advance()
                           : WalkResult::interrupt();
              })
              .wasInterrupted();
}

bool isChosen(BuildAndExecGraphOp graph, Policy policy) {
  if (policy == Policy::Packed || !allDescsStatic(graph))
    return false;
  std::optional<Type> element = spatialElementType(graph);
  if (!element)
    return false;
  return policy == Policy::ChannelsLast || element->isF16() ||
         element->isBF16();
}

void setChannelsLast(Value value) {
  auto desc = cast<TensorDescType>(value.getType());
  if (desc.getRank() >= 3)
    value.setType(desc.withStrides(getChannelsLastStrides(desc.getShape())));
}

/// `value` in the requested layout, converting when it is not.
Value inLayout(OpBuilder &b, Location loc, Value value, bool channelsLast) {
  auto type = cast<RankedTensorType>(value.getType());
  if (isChannelsLast(type) == channelsLast)
    return value;
  return ConvertLayoutOp::create(b, loc, withChannelsLast(type, channelsLast),
                                 value);
}

/// Gives `value` the encoding and makes every existing user see a packed
/// conversion of it instead.
void encodeAndConvertUsesBack(OpBuilder &b, Location loc, Value value) {
  auto packed = cast<RankedTensorType>(value.getType());
  value.setType(withChannelsLast(packed, true));
  auto back = ConvertLayoutOp::create(b, loc, packed, value);
  value.replaceAllUsesExcept(back, back);
}

void makeChannelsLast(BuildAndExecGraphOp graph) {
  Block &body = graph.getBody().front();
  for (BlockArgument arg : body.getArguments())
    setChannelsLast(arg);
  graph.getBody().walk([](Operation *op) {
    for (Value result : op->getResults())
      if (isa<TensorDescType>(result.getType()))
        setChannelsLast(result);
  });

  OpBuilder b(graph);
  // Tensors whose bytes are the same in both layouts (1xCx1x1 biases) keep
  // no encoding and need no conversion.
  auto needsEncoding = [](Type desc) {
    return !cast<TensorDescType>(desc).isPacked();
  };
  for (auto [operand, arg] :
       llvm::zip(graph.getInsMutable(), body.getArguments())) {
    operand.set(inLayout(b, graph.getLoc(), operand.get(),
                         needsEncoding(arg.getType())));
  }
  b.setInsertionPointAfter(graph);
  auto outputs = cast<BuildGraphOp>(body.getTerminator()).getOutputs();
  for (auto [result, output] : llvm::zip(graph.getOuts(), outputs))
    if (needsEncoding(output.getType()))
      encodeAndConvertUsesBack(b, graph.getLoc(), result);
}

/// Arguments and results with `cudnn.layout = "channels_last"` take the
/// encoding; the function body keeps seeing packed values until the graphs
/// are retyped and the conversions fold.
LogicalResult applyBoundaryLayouts(func::FuncOp func) {
  auto wantsChannelsLast = [&](DictionaryAttr attrs, Type type,
                               StringRef what, unsigned index) -> FailureOr<bool> {
    Attribute layout = attrs ? attrs.get(kLayoutAttr) : Attribute();
    if (!layout)
      return false;
    auto name = dyn_cast<StringAttr>(layout);
    if (!name || name.getValue() != kChannelsLast)
      return func.emitError("expects ")
             << kLayoutAttr << " = \"" << kChannelsLast << "\" on " << what
             << " #" << index << ", but got " << layout;
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getRank() < 3 || tensor.getEncoding())
      return func.emitError("expects a rank >= 3 tensor without encoding for ")
             << kLayoutAttr << " on " << what << " #" << index
             << ", but got " << type;
    // Same bytes either way (e.g. a 1x1 filter): nothing to encode.
    return !layoutsCoincide(tensor.getShape());
  };

  if (func.isExternal())
    return success();
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    FailureOr<bool> wanted = wantsChannelsLast(
        func.getArgAttrDict(arg.getArgNumber()), arg.getType(), "argument",
        arg.getArgNumber());
    if (failed(wanted))
      return failure();
    if (*wanted)
      encodeAndConvertUsesBack(b, arg.getLoc(), arg);
  }
  SmallVector<Type> resultTypes(func.getResultTypes());
  for (unsigned i = 0; i < resultTypes.size(); ++i) {
    FailureOr<bool> wanted = wantsChannelsLast(func.getResultAttrDict(i),
                                               resultTypes[i], "result", i);
    if (failed(wanted))
      return failure();
    if (!*wanted)
      continue;
    resultTypes[i] =
        withChannelsLast(cast<RankedTensorType>(resultTypes[i]), true);
    func.walk([&](func::ReturnOp ret) {
      OpBuilder rb(ret);
      ret->setOperand(i, inLayout(rb, ret.getLoc(), ret->getOperand(i), true));
    });
  }
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 resultTypes));
  return success();
}

struct CudnnAssignLayoutsPass
    : public cudnn::impl::CudnnAssignLayoutsPassBase<CudnnAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Policy> policy =
        llvm::StringSwitch<std::optional<Policy>>(layout)
            .Case("auto", Policy::Auto)
            .Case("channels-last", Policy::ChannelsLast)
            .Case("packed", Policy::Packed)
            .Default(std::nullopt);
    if (!policy) {
      getOperation().emitError("cudnn-assign-layouts expects layout = auto, "
                               "channels-last or packed, but got ")
          << layout;
      return signalPassFailure();
    }
    if (failed(applyBoundaryLayouts(getOperation())))
      return signalPassFailure();
    SmallVector<BuildAndExecGraphOp> graphs;
    getOperation().walk([&](BuildAndExecGraphOp g) { graphs.push_back(g); });
    for (BuildAndExecGraphOp graph : graphs)
      if (isChosen(graph, *policy))
        makeChannelsLast(graph);
  }
};

} // namespace
