//===- SlidingWindow.h - output extent of a convolution or pool -*- C++ -*-===//
//
// The one output-size formula of a sliding window: the compiler's verifiers
// (tcp and cudnn convolutions and pools) and the runtime's graph validator
// both call it, so they cannot disagree on a shape. Header-only, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_SLIDINGWINDOW_H
#define CUDNN_MLIR_RUNTIME_SLIDINGWINDOW_H

#include <cstdint>
#include <optional>

namespace cmrt::graph {

/// floor((in + padLo + padHi - dilation * (window - 1) - 1) / stride) + 1:
/// the output extent along one spatial dim. std::nullopt when the
/// parameters are invalid (in < 0, stride, dilation or window < 1, negative
/// padding), the output is empty, or the arithmetic overflows int64
/// (attribute values are arbitrary user input).
inline std::optional<int64_t>
slidingWindowOutputSize(int64_t in, int64_t window, int64_t padLo,
                        int64_t padHi, int64_t stride, int64_t dilation) {
  if (in < 0 || stride < 1 || dilation < 1 || window < 1 || padLo < 0 ||
      padHi < 0)
    return std::nullopt;
  int64_t padded, reach, span;
  if (__builtin_add_overflow(in, padLo, &padded) ||
      __builtin_add_overflow(padded, padHi, &padded) ||
      __builtin_mul_overflow(dilation, window - 1, &reach) ||
      reach == INT64_MAX || __builtin_sub_overflow(padded, reach + 1, &span) ||
      span < 0)
    return std::nullopt;
  return span / stride + 1;
}

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_SLIDINGWINDOW_H
