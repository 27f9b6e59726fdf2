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

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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

/// A graph with a split form (convert-tcp-to-cudnn's `scf.if` on the fused
/// try's `ran`) yields a packed result that users convert back to
/// channels-last; converting inside each branch instead lets the fused
/// branch's pair fold, so the common path runs no conversion at all:
///   %p = convert_layout %fused (cl -> packed)
///   %r = scf.if %ran { yield %p } else { ... yield %split }
///   %u = convert_layout %r (packed -> cl)
/// becomes an `scf.if` yielding channels-last, `convert_layout %p -> cl`
/// (which folds to %fused) in the then branch and `convert_layout %split`
/// in the else branch. A user that wants the packed value (a later split
/// form's generated kernels) gets its own conversion, placed just before
/// it, so it runs only where that user does. The same holds when no user
/// wants channels-last but the fused branch yields a channels-last graph's
/// result.
struct ConvertInsideIfBranches : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The channels-last type some user of `result` converts it to, or else
  /// the type of the channels-last graph result the fused branch converts
  /// to packed (packed users then read a conversion that later passes can
  /// see through, cudnn-channels-last-kernels).
  static std::optional<RankedTensorType> channelsLastUse(scf::IfOp ifOp,
                                                         OpResult result) {
    for (Operation *user : result.getUsers())
      if (auto convert = dyn_cast<ConvertLayoutOp>(user))
        if (isChannelsLast(convert.getOut().getType()))
          return convert.getOut().getType();
    Value fused = ifOp.thenYield()->getOperand(result.getResultNumber());
    if (auto convert = fused.getDefiningOp<ConvertLayoutOp>())
      if (isChannelsLast(convert.getIn().getType()))
        return convert.getIn().getType();
    return std::nullopt;
  }

  LogicalResult matchAndRewrite(scf::IfOp ifOp,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    for (OpResult result : ifOp->getResults()) {
      auto packed = dyn_cast<RankedTensorType>(result.getType());
      if (!packed || packed.getEncoding())
        continue;
      std::optional<RankedTensorType> wanted = channelsLastUse(ifOp, result);
      if (!wanted)
        continue;
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        Operation *yield = region->front().getTerminator();
        OpOperand &operand = yield->getOpOperand(result.getResultNumber());
        rewriter.setInsertionPoint(yield);
        Value converted = ConvertLayoutOp::create(rewriter, ifOp.getLoc(),
                                                  *wanted, operand.get());
        rewriter.modifyOpInPlace(yield, [&] { operand.set(converted); });
      }
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : result.getUses())
        uses.push_back(&use);
      rewriter.modifyOpInPlace(ifOp, [&] { result.setType(*wanted); });
      for (OpOperand *use : uses) {
        Operation *user = use->getOwner();
        auto convert = dyn_cast<ConvertLayoutOp>(user);
        if (convert && convert.getOut().getType() == *wanted) {
          rewriter.replaceOp(convert, result);
          continue;
        }
        rewriter.setInsertionPoint(user);
        Value back =
            ConvertLayoutOp::create(rewriter, ifOp.getLoc(), packed, result);
        rewriter.modifyOpInPlace(user, [&] { use->set(back); });
      }
      changed = true;
    }
    return success(changed);
  }
};

/// A split form writes its result into the fused graph's result buffer
/// (`materialize_in_destination %split in %p`, %p = convert_layout %fused):
/// when that result is then converted to %fused's layout, the split form
/// converts instead and writes straight into %fused, so %p is left to the
/// then branch, where it folds away.
struct ConvertBeforeMaterialize : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    auto materialize =
        convert.getIn()
            .getDefiningOp<bufferization::MaterializeInDestinationOp>();
    if (!materialize || !materialize->hasOneUse())
      return failure();
    auto destConvert = materialize.getDest().getDefiningOp<ConvertLayoutOp>();
    if (!destConvert ||
        destConvert.getIn().getType() != convert.getOut().getType())
      return failure();
    rewriter.setInsertionPoint(materialize);
    Value source = ConvertLayoutOp::create(rewriter, convert.getLoc(),
                                           convert.getOut().getType(),
                                           materialize.getSource());
    auto written = bufferization::MaterializeInDestinationOp::create(
        rewriter, materialize.getLoc(), source, destConvert.getIn());
    rewriter.replaceOp(convert, written.getResult());
    rewriter.eraseOp(materialize);
    return success();
  }
};

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
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvertInsideIfBranches, ConvertBeforeMaterialize>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
