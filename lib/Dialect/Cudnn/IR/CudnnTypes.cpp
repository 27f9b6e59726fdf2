//===- CudnnTypes.cpp - !cudnn.tensor_desc and !cudnn.handle --------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::formatShape;

#define GET_TYPEDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.cpp.inc"

void CudnnDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.cpp.inc"
      >();
}

/// cuDNN's tensor descriptors hold at most CUDNN_DIM_MAX (8) dimensions.
static constexpr int64_t kMaxRank = 8;

/// Element types a cuDNN 9 tensor descriptor can carry (cudnnDataType_t).
static bool isCudnnElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type) ||
         type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isUnsignedInteger(8) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType,
                       int64_t alignment, ArrayRef<int64_t> stride,
                       int64_t offset) {
  int64_t rank = shape.size();
  if (rank < 1 || rank > kMaxRank)
    return emitError() << "expects a tensor_desc rank between 1 and "
                       << kMaxRank << ", but got " << rank;
  for (int64_t dim : shape) {
    if (!ShapedType::isDynamic(dim) && dim < 1)
      return emitError() << "expects tensor_desc dimensions >= 1, but got "
                         << formatShape(shape);
  }
  if (!isCudnnElementType(elementType))
    return emitError() << "expects a cuDNN element type (f16, bf16, f32, f64, "
                          "f8E4M3FN, f8E5M2, i1, i8, ui8, i32, i64), but got "
                       << elementType;
  if (alignment < 1 || !llvm::isPowerOf2_64(alignment))
    return emitError() << "expects a power-of-two alignment, but got "
                       << alignment;
  if (!stride.empty() && static_cast<int64_t>(stride.size()) != rank)
    return emitError() << "expects an empty stride list or one stride per "
                          "dimension ("
                       << rank << "), but got " << formatShape(stride);
  for (int64_t s : stride) {
    if (s < 1)
      return emitError() << "expects strides >= 1, but got "
                         << formatShape(stride);
  }
  if (offset < 0)
    return emitError() << "expects an offset >= 0, but got " << offset;
  return success();
}

Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, stride;
  Type elementType;
  int64_t alignment = 0, offset = 0;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword("alignment") || parser.parseEqual() ||
      parser.parseInteger(alignment) || parser.parseComma() ||
      parser.parseKeyword("stride") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        return parser.parseInteger(stride.emplace_back());
      }))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("offset") || parser.parseEqual() ||
       parser.parseInteger(offset)))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<TensorDescType>(
      loc, parser.getContext(), shape, elementType, alignment, stride, offset);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printDimensionList(getShape());
  printer << 'x' << getElementType() << ", alignment = " << getAlignment()
          << ", stride = [";
  llvm::interleaveComma(getStride(), printer);
  printer << "]";
  if (getOffset() != 0)
    printer << ", offset = " << getOffset();
  printer << ">";
}

SmallVector<int64_t> mlir::cudnn::getPackedStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    int64_t next = shape[d + 1];
    strides[d] = ShapedType::isDynamic(next) || ShapedType::isDynamic(strides[d + 1])
                     ? ShapedType::kDynamic
                     : strides[d + 1] * next;
  }
  return strides;
}

static bool sameStorage(ArrayRef<int64_t> shape, ArrayRef<int64_t> a,
                        ArrayRef<int64_t> b);

SmallVector<int64_t> mlir::cudnn::getSwappedLastDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> swapped(shape);
  if (swapped.size() >= 2)
    std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  return swapped;
}

SmallVector<int64_t>
mlir::cudnn::getTransposedViewStrides(ArrayRef<int64_t> shape) {
  return getSwappedLastDims(getPackedStrides(shape));
}

bool mlir::cudnn::isTransposedViewOf(TensorDescType desc,
                                     ArrayRef<int64_t> shape) {
  if (shape.size() < 2 || llvm::any_of(shape, ShapedType::isDynamic) ||
      desc.getShape() != ArrayRef<int64_t>(getSwappedLastDims(shape)))
    return false;
  return sameStorage(desc.getShape(), desc.getEffectiveStrides(),
                     getTransposedViewStrides(shape));
}

bool mlir::cudnn::isDenseViewOf(TensorDescType desc,
                                ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, ShapedType::isDynamic) ||
      llvm::any_of(desc.getShape(), ShapedType::isDynamic) ||
      ShapedType::getNumElements(shape) !=
          ShapedType::getNumElements(desc.getShape()))
    return false;
  // The dims of extent > 1 by stride, innermost first: each must start
  // where the one inside it ends.
  SmallVector<std::pair<int64_t, int64_t>> dims; // (stride, extent)
  for (auto [extent, stride] :
       llvm::zip(desc.getShape(), desc.getEffectiveStrides()))
    if (extent != 1)
      dims.push_back({stride, extent});
  llvm::sort(dims);
  int64_t expected = 1;
  for (auto [stride, extent] : dims) {
    if (stride != expected)
      return false;
    expected *= extent;
  }
  return true;
}

bool mlir::cudnn::isWindowOf(TensorDescType desc, ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, ShapedType::isDynamic) ||
      llvm::any_of(desc.getShape(), ShapedType::isDynamic))
    return false;
  int64_t last = desc.getOffset(); // the last element addressed
  for (auto [extent, stride] :
       llvm::zip(desc.getShape(), desc.getEffectiveStrides()))
    last += (extent - 1) * stride;
  return last < ShapedType::getNumElements(shape);
}

SmallVector<int64_t> TensorDescType::getEffectiveStrides() const {
  if (!getStride().empty())
    return SmallVector<int64_t>(getStride());
  return getPackedStrides(getShape());
}

TensorDescType TensorDescType::withStrides(ArrayRef<int64_t> strides) const {
  return TensorDescType::get(getContext(), getShape(), getElementType(),
                             getAlignment(), strides, getOffset());
}

int64_t mlir::cudnn::getOffsetAlignmentBytes(int64_t offset, Type element) {
  int64_t bytes = offset * cudnn_mlir::getElementStorageBytes(element);
  return bytes & -bytes;
}

TensorDescType TensorDescType::withOffset(int64_t offset) const {
  int64_t alignment = getAlignment();
  if (int64_t moved = getOffsetAlignmentBytes(offset, getElementType()))
    alignment = std::min(alignment, moved);
  return TensorDescType::get(getContext(), getShape(), getElementType(),
                             alignment, getStride(), offset);
}

/// Whether two stride lists address the same bytes for `shape`: the stride
/// of a size-1 dimension never matters.
static bool sameStorage(ArrayRef<int64_t> shape, ArrayRef<int64_t> a,
                        ArrayRef<int64_t> b) {
  if (a.size() != shape.size() || b.size() != shape.size())
    return false;
  for (auto [size, x, y] : llvm::zip(shape, a, b))
    if (size != 1 && x != y)
      return false;
  return true;
}

bool TensorDescType::isChannelsLast() const {
  SmallVector<int64_t> channelsLast = getChannelsLastStrides(getShape());
  return !channelsLast.empty() &&
         sameStorage(getShape(), getEffectiveStrides(), channelsLast);
}

bool TensorDescType::isPacked() const {
  return getStride().empty() ||
         sameStorage(getShape(), getStride(), getPackedStrides(getShape()));
}

SmallVector<int64_t> mlir::cudnn::getChannelsLastStrides(ArrayRef<int64_t> shape) {
  if (shape.size() < 3 || llvm::any_of(shape, ShapedType::isDynamic))
    return {};
  SmallVector<int64_t> strides(shape.size());
  int64_t running = shape[1];
  strides[1] = 1;
  for (size_t d = shape.size() - 1; d >= 2; --d) {
    strides[d] = running;
    running *= shape[d];
  }
  strides[0] = running;
  return strides;
}

bool mlir::cudnn::layoutsCoincide(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> channelsLast = getChannelsLastStrides(shape);
  if (channelsLast.empty())
    return false;
  return sameStorage(shape, getPackedStrides(shape), channelsLast);
}

bool mlir::cudnn::isChannelsLast(RankedTensorType type) {
  return isa_and_nonnull<ChannelsLastAttr>(type.getEncoding());
}

RankedTensorType mlir::cudnn::withChannelsLast(RankedTensorType type,
                                               bool channelsLast) {
  return RankedTensorType::get(
      type.getShape(), type.getElementType(),
      channelsLast ? ChannelsLastAttr::get(type.getContext()) : Attribute());
}

SmallVector<int64_t> mlir::cudnn::getChannelsLastStorageOrder(int64_t rank) {
  SmallVector<int64_t> order{0};
  for (int64_t d = 2; d < rank; ++d)
    order.push_back(d);
  order.push_back(1);
  return order;
}

RankedTensorType mlir::cudnn::getStorageOrderType(RankedTensorType type) {
  SmallVector<int64_t> shape;
  for (int64_t d : getChannelsLastStorageOrder(type.getRank()))
    shape.push_back(type.getDimSize(d));
  return RankedTensorType::get(shape, type.getElementType());
}
