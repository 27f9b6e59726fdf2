//===- SlicesBeforeTransposes.cpp - data movement reordered for fusion ----===//
//
// Run before the lowering (convert-tcp-to-linalg's first phase), on tcp ops
// outside cuDNN groups:
// - a slice of a transpose is a transpose of a slice of its input, when
//   slices are all the transpose's users (attention's
//   `qkv.permute(2, 0, 3, 1, 4).unbind(0)`): the whole permuted tensor is
//   never written, each slice is transposed on its own;
// - a collapse_shape that only drops unit dims of a transpose's result
//   drops them before the transpose (`unbind`'s squeeze of the sliced dim).
// Together the query, key and value of a packed projection become
// `transpose(collapse(slice(qkv)))`: the slice and its collapse lower to
// one generic (DataMovementToLinalg.cpp), which elementwise fusion joins
// with the transpose and its readers (the scaled query, the transposed
// key): one kernel each, reading the projection, instead of a permuted copy
// of it and then copies of its thirds.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {

bool outsideGroups(Operation *op) { return !isInsideCudnnGroup(op); }

/// slice(transpose(x), starts, sizes, strides) ->
/// transpose(slice(x, the same per dim of x)).
struct SliceBeforeTranspose : public OpRewritePattern<tcp::SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tcp::SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getIn().getDefiningOp<tcp::TransposeOp>();
    if (!transpose || !outsideGroups(op) || !outsideGroups(transpose))
      return rewriter.notifyMatchFailure(op, "not a slice of a transpose");
    if (!llvm::all_of(transpose->getUsers(), [](Operation *user) {
          return isa<tcp::SliceOp>(user) && outsideGroups(user);
        }))
      return rewriter.notifyMatchFailure(
          op, "the transpose has other users: it is written anyway");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    auto resultType = cast<RankedTensorType>(op.getOut().getType());
    int64_t rank = resultType.getRank();
    // Result dim i of the transpose is dim perm[i] of x.
    SmallVector<Value> starts(rank), sizes(rank), strides(rank);
    SmallVector<int64_t> shape(rank);
    for (int64_t i = 0; i < rank; ++i) {
      starts[perm[i]] = op.getStarts()[i];
      sizes[perm[i]] = op.getSizes()[i];
      strides[perm[i]] = op.getStrides()[i];
      shape[perm[i]] = resultType.getDimSize(i);
    }
    auto slicedType = resultType.clone(shape);
    Value sliced =
        tcp::SliceOp::create(rewriter, op.getLoc(), slicedType,
                             transpose.getIn(), starts, sizes, strides);
    rewriter.replaceOpWithNewOp<tcp::TransposeOp>(
        op, resultType, sliced, transpose.getPermutationAttr());
    return success();
  }
};

/// collapse_shape(transpose(y)) dropping unit dims only ->
/// transpose(collapse_shape(y)) dropping the same dims of y.
struct UnitDimsDroppedBeforeTranspose
    : public OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getSrc().getDefiningOp<tcp::TransposeOp>();
    if (!transpose || !transpose->hasOneUse() || !outsideGroups(transpose))
      return rewriter.notifyMatchFailure(op, "not the transpose's one user");
    auto type = cast<RankedTensorType>(transpose.getOut().getType());
    if (!type.hasStaticShape() || !op.getResultType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    // The dim of the transpose's result each collapsed dim keeps: the
    // group's one dim larger than 1, or its last.
    SmallVector<int64_t> kept;
    for (const ReassociationIndices &group : op.getReassociationIndices()) {
      int64_t keep = group.back();
      int64_t larger = 0;
      for (int64_t d : group)
        if (type.getDimSize(d) != 1) {
          keep = d;
          ++larger;
        }
      if (larger > 1)
        return rewriter.notifyMatchFailure(op, "merges dims larger than 1");
      kept.push_back(keep);
    }
    ArrayRef<int64_t> perm = transpose.getPermutation();
    Value y = transpose.getIn();
    auto yType = cast<RankedTensorType>(y.getType());
    int64_t yRank = yType.getRank();
    // The dims of y kept, in y's order, and each one's place among them.
    SmallVector<bool> keepsY(yRank, false);
    for (int64_t k : kept)
      keepsY[perm[k]] = true;
    SmallVector<int64_t> placeInY(yRank, -1), keptShape;
    for (int64_t d = 0; d < yRank; ++d)
      if (keepsY[d]) {
        placeInY[d] = keptShape.size();
        keptShape.push_back(yType.getDimSize(d));
      }
    if (keptShape.empty())
      return rewriter.notifyMatchFailure(op, "collapses to a scalar");
    // y's dropped unit dims join the group of the next kept dim (the last
    // kept dim's group takes the trailing ones).
    SmallVector<ReassociationIndices> groups(keptShape.size());
    int64_t group = 0;
    for (int64_t d = 0; d < yRank; ++d) {
      groups[group].push_back(d);
      if (keepsY[d] && group + 1 < static_cast<int64_t>(groups.size()))
        ++group;
    }
    Value collapsed = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(), yType.clone(keptShape), y, groups);
    SmallVector<int64_t> keptPerm;
    for (int64_t k : kept)
      keptPerm.push_back(placeInY[perm[k]]);
    rewriter.replaceOpWithNewOp<tcp::TransposeOp>(
        op, op.getResultType(), collapsed,
        rewriter.getDenseI64ArrayAttr(keptPerm));
    return success();
  }
};

} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateSlicesBeforeTransposesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SliceBeforeTranspose, UnitDimsDroppedBeforeTranspose>(
      patterns.getContext());
}
