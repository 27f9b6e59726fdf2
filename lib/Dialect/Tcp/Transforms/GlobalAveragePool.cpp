//===- GlobalAveragePool.cpp - global average pools, either form ----------===//

#include "GlobalAveragePool.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tcp;

/// A static rank-4 f16/bf16 tensor: the global pools either rewrite takes.
static bool isStaticHalfPrecisionPlanes(RankedTensorType type) {
  Type element = type.getElementType();
  return type.getRank() == 4 && type.hasStaticShape() &&
         (element.isF16() || element.isBF16());
}

void mlir::tcp::rewriteGlobalAveragePools(Operation *root) {
  SmallVector<ReduceMeanOp> means;
  root->walk([&](ReduceMeanOp op) {
    if (isStaticHalfPrecisionPlanes(
            cast<RankedTensorType>(op.getIn().getType())) &&
        op.getKeepDims() && op.getAxes() == ArrayRef<int64_t>{2, 3})
      means.push_back(op);
  });
  for (ReduceMeanOp op : means) {
    OpBuilder b(op);
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(op.getIn().getType()).getShape();
    auto pool = AvgPool2DOp::create(
        b, op.getLoc(), op.getType(), op.getIn(),
        b.getDenseI64ArrayAttr({shape[2], shape[3]}),
        b.getDenseI64ArrayAttr({1, 1}), b.getDenseI64ArrayAttr({0, 0, 0, 0}),
        /*ceil_mode=*/false, /*count_include_pad=*/true);
    op.replaceAllUsesWith(pool.getResult());
    op.erase();
  }
}

void mlir::tcp::rewriteGlobalAveragePoolsAsMeans(Operation *root) {
  SmallVector<AvgPool2DOp> pools;
  root->walk([&](AvgPool2DOp op) {
    auto in = cast<RankedTensorType>(op.getIn().getType());
    auto out = cast<RankedTensorType>(op.getType());
    if (isStaticHalfPrecisionPlanes(in) && out.hasStaticShape() &&
        !op.getCeilMode() &&
        op.getKernelSize() ==
            ArrayRef<int64_t>{in.getDimSize(2), in.getDimSize(3)} &&
        llvm::all_of(op.getPad(), [](int64_t p) { return p == 0; }) &&
        out.getDimSize(2) == 1 && out.getDimSize(3) == 1)
      pools.push_back(op);
  });
  for (AvgPool2DOp op : pools) {
    OpBuilder b(op);
    auto mean = ReduceMeanOp::create(b, op.getLoc(), op.getType(), op.getIn(),
                                     b.getDenseI64ArrayAttr({2, 3}),
                                     /*keep_dims=*/true);
    op.replaceAllUsesWith(mean.getResult());
    op.erase();
  }
}
