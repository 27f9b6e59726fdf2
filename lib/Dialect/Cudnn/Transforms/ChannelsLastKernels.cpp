//===- ChannelsLastKernels.cpp - generated kernels on channels-last bytes -===//
//
// After cudnn-assign-layouts, the tcp ops between channels-last graphs (a
// split form's epilogue, a stem's batch norm, a concat, a squeeze-excite's
// pooling and scaling) still work on packed tensors, behind a
// cudnn.convert_layout each way. Elementwise ops, broadcasts, concats,
// slices and reductions compute the same thing on any order of dimensions,
// so this pass moves each connected set of them onto the storage order of
// the channels-last tensors they read (N, spatial..., C): its inputs become
// free `cudnn.layout_view`s, its dimension attributes are permuted, and its
// results are viewed back. A reduction whose result is the same in either
// order (a global pooling without keep_dims) ends a set. An inference batch
// norm moves as its arithmetic on storage order, its per-channel parameters
// broadcast along the last dimension. A tcp.transpose between logical and
// storage order (a model's own permute to channels last, as ConvNeXt's blocks
// do around their layer norm and linears) joins a set too and disappears: on
// storage order it is the tensor itself. A set is moved only where that removes
// more conversions and transposes than it adds.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::cudnn {
#define GEN_PASS_DEF_CUDNNCHANNELSLASTKERNELSPASS
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"
} // namespace mlir::cudnn

using namespace mlir;
using namespace mlir::cudnn;

namespace {

/// A static tensor type of rank >= 3 (one that has a channels-last form).
bool hasStorageOrder(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && !tensor.getEncoding() && tensor.getRank() >= 3 &&
         tensor.hasStaticShape();
}

/// Where logical dimension d of a rank-`rank` tensor is in storage order.
int64_t storagePosition(int64_t d, int64_t rank) {
  SmallVector<int64_t> order = getChannelsLastStorageOrder(rank);
  return llvm::find(order, d) - order.begin();
}

/// Whether the storage order of `type` is a reshape of it: the dimensions
/// larger than 1 keep their relative order (NxCx1x1, 1xCx1x1, 1x1xHxW).
bool storageOrderIsReshape(RankedTensorType type) {
  SmallVector<int64_t> order = getChannelsLastStorageOrder(type.getRank());
  int64_t last = -1;
  for (int64_t d : order) {
    if (type.getDimSize(d) == 1)
      continue;
    if (d < last)
      return false;
    last = d;
  }
  return true;
}

bool isSplatConst(Operation *op) {
  auto constant = dyn_cast<tcp::ConstOp>(op);
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  return dense && dense.isSplat();
}

/// A tcp.transpose from a tensor's logical order to its storage order
/// ((N, C, spatial...) to (N, spatial..., C): `ToStorage`) or back
/// (`FromStorage`). On channels-last bytes either is the tensor itself.
enum class StorageTranspose { None, ToStorage, FromStorage };

StorageTranspose storageTransposeOf(Operation *op) {
  auto transpose = dyn_cast_or_null<tcp::TransposeOp>(op);
  if (!transpose || !hasStorageOrder(transpose.getIn().getType()) ||
      !hasStorageOrder(transpose.getOut().getType()))
    return StorageTranspose::None;
  ArrayRef<int64_t> permutation = transpose.getPermutation();
  SmallVector<int64_t> order =
      getChannelsLastStorageOrder(transpose.getIn().getType().getRank());
  if (permutation == ArrayRef<int64_t>(order))
    return StorageTranspose::ToStorage;
  SmallVector<int64_t> inverse(order.size());
  for (auto [i, d] : llvm::enumerate(order))
    inverse[d] = i;
  if (permutation == ArrayRef<int64_t>(inverse))
    return StorageTranspose::FromStorage;
  return StorageTranspose::None;
}

/// Ops that compute the same values on the storage order of their operands,
/// once their dimension attributes are permuted (a batch norm: once its
/// parameters are broadcast along the storage order's channel dimension).
bool computesOnAnyOrder(Operation *op) {
  if (op->getNumResults() != 1 || !hasStorageOrder(op->getResult(0).getType()))
    return false;
  if (auto norm = dyn_cast<tcp::BatchNormOp>(op))
    return norm.getScale().getType().hasStaticShape();
  auto tensorsHaveStorageOrder = [&] {
    return llvm::all_of(op->getOperands(), [](Value v) {
      return !isa<TensorType>(v.getType()) || hasStorageOrder(v.getType());
    });
  };
  if (isa<tcp::TcpDialect>(op->getDialect()) &&
      op->hasTrait<OpTrait::Elementwise>())
    return tensorsHaveStorageOrder();
  if (isa<tcp::BroadcastOp, tcp::ConcatOp, tcp::SliceOp>(op))
    return tensorsHaveStorageOrder();
  if (isa<tcp::ReduceSumOp, tcp::ReduceMeanOp, tcp::ReduceMaxOp,
          tcp::ReduceMinOp>(op))
    return op->hasAttr("keep_dims") && tensorsHaveStorageOrder();
  return false;
}

/// A reduction without keep_dims whose kept dimensions come in the same
/// order in logical and storage order (ECA's and global pooling's
/// `x.mean((2, 3))`: [N, C] either way): on storage order it computes the
/// same tensor, so it can end a set, reading the channels-last bytes, its
/// result unchanged.
bool isStorageOrderSink(Operation *op) {
  if (!isa<tcp::ReduceSumOp, tcp::ReduceMeanOp, tcp::ReduceMaxOp,
           tcp::ReduceMinOp>(op) ||
      op->hasAttr("keep_dims") || op->getNumOperands() != 1 ||
      !hasStorageOrder(op->getOperand(0).getType()))
    return false;
  auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
  if (!axes)
    return false;
  int64_t rank = cast<RankedTensorType>(op->getOperand(0).getType()).getRank();
  int64_t last = -1;
  for (int64_t d : getChannelsLastStorageOrder(rank)) {
    if (llvm::is_contained(axes.asArrayRef(), d))
      continue;
    if (d < last)
      return false;
    last = d;
  }
  return true;
}

/// Ops a set can hold: those that compute on any order, the reductions that
/// end a set, and the transposes to and from storage order.
bool canMove(Operation *op) {
  return computesOnAnyOrder(op) || isStorageOrderSink(op) ||
         storageTransposeOf(op) != StorageTranspose::None;
}

/// Whether `value` comes out of an op of `set` that a move maps to its
/// storage-order clone (a transpose to storage order gives its users the
/// storage tensor itself instead).
bool fromMapped(const llvm::SetVector<Operation *> &set, Value value) {
  Operation *def = value.getDefiningOp();
  return set.contains(def) &&
         storageTransposeOf(def) != StorageTranspose::ToStorage &&
         !isStorageOrderSink(def);
}

/// The operands of `op` that a move puts in storage order: all its tensors
/// but a batch norm's per-channel parameters and the input of a transpose
/// from storage order (already in it).
SmallVector<Value> orderedOperands(Operation *op) {
  if (auto norm = dyn_cast<tcp::BatchNormOp>(op))
    return {norm.getX()};
  if (storageTransposeOf(op) == StorageTranspose::FromStorage)
    return {};
  SmallVector<Value> tensors;
  for (Value operand : op->getOperands())
    if (isa<TensorType>(operand.getType()))
      tensors.push_back(operand);
  return tensors;
}

/// `norm` on `x`, its input in storage order (channels last):
/// (x - mean) * (scale / sqrt(var + epsilon)) + bias, each parameter along
/// the last dimension, in f32 for narrower floats as
/// convert-tcp-batch-norm-to-linalg computes it. The factor is computed on
/// the C parameters and then broadcast: code generation fuses the rest into
/// one kernel and moves the factor's kernel to the other parameter kernels
/// (codegen-hoist-parameter-kernels), instead of a square root and a
/// division per element.
Value batchNormInStorageOrder(OpBuilder &b, tcp::BatchNormOp norm, Value x) {
  Location loc = norm.getLoc();
  auto xType = cast<RankedTensorType>(x.getType());
  Type element = xType.getElementType();
  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  auto computeType = xType.clone(compute);
  int64_t rank = xType.getRank();
  // A parameter as a 1 x ... x 1 x C tensor of the compute type.
  auto perChannel = [&](Value parameter) {
    auto type = cast<RankedTensorType>(parameter.getType());
    SmallVector<int64_t> shape(rank, 1);
    shape.back() = type.getDimSize(0);
    ReassociationIndices all;
    for (int64_t d = 0; d < rank; ++d)
      all.push_back(d);
    Value expanded = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, type.getElementType()), parameter,
        ArrayRef<ReassociationIndices>{all});
    return tcp::castElementsTo(b, loc, expanded, compute);
  };
  // A per-channel value along x's other dimensions.
  auto broadcast = [&](Value channels) {
    SmallVector<Value> sizes;
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      axes.push_back(d);
      sizes.push_back(
          arith::ConstantIndexOp::create(b, loc, xType.getDimSize(d)));
    }
    return tcp::BroadcastOp::create(b, loc, computeType, channels, sizes,
                                    b.getI64ArrayAttr(axes))
        .getResult();
  };
  Value variance = perChannel(norm.getRunningVar());
  auto channelType = cast<RankedTensorType>(variance.getType());
  Value epsilon = tcp::ConstOp::create(
      b, loc, channelType,
      DenseElementsAttr::get(
          channelType,
          b.getFloatAttr(compute, norm.getEpsilon().convertToDouble())));
  Value varPlusEps = tcp::AddOp::create(b, loc, channelType, variance, epsilon);
  Value deviation = tcp::SqrtOp::create(b, loc, channelType, varPlusEps);
  Value factor = tcp::DivFOp::create(b, loc, channelType,
                                     perChannel(norm.getScale()), deviation);
  // One statement each: the IR's order does not hang on the order C++
  // evaluates arguments in.
  Value xWide = tcp::castElementsTo(b, loc, x, compute);
  Value mean = broadcast(perChannel(norm.getRunningMean()));
  Value centered = tcp::SubOp::create(b, loc, computeType, xWide, mean);
  Value factorFull = broadcast(factor);
  Value scaled = tcp::MulOp::create(b, loc, computeType, centered, factorFull);
  Value bias = broadcast(perChannel(norm.getBias()));
  Value y = tcp::AddOp::create(b, loc, computeType, scaled, bias);
  return tcp::castElementsTo(b, loc, y, element);
}

/// How an input of a moved set reaches storage order, if it can for free.
enum class InputRoute { None, View, Reshape, Splat };

InputRoute routeOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !hasStorageOrder(type))
    return InputRoute::None;
  if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    if (isChannelsLast(convert.getIn().getType()))
      return InputRoute::View;
  if (Operation *def = value.getDefiningOp(); def && isSplatConst(def))
    return InputRoute::Splat;
  if (storageOrderIsReshape(type))
    return InputRoute::Reshape;
  return InputRoute::None;
}

/// `value` reshaped to `to` (same element count, static): collapsed to one
/// dimension and expanded again; the canonicalizer folds the pairs.
Value reshapeTo(OpBuilder &b, Location loc, Value value, RankedTensorType to) {
  auto from = cast<RankedTensorType>(value.getType());
  auto flat =
      RankedTensorType::get({from.getNumElements()}, from.getElementType());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < from.getRank(); ++d)
    all[0].push_back(d);
  Value collapsed = tensor::CollapseShapeOp::create(b, loc, flat, value, all);
  SmallVector<ReassociationIndices> back(1);
  for (int64_t d = 0; d < to.getRank(); ++d)
    back[0].push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, to, collapsed, back);
}

/// `values` (one per logical dimension) in storage order.
SmallVector<Value> inStorageOrder(OperandRange values) {
  SmallVector<Value> permuted;
  for (int64_t d : getChannelsLastStorageOrder(values.size()))
    permuted.push_back(values[d]);
  return permuted;
}

class SetMover {
public:
  explicit SetMover(ArrayRef<Operation *> ops)
      : members(ops.begin(), ops.end()) {}

  /// Conversions and transposes saved minus conversions added, were the
  /// set moved.
  int64_t gain() const {
    int64_t gain = 0;
    llvm::SmallPtrSet<Value, 8> inputs;
    for (Operation *op : members)
      for (Value operand : orderedOperands(op))
        if (routeOf(operand) == InputRoute::View &&
            !fromMapped(members, operand) && inputs.insert(operand).second &&
            llvm::all_of(operand.getUsers(),
                         [&](Operation *u) { return members.contains(u); }))
          ++gain;
    for (Operation *op : members) {
      StorageTranspose transpose = storageTransposeOf(op);
      if (transpose != StorageTranspose::None)
        ++gain;
      // Its users get the storage-order tensor they read already; a sink's
      // result is the same tensor.
      if (transpose == StorageTranspose::ToStorage || isStorageOrderSink(op))
        continue;
      Value result = op->getResult(0);
      bool needsPacked = false;
      for (Operation *user : result.getUsers()) {
        if (members.contains(user))
          continue;
        if (isConversionToChannelsLast(user))
          ++gain;
        else
          needsPacked = true;
      }
      auto type = cast<RankedTensorType>(result.getType());
      if (needsPacked && !storageOrderIsReshape(type))
        --gain;
    }
    return gain;
  }

  void move() {
    for (Operation *op : members)
      moveOp(op);
    for (Operation *op : llvm::reverse(members))
      op->erase();
  }

private:
  static bool isConversionToChannelsLast(Operation *op) {
    auto convert = dyn_cast<ConvertLayoutOp>(op);
    return convert && isChannelsLast(convert.getOut().getType());
  }

  /// `value`, an operand of the set, in storage order.
  Value input(OpBuilder &b, Value value) {
    if (Value moved = mapping.lookupOrNull(value))
      return moved;
    RankedTensorType storage =
        getStorageOrderType(cast<RankedTensorType>(value.getType()));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(value);
    Location loc = value.getLoc();
    Value result;
    switch (routeOf(value)) {
    case InputRoute::View:
      result = LayoutViewOp::create(
          b, loc, storage, value.getDefiningOp<ConvertLayoutOp>().getIn());
      break;
    case InputRoute::Splat: {
      auto dense = cast<DenseElementsAttr>(
          value.getDefiningOp<tcp::ConstOp>().getValue());
      result =
          tcp::ConstOp::create(b, loc, storage, dense.resizeSplat(storage));
      break;
    }
    case InputRoute::Reshape:
      result = reshapeTo(b, loc, value, storage);
      break;
    case InputRoute::None:
      llvm_unreachable("sets hold only ops whose inputs have a route");
    }
    mapping.map(value, result);
    return result;
  }

  /// A clone of `op` on storage-order operands, its results viewed back for
  /// users outside the set.
  void moveOp(Operation *op) {
    OpBuilder b(op);
    switch (storageTransposeOf(op)) {
    case StorageTranspose::ToStorage:
      // On storage order the transposed tensor is the input itself.
      op->getResult(0).replaceAllUsesWith(input(b, op->getOperand(0)));
      return;
    case StorageTranspose::FromStorage:
      // Its input is the result in storage order.
      mapping.map(op->getResult(0), op->getOperand(0));
      viewBack(b, op->getResult(0), op->getOperand(0));
      return;
    case StorageTranspose::None:
      break;
    }
    if (auto norm = dyn_cast<tcp::BatchNormOp>(op)) {
      Value y = batchNormInStorageOrder(b, norm, input(b, norm.getX()));
      mapping.map(norm.getY(), y);
      viewBack(b, norm.getY(), y);
      return;
    }
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(isa<TensorType>(operand.getType()) ? input(b, operand)
                                                            : operand);
    Operation *clone = b.clone(*op);
    clone->setOperands(operands);
    if (isStorageOrderSink(op)) {
      int64_t rank =
          cast<RankedTensorType>(op->getOperand(0).getType()).getRank();
      permuteAttributes(clone, op, rank);
      op->getResult(0).replaceAllUsesWith(clone->getResult(0));
      return;
    }
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    clone->getResult(0).setType(getStorageOrderType(type));
    permuteAttributes(clone, op, type.getRank());
    mapping.map(op->getResult(0), clone->getResult(0));
    viewBack(b, op->getResult(0), clone->getResult(0));
  }

  void permuteAttributes(Operation *clone, Operation *op, int64_t rank) {
    if (auto broadcast = dyn_cast<tcp::BroadcastOp>(clone)) {
      // Axes stay sorted: pair each with its size, reorder by position.
      SmallVector<std::pair<int64_t, Value>> axes;
      for (auto [axis, size] :
           llvm::zip(cast<tcp::BroadcastOp>(op).getAxes(),
                     cast<tcp::BroadcastOp>(op).getNewDimSizes()))
        axes.emplace_back(
            storagePosition(cast<IntegerAttr>(axis).getInt(), rank), size);
      llvm::sort(axes, llvm::less_first());
      SmallVector<Attribute> axisAttrs;
      SmallVector<Value> sizes;
      for (auto [axis, size] : axes) {
        axisAttrs.push_back(
            IntegerAttr::get(IntegerType::get(clone->getContext(), 64), axis));
        sizes.push_back(size);
      }
      broadcast.setAxesAttr(ArrayAttr::get(clone->getContext(), axisAttrs));
      broadcast.getNewDimSizesMutable().assign(sizes);
      return;
    }
    if (auto concat = dyn_cast<tcp::ConcatOp>(clone)) {
      concat.setAxis(storagePosition(concat.getAxis(), rank));
      return;
    }
    if (auto slice = dyn_cast<tcp::SliceOp>(clone)) {
      auto original = cast<tcp::SliceOp>(op);
      slice.getStartsMutable().assign(inStorageOrder(original.getStarts()));
      slice.getSizesMutable().assign(inStorageOrder(original.getSizes()));
      slice.getStridesMutable().assign(inStorageOrder(original.getStrides()));
      return;
    }
    if (auto axes = clone->getAttrOfType<DenseI64ArrayAttr>("axes")) {
      SmallVector<int64_t> permuted;
      for (int64_t axis : axes.asArrayRef())
        permuted.push_back(storagePosition(axis, rank));
      llvm::sort(permuted);
      clone->setAttr("axes",
                     DenseI64ArrayAttr::get(clone->getContext(), permuted));
    }
  }

  /// Gives the users of `original` outside the set `moved`, seen in their
  /// layout: a view for conversions to channels-last, a reshape or a view
  /// and one conversion for the rest.
  void viewBack(OpBuilder &b, Value original, Value moved) {
    auto type = cast<RankedTensorType>(original.getType());
    RankedTensorType encoded = withChannelsLast(type, true);
    b.setInsertionPointAfterValue(moved);
    Value channelsLast, packed;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : original.getUses())
      uses.push_back(&use);
    for (OpOperand *use : uses) {
      Operation *user = use->getOwner();
      if (members.contains(user))
        continue;
      if (!channelsLast)
        channelsLast =
            LayoutViewOp::create(b, original.getLoc(), encoded, moved);
      if (isConversionToChannelsLast(user)) {
        user->getResult(0).replaceAllUsesWith(channelsLast);
        user->erase();
        continue;
      }
      if (!packed)
        packed = storageOrderIsReshape(type)
                     ? reshapeTo(b, original.getLoc(), moved, type)
                     : ConvertLayoutOp::create(b, original.getLoc(), type,
                                               channelsLast)
                           .getResult();
      use->set(packed);
    }
  }

  llvm::SetVector<Operation *> members;
  IRMapping mapping;
};

struct CudnnChannelsLastKernelsPass
    : public cudnn::impl::CudnnChannelsLastKernelsPassBase<
          CudnnChannelsLastKernelsPass> {
  void runOnOperation() override {
    // Ops that could move, then drop those with an input that has no free
    // route, until none is left to drop.
    llvm::SetVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (canMove(op))
        candidates.insert(op);
    });
    for (bool dropped = true; dropped;) {
      dropped = false;
      for (Operation *op : llvm::to_vector(candidates)) {
        bool routed = llvm::all_of(orderedOperands(op), [&](Value v) {
          return fromMapped(candidates, v) || routeOf(v) != InputRoute::None;
        });
        if (!routed) {
          candidates.remove(op);
          dropped = true;
        }
      }
    }
    // Connected sets, in program order.
    llvm::EquivalenceClasses<Operation *> connected;
    for (Operation *op : candidates) {
      connected.insert(op);
      for (Value operand : orderedOperands(op))
        if (fromMapped(candidates, operand))
          connected.unionSets(op, operand.getDefiningOp());
    }
    llvm::MapVector<Operation *, SmallVector<Operation *>> byLeader;
    for (Operation *op : candidates)
      byLeader[connected.getLeaderValue(op)].push_back(op);
    // A set that gains nothing may gain once another has moved: a
    // conversion read by both is saved only when the last of its readers
    // moves (an ECA block's pooling and its scaling read the same one).
    SmallVector<SetMover> sets;
    for (auto &[leader, ops] : byLeader)
      sets.emplace_back(ops);
    SmallVector<bool> done(sets.size(), false);
    for (bool progress = true; progress;) {
      progress = false;
      for (auto [mover, isDone] : llvm::zip(sets, done))
        if (!isDone && mover.gain() > 0) {
          mover.move();
          isDone = true;
          progress = true;
        }
    }
  }
};

} // namespace
