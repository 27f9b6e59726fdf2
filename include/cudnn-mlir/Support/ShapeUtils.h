//===- ShapeUtils.h - shape arithmetic and shape text for diagnostics -*- C++ -*-===//
//
// Shared by the tcp and cudnn verifiers, the bufferization and the
// conversions, so that the convolution formula, the way shapes appear in
// messages, and what a static buffer layout is exist once.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_SUPPORT_SHAPEUTILS_H
#define CUDNN_MLIR_SUPPORT_SHAPEUTILS_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::cudnn_mlir {

/// Formats a shape or any integer list as "[1, ?, 3]" (dynamic sizes as "?").
std::string formatShape(llvm::ArrayRef<int64_t> dims);

/// Formats one extent: the number, or "?" when dynamic.
std::string formatExtent(int64_t size);

/// The output extent of one spatial dimension of a convolution or pooling
/// window: the runtime's formula (cudnn-mlir-runtime/SlidingWindow.h, which
/// its graph validator uses too). Returns ShapedType::kDynamic when `in` is
/// dynamic and std::nullopt when the parameters are invalid (stride or
/// dilation < 1, window < 1, negative padding, an empty output, or a size
/// that overflows int64).
std::optional<int64_t> slidingWindowOutputSize(int64_t in, int64_t window,
                                               int64_t padLo, int64_t padHi,
                                               int64_t stride,
                                               int64_t dilation);

/// True when two extents can be equal at run time (either is dynamic, or both
/// are the same static size).
inline bool extentsCompatible(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

/// True when two shapes have the same rank and pairwise compatible extents.
bool shapesCompatible(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Bytes one element of `type` (an integer or float type) takes in memory:
/// its bit width rounded up to whole bytes (i1 takes one).
int64_t getElementStorageBytes(Type type);

/// The layout of a memref whose shape, strides and offset are all static.
struct StaticLayout {
  SmallVector<int64_t> strides;
  int64_t offset = 0;
};

/// `type`'s static layout (identity or `strided<[...]>`), or nullopt when
/// its shape, a stride or the offset is dynamic or the layout is not
/// strided: what device buffers passed to the runtime must have.
std::optional<StaticLayout> getStaticLayout(MemRefType type);

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_SUPPORT_SHAPEUTILS_H
