//===- LayoutTransform.h - copies between tensor layouts --------*- C++ -*-===//
//
// A tensor copied from one set of strides to another (NCHW <-> NHWC and any
// other permutation of dense strides) by cudnnTransformTensor on the
// caller's stream. What cudnn.convert_layout becomes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_LAYOUTTRANSFORM_H
#define CUDNN_MLIR_RUNTIME_LAYOUTTRANSFORM_H

#include "core/Context.h"

#include <cstdint>

namespace cmrt {

/// dst[i] = src[i] for every index i of a tensor of `rank` (3 to 8) dims,
/// element type `dataType` (cudnnDataType_t: float, double, half, bfloat16
/// or int8), addressed through each side's strides (in elements).
Status transformLayout(int device, cudaStream_t stream, int64_t dataType,
                       int64_t rank, const int64_t *dims,
                       const int64_t *dstStrides, void *dst,
                       const int64_t *srcStrides, const void *src);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_LAYOUTTRANSFORM_H
