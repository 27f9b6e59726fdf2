//===- ShapeUtils.cpp - shape arithmetic and shape text -------------------===//

#include "cudnn-mlir/Support/ShapeUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::cudnn_mlir {

std::string formatShape(llvm::ArrayRef<int64_t> dims) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(dims, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return text;
}

std::string formatExtent(int64_t size) {
  return ShapedType::isDynamic(size) ? "?" : std::to_string(size);
}

bool shapesCompatible(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip_equal(a, b), [](auto pair) {
           return extentsCompatible(std::get<0>(pair), std::get<1>(pair));
         });
}

std::optional<int64_t> slidingWindowOutputSize(int64_t in, int64_t window,
                                               int64_t padLo, int64_t padHi,
                                               int64_t stride,
                                               int64_t dilation) {
  if (stride < 1 || dilation < 1 || window < 1 || padLo < 0 || padHi < 0)
    return std::nullopt;
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  // Attribute values are arbitrary user input: overflow is an error, not UB.
  int64_t padded, reach, span;
  if (llvm::AddOverflow(in, padLo, padded) ||
      llvm::AddOverflow(padded, padHi, padded) ||
      llvm::MulOverflow(dilation, window - 1, reach) ||
      llvm::SubOverflow(padded, reach + 1, span) || reach == INT64_MAX ||
      span < 0)
    return std::nullopt;
  return span / stride + 1;
}

int64_t getElementStorageBytes(Type type) {
  return (static_cast<int64_t>(type.getIntOrFloatBitWidth()) + 7) / 8;
}

std::optional<StaticLayout> getStaticLayout(MemRefType type) {
  StaticLayout layout;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(layout.strides, layout.offset)) ||
      ShapedType::isDynamic(layout.offset) ||
      llvm::any_of(layout.strides, ShapedType::isDynamic))
    return std::nullopt;
  return layout;
}

} // namespace mlir::cudnn_mlir
