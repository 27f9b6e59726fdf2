//===- PatchConv.cpp - patch-embedding convs as one matmul ----------------===//

#include "PatchConv.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tcp;

/// Input channels below which cuDNN's conv engines pad C (16 bytes of f16).
static constexpr int64_t kFewInputChannels = 8;
/// The smallest window rewritten (8x8). ViT's 16x16 measured 7-9x faster as
/// a matmul; 4x4 stems were faster in one run and slower in the next (H200,
/// benchmarks/results/patch-conv-h200-s15-2026-11-28.txt), so they keep the
/// conv.
static constexpr int64_t kMinWindowElements = 64;

static bool allEqual(ArrayRef<int64_t> values, int64_t v) {
  return llvm::all_of(values, [v](int64_t x) { return x == v; });
}

static bool isPatchConv(Conv2DOp op) {
  auto in = cast<RankedTensorType>(op.getInput().getType());
  auto w = cast<RankedTensorType>(op.getWeight().getType());
  Type element = in.getElementType();
  if (!(element.isF16() || element.isBF16()) || !in.hasStaticShape() ||
      !w.hasStaticShape() || in.getRank() != 4 || w.getRank() != 4)
    return false;
  if (op.getGroups().value_or(1) != 1 || !allEqual(op.getDilation(), 1) ||
      !allEqual(op.getPad(), 0))
    return false;
  int64_t c = in.getDimSize(1), h = in.getDimSize(2), wd = in.getDimSize(3);
  int64_t r = w.getDimSize(2), s = w.getDimSize(3);
  return op.getStride() == ArrayRef<int64_t>{r, s} &&
         r * s >= kMinWindowElements &&
         h % r == 0 && wd % s == 0 && c < kFewInputChannels;
}

void mlir::tcp::rewritePatchConvsAsMatmuls(Operation *root) {
  SmallVector<Conv2DOp> convs;
  root->walk([&](Conv2DOp op) {
    if (isPatchConv(op))
      convs.push_back(op);
  });
  for (Conv2DOp op : convs) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto in = cast<RankedTensorType>(op.getInput().getType());
    auto w = cast<RankedTensorType>(op.getWeight().getType());
    Type element = in.getElementType();
    int64_t n = in.getDimSize(0), c = in.getDimSize(1);
    int64_t k = w.getDimSize(0), r = w.getDimSize(2), s = w.getDimSize(3);
    int64_t p = in.getDimSize(2) / r, q = in.getDimSize(3) / s;
    auto type = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, element);
    };
    // The patches in (R, S, C) order, as a channels-last input holds them:
    // [N, C, H, W] -> [N, H, W, C] (a view of a channels-last input) ->
    // [N, P, R, Q, S, C] -> [N, P, Q, R, S, C] -> rows of R*S*C.
    Value nhwc =
        TransposeOp::create(b, loc, type({n, p * r, q * s, c}),
                            op.getInput(), b.getDenseI64ArrayAttr({0, 2, 3, 1}));
    Value cut = tensor::ExpandShapeOp::create(
        b, loc, type({n, p, r, q, s, c}), nhwc,
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3, 4}, {5}});
    Value gathered =
        TransposeOp::create(b, loc, type({n, p, q, r, s, c}), cut,
                            b.getDenseI64ArrayAttr({0, 1, 3, 2, 4, 5}));
    Value rows = tensor::CollapseShapeOp::create(
        b, loc, type({n * p * q, r * s * c}), gathered,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
    // The weight as [R*S*C, K] (a channels-last weight's own order), read
    // transposed as a Linear's is.
    Value weightRsc =
        TransposeOp::create(b, loc, type({k, r, s, c}), op.getWeight(),
                            b.getDenseI64ArrayAttr({0, 2, 3, 1}));
    Value flatWeight = tensor::CollapseShapeOp::create(
        b, loc, type({k, r * s * c}), weightRsc,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    Value weight = TransposeOp::create(b, loc, type({r * s * c, k}),
                                       flatWeight,
                                       b.getDenseI64ArrayAttr({1, 0}));
    Value product =
        MatmulOp::create(b, loc, type({n * p * q, k}), rows, weight);
    // [N*P*Q, K] -> [N, P, Q, K] -> N x K x P x Q.
    Value planes = tensor::ExpandShapeOp::create(
        b, loc, type({n, p, q, k}), product,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    Value out = TransposeOp::create(b, loc, op.getType(), planes,
                                    b.getDenseI64ArrayAttr({0, 3, 1, 2}));
    op.getResult().replaceAllUsesWith(out);
    op.erase();
  }
}
