//===- Layout.cpp - logical <-> strided copies, element conversion --------===//

#include "Layout.h"

#include <cstring>

namespace cudnn_run {

int64_t stridedStorageElements(const std::vector<int64_t> &dims,
                               const std::vector<int64_t> &strides) {
  int64_t last = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0)
      return 0;
    last += (dims[i] - 1) * strides[i];
  }
  return last + 1;
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= dims[i];
  }
  return strides;
}

namespace {

/// Walks the logical order with an odometer; `toStrided` picks the direction.
/// The innermost dim is a plain strided loop.
template <int64_t Size>
void copyElements(const uint8_t *src, uint8_t *dst,
                  const std::vector<int64_t> &dims,
                  const std::vector<int64_t> &strides, bool toStrided) {
  for (int64_t d : dims)
    if (d == 0)
      return;
  if (dims.empty()) {
    std::memcpy(dst, src, Size);
    return;
  }
  const size_t rank = dims.size();
  const int64_t inner = dims[rank - 1];
  const int64_t innerStride = strides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t logical = 0; // element offset in logical order
  int64_t offset = 0;  // element offset in the strided buffer
  while (true) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t o = offset + i * innerStride;
      if (toStrided)
        std::memcpy(dst + o * Size, src + (logical + i) * Size, Size);
      else
        std::memcpy(dst + (logical + i) * Size, src + o * Size, Size);
    }
    logical += inner;
    // Advance the outer dims, innermost first.
    size_t k = rank - 1;
    while (true) {
      if (k == 0)
        return;
      --k;
      if (++index[k] < dims[k]) {
        offset += strides[k];
        break;
      }
      offset -= (dims[k] - 1) * strides[k];
      index[k] = 0;
    }
  }
}

void copyDispatch(const void *src, void *dst, const std::vector<int64_t> &dims,
                  const std::vector<int64_t> &strides, int64_t elemSize,
                  bool toStrided) {
  auto *s = static_cast<const uint8_t *>(src);
  auto *d = static_cast<uint8_t *>(dst);
  switch (elemSize) {
  case 1:
    return copyElements<1>(s, d, dims, strides, toStrided);
  case 2:
    return copyElements<2>(s, d, dims, strides, toStrided);
  case 4:
    return copyElements<4>(s, d, dims, strides, toStrided);
  default:
    return copyElements<8>(s, d, dims, strides, toStrided);
  }
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

} // namespace

void logicalToStrided(const void *logical, void *strided,
                      const std::vector<int64_t> &dims,
                      const std::vector<int64_t> &strides, int64_t elemSize) {
  copyDispatch(logical, strided, dims, strides, elemSize, /*toStrided=*/true);
}

void stridedToLogical(const void *strided, void *logical,
                      const std::vector<int64_t> &dims,
                      const std::vector<int64_t> &strides, int64_t elemSize) {
  copyDispatch(strided, logical, dims, strides, elemSize, /*toStrided=*/false);
}

uint16_t floatToBf16(float value) {
  uint32_t u = floatBits(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep the sign, make it quiet
    return static_cast<uint16_t>((u >> 16) | 0x40);
  uint32_t bias = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + bias) >> 16);
}

float bf16ToFloat(uint16_t bits) {
  return bitsFloat(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToHalf(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) // infinity or NaN
    return sign | (x > 0x7f800000u ? 0x7e00 : 0x7c00);
  if (x >= 0x477ff000u) // 65520 and up round to infinity
    return sign | 0x7c00;
  if (x < 0x33000000u) // below half the smallest subnormal: zero
    return sign;
  if (x < 0x38800000u) { // a half subnormal (units of 2^-24)
    uint32_t mant = (x & 0x7fffffu) | 0x800000u;
    int shift = 126 - static_cast<int>(x >> 23);
    uint32_t r = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u)))
      ++r;
    return sign | static_cast<uint16_t>(r);
  }
  uint32_t r = (x - 0x38000000u) >> 13; // rebias 127 -> 15
  uint32_t rem = x & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u)))
    ++r;
  return sign | static_cast<uint16_t>(r);
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mant = bits & 0x3ffu;
  if (exp == 0x1f)
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    // Subnormal (or zero): mant * 2^-24, exact in float.
    float f = static_cast<float>(mant) * (1.0f / 16777216.0f);
    return sign ? -f : f;
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

uint64_t UniformSource::nextBits() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float UniformSource::nextFloat() {
  int64_t u = static_cast<int64_t>(nextBits() >> 40); // 24 bits
  return static_cast<float>(u - (int64_t(1) << 23)) * (1.0f / 8388608.0f);
}

} // namespace cudnn_run
