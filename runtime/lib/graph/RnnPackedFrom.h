//===- RnnPackedFrom.h - what a kept weight space holds ---------*- C++ -*-===//
//
// The bookkeeping behind packing an RNN's parameters once per parameter set
// (RnnWeightSpaces.h): which parameter version and pointers a weight space
// was last packed from. No CUDA, so the CPU tests cover it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_RNNPACKEDFROM_H
#define CUDNN_MLIR_RUNTIME_RNNPACKEDFROM_H

#include <cstdint>
#include <vector>

namespace cmrt::rnn {

class PackedFrom {
public:
  /// Whether packing `params` at `version` would write what the buffer
  /// already holds: only for a declared (non-zero) version equal to the
  /// last pack's, with the same pointers in the same order.
  bool holds(uint64_t version, const void *const *params,
             int64_t count) const;
  /// After a successful pack.
  void record(uint64_t version, const void *const *params, int64_t count);
  /// After a failed pack, or when the buffer is replaced: the next call
  /// packs.
  void forget();

private:
  uint64_t version_ = 0;
  std::vector<const void *> params_;
};

} // namespace cmrt::rnn

#endif // CUDNN_MLIR_RUNTIME_RNNPACKEDFROM_H
