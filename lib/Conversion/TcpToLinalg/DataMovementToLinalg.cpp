//===- DataMovementToLinalg.cpp - tcp data movement to linalg.generic -----===//
//
// tcp.broadcast and tcp.transpose become generics whose input map does the
// movement, so that elementwise fusion folds them into their consumers.
// tcp.slice, tcp.concat, tcp.gather and tcp.gather_nd become all-parallel
// generics over the result that compute source indices from linalg.index
// and read with tensor.extract from the captured source (a slice whose unit
// dims a collapse_shape drops next: over the collapsed result; a concat
// reads the inputs that are slices from their sources).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

/// A generic over `resultType` with `input` read through `inputMap` (or no
/// input), whose body yields `compute(args)`.
static Value
buildGeneric(OpBuilder &b, Location loc, RankedTensorType resultType,
             Value init, ValueRange inputs, ArrayRef<AffineMap> inputMaps,
             function_ref<Value(OpBuilder &, Location, ValueRange)> compute) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, inputs, init, maps,
             parallelIterators(rank),
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(
                   nested, nestedLoc,
                   compute(nested, nestedLoc, args.drop_back()));
             })
      .getResult(0);
}

static Value toIndex(OpBuilder &b, Location loc, Value integer) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), integer);
}

/// `value` clamped to [0, size - 1].
static Value clampIndex(OpBuilder &b, Location loc, Value value, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value last = arith::SubIOp::create(b, loc, size, one);
  Value below = arith::MinSIOp::create(b, loc, value, last);
  return arith::MaxSIOp::create(b, loc, below, zero);
}

/// The size of dimension `d` of `tensor`: a constant when static.
static Value dimSize(OpBuilder &b, Location loc, Value tensor, int64_t d) {
  int64_t size = cast<RankedTensorType>(tensor.getType()).getDimSize(d);
  if (!ShapedType::isDynamic(size))
    return arith::ConstantIndexOp::create(b, loc, size);
  return tensor::DimOp::create(b, loc, tensor, d);
}

namespace {
struct BroadcastToGeneric : public TcpToLinalgPattern<tcp::BroadcastOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::BroadcastOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getOut().getType());
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> axes =
        llvm::map_to_vector(op.getAxes(), [](Attribute a) {
          return cast<IntegerAttr>(a).getInt();
        });
    SmallVector<AffineExpr> inExprs;
    for (int64_t d = 0; d < rank; ++d)
      inExprs.push_back(llvm::is_contained(axes, d)
                            ? rewriter.getAffineConstantExpr(0)
                            : rewriter.getAffineDimExpr(d));
    Value init =
        createEmpty(rewriter, loc, resultType, [&](int64_t d) -> Value {
          auto it = llvm::find(axes, d);
          if (it != axes.end())
            return op.getNewDimSizes()[it - axes.begin()];
          return tensor::DimOp::create(rewriter, loc, op.getIn(), d)
              .getResult();
        });
    AffineMap inMap = AffineMap::get(rank, 0, inExprs, rewriter.getContext());
    rewriter.replaceOp(
        op, buildGeneric(rewriter, loc, resultType, init, op.getIn(), inMap,
                         [](OpBuilder &, Location, ValueRange args) {
                           return args[0];
                         }));
    return success();
  }
};

struct TransposeToGeneric : public TcpToLinalgPattern<tcp::TransposeOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::TransposeOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getOut().getType());
    ArrayRef<int64_t> perm = op.getPermutation();
    // Result dim i is input dim perm[i]: input dim perm[i] is read at loop i.
    SmallVector<AffineExpr> inExprs(perm.size());
    for (auto [i, p] : llvm::enumerate(perm))
      inExprs[p] = rewriter.getAffineDimExpr(i);
    AffineMap inMap =
        AffineMap::get(perm.size(), 0, inExprs, rewriter.getContext());
    Value init =
        createEmpty(rewriter, loc, resultType, [&](int64_t d) -> Value {
          return tensor::DimOp::create(rewriter, loc, op.getIn(), perm[d])
              .getResult();
        });
    rewriter.replaceOp(
        op, buildGeneric(rewriter, loc, resultType, init, op.getIn(), inMap,
                         [](OpBuilder &, Location, ValueRange args) {
                           return args[0];
                         }));
    return success();
  }
};

/// Where element `index` of dim `d` of `slice`'s result is in its source:
/// start + index * stride.
static Value sliceSourceIndex(OpBuilder &b, Location loc, tcp::SliceOp slice,
                              int64_t d, Value index) {
  return arith::AddIOp::create(
      b, loc, slice.getStarts()[d],
      arith::MulIOp::create(b, loc, index, slice.getStrides()[d]));
}

/// The slice's only user when it is a collapse_shape that only drops unit
/// dims of the slice (`qkv[0]`, `unbind`: a slice of size 1 along a dim,
/// then that dim squeezed away), else null.
static tensor::CollapseShapeOp unitDimsDropped(tcp::SliceOp op) {
  if (!op->hasOneUse())
    return {};
  auto collapse = dyn_cast<tensor::CollapseShapeOp>(*op->user_begin());
  auto type = cast<RankedTensorType>(op.getOut().getType());
  if (!collapse || !type.hasStaticShape())
    return {};
  for (const ReassociationIndices &group : collapse.getReassociationIndices())
    if (llvm::count_if(group,
                       [&](int64_t d) { return type.getDimSize(d) != 1; }) > 1)
      return {};
  return collapse;
}

struct SliceToGeneric : public TcpToLinalgPattern<tcp::SliceOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  /// A slice whose unit dims a collapse_shape drops next becomes one
  /// generic of the collapsed shape: a reshape between the slice and its
  /// reader would keep elementwise fusion from joining them (the query
  /// scaled, the key transposed: each one kernel reading the slice's
  /// source, not a copy and then a kernel).
  LogicalResult lower(tcp::SliceOp op,
                      PatternRewriter &rewriter) const override {
    if (!op->use_empty() && llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa<tcp::ConcatOp>(user) && !isInsideCudnnGroup(user);
        }))
      return rewriter.notifyMatchFailure(
          op, "the concats that read it read its source (ConcatToGeneric)");
    Location loc = op.getLoc();
    auto sliceType = cast<RankedTensorType>(op.getOut().getType());
    tensor::CollapseShapeOp collapse = unitDimsDropped(op);
    RankedTensorType resultType =
        collapse ? collapse.getResultType() : sliceType;
    // The result loop each slice dim is read at (none: the unit dims the
    // collapse drops, read at 0).
    SmallVector<std::optional<int64_t>> loopOf(sliceType.getRank());
    if (collapse) {
      for (auto [loop, group] :
           llvm::enumerate(collapse.getReassociationIndices()))
        for (int64_t d : group)
          if (sliceType.getDimSize(d) != 1)
            loopOf[d] = loop;
    } else {
      for (int64_t d = 0; d < sliceType.getRank(); ++d)
        loopOf[d] = d;
    }
    Value init =
        createEmpty(rewriter, loc, resultType,
                    [&](int64_t d) -> Value { return op.getSizes()[d]; });
    auto compute = [&](OpBuilder &b, Location nestedLoc, ValueRange) {
      SmallVector<Value> loops =
          loopIndices(b, nestedLoc, resultType.getRank());
      SmallVector<Value> source;
      for (auto [d, loop] : llvm::enumerate(loopOf))
        source.push_back(
            loop ? sliceSourceIndex(b, nestedLoc, op, d, loops[*loop])
                 : op.getStarts()[d]);
      return tensor::ExtractOp::create(b, nestedLoc, op.getIn(), source)
          .getResult();
    };
    Value generic =
        buildGeneric(rewriter, loc, resultType, init, {}, {}, compute);
    if (collapse) {
      rewriter.replaceOp(collapse, generic);
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, generic);
    }
    return success();
  }
};

struct ConcatToGeneric : public TcpToLinalgPattern<tcp::ConcatOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::ConcatOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t axis = op.getAxis();
    // Inputs with no elements along the axis are never read (an extract from
    // them would be out of bounds even after clamping).
    SmallVector<Value> inputs;
    for (Value input : op.getInputs())
      if (cast<RankedTensorType>(input.getType()).getDimSize(axis) != 0)
        inputs.push_back(input);
    if (inputs.empty())
      return rewriter.notifyMatchFailure(op, "every input is empty");

    // Sizes and start offsets along the axis, computed outside the generic.
    SmallVector<Value> sizes, offsets;
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (Value input : inputs) {
      offsets.push_back(offset);
      sizes.push_back(dimSize(rewriter, loc, input, axis));
      offset = arith::AddIOp::create(rewriter, loc, offset, sizes.back());
    }
    Value init =
        createEmpty(rewriter, loc, resultType, [&](int64_t d) -> Value {
          return d == axis ? offset : dimSize(rewriter, loc, inputs.front(), d);
        });

    auto compute = [&](OpBuilder &b, Location nestedLoc, ValueRange) {
      SmallVector<Value> indices =
          loopIndices(b, nestedLoc, resultType.getRank());
      Value along = indices[axis];
      // Every input is read at an in-bounds index; the last input whose
      // offset is <= the index wins.
      Value result;
      for (auto [input, start, size] : llvm::zip(inputs, offsets, sizes)) {
        SmallVector<Value> source(indices);
        Value local = arith::SubIOp::create(b, nestedLoc, along, start);
        source[axis] = clampIndex(b, nestedLoc, local, size);
        // A slice's element is read from its source (torch.roll: two
        // slices of one tensor concatenated, one kernel and no copies).
        Value read = input;
        if (auto slice = input.getDefiningOp<tcp::SliceOp>()) {
          for (auto [d, index] : llvm::enumerate(source))
            index = sliceSourceIndex(b, nestedLoc, slice, d, index);
          read = slice.getIn();
        }
        Value value = tensor::ExtractOp::create(b, nestedLoc, read, source);
        if (!result) {
          result = value;
          continue;
        }
        Value inside = arith::CmpIOp::create(
            b, nestedLoc, arith::CmpIPredicate::sge, along, start);
        result = arith::SelectOp::create(b, nestedLoc, inside, value, result);
      }
      return result;
    };
    rewriter.replaceOp(
        op, buildGeneric(rewriter, loc, resultType, init, {}, {}, compute));
    return success();
  }
};

/// An index outside the input is the caller's error: a device-side
/// assertion in generated kernels (as PyTorch's gather and embedding
/// assert), not a read outside the buffer. Compared unsigned, a negative
/// index is out of range too.
static void assertInRange(OpBuilder &b, Location loc, Value index,
                          Value input, int64_t dim, StringRef message) {
  Value size = tensor::DimOp::create(b, loc, input, dim);
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
  cf::AssertOp::create(b, loc, inRange, message);
}

struct GatherToGeneric : public TcpToLinalgPattern<tcp::GatherOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::GatherOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getOut().getType());
    int64_t dim = op.getDimAttr().getInt();
    Value indices = op.getIndices();
    Value init = createEmptyLike(rewriter, loc, resultType, indices);
    auto compute = [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
      SmallVector<Value> source =
          loopIndices(b, nestedLoc, resultType.getRank());
      source[dim] = toIndex(b, nestedLoc, args[0]);
      assertInRange(b, nestedLoc, source[dim], op.getInput(), dim,
                    "tcp.gather: index out of range of the gathered "
                    "dimension");
      return tensor::ExtractOp::create(b, nestedLoc, op.getInput(), source)
          .getResult();
    };
    AffineMap identity = rewriter.getMultiDimIdentityMap(resultType.getRank());
    rewriter.replaceOp(op, buildGeneric(rewriter, loc, resultType, init,
                                        indices, identity, compute));
    return success();
  }
};

struct GatherNDToGeneric : public TcpToLinalgPattern<tcp::GatherNDOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::GatherNDOp op,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getOut().getType());
    Value input = op.getInput(), indices = op.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t batchRank = indicesType.getRank() - 1;
    int64_t depth = indicesType.getDimSize(batchRank);
    if (ShapedType::isDynamic(depth))
      return rewriter.notifyMatchFailure(op, "index depth is dynamic");
    // Result: indices.shape[:-1] ++ input.shape[depth:].
    Value init =
        createEmpty(rewriter, loc, resultType, [&](int64_t d) -> Value {
          if (d < batchRank)
            return tensor::DimOp::create(rewriter, loc, indices, d).getResult();
          return tensor::DimOp::create(rewriter, loc, input,
                                       d - batchRank + depth)
              .getResult();
        });
    auto compute = [&](OpBuilder &b, Location nestedLoc, ValueRange) {
      SmallVector<Value> loops =
          loopIndices(b, nestedLoc, resultType.getRank());
      SmallVector<Value> at(loops.begin(), loops.begin() + batchRank);
      at.push_back(Value());
      SmallVector<Value> source;
      for (int64_t k = 0; k < depth; ++k) {
        at.back() = arith::ConstantIndexOp::create(b, nestedLoc, k);
        Value index = tensor::ExtractOp::create(b, nestedLoc, indices, at);
        source.push_back(toIndex(b, nestedLoc, index));
        assertInRange(b, nestedLoc, source.back(), input, k,
                      "tcp.gather_nd: index out of range of the input");
      }
      source.append(loops.begin() + batchRank, loops.end());
      return tensor::ExtractOp::create(b, nestedLoc, input, source).getResult();
    };
    rewriter.replaceOp(
        op, buildGeneric(rewriter, loc, resultType, init, {}, {}, compute));
    return success();
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateDataMovementPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BroadcastToGeneric, TransposeToGeneric, SliceToGeneric,
               ConcatToGeneric, GatherToGeneric, GatherNDToGeneric>(
      patterns.getContext());
}
