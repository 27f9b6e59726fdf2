//===- Patterns.h - shared pieces of the tcp-to-linalg patterns -*- C++ -*-===//
//
// Private to lib/Conversion/TcpToLinalg: each concern (elementwise,
// reductions, data movement, pooling, contractions, convolution, layer norm)
// lives in its own file and adds its patterns through one of the populate
// functions below.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CONVERSION_TCPTOLINALG_PATTERNS_H
#define CUDNN_MLIR_LIB_CONVERSION_TCPTOLINALG_PATTERNS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::cudnn_mlir::tcp_to_linalg {

void populateElementwisePatterns(RewritePatternSet &patterns);
void populateReductionPatterns(RewritePatternSet &patterns);
void populateDataMovementPatterns(RewritePatternSet &patterns);
void populatePoolingPatterns(RewritePatternSet &patterns);
void populateContractionPatterns(RewritePatternSet &patterns);
void populateConvolutionPatterns(RewritePatternSet &patterns);
void populateLayerNormPatterns(RewritePatternSet &patterns);
/// Rewrites of tcp data movement applied before the lowering
/// (SlicesBeforeTransposes.cpp).
void populateSlicesBeforeTransposesPatterns(RewritePatternSet &patterns);

/// True when `op` is inside a `group_type = "cudnn"` group: those ops belong
/// to `convert-tcp-to-cudnn`, which needs them as tcp.
bool isInsideCudnnGroup(Operation *op);

/// The type arithmetic on `element` is done in: f32 for floats narrower than
/// f32 (f16, bf16: PyTorch's opmath type), otherwise `element` itself.
Type computeType(Type element);

/// `value` converted to computeType(value's type) (arith.extf or nothing).
Value extendToCompute(OpBuilder &b, Location loc, Value value);

/// Converts a float `value` to the float type `to`: extf, truncf, or through
/// f32 between two 16-bit formats.
Value convertFloat(OpBuilder &b, Location loc, Value value, Type to);

/// A `tensor.empty` of `type`; dynamic dimension `d` gets the size
/// `dynamicSize(d)` (which a static type need not give).
Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  function_ref<Value(int64_t)> dynamicSize = {});

/// A `tensor.empty` of `type` whose dynamic sizes are those of `like`, a
/// tensor of the same rank.
Value createEmptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                      Value like);

/// The number of elements in dimensions `dims` of `input`, as a float of
/// `type`: a constant when those dimensions are static, otherwise computed
/// from tensor.dim.
Value elementCount(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> dims, Type type);

/// A `linalg.fill` of `value` into a `tensor.empty` of `type` (dynamic
/// sizes as createEmpty's).
Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   TypedAttr value,
                   function_ref<Value(int64_t)> dynamicSize = {});

/// `rank` parallel iterators.
SmallVector<utils::IteratorType> parallelIterators(int64_t rank);

/// The linalg.index values of the dimensions 0 .. rank-1 of the enclosing
/// linalg op.
SmallVector<Value> loopIndices(OpBuilder &b, Location loc, int64_t rank);

/// A pattern for one tcp op that leaves ops inside cuDNN groups alone.
template <typename OpTy>
struct TcpToLinalgPattern : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (isInsideCudnnGroup(op))
      return rewriter.notifyMatchFailure(
          op, "inside a cuDNN group: convert-tcp-to-cudnn lowers it");
    return lower(op, rewriter);
  }

  virtual LogicalResult lower(OpTy op, PatternRewriter &rewriter) const = 0;
};

} // namespace mlir::cudnn_mlir::tcp_to_linalg

#endif // CUDNN_MLIR_LIB_CONVERSION_TCPTOLINALG_PATTERNS_H
