//===- GlobalAveragePool.cpp - spatial means as pooling -------------------===//

#include "GlobalAveragePool.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tcp;

void mlir::tcp::rewriteGlobalAveragePools(Operation *root) {
  SmallVector<ReduceMeanOp> means;
  root->walk([&](ReduceMeanOp op) {
    auto type = cast<RankedTensorType>(op.getIn().getType());
    Type element = type.getElementType();
    if (type.getRank() == 4 && type.hasStaticShape() && op.getKeepDims() &&
        op.getAxes() == ArrayRef<int64_t>{2, 3} &&
        (element.isF16() || element.isBF16()))
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
