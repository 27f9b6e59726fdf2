//===- TcpToLinalg.cpp - tcp ops to linalg on tensors ---------------------===//
//
// The pass and the pattern list. The patterns themselves live one concern per
// file: ElementwiseToLinalg.cpp, ReductionsToLinalg.cpp,
// DataMovementToLinalg.cpp, PoolingToLinalg.cpp, ContractionsToLinalg.cpp,
// ConvolutionToLinalg.cpp and LayerNormToLinalg.cpp; tcp.const is here.
// SlicesBeforeTransposes.cpp reorders data movement first.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CONVERTTCPTOLINALGPASS
#include "cudnn-mlir/Conversion/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {
struct ConstToArith : public TcpToLinalgPattern<tcp::ConstOp> {
  using TcpToLinalgPattern::TcpToLinalgPattern;

  LogicalResult lower(tcp::ConstOp op,
                      PatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "value is not a typed attribute");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(), value);
    return success();
  }
};
} // namespace

void cudnn_mlir::populateTcpToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstToArith>(patterns.getContext());
  populateElementwisePatterns(patterns);
  populateReductionPatterns(patterns);
  populateDataMovementPatterns(patterns);
  populatePoolingPatterns(patterns);
  populateContractionPatterns(patterns);
  populateConvolutionPatterns(patterns);
  populateLayerNormPatterns(patterns);
}

namespace {
struct ConvertTcpToLinalgPass
    : public cudnn_mlir::impl::ConvertTcpToLinalgPassBase<
          ConvertTcpToLinalgPass> {
  void runOnOperation() override {
    // Constants stay where the patterns built them: a generic's body keeps
    // its own constants instead of capturing hoisted ones, and the rest of
    // the function is not restructured.
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // Slices before the transposes they read (SlicesBeforeTransposes.cpp),
    // all of them before anything is lowered.
    RewritePatternSet reorder(&getContext());
    populateSlicesBeforeTransposesPatterns(reorder);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(reorder), config)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    cudnn_mlir::populateTcpToLinalgPatterns(patterns);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
