//===- TcpToCudnn.cpp - tcp groups to cuDNN graphs ------------------------===//
//
// Rewrites each `tcp.isolated_group {group_type = "cudnn"}`, and each one
// without a group_type that the fusion support table accepts, into one
// `cudnn.build_and_exec_graph`. The body is translated one op for one into a
// detached block; only when every op translated are the ops outside the graph
// (reshapes of norm parameters, hoisted constants, the handle, collapses of
// reductions) created, so a group that fails leaves the IR untouched. RNN
// custom ops, which no graph can hold, go to cuDNN's RNN ops (RnnToCudnn.cpp).
//
//===----------------------------------------------------------------------===//

#include "RnnToCudnn.h"
#include "SplitForm.h"

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/AttentionPattern.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <limits>

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CONVERTTCPTOCUDNNPASS
#include "cudnn-mlir/Conversion/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;
using cudnn::TensorDescType;

/// The alignment a graph input read as a window of a larger tensor must
/// keep at its start (cuDNN's attention kernels load 16 bytes at a time).
static constexpr int64_t kViewAlignmentBytes = 16;

/// The ops a cuDNN group may hold: the support table's (which the fusion pass
/// groups by, and which GraphBuilder::translateOp translates one for one) and
/// the constants isolation clones in.
static std::string supportedOpsList() {
  std::string list;
  llvm::raw_string_ostream os(list);
  for (const tcp::CudnnOpSupport &row : tcp::getCudnnSupportTable())
    os << row.opName << ", ";
  os << "tcp.const, arith.constant";
  return list;
}

static bool isCudnnGroup(tcp::IsolatedGroupOp group) {
  auto type = group->getAttrOfType<StringAttr>(tcp::kGroupTypeAttrName);
  return type && type.getValue() == tcp::kCudnnGroupType;
}

/// A group without group_type: the seed's stage 2, or IR written by hand.
/// It becomes a graph when the support table accepts it (checkUntypedGroup).
static bool isUntypedGroup(tcp::IsolatedGroupOp group) {
  return !group->hasAttr(tcp::kGroupTypeAttrName);
}

/// Why the support table takes no graph with `op` under `policy`; empty when
/// it takes it. Constants become graph inputs (the table has no row for
/// them) and the yield is the graph's outputs.
static std::string whyTableRejects(Operation *op,
                                   const tcp::CudnnFusionPolicy &policy) {
  if (isa<tcp::ConstOp, arith::ConstantOp, tcp::YieldOp>(op))
    return "";
  std::optional<tcp::CudnnOpSupport> row = tcp::lookupCudnnSupport(op);
  if (!row)
    return "not an op cuDNN graphs run (see the support table)";
  return tcp::whyCudnnCannotRun(op, row->role, policy);
}

/// A group without group_type is a cuDNN graph only as tcp-fuse-for-cudnn
/// would have formed it: every op accepted by the support table under
/// `policy`, and one op (conv, matmul, norm or pool) to build the graph
/// around. Otherwise an error on the first op that fails.
static LogicalResult checkUntypedGroup(tcp::IsolatedGroupOp group,
                                       const tcp::CudnnFusionPolicy &policy) {
  Operation *center = nullptr;
  for (Operation &op : group.getBody().front()) {
    if (std::string why = whyTableRejects(&op, policy); !why.empty())
      return op.emitOpError("expects an op the cuDNN support table accepts "
                            "(its tcp.isolated_group has no group_type, so "
                            "the table decides), but got '")
             << op.getName() << "': " << why;
    std::optional<tcp::CudnnOpSupport> row = tcp::lookupCudnnSupport(&op);
    if (!row || !tcp::buildsGraph(row->role))
      continue;
    if (center)
      return op.emitOpError("expects one conv, matmul, norm or pool per "
                            "cuDNN graph, but got '")
             << op.getName() << "' after '" << center->getName()
             << "' in a tcp.isolated_group without group_type";
    center = &op;
  }
  if (!center)
    return group.emitOpError("expects a conv, matmul, norm or pool for the "
                             "cuDNN graph to be built around (cuDNN runs no "
                             "graph of pointwise ops alone), but got none in "
                             "a group without group_type");
  return success();
}

/// cuDNN computes f16/bf16/f32 (and integer) graphs in f32, f64 in f64.
static TypeAttr computeType(Type element) {
  MLIRContext *ctx = element.getContext();
  return TypeAttr::get(element.isF64() ? Type(Float64Type::get(ctx))
                                       : Type(Float32Type::get(ctx)));
}

static FloatAttr f32Attr(MLIRContext *ctx, double value) {
  return FloatAttr::get(Float32Type::get(ctx), value);
}

/// A norm's operand that is reshaped outside the graph, so the group argument
/// itself is not a graph input: the per-channel or per-feature parameters,
/// and the activations of training and backward batch norms below rank 4
/// (see batchNormShape).
static bool isNormParamUse(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (isa<tcp::BatchNormOp, tcp::LayerNormOp>(owner))
    return use.getOperandNumber() > 0;
  if (!isa<tcp::BatchNormTrainingOp, tcp::BatchNormBackwardOp>(owner))
    return false;
  // The activations: x, or dy and x.
  unsigned activations = isa<tcp::BatchNormBackwardOp>(owner) ? 2 : 1;
  return use.getOperandNumber() >= activations ||
         cast<RankedTensorType>(use.get().getType()).getRank() < 4;
}

/// The shape cuDNN's batch norm sees for x = [N, C, d...]: x's own, with
/// trailing 1s up to rank 4. [N, C] and [N, C, L] are the same batch norm as
/// [N, C, 1, 1] and [N, C, L, 1]; a rank-2 batch norm has no engine (H100,
/// cuDNN 9.19: "No valid engine configs"), the 4-D one runs
/// (bn_cudnn_training_2d_f32).
static SmallVector<int64_t> batchNormShape(RankedTensorType x) {
  SmallVector<int64_t> shape(x.getShape());
  shape.resize(std::max<size_t>(shape.size(), 4), 1);
  return shape;
}

/// [1, C, 1...] of `shape`'s rank: batch norm's per-channel descriptors.
static SmallVector<int64_t> perChannelShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape.size(), 1);
  result[1] = shape[1];
  return result;
}

static RankedTensorType tensorOf(TensorDescType desc) {
  return RankedTensorType::get(desc.getShape(), desc.getElementType());
}

namespace {
/// How to produce one graph operand outside the graph: a group operand, a
/// clone of a constant from the body, or a new splat constant; optionally
/// reshaped (tensor.expand_shape) to `type`.
struct GraphInput {
  Value source;
  Operation *cloneOf = nullptr;
  TypedAttr constant;
  RankedTensorType type;
  SmallVector<ReassociationIndices> expand;
  /// `source` is the packed operand of a transpose of its last two dims, and
  /// the graph reads it through the transpose (its descriptor's strides).
  bool transposedView = false;
  /// Applied before `expand`: a collapse of the source.
  SmallVector<ReassociationIndices> collapse;
  /// `source` is a packed tensor whose elements `type` rearranges (a
  /// transpose, with reshapes; denseView): the graph reads it through
  /// these strides, and the copies the rearranging ops make are left for
  /// dead.
  SmallVector<int64_t> viewStrides;
  /// With viewStrides: where in `source` the view starts (elements; the
  /// chain slices it, e.g. q, k or v out of a packed qkv projection).
  int64_t viewOffset = 0;
};

/// A graph output, collapsed to the tcp result type when cuDNN kept reduced
/// dims that tcp drops.
struct GraphOutput {
  RankedTensorType graphType, tcpType;
};

class GraphBuilder {
public:
  GraphBuilder(tcp::IsolatedGroupOp group, int64_t alignment)
      : group(group), alignment(alignment), ctx(group.getContext()),
        body(std::make_unique<Block>()), b(ctx) {
    b.setInsertionPointToEnd(body.get());
  }
  ~GraphBuilder() {
    if (body)
      body->dropAllDefinedValueUses();
  }

  /// Translates the group's body; on failure, has emitted an error.
  LogicalResult translate();
  /// Creates the graph before the group (after a successful translate()),
  /// with a `ran` result when `tries`; returns the values that stand for the
  /// group's results.
  SmallVector<Value> materialize(RewriterBase &rewriter, bool tries);
  /// The graph materialize() made.
  cudnn::BuildAndExecGraphOp graph() const { return made; }

private:
  LogicalResult translateOp(Operation *op);
  LogicalResult unsupported(Operation *op);

  // Descriptors and graph inputs.
  FailureOr<TensorDescType> descType(Operation *at, ArrayRef<int64_t> shape,
                                     Type element);
  FailureOr<TensorDescType> descType(Operation *at, Type tensorType);
  FailureOr<Value> addInput(Operation *at, GraphInput input);
  FailureOr<Value> lookup(Operation *user, Value value);
  FailureOr<SmallVector<Value>> lookupAll(Operation *user, ValueRange values);
  FailureOr<Value> reshapedParam(Operation *user, Value param,
                                 ArrayRef<int64_t> shape);
  FailureOr<Value> splatInput(Operation *at, ArrayRef<int64_t> shape,
                              Type element, double value);

  // One builder per kind of tcp op.
  template <typename CudnnOp> LogicalResult unary(Operation *op);
  template <typename CudnnOp> LogicalResult binary(Operation *op);
  LogicalResult clamp(tcp::ClampOp op);
  template <typename CudnnConvOp, typename ConvOp>
  LogicalResult convolution(ConvOp op);
  template <typename PoolOp>
  LogicalResult pooling(PoolOp op, cudnn::ResampleMode mode);
  LogicalResult matmul(Operation *op);
  template <typename ReduceOp>
  LogicalResult reduction(ReduceOp op, cudnn::ReductionMode mode);
  LogicalResult batchNorm(tcp::BatchNormOp op);
  LogicalResult batchNormTraining(tcp::BatchNormTrainingOp op);
  LogicalResult batchNormBackward(tcp::BatchNormBackwardOp op);
  FailureOr<SmallVector<Value>>
  reshapedParams(Operation *user, ValueRange params, ArrayRef<int64_t> shape);
  FailureOr<SmallVector<Value>>
  activations(Operation *user, ValueRange values, ArrayRef<int64_t> shape);
  void bindNormResults(Operation *tcpNorm, Operation *cudnnNorm);
  LogicalResult layerNorm(tcp::LayerNormOp op);
  /// A group that is one attention chain (q, k^T and v the group's
  /// operands): one cudnn.sdpa.
  LogicalResult attention(tcp::AttentionMatch match);
  FailureOr<Value> attentionInput(Value groupValue, bool isKey,
                                  tcp::AttentionHeads heads);
  LogicalResult broadcast(tcp::BroadcastOp op);
  LogicalResult yield(tcp::YieldOp op);

  /// Creates a single-result graph op and maps `tcpResult` to it.
  template <typename CudnnOp, typename... Args>
  LogicalResult emit(Operation *op, Value tcpResult, Args &&...args) {
    FailureOr<TensorDescType> type = descType(op, tcpResult.getType());
    if (failed(type))
      return failure();
    descs[tcpResult] =
        CudnnOp::create(b, op->getLoc(), *type, std::forward<Args>(args)...);
    return success();
  }

  tcp::IsolatedGroupOp group;
  int64_t alignment;
  MLIRContext *ctx;
  std::unique_ptr<Block> body;
  OpBuilder b;
  DenseMap<Value, Value> descs;
  SmallVector<GraphInput> inputs;
  SmallVector<GraphOutput> outputs;
  /// Results of multi-result norms that tcp drops but cuDNN writes all the
  /// same: graph outputs after the yielded ones, with no group result.
  SmallVector<Value> unusedOutputs;
  cudnn::BuildAndExecGraphOp made;
};
} // namespace

//===----------------------------------------------------------------------===//
// Descriptors and inputs
//===----------------------------------------------------------------------===//

FailureOr<TensorDescType>
GraphBuilder::descType(Operation *at, ArrayRef<int64_t> shape, Type element) {
  auto type =
      TensorDescType::getChecked([&] { return at->emitOpError(); }, ctx, shape,
                                 element, alignment, ArrayRef<int64_t>{});
  if (!type)
    return failure();
  return type;
}

FailureOr<TensorDescType> GraphBuilder::descType(Operation *at,
                                                 Type tensorType) {
  auto tensor = dyn_cast<RankedTensorType>(tensorType);
  // Unreachable from textual IR (tcp ops take only ranked tensors and
  // unranked group operands are never described); guards builder misuse.
  if (!tensor)
    return at->emitOpError("expects ranked tensors in a cuDNN graph, but got ")
           << tensorType;
  return descType(at, tensor.getShape(), tensor.getElementType());
}

FailureOr<Value> GraphBuilder::addInput(Operation *at, GraphInput input) {
  FailureOr<TensorDescType> type = descType(at, input.type);
  if (failed(type))
    return failure();
  if (input.transposedView)
    type = type->withStrides(cudnn::getTransposedViewStrides(
        cast<RankedTensorType>(input.source.getType()).getShape()));
  else if (!input.viewStrides.empty())
    type = type->withStrides(input.viewStrides).withOffset(input.viewOffset);
  inputs.push_back(std::move(input));
  return Value(body->addArgument(*type, at->getLoc()));
}

/// The descriptor of a tcp value; constants from the body become graph
/// inputs on first use.
FailureOr<Value> GraphBuilder::lookup(Operation *user, Value value) {
  if (Value desc = descs.lookup(value))
    return desc;
  Operation *def = value.getDefiningOp();
  if (def && isa<tcp::ConstOp, arith::ConstantOp>(def) &&
      isa<RankedTensorType>(value.getType())) {
    FailureOr<Value> desc = addInput(
        def, {{}, def, {}, cast<RankedTensorType>(value.getType()), {}});
    if (succeeded(desc))
      descs[value] = *desc;
    return desc;
  }
  // Unreachable from textual IR: every op is translated in order, so an
  // operand is a graph input, a translated value or a constant by now.
  return user->emitOpError("expects its operands to be tensors of the cuDNN "
                           "graph, but got ")
         << value.getType();
}

FailureOr<SmallVector<Value>> GraphBuilder::lookupAll(Operation *user,
                                                      ValueRange values) {
  SmallVector<Value> result;
  for (Value value : values) {
    FailureOr<Value> desc = lookup(user, value);
    if (failed(desc))
      return failure();
    result.push_back(*desc);
  }
  return result;
}

/// A norm parameter ([C] or the normalized shape) as a graph input of
/// `shape` (the rank of x), reshaped outside the graph: cuDNN graphs have no
/// reshape node.
FailureOr<Value> GraphBuilder::reshapedParam(Operation *user, Value param,
                                             ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(param.getType());
  auto target = RankedTensorType::get(shape, type.getElementType());
  std::optional<SmallVector<ReassociationIndices>> expand =
      getReassociationIndicesForCollapse(shape, type.getShape());
  // Unreachable from textual IR: the tcp norm verifiers guarantee [C] or the
  // normalized shape, which always expand to `shape`.
  if (!expand)
    return user->emitOpError("expects a parameter that reshapes to ")
           << target << ", but got " << type;
  GraphInput input{{}, nullptr, {}, target, std::move(*expand)};
  if (auto arg = dyn_cast<BlockArgument>(param);
      arg && arg.getOwner() == &group.getBody().front()) {
    input.source = group.getIns()[arg.getArgNumber()];
  } else if (Operation *def = param.getDefiningOp();
             def && isa<tcp::ConstOp, arith::ConstantOp>(def)) {
    input.cloneOf = def;
  } else {
    return user->emitOpError("expects its parameters to be group arguments or "
                             "constants (cuDNN graphs cannot reshape "
                             "them), but one is computed by '")
           << param.getDefiningOp()->getName() << "'";
  }
  return addInput(user, std::move(input));
}

FailureOr<SmallVector<Value>>
GraphBuilder::reshapedParams(Operation *user, ValueRange params,
                             ArrayRef<int64_t> shape) {
  SmallVector<Value> descs;
  for (Value param : params) {
    FailureOr<Value> desc = reshapedParam(user, param, shape);
    if (failed(desc))
      return failure();
    descs.push_back(*desc);
  }
  return descs;
}

/// A training or backward batch norm's activations as graph tensors of
/// `shape` (batchNormShape): themselves, or reshaped outside the graph when
/// padded to rank 4.
FailureOr<SmallVector<Value>>
GraphBuilder::activations(Operation *user, ValueRange values,
                          ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(values.front().getType()).getRank() <
      static_cast<int64_t>(shape.size()))
    return reshapedParams(user, values, shape);
  return lookupAll(user, values);
}

/// A splat constant made outside the graph (norm defaults and epsilons).
FailureOr<Value> GraphBuilder::splatInput(Operation *at,
                                          ArrayRef<int64_t> shape, Type element,
                                          double value) {
  auto type = RankedTensorType::get(shape, element);
  auto attr = DenseElementsAttr::get(
      type, cast<TypedAttr>(FloatAttr::get(element, value)));
  return addInput(at, {{}, nullptr, attr, type, {}});
}

//===----------------------------------------------------------------------===//
// Translation
//===----------------------------------------------------------------------===//

/// The packed tensor whose transpose in the last two dims `arg` (a group
/// argument) is, when every use of `arg` is a matmul operand: the graph then
/// reads it through its descriptor's strides, and the transpose (a linear
/// layer's weight, a full copy on every call) is left for dead. Null
/// otherwise.
static Value transposedMatmulOperand(tcp::IsolatedGroupOp group,
                                     BlockArgument arg) {
  Value source =
      tcp::getLastDimsTransposeSource(group.getIns()[arg.getArgNumber()]);
  if (!source || arg.use_empty() ||
      !llvm::all_of(arg.getUsers(),
                    llvm::IsaPred<tcp::MatmulOp, tcp::BatchMatmulOp>))
    return {};
  auto type = cast<RankedTensorType>(source.getType());
  if (!type.hasStaticShape() || type.getEncoding())
    return {};
  return source;
}

namespace {
/// A tensor that only rearranges (or picks) the elements of a packed one:
/// `root`, and the tensor's strides over root's storage from `offset`.
struct DenseView {
  Value root;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
};
} // namespace

/// The constant starts, sizes and steps of a tcp.slice; std::nullopt if one
/// is not a constant.
static std::optional<std::array<SmallVector<int64_t>, 3>>
constantSlice(tcp::SliceOp slice) {
  std::array<SmallVector<int64_t>, 3> result;
  for (auto [values, out] : llvm::zip(
           std::array<OperandRange, 3>{slice.getStarts(), slice.getSizes(),
                                       slice.getStrides()},
           result)) {
    for (Value v : values) {
      std::optional<int64_t> c = getConstantIntValue(v);
      if (!c)
        return std::nullopt;
      out.push_back(*c);
    }
  }
  return result;
}

/// `value` as a view of the packed tensor its chain of tcp.transpose,
/// constant tcp.slice and reshapes starts from, when the chain holds a
/// transpose or a slice and every reshape in it keeps the view addressable
/// by strides (a collapse merges only dims that lie one after the other in
/// memory). std::nullopt otherwise. Each op of the chain is a copy (a
/// transpose, a slice) or free; a graph that reads the view by strides
/// needs none of them.
static std::optional<DenseView> denseView(Value value) {
  // Each op of the chain, with a slice's constant starts, sizes and steps.
  SmallVector<std::pair<Operation *, std::array<SmallVector<int64_t>, 3>>>
      chain;
  Value root = value;
  bool copies = false;
  while (Operation *def = root.getDefiningOp()) {
    std::array<SmallVector<int64_t>, 3> box;
    if (isa<tcp::TransposeOp>(def))
      copies = true;
    else if (auto slice = dyn_cast<tcp::SliceOp>(def)) {
      std::optional<std::array<SmallVector<int64_t>, 3>> constant =
          constantSlice(slice);
      if (!constant)
        break;
      box = std::move(*constant);
      copies = true;
    } else if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    chain.emplace_back(def, std::move(box));
    root = def->getOperand(0);
  }
  auto rootType = dyn_cast<RankedTensorType>(root.getType());
  // A view of the root's own shape would read as a layout the root lacks
  // (the graph verifier's rule): left to the copy.
  if (!copies || !rootType || !rootType.hasStaticShape() ||
      rootType.getEncoding() ||
      rootType.getShape() == cast<RankedTensorType>(value.getType()).getShape())
    return std::nullopt;
  SmallVector<int64_t> shape(rootType.getShape());
  SmallVector<int64_t> strides = cudnn::getPackedStrides(shape);
  int64_t offset = 0;
  for (auto &[op, box] : llvm::reverse(chain)) {
    SmallVector<int64_t> newShape, newStrides;
    if (isa<tcp::SliceOp>(op)) {
      auto &[starts, sizes, steps] = box;
      for (auto [d, stride] : llvm::enumerate(strides)) {
        offset += starts[d] * stride;
        newShape.push_back(sizes[d]);
        newStrides.push_back(stride * steps[d]);
      }
    } else if (auto transpose = dyn_cast<tcp::TransposeOp>(op)) {
      for (int64_t from : transpose.getPermutation()) {
        newShape.push_back(shape[from]);
        newStrides.push_back(strides[from]);
      }
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      ArrayRef<int64_t> out = expand.getResultType().getShape();
      newShape.assign(out.begin(), out.end());
      newStrides.assign(out.size(), 0);
      for (auto [dim, group] :
           llvm::enumerate(expand.getReassociationIndices())) {
        int64_t stride = strides[dim];
        for (int64_t j : llvm::reverse(group)) {
          newStrides[j] = stride;
          stride *= out[j];
        }
      }
    } else {
      auto collapse = cast<tensor::CollapseShapeOp>(op);
      for (const ReassociationIndices &group :
           collapse.getReassociationIndices()) {
        int64_t size = 1, stride = 1;
        std::optional<int64_t> inner; // the last dim of extent > 1
        for (int64_t j : llvm::reverse(group)) {
          size *= shape[j];
          if (shape[j] == 1)
            continue;
          if (inner && strides[j] != strides[*inner] * shape[*inner])
            return std::nullopt; // not one strided dim in memory
          if (!inner)
            stride = strides[j];
          inner = j;
        }
        newShape.push_back(size);
        newStrides.push_back(stride);
      }
    }
    shape = std::move(newShape);
    strides = std::move(newStrides);
  }
  return DenseView{root, std::move(strides), offset};
}

/// Whether `op` (in a group's body) computes on a conv's or matmul's
/// result: an epilogue op, not a prologue one.
static bool followsAnchor(Operation *op) {
  SmallVector<Operation *> worklist{op};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    for (Value operand : current->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != op->getBlock())
        continue;
      if (tcp::isCudnnAnchor(def))
        return true;
      worklist.push_back(def);
    }
  }
  return false;
}

/// The wider float tensor a group argument was rounded from, when the
/// argument is a per-channel scale or shift of an epilogue: the group
/// operand is `tcp.cast` of an f32 tensor to f16/bf16 (perhaps reshaped by
/// a tensor.expand_shape after), and every use of the argument is a
/// broadcast feeding epilogue mul/add/sub ops only: a folded batch norm's
/// vectors (FoldBatchNorm.cpp), which PyTorch applies in f32. The graph
/// then reads the f32 tensor. Measured on an H100 (cuDNN 9.14), this
/// changed neither the error nor the time of MobileNetV2 and ResNet-50 in
/// fp16 (the fused epilogue appears to round the vectors to f16 itself);
/// the centered fold's numbers (docs/fusion.md) were measured with it.
/// Returns the source and the expand to re-apply.
static std::optional<std::pair<Value, tensor::ExpandShapeOp>>
widerEpilogueParam(tcp::IsolatedGroupOp group, BlockArgument arg) {
  Value operand = group.getIns()[arg.getArgNumber()];
  auto expand = operand.getDefiningOp<tensor::ExpandShapeOp>();
  auto rounding =
      (expand ? expand.getSrc() : operand).getDefiningOp<tcp::CastOp>();
  if (!rounding)
    return std::nullopt;
  auto from = dyn_cast<FloatType>(
      cast<RankedTensorType>(rounding.getIn().getType()).getElementType());
  auto to = dyn_cast<FloatType>(rounding.getType().getElementType());
  if (!from || !to || !from.isF32() || !(to.isF16() || to.isBF16()) ||
      arg.use_empty())
    return std::nullopt;
  for (Operation *user : arg.getUsers()) {
    if (!isa<tcp::BroadcastOp>(user) || user->use_empty())
      return std::nullopt;
    for (Operation *pointwise : user->getUsers())
      if (!isa<tcp::MulOp, tcp::AddOp, tcp::SubOp>(pointwise) ||
          !followsAnchor(pointwise))
        return std::nullopt;
  }
  return std::make_pair(rounding.getIn(), expand);
}

/// The attention chain a group's body is, if it is one that cuDNN's
/// attention runs (every op of the body belongs to the chain but constants
/// and the terminator), with q, k^T and v as the group's operands.
static std::optional<tcp::AttentionMatch>
attentionGroup(tcp::IsolatedGroupOp group) {
  Block &body = group.getBody().front();
  auto yield = cast<tcp::YieldOp>(body.getTerminator());
  if (yield.getIns().size() != 1 || !yield.getIns()[0].getDefiningOp())
    return std::nullopt;
  std::optional<tcp::AttentionMatch> match =
      tcp::matchAttention(yield.getIns()[0].getDefiningOp());
  if (!match)
    return std::nullopt;
  for (Operation &op : body.without_terminator())
    if (!isa<tcp::ConstOp, arith::ConstantOp>(op) &&
        !llvm::is_contained(match->ops, &op) &&
        !llvm::is_contained(match->broadcasts, &op))
      return std::nullopt;
  for (Value *operand : {&match->query, &match->keyTransposed, &match->value}) {
    auto arg = dyn_cast<BlockArgument>(*operand);
    if (!arg || arg.getOwner() != &body)
      return std::nullopt;
    *operand = group.getIns()[arg.getArgNumber()];
  }
  // The bias as the graph reads it: a group operand, or a constant of the
  // body (attentionInput clones it).
  if (match->bias) {
    Value bias = tcp::getAbsorbedBias(match->bias);
    if (auto arg = dyn_cast<BlockArgument>(bias);
        arg && arg.getOwner() == &body)
      bias = group.getIns()[arg.getArgNumber()];
    else if (!bias.getDefiningOp<tcp::ConstOp>() &&
             !bias.getDefiningOp<arith::ConstantOp>())
      return std::nullopt;
    match->bias = bias;
  }
  if (!tcp::whyCudnnCannotRunAttention(*match).empty())
    return std::nullopt;
  return match;
}

/// One of q, k, v and the bias as a rank-4 graph input: q, k and v their
/// [B, H, S, D] source when `heads.split` (every operand has one), else
/// their [B*H, S, D] form regrouped as [B*H / heads, heads, S, D]; k
/// packed ([.., Skv, D], not the k^T the matmul reads). A rank-3 bias gets
/// a heads dim of 1; a rank-4 one is in the graph's layout already.
FailureOr<Value> GraphBuilder::attentionInput(Value groupValue, bool isKey,
                                              tcp::AttentionHeads heads) {
  Value source = isKey ? tcp::getPackedKey(groupValue) : groupValue;
  if (Value split = heads.split && !isKey ? tcp::getSplitHeadsSource(groupValue)
                                          : Value())
    source = split;
  auto type = cast<RankedTensorType>(source.getType());
  GraphInput input{source, nullptr, {}, type, {}};
  if (Operation *def = source.getDefiningOp();
      def && isa<tcp::ConstOp, arith::ConstantOp>(def) &&
      def->getParentRegion() == &group.getBody()) {
    input.source = Value();
    input.cloneOf = def;
  }
  // A split form with leading unit dims ([1, B, H, S, D], unbound from a
  // packed projection) enters as its [B, H, S, D].
  int64_t unitDims =
      type.getRank() > 4 && !input.cloneOf ? type.getRank() - 4 : 0;
  if (unitDims) {
    ReassociationIndices lead;
    for (int64_t d = 0; d <= unitDims; ++d)
      lead.push_back(d);
    input.collapse = {lead, {unitDims + 1}, {unitDims + 2}, {unitDims + 3}};
    type = RankedTensorType::get(type.getShape().take_back(4),
                                 type.getElementType());
    input.type = type;
  }
  // q, k and v as [B, H, S, D] views of the tensors the transposes before
  // them copy (a [B, S, H, D] projection, or nn.MultiheadAttention's
  // [S, B, H, D]): cuDNN's attention reads any strides whose head dim is
  // unit-stride.
  if (type.getRank() == 4 && (!isKey || heads.split) && !input.cloneOf) {
    // A window (q, k or v sliced out of a packed qkv projection) only
    // where its start keeps the 16-byte alignment cuDNN's kernels load at.
    if (std::optional<DenseView> view = denseView(source);
        view && view->strides.back() == 1 &&
        cudnn::getOffsetAlignmentBytes(view->offset, type.getElementType()) %
                kViewAlignmentBytes ==
            0) {
      input.source = view->root;
      input.viewStrides.assign(view->strides.begin() + unitDims,
                               view->strides.end());
      input.viewOffset = view->offset;
      input.collapse.clear();
    }
  }
  if (type.getRank() == 4 && isKey && !heads.split) {
    // [B, H, S, D] -> [B*H, S, D], from the source's rank (leading unit
    // dims included).
    ReassociationIndices batch;
    for (int64_t d = 0; d <= unitDims + 1; ++d)
      batch.push_back(d);
    input.collapse = {batch, {unitDims + 2}, {unitDims + 3}};
    type = RankedTensorType::get({type.getDimSize(0) * type.getDimSize(1),
                                  type.getDimSize(2), type.getDimSize(3)},
                                 type.getElementType());
  }
  if (type.getRank() == 3) {
    // A rank-3 bias comes only with heads == 1 (getAttentionHeads).
    input.type =
        RankedTensorType::get({type.getDimSize(0) / heads.heads, heads.heads,
                               type.getDimSize(1), type.getDimSize(2)},
                              type.getElementType());
    input.expand = {{0, 1}, {2}, {3}};
  }
  return addInput(group, std::move(input));
}

LogicalResult GraphBuilder::attention(tcp::AttentionMatch m) {
  tcp::AttentionHeads heads = tcp::getAttentionHeads(m);
  FailureOr<Value> qDesc = attentionInput(m.query, /*isKey=*/false, heads);
  FailureOr<Value> kDesc =
      attentionInput(m.keyTransposed, /*isKey=*/true, heads);
  FailureOr<Value> vDesc = attentionInput(m.value, /*isKey=*/false, heads);
  if (failed(qDesc) || failed(kDesc) || failed(vDesc))
    return failure();
  Value biasDesc;
  if (m.bias) {
    FailureOr<Value> desc = attentionInput(m.bias, /*isKey=*/false, heads);
    if (failed(desc))
      return failure();
    biasDesc = *desc;
  }
  ArrayRef<int64_t> qShape = cast<TensorDescType>(qDesc->getType()).getShape(),
                    vShape = cast<TensorDescType>(vDesc->getType()).getShape();
  Type element = m.output.getType().getElementType();
  FailureOr<TensorDescType> oType =
      descType(m.output, {qShape[0], qShape[1], qShape[2], vShape[3]}, element);
  if (failed(oType))
    return failure();
  descs[m.output.getResult()] = cudnn::SdpaOp::create(
      b, m.output.getLoc(), *oType, *qDesc, *kDesc, *vDesc, biasDesc,
      b.getF64FloatAttr(m.scale), computeType(element));
  return yield(cast<tcp::YieldOp>(group.getBody().front().getTerminator()));
}

LogicalResult GraphBuilder::translate() {
  Block &groupBody = group.getBody().front();
  if (std::optional<tcp::AttentionMatch> match = attentionGroup(group))
    return attention(*match);
  for (BlockArgument arg : groupBody.getArguments()) {
    // Arguments used only as norm parameters enter the graph reshaped.
    // Index scalars only size broadcasts, which emit nothing.
    if (!isa<RankedTensorType>(arg.getType()) ||
        (!arg.use_empty() && llvm::all_of(arg.getUses(), isNormParamUse)))
      continue;
    GraphInput input{group.getIns()[arg.getArgNumber()],
                     nullptr,
                     {},
                     cast<RankedTensorType>(arg.getType()),
                     {}};
    if (Value source = transposedMatmulOperand(group, arg)) {
      input.source = source;
      input.transposedView = true;
    } else if (auto wider = widerEpilogueParam(group, arg)) {
      input.source = wider->first;
      input.type = input.type.clone(
          cast<RankedTensorType>(wider->first.getType()).getElementType());
      if (wider->second)
        input.expand = wider->second.getReassociationIndices();
    }
    FailureOr<Value> desc = addInput(group, std::move(input));
    if (failed(desc))
      return failure();
    descs[arg] = *desc;
  }
  for (Operation &op : groupBody) {
    if (failed(translateOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult GraphBuilder::translateOp(Operation *op) {
  using namespace cudnn;
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tcp::Conv2DOp, tcp::Conv3DOp>(
          [&](auto o) { return convolution<cudnn::ConvolutionOp>(o); })
      .Case<tcp::ConvTranspose2DOp, tcp::ConvTranspose3DOp>([&](auto o) {
        return convolution<cudnn::ConvolutionBackwardDataOp>(o);
      })
      .Case<tcp::MatmulOp, tcp::BatchMatmulOp>(
          [&](Operation *o) { return matmul(o); })
      .Case([&](tcp::ClampOp o) { return clamp(o); })
      .Case<tcp::AddOp>([&](auto o) { return binary<PointwiseAddOp>(o); })
      .Case<tcp::SubOp>([&](auto o) { return binary<PointwiseSubOp>(o); })
      .Case<tcp::MulOp>([&](auto o) { return binary<PointwiseMulOp>(o); })
      .Case<tcp::DivFOp>([&](auto o) { return binary<PointwiseDivOp>(o); })
      .Case<tcp::SigmoidOp>(
          [&](auto o) { return unary<PointwiseSigmoidOp>(o); })
      .Case<tcp::TanhOp>([&](auto o) { return unary<PointwiseTanhOp>(o); })
      .Case([&](tcp::GeluOp o) {
        return o.isTanhApproximation() ? unary<PointwiseGeluApproxTanhOp>(o)
                                       : unary<PointwiseGeluOp>(o);
      })
      .Case<tcp::ExpOp>([&](auto o) { return unary<PointwiseExpOp>(o); })
      .Case<tcp::NegOp>([&](auto o) { return unary<PointwiseNegOp>(o); })
      .Case<tcp::AbsOp>([&](auto o) { return unary<PointwiseAbsOp>(o); })
      .Case<tcp::SqrtOp>([&](auto o) { return unary<PointwiseSqrtOp>(o); })
      .Case<tcp::LogOp>([&](auto o) { return unary<PointwiseLogOp>(o); })
      .Case<tcp::CeilOp>([&](auto o) { return unary<PointwiseCeilOp>(o); })
      .Case<tcp::FloorOp>([&](auto o) { return unary<PointwiseFloorOp>(o); })
      .Case<tcp::SinOp>([&](auto o) { return unary<PointwiseSinOp>(o); })
      .Case<tcp::CosOp>([&](auto o) { return unary<PointwiseCosOp>(o); })
      .Case([&](tcp::BroadcastOp o) { return broadcast(o); })
      .Case(
          [&](tcp::ReduceSumOp o) { return reduction(o, ReductionMode::add); })
      .Case(
          [&](tcp::ReduceMeanOp o) { return reduction(o, ReductionMode::avg); })
      .Case(
          [&](tcp::ReduceMaxOp o) { return reduction(o, ReductionMode::max); })
      .Case(
          [&](tcp::ReduceMinOp o) { return reduction(o, ReductionMode::min); })
      .Case([&](tcp::MaxPool2DOp o) {
        return pooling(o, cudnn::ResampleMode::max);
      })
      .Case([&](tcp::AvgPool2DOp o) {
        return pooling(o, o.getCountIncludePad()
                              ? cudnn::ResampleMode::avg_include_padding
                              : cudnn::ResampleMode::avg_exclude_padding);
      })
      .Case([&](tcp::BatchNormOp o) { return batchNorm(o); })
      .Case([&](tcp::BatchNormTrainingOp o) { return batchNormTraining(o); })
      .Case([&](tcp::BatchNormBackwardOp o) { return batchNormBackward(o); })
      .Case([&](tcp::LayerNormOp o) { return layerNorm(o); })
      .Case([&](tcp::LayerNormTrainingOp o) {
        return o.emitOpError("expects the inference form of a "
                             "normalisation; the training form is not "
                             "translated to cuDNN yet");
      })
      // Constants enter the graph as inputs when used (see lookup); index
      // scalars only size broadcasts.
      .Case<tcp::ConstOp, arith::ConstantOp>(
          [](Operation *) { return success(); })
      .Case([&](tcp::YieldOp o) { return yield(o); })
      .Default([&](Operation *o) { return unsupported(o); });
}

LogicalResult GraphBuilder::unsupported(Operation *op) {
  return op->emitOpError("expects an op cuDNN graphs can run (")
         << supportedOpsList() << "), but got '" << op->getName() << "'";
}

template <typename CudnnOp> LogicalResult GraphBuilder::unary(Operation *op) {
  FailureOr<Value> x = lookup(op, op->getOperand(0));
  if (failed(x))
    return failure();
  Type element = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  return emit<CudnnOp>(op, op->getResult(0), *x, computeType(element));
}

template <typename CudnnOp> LogicalResult GraphBuilder::binary(Operation *op) {
  FailureOr<SmallVector<Value>> in = lookupAll(op, op->getOperands());
  if (failed(in))
    return failure();
  Type element = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  return emit<CudnnOp>(op, op->getResult(0), (*in)[0], (*in)[1],
                       computeType(element));
}

LogicalResult GraphBuilder::clamp(tcp::ClampOp op) {
  if (op.getMinInt() || op.getMaxInt())
    return op.emitOpError("expects float bounds (cuDNN's ReLU clips are "
                          "floats), but got an integer clamp");
  FailureOr<Value> x = lookup(op, op.getIn());
  if (failed(x))
    return failure();
  FloatAttr lower = op.getMinFloatAttr(), upper = op.getMaxFloatAttr();
  // cuDNN's ReLU always clips below; "no lower bound" is the lowest f32.
  if (!lower)
    lower = f32Attr(ctx, std::numeric_limits<float>::lowest());
  return emit<cudnn::PointwiseReluOp>(
      op, op.getOut(), *x, computeType(op.getType().getElementType()), lower,
      upper, FloatAttr());
}

/// A forward convolution (cudnn.convolution) or a transposed one
/// (cudnn.convolution_backward_data: the input is its dy, the result its
/// dx, the attributes the forward convolution's).
template <typename CudnnConvOp, typename ConvOp>
LogicalResult GraphBuilder::convolution(ConvOp op) {
  FailureOr<SmallVector<Value>> in =
      lookupAll(op, {op.getInput(), op.getWeight()});
  if (failed(in))
    return failure();
  // tcp's pad is (before, after) per spatial dim; cuDNN's is per side.
  ArrayRef<int64_t> pad = op.getPad();
  SmallVector<int64_t> pre, post;
  for (size_t i = 0; i + 1 < pad.size(); i += 2) {
    pre.push_back(pad[i]);
    post.push_back(pad[i + 1]);
  }
  Type element = op.getInput().getType().getElementType();
  return emit<CudnnConvOp>(
      op, op.getOut(), (*in)[0], (*in)[1], computeType(element),
      f32Attr(ctx, 1.0), f32Attr(ctx, 0.0),
      b.getI64IntegerAttr(op.getSpatialDimCount()),
      b.getDenseI64ArrayAttr(op.getStride()), b.getDenseI64ArrayAttr(pre),
      b.getDenseI64ArrayAttr(post), b.getDenseI64ArrayAttr(op.getDilation()),
      cudnn::ConvModeAttr());
}

/// tcp's pooling pad is [top, bottom, left, right]. ceil_mode becomes extra
/// bottom/right padding, which gives floor's formula ceil's extent (max
/// pooling; the fusion pass leaves out an average pool whose ceil_mode adds
/// a window, so the extra padding is zero for the ones that reach here).
template <typename PoolOp>
LogicalResult GraphBuilder::pooling(PoolOp op, cudnn::ResampleMode mode) {
  FailureOr<Value> x = lookup(op, op.getIn());
  if (failed(x))
    return failure();
  ArrayRef<int64_t> pad = op.getPad(), window = op.getKernelSize(),
                    stride = op.getStride();
  ArrayRef<int64_t> in = op.getIn().getType().getShape().drop_front(2);
  ArrayRef<int64_t> out = op.getOut().getType().getShape().drop_front(2);
  SmallVector<int64_t> pre = {pad[0], pad[2]}, post = {pad[1], pad[3]};
  // Only static sizes tell ceil_mode's extra padding (a dynamic size is a
  // negative sentinel the arithmetic would overflow on).
  bool dynamic = llvm::any_of(in, ShapedType::isDynamic) ||
                 llvm::any_of(out, ShapedType::isDynamic);
  if (dynamic && op.getCeilMode())
    return op.emitOpError("expects static spatial sizes with ceil_mode (its "
                          "extra padding depends on them), but got ")
           << op.getIn().getType();
  for (int i = 0; i < 2 && !dynamic; ++i)
    post[i] = std::max(post[i], (out[i] - 1) * stride[i] + window[i] - in[i] -
                                    pre[i]);
  Type element = op.getIn().getType().getElementType();
  return emit<cudnn::ResampleOp>(
      op, op.getOut(), *x, cudnn::ResampleModeAttr::get(ctx, mode),
      computeType(element), b.getDenseI64ArrayAttr(window),
      b.getDenseI64ArrayAttr(stride), b.getDenseI64ArrayAttr(pre),
      b.getDenseI64ArrayAttr(post));
}

LogicalResult GraphBuilder::matmul(Operation *op) {
  FailureOr<SmallVector<Value>> in = lookupAll(op, op->getOperands());
  if (failed(in))
    return failure();
  Type element = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  return emit<cudnn::MatmulOp>(op, op->getResult(0), (*in)[0], (*in)[1],
                               computeType(element));
}

/// cuDNN keeps reduced dims as 1; without keep_dims the result can only
/// leave the graph, where it is collapsed to the tcp type.
template <typename ReduceOp>
LogicalResult GraphBuilder::reduction(ReduceOp op, cudnn::ReductionMode mode) {
  if (!op.getKeepDims() && llvm::any_of(op->getUsers(), [](Operation *user) {
        return !isa<tcp::YieldOp>(user);
      }))
    return op.emitOpError("expects a reduction without keep_dims to be only "
                          "yielded (cuDNN keeps reduced dims), but it feeds "
                          "another op of the group");
  FailureOr<Value> x = lookup(op, op.getIn());
  if (failed(x))
    return failure();
  auto inType = cast<RankedTensorType>(op.getIn().getType());
  SmallVector<int64_t> shape(inType.getShape());
  for (int64_t axis : op.getAxes())
    shape[axis] = 1;
  FailureOr<TensorDescType> type = descType(op, shape, inType.getElementType());
  if (failed(type))
    return failure();
  descs[op.getOut()] = cudnn::ReductionOp::create(
      b, op.getLoc(), *type, *x, cudnn::ReductionModeAttr::get(ctx, mode),
      computeType(inType.getElementType()));
  return success();
}

/// cuDNN's inference batch norm takes 1/sqrt(var + eps), computed here in the
/// graph from the running variance and an epsilon input.
LogicalResult GraphBuilder::batchNorm(tcp::BatchNormOp op) {
  FailureOr<Value> x = lookup(op, op.getX());
  if (failed(x))
    return failure();
  auto xType = cast<RankedTensorType>(op.getX().getType());
  auto paramType = cast<RankedTensorType>(op.getScale().getType());
  SmallVector<int64_t> shape = perChannelShape(xType.getShape());
  FailureOr<SmallVector<Value>> params = reshapedParams(
      op,
      {op.getScale(), op.getBias(), op.getRunningMean(), op.getRunningVar()},
      shape);
  if (failed(params))
    return failure();
  Type statElement = paramType.getElementType();
  FailureOr<Value> eps =
      splatInput(op, SmallVector<int64_t>(xType.getRank(), 1), statElement,
                 op.getEpsilon().convertToDouble());
  FailureOr<TensorDescType> statType = descType(op, shape, statElement);
  FailureOr<TensorDescType> yType = descType(op, xType);
  if (failed(eps) || failed(statType) || failed(yType))
    return failure();
  TypeAttr statCompute = computeType(statElement);
  Value varEps = cudnn::PointwiseAddOp::create(b, op.getLoc(), *statType,
                                               (*params)[3], *eps, statCompute);
  Value invVar = cudnn::PointwiseRsqrtOp::create(b, op.getLoc(), *statType,
                                                 varEps, statCompute);
  auto norm = cudnn::NormForwardOp::create(
      b, op.getLoc(), *yType, Type(), Type(), Type(), Type(), *x, (*params)[0],
      (*params)[1], (*params)[2], invVar, Value(), Value(),
      cudnn::NormModeAttr::get(ctx, cudnn::NormMode::batch),
      cudnn::FwdPhaseAttr::get(ctx, cudnn::FwdPhase::inference),
      computeType(xType.getElementType()),
      f32Attr(ctx, op.getEpsilon().convertToDouble()), FloatAttr());
  descs[op.getY()] = norm.getY();
  return success();
}

/// cuDNN's batch norm in training: it computes the batch statistics (the
/// saved mean and inv_variance = 1 / sqrt(biased var + eps), as tcp's
/// saved_invstd) and blends the running ones with momentum the way tcp and
/// PyTorch do, new = (1 - momentum) * old + momentum * batch, the running
/// variance from the unbiased batch variance (measured on the H100:
/// docs/runtime.md). x and y are batchNormShape, the per-channel tensors
/// [1, C, 1...], reshaped outside the graph.
LogicalResult GraphBuilder::batchNormTraining(tcp::BatchNormTrainingOp op) {
  auto xType = cast<RankedTensorType>(op.getX().getType());
  Type statElement =
      cast<RankedTensorType>(op.getScale().getType()).getElementType();
  SmallVector<int64_t> shape = batchNormShape(xType);
  SmallVector<int64_t> channel = perChannelShape(shape);
  FailureOr<SmallVector<Value>> x = activations(op, op.getX(), shape);
  FailureOr<SmallVector<Value>> params = reshapedParams(
      op,
      {op.getScale(), op.getBias(), op.getRunningMean(), op.getRunningVar()},
      channel);
  FailureOr<TensorDescType> yType = descType(op, shape, xType.getElementType());
  FailureOr<TensorDescType> statType = descType(op, channel, statElement);
  if (failed(x) || failed(params) || failed(yType) || failed(statType))
    return failure();
  auto norm = cudnn::NormForwardOp::create(
      b, op.getLoc(), *yType, *statType, *statType, *statType, *statType,
      (*x)[0], (*params)[0], (*params)[1], Value(), Value(), (*params)[2],
      (*params)[3],
      cudnn::NormModeAttr::get(ctx, cudnn::NormMode::batch),
      cudnn::FwdPhaseAttr::get(ctx, cudnn::FwdPhase::training),
      computeType(xType.getElementType()),
      f32Attr(ctx, op.getEpsilon().convertToDouble()),
      f32Attr(ctx, op.getMomentum().convertToDouble()));
  bindNormResults(op, norm);
  return success();
}

/// cuDNN's batch norm backward, from the saved statistics of the training
/// form; it has no inference form (tcp-fuse-for-cudnn leaves those to
/// generated kernels, or errors under batch-norm=cudnn).
LogicalResult GraphBuilder::batchNormBackward(tcp::BatchNormBackwardOp op) {
  if (!op.getTraining())
    return op.emitOpError("expects training = true (cuDNN's norm backward "
                          "has no inference form), but got false");
  auto xType = cast<RankedTensorType>(op.getX().getType());
  Type paramElement =
      cast<RankedTensorType>(op.getScale().getType()).getElementType();
  SmallVector<int64_t> shape = batchNormShape(xType);
  SmallVector<int64_t> channel = perChannelShape(shape);
  FailureOr<SmallVector<Value>> grads =
      activations(op, {op.getDy(), op.getX()}, shape);
  FailureOr<SmallVector<Value>> params = reshapedParams(
      op, {op.getScale(), op.getSavedMean(), op.getSavedInvstd()}, channel);
  FailureOr<TensorDescType> dxType =
      descType(op, shape, xType.getElementType());
  FailureOr<TensorDescType> paramType = descType(op, channel, paramElement);
  if (failed(grads) || failed(params) || failed(dxType) || failed(paramType))
    return failure();
  auto norm = cudnn::NormBackwardOp::create(
      b, op.getLoc(), *dxType, *paramType, *paramType, (*grads)[0], (*grads)[1],
      (*params)[0], (*params)[1], (*params)[2],
      cudnn::NormModeAttr::get(ctx, cudnn::NormMode::batch),
      computeType(xType.getElementType()));
  bindNormResults(op, norm);
  return success();
}

/// Maps each result of a tcp norm to the cudnn norm's result at its place.
/// cuDNN's norms write every result; one that tcp drops is written to a
/// buffer of its own (a graph output no group result stands for) rather
/// than left a virtual tensor that no node reads.
void GraphBuilder::bindNormResults(Operation *tcpNorm, Operation *cudnnNorm) {
  for (auto [result, desc] :
       llvm::zip_equal(tcpNorm->getResults(), cudnnNorm->getResults())) {
    descs[result] = desc;
    if (result.use_empty())
      unusedOutputs.push_back(desc);
  }
}

/// cuDNN's layer norm normalizes every dim but N, with [1, d...] parameters;
/// absent tcp parameters become ones and zeros.
LogicalResult GraphBuilder::layerNorm(tcp::LayerNormOp op) {
  auto xType = cast<RankedTensorType>(op.getX().getType());
  if (static_cast<int64_t>(op.getNormalizedRank()) != xType.getRank() - 1)
    return op.emitOpError("expects normalized_rank = rank(x) - 1 = ")
           << xType.getRank() - 1
           << " (cuDNN normalizes every dim but N), but got "
           << op.getNormalizedRank();
  FailureOr<Value> x = lookup(op, op.getX());
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape(xType.getShape());
  shape[0] = 1;
  auto param = [&](Value value, double fill) -> FailureOr<Value> {
    if (value)
      return reshapedParam(op, value, shape);
    return splatInput(op, shape, xType.getElementType(), fill);
  };
  FailureOr<Value> scale = param(op.getScale(), 1.0);
  FailureOr<Value> bias = param(op.getBias(), 0.0);
  FailureOr<TensorDescType> yType = descType(op, xType);
  if (failed(scale) || failed(bias) || failed(yType))
    return failure();
  auto norm = cudnn::NormForwardOp::create(
      b, op.getLoc(), *yType, Type(), Type(), Type(), Type(), *x, *scale, *bias,
      Value(), Value(), Value(), Value(),
      cudnn::NormModeAttr::get(ctx, cudnn::NormMode::layer),
      cudnn::FwdPhaseAttr::get(ctx, cudnn::FwdPhase::inference),
      computeType(xType.getElementType()),
      f32Attr(ctx, op.getEpsilon().convertToDouble()), FloatAttr());
  descs[op.getY()] = norm.getY();
  return success();
}

/// cuDNN's pointwise ops broadcast size-1 dims themselves, so a broadcast
/// feeding them is the descriptor of its input.
LogicalResult GraphBuilder::broadcast(tcp::BroadcastOp op) {
  for (Operation *user : op->getUsers()) {
    if (!tcp::absorbsBroadcasts(user))
      return op.emitOpError("expects its result to feed only pointwise ops "
                            "(cuDNN broadcasts there), but it feeds '")
             << user->getName() << "'";
  }
  FailureOr<Value> in = lookup(op, op.getIn());
  if (failed(in))
    return failure();
  descs[op.getOut()] = *in;
  return success();
}

LogicalResult GraphBuilder::yield(tcp::YieldOp op) {
  FailureOr<SmallVector<Value>> outs = lookupAll(op, op.getIns());
  if (failed(outs))
    return failure();
  for (auto [i, desc] : llvm::enumerate(*outs)) {
    if (isa<BlockArgument>(desc))
      return op.emitOpError("expects each yielded value to be computed by "
                            "the cuDNN graph, but operand #")
             << i << " is a graph input";
    outputs.push_back({tensorOf(cast<TensorDescType>(desc.getType())),
                       cast<RankedTensorType>(op.getIns()[i].getType())});
  }
  for (Value desc : unusedOutputs) {
    RankedTensorType type = tensorOf(cast<TensorDescType>(desc.getType()));
    outputs.push_back({type, type});
    outs->push_back(desc);
  }
  cudnn::BuildGraphOp::create(b, op.getLoc(), *outs);
  return success();
}

//===----------------------------------------------------------------------===//
// Materialization
//===----------------------------------------------------------------------===//

SmallVector<Value> GraphBuilder::materialize(RewriterBase &rewriter,
                                             bool tries) {
  Location loc = group.getLoc();
  rewriter.setInsertionPoint(group);
  SmallVector<Value> operands;
  for (GraphInput &input : inputs) {
    Value value = input.source;
    if (input.cloneOf)
      value = rewriter.clone(*input.cloneOf)->getResult(0);
    else if (input.constant)
      value = arith::ConstantOp::create(rewriter, loc, input.constant);
    if (!input.collapse.empty())
      value =
          tensor::CollapseShapeOp::create(rewriter, loc, value, input.collapse);
    if (!input.expand.empty())
      value = tensor::ExpandShapeOp::create(rewriter, loc, input.type, value,
                                            input.expand);
    operands.push_back(value);
  }
  Value handle = cudnn::GetCurrentHandleOp::create(rewriter, loc,
                                                   cudnn::HandleType::get(ctx));
  SmallVector<Type> resultTypes = llvm::map_to_vector(
      outputs, [](const GraphOutput &out) -> Type { return out.graphType; });
  Type ranType = tries ? rewriter.getI1Type() : Type();
  auto graph = cudnn::BuildAndExecGraphOp::create(rewriter, loc, resultTypes,
                                                  ranType, handle, operands);
  made = graph;
  graph.getBody().push_back(body.release());
  // The outputs after the group's results are norm results tcp drops.
  SmallVector<Value> results;
  for (auto [out, result] :
       llvm::zip(ArrayRef(outputs).take_front(group.getNumResults()),
                 graph.getOuts())) {
    Value value = result;
    if (out.graphType != out.tcpType)
      value = tensor::CollapseShapeOp::create(
          rewriter, loc, out.tcpType, value,
          *getReassociationIndicesForCollapse(out.graphType.getShape(),
                                              out.tcpType.getShape()));
    results.push_back(value);
  }
  return results;
}

//===----------------------------------------------------------------------===//
// Pattern and pass
//===----------------------------------------------------------------------===//

/// Converts one cudnn group, with its split form beside the fused graph when
/// `splitForms` and it has one; on failure has emitted an error (and left
/// the IR as it was when the graph did not translate).
static LogicalResult convertGroup(RewriterBase &rewriter,
                                  tcp::IsolatedGroupOp group,
                                  int64_t alignment, bool splitForms) {
  GraphBuilder builder(group, alignment);
  if (failed(builder.translate()))
    return failure();
  bool generated = splitForms && cudnn_mlir::hasGeneratedForm(group);
  bool split = generated || (splitForms && cudnn_mlir::hasSplitForm(group));
  SmallVector<Value> fused = builder.materialize(rewriter, split);
  if (!split) {
    rewriter.replaceOp(group, fused);
    return success();
  }
  FailureOr<scf::IfOp> ifOp = cudnn_mlir::buildSplitForm(
      rewriter, group, builder.graph().getRan(), fused,
      [&](tcp::IsolatedGroupOp anchor) {
        return convertGroup(rewriter, anchor, alignment, /*splitForms=*/false);
      },
      generated);
  if (failed(ifOp))
    return failure();
  rewriter.replaceOp(group, ifOp->getResults());
  return success();
}

namespace {
struct IsolatedGroupToGraph : OpRewritePattern<tcp::IsolatedGroupOp> {
  IsolatedGroupToGraph(MLIRContext *ctx, int64_t alignment,
                       const tcp::CudnnFusionPolicy &policy, bool splitForms)
      : OpRewritePattern(ctx), alignment(alignment), policy(policy),
        splitForms(splitForms) {}

  LogicalResult matchAndRewrite(tcp::IsolatedGroupOp group,
                                PatternRewriter &rewriter) const override {
    if (isUntypedGroup(group) && failed(checkUntypedGroup(group, policy)))
      return failure();
    if (!isCudnnGroup(group) && !isUntypedGroup(group))
      return rewriter.notifyMatchFailure(group, "not a cudnn group");
    return convertGroup(rewriter, group, alignment, splitForms);
  }

  int64_t alignment;
  tcp::CudnnFusionPolicy policy;
  bool splitForms;
};

struct RnnCustomOpToCudnn : OpRewritePattern<tcp::CustomOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tcp::CustomOp op,
                                PatternRewriter &rewriter) const override {
    if (!cudnn_mlir::isRnnCustomOp(op))
      return rewriter.notifyMatchFailure(op, "not an RNN");
    return cudnn_mlir::convertRnnCustomOp(rewriter, op);
  }
};

struct ConvertTcpToCudnnPass
    : public cudnn_mlir::impl::ConvertTcpToCudnnPassBase<
          ConvertTcpToCudnnPass> {
  using Base::Base;

  // Walk + rewriter rather than the greedy driver: a failing group would be
  // retried (and its error repeated) on each greedy iteration.
  void runOnOperation() override {
    FailureOr<tcp::CudnnFusionPolicy> policy = tcp::makeCudnnFusionPolicy(
        getOperation(), getArgument(), targetSm, fuseFp32,
        tcp::CudnnFusionPolicy().maxOps, batchNorm, allowTf32Matmul);
    if (failed(policy))
      return signalPassFailure();
    SmallVector<tcp::IsolatedGroupOp> groups;
    getOperation().walk([&](tcp::IsolatedGroupOp group) {
      if (isCudnnGroup(group) || isUntypedGroup(group))
        groups.push_back(group);
    });
    // An RNN inside a group of those is its group's error (no graph can
    // hold it), not an op of its own.
    SmallVector<tcp::CustomOp> rnns;
    getOperation().walk([&](tcp::CustomOp op) {
      auto group = op->getParentOfType<tcp::IsolatedGroupOp>();
      if (cudnn_mlir::isRnnCustomOp(op) &&
          !(group && llvm::is_contained(groups, group)))
        rnns.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (tcp::IsolatedGroupOp group : groups) {
      if (isUntypedGroup(group) && failed(checkUntypedGroup(group, *policy))) {
        failedAny = true;
        continue;
      }
      failedAny |=
          failed(convertGroup(rewriter, group, alignment, splitFallback));
    }
    for (tcp::CustomOp op : rnns)
      failedAny |= failed(cudnn_mlir::convertRnnCustomOp(rewriter, op));
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace

void mlir::cudnn_mlir::populateTcpToCudnnPatterns(
    RewritePatternSet &patterns, int64_t alignment,
    const tcp::CudnnFusionPolicy &policy, bool splitForms) {
  patterns.add<IsolatedGroupToGraph>(patterns.getContext(), alignment, policy,
                                     splitForms);
  patterns.add<RnnCustomOpToCudnn>(patterns.getContext());
}
