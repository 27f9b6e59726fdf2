//===- Patterns.cpp - shared pieces of the tcp-to-linalg patterns ---------===//

#include "Patterns.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace mlir::cudnn_mlir::tcp_to_linalg {

bool isInsideCudnnGroup(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (!isa<tcp::GroupOp, tcp::IsolatedGroupOp>(parent))
      continue;
    auto type = parent->getAttrOfType<StringAttr>(tcp::kGroupTypeAttrName);
    if (type && type.getValue() == tcp::kCudnnGroupType)
      return true;
  }
  return false;
}

Type computeType(Type element) {
  auto floatType = dyn_cast<FloatType>(element);
  if (floatType && floatType.getWidth() < 32)
    return Float32Type::get(element.getContext());
  return element;
}

Value convertFloat(OpBuilder &b, Location loc, Value value, Type to) {
  auto from = cast<FloatType>(value.getType());
  auto target = cast<FloatType>(to);
  if (from == target)
    return value;
  if (from.getWidth() < target.getWidth())
    return arith::ExtFOp::create(b, loc, target, value);
  if (from.getWidth() > target.getWidth())
    return arith::TruncFOp::create(b, loc, target, value);
  // Same width, different formats (f16 <-> bf16): f32 holds both exactly.
  Value wide =
      arith::ExtFOp::create(b, loc, Float32Type::get(b.getContext()), value);
  return arith::TruncFOp::create(b, loc, target, wide);
}

Value extendToCompute(OpBuilder &b, Location loc, Value value) {
  Type type = computeType(value.getType());
  if (type == value.getType())
    return value;
  return convertFloat(b, loc, value, type);
}

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  function_ref<Value(int64_t)> dynamicSize) {
  SmallVector<Value> sizes;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size)) {
      assert(dynamicSize && "a dynamic type needs its sizes");
      sizes.push_back(dynamicSize(d));
    }
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 sizes);
}

Value createEmptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                      Value like) {
  return createEmpty(b, loc, type, [&](int64_t d) -> Value {
    return tensor::DimOp::create(b, loc, like, d);
  });
}

Value elementCount(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> dims, Type type) {
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t staticCount = 1;
  Value dynamicCount;
  for (int64_t dim : dims) {
    int64_t size = inType.getDimSize(dim);
    if (!ShapedType::isDynamic(size)) {
      staticCount *= size;
      continue;
    }
    Value extent = tensor::DimOp::create(b, loc, input, dim);
    dynamicCount = dynamicCount
                       ? arith::MulIOp::create(b, loc, dynamicCount, extent)
                       : extent;
  }
  if (!dynamicCount)
    return arith::ConstantOp::create(
        b, loc, b.getFloatAttr(type, static_cast<double>(staticCount)));
  Value count = arith::MulIOp::create(
      b, loc, dynamicCount,
      arith::ConstantIndexOp::create(b, loc, staticCount));
  Value asInt = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count);
  return arith::UIToFPOp::create(b, loc, type, asInt);
}

Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   TypedAttr value, function_ref<Value(int64_t)> dynamicSize) {
  Value init = createEmpty(b, loc, type, dynamicSize);
  Value neutral = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, neutral, init).getResult(0);
}

SmallVector<utils::IteratorType> parallelIterators(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

SmallVector<Value> loopIndices(OpBuilder &b, Location loc, int64_t rank) {
  SmallVector<Value> indices;
  for (int64_t d = 0; d < rank; ++d)
    indices.push_back(linalg::IndexOp::create(b, loc, d));
  return indices;
}

} // namespace mlir::cudnn_mlir::tcp_to_linalg
