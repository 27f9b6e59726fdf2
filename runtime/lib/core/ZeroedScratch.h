//===- ZeroedScratch.h - zero-filled device buffers for timing -*- C++ -*-===//
//
// The tensors a build times plans on (autotuning, fusion by timing):
// stream-ordered allocations, zero-filled, freed when the scratch goes out
// of scope, which also drains the stream. No frontend headers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_ZEROEDSCRATCH_H
#define CUDNN_MLIR_RUNTIME_ZEROEDSCRATCH_H

#include "core/Context.h"

#include <string>
#include <vector>

namespace cmrt {

class ZeroedScratch {
public:
  /// `purpose` names the buffers in an allocation failure ("autotuning").
  ZeroedScratch(cudaStream_t stream, std::string purpose)
      : stream_(stream), purpose_(std::move(purpose)) {}
  ~ZeroedScratch() {
    for (void *p : pointers_)
      (void)cudaFreeAsync(p, stream_);
    (void)cudaStreamSynchronize(stream_);
  }
  ZeroedScratch(const ZeroedScratch &) = delete;
  ZeroedScratch &operator=(const ZeroedScratch &) = delete;

  /// `bytes` zero-filled bytes in `out` (null for bytes <= 0).
  Status allocate(int64_t bytes, void *&out) {
    out = nullptr;
    if (bytes <= 0)
      return Status::success();
    cudaError_t err =
        cudaMallocAsync(&out, static_cast<size_t>(bytes), stream_);
    if (err == cudaSuccess)
      err = cudaMemsetAsync(out, 0, static_cast<size_t>(bytes), stream_);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      return {CMRT_ERROR_CUDA,
              cudaErrorText(("allocating " + std::to_string(bytes) +
                             " bytes of " + purpose_ + " scratch")
                                .c_str(),
                            err)};
    }
    pointers_.push_back(out);
    return Status::success();
  }

private:
  cudaStream_t stream_;
  std::string purpose_;
  std::vector<void *> pointers_;
};

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_ZEROEDSCRATCH_H
