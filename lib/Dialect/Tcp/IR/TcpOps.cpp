//===- TcpOps.cpp - verifiers and folders of upstream-compatible tcp ops --===//

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tcp;
using mlir::cudnn_mlir::extentsCompatible;
using mlir::cudnn_mlir::formatShape;

#define GET_OP_CLASSES
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.cpp.inc"

Value mlir::tcp::getLastDimsTransposeSource(Value value) {
  auto transpose = value.getDefiningOp<TransposeOp>();
  if (!transpose)
    return Value();
  ArrayRef<int64_t> perm = transpose.getPermutation();
  int64_t rank = static_cast<int64_t>(perm.size());
  if (rank < 2)
    return Value();
  for (int64_t d = 0; d < rank - 2; ++d)
    if (perm[d] != d)
      return Value();
  if (perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return Value();
  return transpose.getIn();
}

Value mlir::tcp::castElementsTo(OpBuilder &b, Location loc, Value value,
                                Type elementType) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == elementType)
    return value;
  return CastOp::create(b, loc, type.clone(elementType), value,
                        /*in_int_signedness=*/nullptr,
                        /*out_int_signedness=*/nullptr);
}

//===----------------------------------------------------------------------===//
// ClampOp
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::verify() {
  Type elementType = getIn().getType().getElementType();
  bool hasFloatBound = getMinFloat() || getMaxFloat();
  bool hasIntBound = getMinInt() || getMaxInt();
  if (isa<FloatType>(elementType)) {
    if (hasIntBound)
      return emitOpError("expects min_float/max_float for a float tensor, but "
                         "got min_int/max_int with element type ")
             << elementType;
    if (!hasFloatBound)
      return emitOpError("expects at least one of min_float/max_float, but got "
                         "neither");
    if (getMinFloat() && getMaxFloat() &&
        getMinFloat()->convertToDouble() > getMaxFloat()->convertToDouble())
      return emitOpError("expects min_float <= max_float, but got ")
             << getMinFloat()->convertToDouble() << " > "
             << getMaxFloat()->convertToDouble();
    return success();
  }
  if (hasFloatBound)
    return emitOpError("expects min_int/max_int for an integer tensor, but got "
                       "min_float/max_float with element type ")
           << elementType;
  if (!hasIntBound)
    return emitOpError("expects at least one of min_int/max_int, but got "
                       "neither");
  // The generated getters are unsigned; the bounds are signed.
  if (getMinIntAttr() && getMaxIntAttr() &&
      getMinIntAttr().getInt() > getMaxIntAttr().getInt())
    return emitOpError("expects min_int <= max_int, but got ")
           << getMinIntAttr().getInt() << " > " << getMaxIntAttr().getInt();
  return success();
}

//===----------------------------------------------------------------------===//
// ConstOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValueAttr(); }

LogicalResult ConstOp::verify() {
  auto valueType = dyn_cast<ShapedType>(getValueAttr().getType());
  if (valueType != getType())
    return emitOpError("expects the value's type to be the result type ")
           << getType() << ", but got " << getValueAttr().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  ArrayRef<int64_t> inShape = getIn().getType().getShape();
  ArrayRef<int64_t> outShape = getOut().getType().getShape();
  // ODS has checked that `axes` holds i64 integers.
  SmallVector<int64_t> axes = llvm::to_vector(llvm::map_range(
      getAxes(), [](Attribute a) { return cast<IntegerAttr>(a).getInt(); }));
  if (axes.size() != getNewDimSizes().size())
    return emitOpError("expects one new_dim_sizes operand per axis, but got ")
           << getNewDimSizes().size() << " sizes for " << axes.size()
           << " axes";
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < 0 || axis >= static_cast<int64_t>(inShape.size()))
      return emitOpError("expects axes in [0, ")
             << inShape.size() << "), but got " << axis;
    if (inShape[axis] != 1)
      return emitOpError("expects the input to have static size 1 on axis ")
             << axis << ", but got " << formatShape(inShape);
    if (i > 0 && axes[i - 1] >= axis)
      return emitOpError("expects axes sorted without duplicates, but got ")
             << formatShape(axes);
    APInt size;
    if (matchPattern(getNewDimSizes()[i], m_ConstantInt(&size)) &&
        !extentsCompatible(outShape[axis], size.getSExtValue()))
      return emitOpError("expects result dimension ")
             << axis << " to be the new size " << size.getSExtValue()
             << ", but got " << formatShape(outShape);
  }
  for (auto [d, sizes] : llvm::enumerate(llvm::zip(inShape, outShape))) {
    if (llvm::is_contained(axes, static_cast<int64_t>(d)))
      continue;
    if (!extentsCompatible(std::get<0>(sizes), std::get<1>(sizes)))
      return emitOpError("expects dimensions not in axes to keep their size, "
                         "but got input ")
             << formatShape(inShape) << " and result " << formatShape(outShape);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

/// Checks the signedness attribute of one side of a cast.
static LogicalResult verifyCastSide(Operation *op, Type elementType,
                                    std::optional<Signedness> signedness,
                                    StringRef side) {
  if (isa<FloatType>(elementType)) {
    if (signedness)
      return op->emitOpError("expects no ")
             << side << "_int_signedness for float element type "
             << elementType << ", but got "
             << stringifySignedness(*signedness);
    return success();
  }
  if (!signedness)
    return op->emitOpError("expects ")
           << side << "_int_signedness for integer element type "
           << elementType << ", but got none";
  if (elementType.isInteger(1) && *signedness != Signedness::Signless)
    return op->emitOpError("expects ")
           << side << "_int_signedness Signless for i1, but got "
           << stringifySignedness(*signedness);
  return success();
}

LogicalResult CastOp::verify() {
  if (failed(verifyCastSide(*this, getIn().getType().getElementType(),
                            getInIntSignedness(), "in")))
    return failure();
  return verifyCastSide(*this, getOut().getType().getElementType(),
                        getOutIntSignedness(), "out");
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  int64_t rank = getIn().getType().getRank();
  if (getOut().getType().getRank() != rank)
    return emitOpError("expects the result rank to be the input rank ")
           << rank << ", but got " << getOut().getType().getRank();
  for (auto [name, values] :
       {std::pair<StringRef, OperandRange>{"starts", getStarts()},
        {"sizes", getSizes()},
        {"strides", getStrides()}}) {
    if (static_cast<int64_t>(values.size()) != rank)
      return emitOpError("expects one ")
             << name << " value per input dimension (" << rank
             << "), but got " << values.size();
  }
  ArrayRef<int64_t> outShape = getOut().getType().getShape();
  for (auto [d, sizeValue] : llvm::enumerate(getSizes())) {
    APInt size;
    if (matchPattern(sizeValue, m_ConstantInt(&size)) &&
        !extentsCompatible(outShape[d], size.getSExtValue()))
      return emitOpError("expects result dimension ")
             << d << " to be its size " << size.getSExtValue()
             << ", but got " << formatShape(outShape);
  }
  for (auto [d, strideValue] : llvm::enumerate(getStrides())) {
    APInt stride;
    if (matchPattern(strideValue, m_ConstantInt(&stride)) &&
        stride.getSExtValue() < 1)
      return emitOpError("expects strides >= 1, but got ")
             << stride.getSExtValue() << " in dimension " << d;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  auto resultType = getResult().getType();
  int64_t rank = resultType.getRank();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("expects axis in [0, ")
           << rank << "), but got " << axis;
  int64_t axisSum = 0;
  for (Value input : getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getRank() != rank)
      return emitOpError("expects every input to have the result rank ")
             << rank << ", but got " << type;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != axis &&
          !extentsCompatible(type.getDimSize(d), resultType.getDimSize(d)))
        return emitOpError("expects inputs to match the result outside axis ")
               << axis << ", but got " << formatShape(type.getShape())
               << " for result " << formatShape(resultType.getShape());
    }
    if (ShapedType::isDynamic(axisSum) || type.isDynamicDim(axis))
      axisSum = ShapedType::kDynamic;
    else
      axisSum += type.getDimSize(axis);
  }
  if (!extentsCompatible(axisSum, resultType.getDimSize(axis)))
    return emitOpError("expects the result's axis dimension to be the sum of "
                       "the inputs' ")
           << axisSum << ", but got " << resultType.getDimSize(axis);
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp / GatherNDOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto inputType = getInput().getType();
  auto indicesType = getIndices().getType();
  int64_t dim = getDimAttr().getValue().getSExtValue();
  if (dim < 0 || dim >= inputType.getRank())
    return emitOpError("expects dim in [0, ")
           << inputType.getRank() << "), but got " << dim;
  if (inputType.getRank() != indicesType.getRank())
    return emitOpError("expects indices of the input's rank ")
           << inputType.getRank() << ", but got " << indicesType.getRank();
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
    int64_t in = inputType.getDimSize(d), idx = indicesType.getDimSize(d);
    if (d != dim && !ShapedType::isDynamic(in) && !ShapedType::isDynamic(idx) &&
        idx > in)
      return emitOpError("expects indices no larger than the input outside "
                         "dim, but got indices ")
             << formatShape(indicesType.getShape()) << " for input "
             << formatShape(inputType.getShape());
  }
  if (getOut().getType().getShape() != indicesType.getShape())
    return emitOpError("expects the result shape to be the indices' shape ")
           << formatShape(indicesType.getShape()) << ", but got "
           << formatShape(getOut().getType().getShape());
  if (getOut().getType().getElementType() != inputType.getElementType())
    return emitOpError("expects the result element type to be the input's ")
           << inputType.getElementType() << ", but got "
           << getOut().getType().getElementType();
  return success();
}

LogicalResult GatherNDOp::verify() {
  auto inputType = getInput().getType();
  auto indicesType = getIndices().getType();
  if (indicesType.getRank() < 1)
    return emitOpError("expects indices of rank >= 1, but got rank 0");
  int64_t depth = indicesType.getShape().back();
  if (ShapedType::isDynamic(depth))
    return emitOpError("expects a static last dimension of indices, but got ")
           << formatShape(indicesType.getShape());
  if (depth > inputType.getRank())
    return emitOpError("expects the last dimension of indices to be at most "
                       "the input rank ")
           << inputType.getRank() << ", but got " << depth;
  SmallVector<int64_t> expected(indicesType.getShape().drop_back());
  llvm::append_range(expected, inputType.getShape().drop_front(depth));
  auto expectedType =
      RankedTensorType::get(expected, inputType.getElementType());
  if (expectedType != getOut().getType())
    return emitOpError("expects result type ")
           << expectedType << ", but got " << getOut().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// CustomOp
//===----------------------------------------------------------------------===//

LogicalResult CustomOp::verify() {
  if (getOpName().empty())
    return emitOpError("expects a non-empty op_name, but got \"\"");
  return success();
}

//===----------------------------------------------------------------------===//
// GroupOp / IsolatedGroupOp
//===----------------------------------------------------------------------===//

/// Both group ops end in a tcp.yield that produces exactly their results.
static LogicalResult verifyGroupTerminator(Operation *group) {
  Block &body = group->getRegion(0).front();
  if (body.empty() || !isa<YieldOp>(body.back()))
    return group->emitOpError("expects the body to end in tcp.yield, but it "
                              "does not");
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != group->getNumResults())
    return group->emitOpError("expects tcp.yield to produce ")
           << group->getNumResults() << " values (one per result), but got "
           << yield->getNumOperands();
  for (auto [i, types] : llvm::enumerate(
           llvm::zip(yield->getOperandTypes(), group->getResultTypes()))) {
    if (std::get<0>(types) != std::get<1>(types))
      return group->emitOpError("expects yielded value #")
             << i << " to have the result type " << std::get<1>(types)
             << ", but got " << std::get<0>(types);
  }
  return success();
}

LogicalResult GroupOp::verify() { return verifyGroupTerminator(*this); }

LogicalResult IsolatedGroupOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getIns().size())
    return emitOpError("expects one block argument per operand (")
           << getIns().size() << "), but got " << body.getNumArguments();
  for (auto [i, types] : llvm::enumerate(
           llvm::zip(body.getArgumentTypes(), getIns().getTypes()))) {
    if (std::get<0>(types) != std::get<1>(types))
      return emitOpError("expects block argument #")
             << i << " to have the operand type " << std::get<1>(types)
             << ", but got " << std::get<0>(types);
  }
  return verifyGroupTerminator(*this);
}
