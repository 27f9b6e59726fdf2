//===- ElementwiseToLinalg.cpp - elementwise tcp ops to linalg.generic ----===//
//
// Each elementwise tcp op (unary, binary, clamp, cast, compare, select)
// becomes one all-parallel linalg.generic with identity maps. Float
// arithmetic on f16 and bf16 is done in f32 and rounded once (PyTorch's
// opmath); integer ops use the signedness the op states.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cudnn_mlir::tcp_to_linalg;

namespace {
/// Computes one result element from the op's operand elements.
using ElementFn =
    function_ref<Value(OpBuilder &b, Location loc, ValueRange args)>;
} // namespace

static Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                              RankedTensorType resultType, ElementFn compute) {
  int64_t rank = resultType.getRank();
  Value init = createEmptyLike(b, loc, resultType, inputs.front());
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
      parallelIterators(rank),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = compute(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

/// Applies `compute` to `args` extended to the compute type and rounds the
/// result back to the float type `element`.
static Value inComputeType(OpBuilder &b, Location loc, ValueRange args,
                           Type element, ElementFn compute) {
  SmallVector<Value> extended;
  for (Value arg : args)
    extended.push_back(extendToCompute(b, loc, arg));
  Value result = compute(b, loc, extended);
  return convertFloat(b, loc, result, element);
}

//===----------------------------------------------------------------------===//
// Per-op element computations
//===----------------------------------------------------------------------===//

static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  // 1 / (1 + exp(-x)): exp overflows to +inf for very negative x, giving 0.
  Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), 1));
  Value negated = arith::NegFOp::create(b, loc, x);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

/// PyTorch's GELU (ActivationGeluKernel.cu): x * 0.5 * (1 + erf(x / sqrt(2)))
/// or, approximated, 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))).
static Value gelu(OpBuilder &b, Location loc, Value x, bool tanhApproximation) {
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc,
                                     b.getFloatAttr(x.getType(), value));
  };
  auto mul = [&](Value lhs, Value rhs) -> Value {
    return arith::MulFOp::create(b, loc, lhs, rhs);
  };
  Value term;
  if (tanhApproximation) {
    Value cube = mul(mul(x, x), x);
    Value inner =
        arith::AddFOp::create(b, loc, x, mul(constant(0.044715), cube));
    term = math::TanhOp::create(
        b, loc,
        mul(constant(llvm::numbers::sqrt2 * llvm::numbers::inv_sqrtpi), inner));
  } else {
    term =
        math::ErfOp::create(b, loc, mul(x, constant(llvm::numbers::inv_sqrt2)));
  }
  Value onePlus = arith::AddFOp::create(b, loc, constant(1), term);
  return mul(mul(x, constant(0.5)), onePlus);
}

static Value clampFloat(OpBuilder &b, Location loc, tcp::ClampOp op, Value x) {
  // The bounds are built in x's (compute) type: maximumf/minimumf need both
  // operands of one type, and they propagate NaN as torch.clamp does.
  Type type = x.getType();
  if (std::optional<APFloat> min = op.getMinFloat()) {
    Value bound = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(type, min->convertToDouble()));
    x = arith::MaximumFOp::create(b, loc, x, bound);
  }
  if (std::optional<APFloat> max = op.getMaxFloat()) {
    Value bound = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(type, max->convertToDouble()));
    x = arith::MinimumFOp::create(b, loc, x, bound);
  }
  return x;
}

/// An integer bound for `type`, saturated to its signed range: clamping to
/// a bound beyond the range is clamping to the range's end.
static Value intBound(OpBuilder &b, Location loc, IntegerType type,
                      int64_t bound) {
  unsigned width = type.getWidth();
  if (width < 64) {
    int64_t lo = APInt::getSignedMinValue(width).getSExtValue();
    int64_t hi = APInt::getSignedMaxValue(width).getSExtValue();
    bound = std::clamp(bound, lo, hi);
  }
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, bound));
}

static Value clampInt(OpBuilder &b, Location loc, tcp::ClampOp op, Value x) {
  auto type = cast<IntegerType>(x.getType());
  if (std::optional<uint64_t> min = op.getMinInt())
    x = arith::MaxSIOp::create(
        b, loc, x, intBound(b, loc, type, static_cast<int64_t>(*min)));
  if (std::optional<uint64_t> max = op.getMaxInt())
    x = arith::MinSIOp::create(
        b, loc, x, intBound(b, loc, type, static_cast<int64_t>(*max)));
  return x;
}

static Value divSI(OpBuilder &b, Location loc, tcp::RoundingMode mode,
                   Value lhs, Value rhs) {
  switch (mode) {
  case tcp::RoundingMode::Trunc:
    return arith::DivSIOp::create(b, loc, lhs, rhs);
  case tcp::RoundingMode::Floor:
    return arith::FloorDivSIOp::create(b, loc, lhs, rhs);
  case tcp::RoundingMode::Ceil:
    return arith::CeilDivSIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown rounding mode");
}

static Value divUI(OpBuilder &b, Location loc, tcp::RoundingMode mode,
                   Value lhs, Value rhs) {
  // Unsigned quotients are never negative: floor is truncation.
  if (mode == tcp::RoundingMode::Ceil)
    return arith::CeilDivUIOp::create(b, loc, lhs, rhs);
  return arith::DivUIOp::create(b, loc, lhs, rhs);
}

static bool readsUnsigned(Type type, std::optional<tcp::Signedness> s) {
  // i1 is a bool: true is 1, never -1. Signless wider integers are signed,
  // as torch's integer dtypes (except uint8, which says Unsigned) are.
  return type.isInteger(1) || s == tcp::Signedness::Unsigned;
}

static Value castElement(OpBuilder &b, Location loc, tcp::CastOp op, Value in,
                         Type to) {
  Type from = in.getType();
  if (from == to)
    return in;
  bool inUnsigned = readsUnsigned(from, op.getInIntSignedness());
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return convertFloat(b, loc, in, to);
  if (isa<IntegerType>(from) && isa<FloatType>(to)) {
    if (inUnsigned)
      return arith::UIToFPOp::create(b, loc, to, in);
    return arith::SIToFPOp::create(b, loc, to, in);
  }
  if (isa<FloatType>(from)) {
    if (to.isInteger(1)) {
      Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(from, 0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, in, zero);
    }
    if (op.getOutIntSignedness() == tcp::Signedness::Unsigned)
      return arith::FPToUIOp::create(b, loc, to, in);
    return arith::FPToSIOp::create(b, loc, to, in);
  }
  // Integer to integer.
  if (to.isInteger(1)) {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, in, zero);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, to, in);
  if (fromWidth == toWidth)
    return in;
  if (inUnsigned)
    return arith::ExtUIOp::create(b, loc, to, in);
  return arith::ExtSIOp::create(b, loc, to, in);
}

/// `lhs <predicate> rhs` as an i1: floats ordered (NaN: false) but `ne`,
/// unordered (NaN: true), as PyTorch compares; f16/bf16 exactly in f32.
static Value compareElements(OpBuilder &b, Location loc, tcp::CompareOp op,
                             Value lhs, Value rhs) {
  tcp::ComparisonPredicate predicate = op.getPredicate();
  if (isa<FloatType>(lhs.getType())) {
    lhs = extendToCompute(b, loc, lhs);
    rhs = extendToCompute(b, loc, rhs);
    arith::CmpFPredicate p;
    switch (predicate) {
    case tcp::ComparisonPredicate::eq: p = arith::CmpFPredicate::OEQ; break;
    case tcp::ComparisonPredicate::ne: p = arith::CmpFPredicate::UNE; break;
    case tcp::ComparisonPredicate::lt: p = arith::CmpFPredicate::OLT; break;
    case tcp::ComparisonPredicate::le: p = arith::CmpFPredicate::OLE; break;
    case tcp::ComparisonPredicate::gt: p = arith::CmpFPredicate::OGT; break;
    case tcp::ComparisonPredicate::ge: p = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(b, loc, p, lhs, rhs);
  }
  bool isUnsigned = readsUnsigned(lhs.getType(), op.getInIntSignedness());
  arith::CmpIPredicate p;
  switch (predicate) {
  case tcp::ComparisonPredicate::eq: p = arith::CmpIPredicate::eq; break;
  case tcp::ComparisonPredicate::ne: p = arith::CmpIPredicate::ne; break;
  case tcp::ComparisonPredicate::lt:
    p = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case tcp::ComparisonPredicate::le:
    p = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case tcp::ComparisonPredicate::gt:
    p = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case tcp::ComparisonPredicate::ge:
    p = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// The base of every elementwise pattern: subclasses say how one element is
/// computed from the operands' elements.
template <typename OpTy>
struct ElementwiseToGeneric : public TcpToLinalgPattern<OpTy> {
  using TcpToLinalgPattern<OpTy>::TcpToLinalgPattern;

  virtual Value computeElement(OpTy op, OpBuilder &b, Location loc,
                               ValueRange args, Type element) const = 0;

  LogicalResult lower(OpTy op, PatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getOut().getType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), op->getOperands(), resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return computeElement(op, b, loc, args, resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A float op that is one math/arith op on the compute type.
template <typename OpTy, typename ScalarOp>
struct FloatToGeneric : public ElementwiseToGeneric<OpTy> {
  using ElementwiseToGeneric<OpTy>::ElementwiseToGeneric;
  Value computeElement(OpTy, OpBuilder &b, Location loc, ValueRange args,
                       Type element) const override {
    return inComputeType(b, loc, args, element,
                         [](OpBuilder &b, Location loc, ValueRange xs) {
                           return ScalarOp::create(b, loc, xs).getResult();
                         });
  }
};

/// An op on floats or integers: one arith op each.
template <typename OpTy, typename FloatOp, typename IntOp>
struct FloatOrIntToGeneric : public ElementwiseToGeneric<OpTy> {
  using ElementwiseToGeneric<OpTy>::ElementwiseToGeneric;
  Value computeElement(OpTy, OpBuilder &b, Location loc, ValueRange args,
                       Type element) const override {
    if (isa<IntegerType>(element))
      return IntOp::create(b, loc, args).getResult();
    return inComputeType(b, loc, args, element,
                         [](OpBuilder &b, Location loc, ValueRange xs) {
                           return FloatOp::create(b, loc, xs).getResult();
                         });
  }
};

struct SigmoidToGeneric : public ElementwiseToGeneric<tcp::SigmoidOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::SigmoidOp, OpBuilder &b, Location loc,
                       ValueRange args, Type element) const override {
    return inComputeType(b, loc, args, element,
                         [](OpBuilder &b, Location loc, ValueRange xs) {
                           return sigmoid(b, loc, xs[0]);
                         });
  }
};

struct GeluToGeneric : public ElementwiseToGeneric<tcp::GeluOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::GeluOp op, OpBuilder &b, Location loc,
                       ValueRange args, Type element) const override {
    bool tanhApproximation = op.isTanhApproximation();
    return inComputeType(b, loc, args, element,
                         [&](OpBuilder &b, Location loc, ValueRange xs) {
                           return gelu(b, loc, xs[0], tanhApproximation);
                         });
  }
};

struct SqrtToGeneric : public ElementwiseToGeneric<tcp::SqrtOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::SqrtOp, OpBuilder &b, Location loc, ValueRange args,
                       Type element) const override {
    Value x = args[0];
    if (isa<IntegerType>(x.getType()))
      x = arith::SIToFPOp::create(b, loc, element, x);
    return inComputeType(
        b, loc, x, element, [](OpBuilder &b, Location loc, ValueRange xs) {
          return math::SqrtOp::create(b, loc, xs[0]).getResult();
        });
  }
};

struct ClampToGeneric : public ElementwiseToGeneric<tcp::ClampOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::ClampOp op, OpBuilder &b, Location loc,
                       ValueRange args, Type element) const override {
    if (isa<IntegerType>(element))
      return clampInt(b, loc, op, args[0]);
    return inComputeType(b, loc, args, element,
                         [&](OpBuilder &b, Location loc, ValueRange xs) {
                           return clampFloat(b, loc, op, xs[0]);
                         });
  }
};

template <typename OpTy>
struct IntDivToGeneric : public ElementwiseToGeneric<OpTy> {
  using ElementwiseToGeneric<OpTy>::ElementwiseToGeneric;
  Value computeElement(OpTy op, OpBuilder &b, Location loc, ValueRange args,
                       Type) const override {
    if constexpr (std::is_same_v<OpTy, tcp::DivSIOp>)
      return divSI(b, loc, op.getRoundingMode(), args[0], args[1]);
    else
      return divUI(b, loc, op.getRoundingMode(), args[0], args[1]);
  }
};

struct CompareToGeneric : public ElementwiseToGeneric<tcp::CompareOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::CompareOp op, OpBuilder &b, Location loc,
                       ValueRange args, Type) const override {
    return compareElements(b, loc, op, args[0], args[1]);
  }
};

struct SelectToGeneric : public ElementwiseToGeneric<tcp::SelectOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::SelectOp, OpBuilder &b, Location loc,
                       ValueRange args, Type) const override {
    return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
  }
};

/// An integer op that is one arith op.
template <typename OpTy, typename IntOp>
struct IntToGeneric : public ElementwiseToGeneric<OpTy> {
  using ElementwiseToGeneric<OpTy>::ElementwiseToGeneric;
  Value computeElement(OpTy, OpBuilder &b, Location loc, ValueRange args,
                       Type) const override {
    return IntOp::create(b, loc, args).getResult();
  }
};

struct CastToGeneric : public ElementwiseToGeneric<tcp::CastOp> {
  using ElementwiseToGeneric::ElementwiseToGeneric;
  Value computeElement(tcp::CastOp op, OpBuilder &b, Location loc,
                       ValueRange args, Type element) const override {
    return castElement(b, loc, op, args[0], element);
  }
};
} // namespace

void mlir::cudnn_mlir::tcp_to_linalg::populateElementwisePatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FloatToGeneric<tcp::TanhOp, math::TanhOp>,
               FloatToGeneric<tcp::ExpOp, math::ExpOp>,
               FloatToGeneric<tcp::CeilOp, math::CeilOp>,
               FloatToGeneric<tcp::FloorOp, math::FloorOp>,
               FloatToGeneric<tcp::RoundOp, math::RoundOp>,
               FloatToGeneric<tcp::RoundEvenOp, math::RoundEvenOp>,
               FloatToGeneric<tcp::CosOp, math::CosOp>,
               FloatToGeneric<tcp::SinOp, math::SinOp>,
               FloatToGeneric<tcp::LogOp, math::LogOp>,
               FloatToGeneric<tcp::NegOp, arith::NegFOp>,
               FloatToGeneric<tcp::AtanOp, math::AtanOp>,
               FloatToGeneric<tcp::DivFOp, arith::DivFOp>,
               FloatToGeneric<tcp::Atan2Op, math::Atan2Op>>(ctx);
  patterns.add<FloatOrIntToGeneric<tcp::AbsOp, math::AbsFOp, math::AbsIOp>,
               FloatOrIntToGeneric<tcp::AddOp, arith::AddFOp, arith::AddIOp>,
               FloatOrIntToGeneric<tcp::SubOp, arith::SubFOp, arith::SubIOp>,
               FloatOrIntToGeneric<tcp::MulOp, arith::MulFOp, arith::MulIOp>>(
      ctx);
  patterns.add<SigmoidToGeneric, GeluToGeneric, SqrtToGeneric, ClampToGeneric,
               IntDivToGeneric<tcp::DivSIOp>, IntDivToGeneric<tcp::DivUIOp>,
               CastToGeneric, CompareToGeneric, SelectToGeneric,
               IntToGeneric<tcp::BitwiseAndOp, arith::AndIOp>,
               IntToGeneric<tcp::BitwiseOrOp, arith::OrIOp>,
               IntToGeneric<tcp::BitwiseXorOp, arith::XOrIOp>>(ctx);
}
