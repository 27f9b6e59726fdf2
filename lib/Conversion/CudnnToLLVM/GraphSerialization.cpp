//===- GraphSerialization.cpp - cudnn graph region -> description ---------===//

#include "cudnn-mlir/Conversion/CudnnToLLVM/GraphSerialization.h"

#include "cudnn-mlir-runtime/Graph.h"
#include "cudnn-mlir-runtime/GraphDescription.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::cudnn;
namespace g = cmrt::graph;

namespace {

/// cudnnDataType_t of an MLIR element type.
std::optional<g::DataType> dataTypeOf(Type type) {
  if (type.isF32())
    return g::DataType::Float;
  if (type.isF16())
    return g::DataType::Half;
  if (type.isBF16())
    return g::DataType::BFloat16;
  if (type.isF64())
    return g::DataType::Double;
  if (type.isInteger(1))
    return g::DataType::Boolean;
  if (type.isUnsignedInteger(8))
    return g::DataType::Uint8;
  if (type.isInteger(8))
    return g::DataType::Int8;
  if (type.isInteger(32))
    return g::DataType::Int32;
  if (type.isInteger(64))
    return g::DataType::Int64;
  if (isa<Float8E4M3FNType>(type))
    return g::DataType::Fp8E4M3;
  if (isa<Float8E5M2Type>(type))
    return g::DataType::Fp8E5M2;
  return std::nullopt;
}

/// The pointwise mode of a `cudnn.pointwise_<suffix>` op.
std::optional<g::PointwiseMode> pointwiseModeOf(StringRef suffix) {
  using M = g::PointwiseMode;
  return llvm::StringSwitch<std::optional<M>>(suffix)
      .Case("add", M::Add)
      .Case("mul", M::Mul)
      .Case("min", M::Min)
      .Case("max", M::Max)
      .Case("sqrt", M::Sqrt)
      .Case("add_square", M::AddSquare)
      .Case("div", M::Div)
      .Case("mod", M::Mod)
      .Case("pow", M::Pow)
      .Case("sub", M::Sub)
      .Case("abs", M::Abs)
      .Case("ceil", M::Ceil)
      .Case("cos", M::Cos)
      .Case("exp", M::Exp)
      .Case("floor", M::Floor)
      .Case("log", M::Log)
      .Case("neg", M::Neg)
      .Case("rsqrt", M::Rsqrt)
      .Case("sin", M::Sin)
      .Case("tan", M::Tan)
      .Case("erf", M::Erf)
      .Case("identity", M::Identity)
      .Case("reciprocal", M::Reciprocal)
      .Case("relu", M::ReluFwd)
      .Case("tanh", M::TanhFwd)
      .Case("sigmoid", M::SigmoidFwd)
      .Case("elu", M::EluFwd)
      .Case("gelu", M::GeluFwd)
      .Case("softplus", M::SoftplusFwd)
      .Case("swish", M::SwishFwd)
      .Case("gelu_approx_tanh", M::GeluApproxTanhFwd)
      .Case("relu_bwd", M::ReluBwd)
      .Case("tanh_bwd", M::TanhBwd)
      .Case("sigmoid_bwd", M::SigmoidBwd)
      .Case("elu_bwd", M::EluBwd)
      .Case("gelu_bwd", M::GeluBwd)
      .Case("softplus_bwd", M::SoftplusBwd)
      .Case("swish_bwd", M::SwishBwd)
      .Case("gelu_approx_tanh_bwd", M::GeluApproxTanhBwd)
      .Case("cmp_eq", M::CmpEq)
      .Case("cmp_neq", M::CmpNeq)
      .Case("cmp_gt", M::CmpGt)
      .Case("cmp_ge", M::CmpGe)
      .Case("cmp_lt", M::CmpLt)
      .Case("cmp_le", M::CmpLe)
      .Case("logical_and", M::LogicalAnd)
      .Case("logical_or", M::LogicalOr)
      .Case("logical_not", M::LogicalNot)
      .Case("gen_index", M::GenIndex)
      .Case("binary_select", M::BinarySelect)
      .Default(std::nullopt);
}

std::vector<int64_t> toVector(ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

class Serializer {
public:
  explicit Serializer(ExecuteGraphOp op) : op(op) {}

  FailureOr<SerializedGraph> run(ScalarInputFn scalarInput);

private:
  LogicalResult addTensor(Value value, bool isVirtual,
                          std::optional<TypedAttr> scalar = std::nullopt,
                          Type computeType = {});
  FailureOr<int64_t> computeType(Operation *graphOp, Type type);
  int64_t uidOf(Value value) const { return value ? uids.lookup(value) : 0; }
  std::vector<int64_t> uidsOf(ValueRange values) const {
    std::vector<int64_t> out;
    for (Value v : values)
      out.push_back(uidOf(v));
    return out;
  }
  LogicalResult addOp(Operation *graphOp);
  void addMatmulBatchDim();

  ExecuteGraphOp op;
  g::GraphDescription desc;
  llvm::DenseMap<Value, int64_t> uids;
};

LogicalResult Serializer::addTensor(Value value, bool isVirtual,
                                    std::optional<TypedAttr> scalar,
                                    Type computeType) {
  auto type = cast<TensorDescType>(value.getType());
  // An intermediate never reaches memory: cuDNN's fused engines keep it in
  // the compute type of the op that produces it (fp32 for fp16 I/O). One
  // that a conv or matmul reads (a prologue's result) keeps its own type:
  // the anchor's inputs must match its other operand (the H100 refuses an
  // fp32 virtual x with fp16 weights: "is_input_compute_type_match").
  bool feedsAnchor = llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<cudnn::ConvolutionOp, cudnn::ConvolutionBackwardDataOp,
               cudnn::ConvolutionBackwardFilterOp, cudnn::MatmulOp>(user);
  });
  Type element = isVirtual && !feedsAnchor && computeType &&
                         isa<FloatType>(computeType) &&
                         isa<FloatType>(type.getElementType())
                     ? computeType
                     : type.getElementType();
  std::optional<g::DataType> dataType = dataTypeOf(element);
  if (!dataType)
    return op.emitOpError("expects graph tensors of a cuDNN data type (f16, "
                          "bf16, f32, f64, i1, i8, ui8, i32, i64, f8), but "
                          "got ")
           << element;
  if (llvm::any_of(type.getShape(), ShapedType::isDynamic))
    return op.emitOpError("expects graph tensors of static shape, but got ")
           << type;
  g::Tensor tensor;
  tensor.uid = static_cast<int64_t>(desc.tensors.size()) + 1;
  tensor.dataType = static_cast<int64_t>(*dataType);
  tensor.dims = toVector(type.getShape());
  tensor.strides = toVector(type.getEffectiveStrides());
  // Every pointer to an element is aligned to the element's size, so that
  // is promised even where the descriptor says less (the seed's
  // alignment = 1); cuDNN refuses alignments below it.
  tensor.alignment = std::max<int64_t>(
      type.getAlignment(),
      cudnn_mlir::getElementStorageBytes(type.getElementType()));
  tensor.isVirtual = isVirtual;
  if (scalar) {
    tensor.isByValue = true;
    if (auto f = dyn_cast<FloatAttr>(*scalar))
      tensor.scalar = g::doubleToWord(f.getValueAsDouble());
    else
      tensor.scalar = cast<IntegerAttr>(*scalar).getInt();
  }
  uids[value] = tensor.uid;
  desc.tensors.push_back(std::move(tensor));
  return success();
}

FailureOr<int64_t> Serializer::computeType(Operation *graphOp, Type type) {
  std::optional<g::DataType> dataType = dataTypeOf(type);
  if (!dataType)
    return graphOp->emitOpError("expects a cuDNN compute type, but got ")
           << type;
  return static_cast<int64_t>(*dataType);
}

template <typename ConvOpT>
g::ConvAttrs convAttrs(ConvOpT conv, int64_t compute) {
  g::ConvAttrs a;
  a.computeType = compute;
  a.mode = static_cast<int64_t>(conv.getConvMode());
  a.alpha = conv.getAlpha().convertToDouble();
  a.beta = conv.getBeta().convertToDouble();
  a.spatialDims = conv.getSpatialDimCount();
  a.stride = toVector(conv.getSpatialStride());
  a.prePadding = toVector(conv.getPrePadding());
  a.postPadding = toVector(conv.getPostPadding());
  a.dilation = toVector(conv.getDilation());
  return a;
}

LogicalResult Serializer::addOp(Operation *graphOp) {
  auto typeAttr = graphOp->getAttrOfType<TypeAttr>("type");
  // Unreachable from textual IR: every graph op has a compute type, and the
  // graph verifiers admit nothing but graph ops.
  if (!typeAttr)
    return graphOp->emitOpError("expects a `type` attribute (the compute "
                                "type), but got none");
  FailureOr<int64_t> compute = computeType(graphOp, typeAttr.getValue());
  if (failed(compute))
    return failure();

  g::Op record;
  record.inputs = uidsOf(graphOp->getOperands());
  record.outputs = uidsOf(graphOp->getResults());
  if (auto conv = dyn_cast<ConvolutionOp>(graphOp)) {
    record.kind = g::OpKind::ConvFprop;
    record.attrs = convAttrs(conv, *compute);
  } else if (auto conv = dyn_cast<ConvolutionBackwardDataOp>(graphOp)) {
    record.kind = g::OpKind::ConvDgrad;
    record.attrs = convAttrs(conv, *compute);
  } else if (auto conv = dyn_cast<ConvolutionBackwardFilterOp>(graphOp)) {
    record.kind = g::OpKind::ConvWgrad;
    record.attrs = convAttrs(conv, *compute);
  } else if (isa<MatmulOp>(graphOp)) {
    record.kind = g::OpKind::Matmul;
    record.attrs = g::MatmulAttrs{*compute};
  } else if (auto reduction = dyn_cast<ReductionOp>(graphOp)) {
    record.kind = g::OpKind::Reduction;
    record.attrs =
        g::ReductionAttrs{static_cast<int64_t>(reduction.getMode()), *compute};
  } else if (auto norm = dyn_cast<NormForwardOp>(graphOp)) {
    record.kind = g::OpKind::NormForward;
    g::NormForwardAttrs a;
    a.mode = static_cast<int64_t>(norm.getMode());
    a.phase = static_cast<int64_t>(norm.getPhase());
    a.computeType = *compute;
    a.epsilon = norm.getEpsilon().convertToDouble();
    if (std::optional<APFloat> momentum = norm.getMomentum())
      a.momentum = momentum->convertToDouble();
    record.attrs = a;
    // Optional operands and results by position, absent ones as UID 0.
    record.inputs = {uidOf(norm.getX()),           uidOf(norm.getScale()),
                     uidOf(norm.getBias()),        uidOf(norm.getMean()),
                     uidOf(norm.getInvVariance()), uidOf(norm.getRunningMean()),
                     uidOf(norm.getRunningVar())};
    record.outputs = {uidOf(norm.getY()), uidOf(norm.getSavedMean()),
                      uidOf(norm.getSavedInvVariance()),
                      uidOf(norm.getNextRunningMean()),
                      uidOf(norm.getNextRunningVar())};
  } else if (auto norm = dyn_cast<NormBackwardOp>(graphOp)) {
    record.kind = g::OpKind::NormBackward;
    record.attrs =
        g::NormBackwardAttrs{static_cast<int64_t>(norm.getMode()), *compute};
    record.inputs = {uidOf(norm.getDy()), uidOf(norm.getX()),
                     uidOf(norm.getScale()), uidOf(norm.getMean()),
                     uidOf(norm.getInvVariance())};
    record.outputs = {uidOf(norm.getDx()), uidOf(norm.getDscale()),
                      uidOf(norm.getDbias())};
  } else if (isa<GenStatsOp>(graphOp)) {
    record.kind = g::OpKind::GenStats;
    record.attrs = g::GenStatsAttrs{*compute};
  } else if (auto bn = dyn_cast<BnFinalizeOp>(graphOp)) {
    record.kind = g::OpKind::BnFinalize;
    g::BnFinalizeAttrs a;
    a.computeType = *compute;
    a.epsilon = bn.getEpsilon().convertToDouble();
    a.momentum = bn.getMomentum().convertToDouble();
    a.accumulationCount = bn.getAccumulationCount();
    record.attrs = a;
  } else if (auto resample = dyn_cast<ResampleOp>(graphOp)) {
    record.kind = g::OpKind::Resample;
    g::ResampleAttrs a;
    a.mode = static_cast<int64_t>(resample.getMode());
    a.computeType = *compute;
    a.spatialDims = static_cast<int64_t>(resample.getWindow().size());
    a.window = toVector(resample.getWindow());
    a.stride = toVector(resample.getSpatialStride());
    a.prePadding = toVector(resample.getPrePadding());
    a.postPadding = toVector(resample.getPostPadding());
    record.attrs = a;
  } else if (auto sdpa = dyn_cast<SdpaOp>(graphOp)) {
    record.kind = g::OpKind::Sdpa;
    record.attrs = g::SdpaAttrs{*compute, sdpa.getScale().convertToDouble()};
    record.inputs = {uidOf(sdpa.getQ()), uidOf(sdpa.getK()), uidOf(sdpa.getV()),
                     uidOf(sdpa.getBias())};
  } else if (graphOp->getName().getStringRef().starts_with(
                 "cudnn.pointwise_")) {
    StringRef suffix = graphOp->getName().getStringRef().drop_front(
        StringRef("cudnn.pointwise_").size());
    std::optional<g::PointwiseMode> mode = pointwiseModeOf(suffix);
    // Unreachable from textual IR: every cudnn.pointwise_* op has a mode.
    if (!mode)
      return graphOp->emitOpError("has no cuDNN pointwise mode in the graph "
                                  "description: expects a known pointwise "
                                  "op, but got ")
             << graphOp->getName();
    record.kind = g::OpKind::Pointwise;
    g::PointwiseAttrs a;
    a.mode = static_cast<int64_t>(*mode);
    a.computeType = *compute;
    for (auto [name, key] :
         {std::pair<StringRef, g::PointwiseParam>{
              "lower_clip", g::PointwiseParam::ReluLowerClip},
          {"upper_clip", g::PointwiseParam::ReluUpperClip},
          {"lower_clip_slope", g::PointwiseParam::ReluLowerClipSlope},
          {"elu_alpha", g::PointwiseParam::EluAlpha},
          {"softplus_beta", g::PointwiseParam::SoftplusBeta},
          {"swish_beta", g::PointwiseParam::SwishBeta}})
      if (auto value = graphOp->getAttrOfType<FloatAttr>(name))
        a.set(key, value.getValueAsDouble());
    if (auto axis = graphOp->getAttrOfType<IntegerAttr>("axis"))
      a.setAxis(axis.getInt());
    record.attrs = a;
  } else { // Unreachable from textual IR, as above.
    return graphOp->emitOpError("expects an op of the graph description "
                                "(convolution, matmul, pointwise, reduction, "
                                "norm, genstats, bn_finalize, resample, "
                                "sdpa), but "
                                "got ")
           << graphOp->getName();
  }
  desc.ops.push_back(std::move(record));
  return success();
}

/// cuDNN's matmul takes batched operands ([B, M, K] x [B, K, N]); a graph
/// of plain matrices gets a leading batch dim of 1 on every tensor (the
/// pointwise ops around the matmul have the same rank). The bytes are the
/// same.
void Serializer::addMatmulBatchDim() {
  bool matrices = llvm::any_of(desc.ops, [&](const g::Op &o) {
    return o.kind == g::OpKind::Matmul &&
           desc.tensors[o.inputs[0] - 1].dims.size() == 2;
  });
  if (!matrices)
    return;
  for (g::Tensor &t : desc.tensors) {
    if (t.dims.size() != 2)
      continue;
    t.strides.insert(t.strides.begin(), std::max(t.dims[0] * t.strides[0],
                                                 t.dims[1] * t.strides[1]));
    t.dims.insert(t.dims.begin(), 1);
  }
}

FailureOr<SerializedGraph> Serializer::run(ScalarInputFn scalarInput) {
  Block &body = op.getBody().front();
  auto terminator = cast<BuildGraphOp>(body.getTerminator());
  llvm::SmallPtrSet<Value, 8> outputs;
  for (Value output : terminator.getOutputs()) {
    if (isa<BlockArgument>(output))
      return op.emitOpError("expects every graph output to be computed by an "
                            "op of the graph, but output #")
             << outputs.size() << " is an input";
    if (!outputs.insert(output).second)
      return op.emitOpError("expects each graph output once, but got a "
                            "tensor named twice by cudnn.build_graph");
  }

  SerializedGraph result;
  for (BlockArgument arg : body.getArguments()) {
    std::optional<TypedAttr> scalar = scalarInput(arg.getArgNumber());
    if (failed(addTensor(arg, /*isVirtual=*/false, scalar)))
      return failure();
    result.inputUids.push_back(scalar ? 0 : uidOf(arg));
  }
  for (Operation &graphOp : body.without_terminator()) {
    auto compute = graphOp.getAttrOfType<TypeAttr>("type");
    for (Value v : graphOp.getResults())
      if (failed(addTensor(v, /*isVirtual=*/!outputs.contains(v), std::nullopt,
                           compute ? compute.getValue() : Type())))
        return failure();
    if (failed(addOp(&graphOp)))
      return failure();
  }
  for (Value output : terminator.getOutputs())
    result.outputUids.push_back(uidOf(output));
  addMatmulBatchDim();
  result.words = g::serialize(desc);
  // The runtime parses and validates every description it is handed. The
  // same checks here turn a graph that the dialect's verifiers let through
  // but the runtime would refuse into a compile error, so the two sets of
  // rules cannot drift apart unnoticed.
  g::GraphDescription parsed;
  if (g::Status status = g::parseAndValidate(
          result.words.data(), static_cast<int64_t>(result.words.size()),
          parsed);
      !status.ok())
    return op.emitOpError("expects a graph the runtime's validator accepts, "
                          "but it refuses this one: ")
           << status.message << "\n" << g::dumpGraph(desc);
  return result;
}

} // namespace

std::optional<int64_t> mlir::cudnn::cudnnDataTypeOf(Type type) {
  if (std::optional<g::DataType> dataType = dataTypeOf(type))
    return static_cast<int64_t>(*dataType);
  return std::nullopt;
}

FailureOr<SerializedGraph>
mlir::cudnn::serializeGraph(ExecuteGraphOp op, ScalarInputFn scalarInput) {
  return Serializer(op).run(scalarInput);
}
