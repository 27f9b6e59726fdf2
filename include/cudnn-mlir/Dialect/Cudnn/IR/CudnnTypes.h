//===- CudnnTypes.h - cudnn dialect types -----------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNTYPES_H
#define CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h.inc"

namespace mlir::cudnn {

/// The channels-last strides of a static shape [N, C, spatial...] (rank >= 3):
/// C innermost, then the spatial dims right to left, then N. Empty when the
/// rank is below 3 or a dimension is dynamic.
SmallVector<int64_t> getChannelsLastStrides(ArrayRef<int64_t> shape);

/// The alignment in bytes a pointer keeps when moved by `offset` elements
/// of `element` (the lowest set bit of the byte offset); 0 for no move.
int64_t getOffsetAlignmentBytes(int64_t offset, Type element);

/// The row-major strides of `shape` (kDynamic past a dynamic dimension).
SmallVector<int64_t> getPackedStrides(ArrayRef<int64_t> shape);

/// `shape` (rank >= 2) with its last two dimensions swapped, and the strides
/// that read a packed tensor of `shape` that way: how a graph reads a matmul
/// operand through its transpose (a linear layer's weight) without a copy.
SmallVector<int64_t> getSwappedLastDims(ArrayRef<int64_t> shape);
SmallVector<int64_t> getTransposedViewStrides(ArrayRef<int64_t> shape);

/// Whether `desc` reads a packed tensor of static `shape` through its
/// transpose in the last two dimensions (the two functions above).
bool isTransposedViewOf(TensorDescType desc, ArrayRef<int64_t> shape);

/// Whether `desc` reads every element of a packed tensor of static `shape`
/// once, in another order: its strides lay its own shape out densely in
/// some order of the dims, over as many elements as `shape` has
/// (attention's q, k, v through the transposes and reshapes before them).
bool isDenseViewOf(TensorDescType desc, ArrayRef<int64_t> shape);

/// Whether every element `desc` addresses, from its offset on, lies inside
/// a packed tensor of static `shape`: a graph input read as a window of a
/// larger buffer (q, k or v sliced out of a packed qkv projection).
bool isWindowOf(TensorDescType desc, ArrayRef<int64_t> shape);

/// Whether a tensor of `shape` has the same bytes in both layouts (e.g.
/// 1xCx1x1, or KxCx1x1): then it never needs an encoding or a conversion.
bool layoutsCoincide(ArrayRef<int64_t> shape);

/// Whether `type` carries the #cudnn.channels_last encoding.
bool isChannelsLast(RankedTensorType type);

/// `type` with (or without) the #cudnn.channels_last encoding.
RankedTensorType withChannelsLast(RankedTensorType type, bool channelsLast);

/// Where a channels-last tensor of rank `rank` keeps each logical dimension:
/// storage dimension i holds logical dimension result[i], i.e. (N, spatial...,
/// C) = [0, 2, ..., rank - 1, 1].
SmallVector<int64_t> getChannelsLastStorageOrder(int64_t rank);

/// The packed type of the bytes of a channels-last tensor of `type`'s shape
/// and element type (with or without the encoding): the shape in storage
/// order, no encoding.
RankedTensorType getStorageOrderType(RankedTensorType type);

} // namespace mlir::cudnn

#endif // CUDNN_MLIR_DIALECT_CUDNN_IR_CUDNNTYPES_H
