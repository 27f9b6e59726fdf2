//===- ShapeUtils.cpp - shape arithmetic and shape text -------------------===//

#include "cudnn-mlir/Support/ShapeUtils.h"

#include "llvm/ADT/STLExtras.h"
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

std::optional<int64_t> slidingWindowOutputSize(int64_t in, int64_t window,
                                               int64_t padLo, int64_t padHi,
                                               int64_t stride,
                                               int64_t dilation) {
  if (stride < 1 || dilation < 1 || window < 1 || padLo < 0 || padHi < 0)
    return std::nullopt;
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  int64_t span = in + padLo + padHi - dilation * (window - 1) - 1;
  if (span < 0)
    return std::nullopt;
  return span / stride + 1;
}

} // namespace mlir::cudnn_mlir
