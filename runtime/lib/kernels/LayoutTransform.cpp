//===- LayoutTransform.cpp - copies between tensor layouts ----------------===//
//
// cudnnTransformTensor is part of cuDNN 9's legacy ops library and marked
// deprecated there, but it is the one cuDNN call that re-strides a tensor:
// the graph API has no standalone copy on Hopper. Should it go away, the
// generated transpose kernel of the codegen path replaces it.
//
//===----------------------------------------------------------------------===//

#include "kernels/LayoutTransform.h"
#include "graph/GraphValidation.h"

#include <limits>
#include <memory>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using namespace cmrt;

namespace {

struct TensorDescriptor {
  cudnnTensorDescriptor_t desc = nullptr;
  ~TensorDescriptor() {
    if (desc)
      cudnnDestroyTensorDescriptor(desc);
  }
};

Status describe(cudnnDataType_t type, int64_t rank, const int64_t *dims,
                const int64_t *strides, TensorDescriptor &out) {
  int dimsInt[CUDNN_DIM_MAX], stridesInt[CUDNN_DIM_MAX];
  for (int64_t i = 0; i < rank; ++i) {
    if (dims[i] <= 0 || dims[i] > std::numeric_limits<int>::max() ||
        strides[i] <= 0 || strides[i] > std::numeric_limits<int>::max())
      return {CMRT_ERROR_INVALID_ARGUMENT,
              "a layout conversion expects dims and strides in 1..2^31-1, "
              "but got dim " +
                  std::to_string(dims[i]) + " with stride " +
                  std::to_string(strides[i])};
    dimsInt[i] = static_cast<int>(dims[i]);
    stridesInt[i] = static_cast<int>(strides[i]);
  }
  cudnnStatus_t st = cudnnCreateTensorDescriptor(&out.desc);
  if (st == CUDNN_STATUS_SUCCESS)
    st = cudnnSetTensorNdDescriptor(out.desc, type, static_cast<int>(rank),
                                    dimsInt, stridesInt);
  if (st != CUDNN_STATUS_SUCCESS)
    return {CMRT_ERROR_CUDNN,
            "describing a tensor for a layout conversion failed: " +
                cudnnErrorText(st)};
  return Status::success();
}

} // namespace

Status cmrt::transformLayout(int device, cudaStream_t stream, int64_t dataType,
                             int64_t rank, const int64_t *dims,
                             const int64_t *dstStrides, void *dst,
                             const int64_t *srcStrides, const void *src) {
  auto type = static_cast<cudnnDataType_t>(dataType);
  if (type != CUDNN_DATA_FLOAT && type != CUDNN_DATA_DOUBLE &&
      type != CUDNN_DATA_HALF && type != CUDNN_DATA_BFLOAT16 &&
      type != CUDNN_DATA_INT8)
    return {CMRT_ERROR_NOT_SUPPORTED,
            "a layout conversion expects f32, f64, f16, bf16 or i8 data, but "
            "got cudnnDataType_t " +
                std::to_string(dataType)};
  if (rank < 3 || rank > CUDNN_DIM_MAX)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            "a layout conversion expects rank 3 to " +
                std::to_string(CUDNN_DIM_MAX) + ", but got " +
                std::to_string(rank)};
  TensorDescriptor from, to;
  CMRT_TRY(describe(type, rank, dims, srcStrides, from));
  CMRT_TRY(describe(type, rank, dims, dstStrides, to));
  cudnnHandle_t handle = nullptr;
  CMRT_TRY(handleFor(device, stream, handle));
  // alpha and beta are doubles for double data, floats otherwise.
  double one64 = 1.0, zero64 = 0.0;
  float one32 = 1.0f, zero32 = 0.0f;
  bool wide = type == CUDNN_DATA_DOUBLE;
  cudnnStatus_t st = cudnnTransformTensor(
      handle, wide ? static_cast<const void *>(&one64) : &one32, from.desc, src,
      wide ? static_cast<const void *>(&zero64) : &zero32, to.desc, dst);
  if (st != CUDNN_STATUS_SUCCESS)
    return {CMRT_ERROR_CUDNN,
            "cudnnTransformTensor failed: " + cudnnErrorText(st)};
  return Status::success();
}
