//===- Layout.h - logical <-> strided copies, element conversion -*- C++ -*-===//
//
// A .npy file holds a tensor in logical (row-major) order; a compiled module's
// buffer holds it with the manifest's strides (e.g. channels-last NHWC for
// logical NCHW dims). These copy between the two on the host, and convert
// the element types that have no .npy twin (bf16 travels as float32).
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_RUN_LAYOUT_H
#define CUDNN_RUN_LAYOUT_H

#include <cstdint>
#include <vector>

namespace cudnn_run {

/// Elements a buffer with these dims and strides spans (max offset + 1; 0
/// when a dim is 0).
int64_t stridedStorageElements(const std::vector<int64_t> &dims,
                               const std::vector<int64_t> &strides);

/// Copies `logical` (row-major over `dims`) into `strided`, element i of the
/// logical order going to offset sum(index_k * strides[k]). `strided` must
/// span stridedStorageElements(dims, strides) elements; offsets no index
/// reaches are left as they are.
void logicalToStrided(const void *logical, void *strided,
                      const std::vector<int64_t> &dims,
                      const std::vector<int64_t> &strides, int64_t elemSize);
/// The inverse: gathers a strided buffer into logical order.
void stridedToLogical(const void *strided, void *logical,
                      const std::vector<int64_t> &dims,
                      const std::vector<int64_t> &strides, int64_t elemSize);

/// Row-major (contiguous) strides for `dims`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &dims);

/// float -> bfloat16 bits, round to nearest even; NaN stays a (quiet) NaN.
uint16_t floatToBf16(float value);
float bf16ToFloat(uint16_t bits);
/// float -> IEEE half bits, round to nearest even (overflow to infinity).
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

/// Deterministic values uniform in [-1, 1) for element `index` of a stream
/// seeded by `seed` (splitmix64; the same on every platform).
class UniformSource {
public:
  explicit UniformSource(uint64_t seed) : state(seed) {}
  uint64_t nextBits();
  /// Uniform in [-1, 1), a multiple of 2^-23 (exact in float).
  float nextFloat();

private:
  uint64_t state;
};

} // namespace cudnn_run

#endif // CUDNN_RUN_LAYOUT_H
