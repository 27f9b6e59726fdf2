//===- ShapeUtils.cpp - shape arithmetic and shape text -------------------===//

#include "cudnn-mlir/Support/ShapeUtils.h"
#include "cudnn-mlir-runtime/SlidingWindow.h"

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
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  return cmrt::graph::slidingWindowOutputSize(in, window, padLo, padHi, stride,
                                              dilation);
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
