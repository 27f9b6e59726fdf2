//===- RnnWeightSpaces.h - weight spaces kept across calls ------*- C++ -*-===//
//
// The weight spaces compiled RNNs let the runtime keep
// (cudnn.rnn_weight_space -> cmrtInvocationRnnPackedWeights): one device
// buffer per call site, device, stream and thread, repacked only when the
// caller's parameter version (cmrtSetParameterVersion) or the parameter
// pointers changed. Per thread and stream, a call site's calls are ordered,
// so a repack never overwrites weights that earlier work still reads.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_RNNWEIGHTSPACES_H
#define CUDNN_MLIR_RUNTIME_RNNWEIGHTSPACES_H

#include "graph/RnnPackedFrom.h"
#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

namespace cmrt::rnn {

/// Declares the calling thread's parameter version (0: none), which
/// keptWeightSpace compares with the last pack's.
void setParameterVersion(uint64_t version);

/// The buffer of `bytes` kept for (site, device, stream, calling thread),
/// with `pack(buffer)` run first unless it holds `params` at the thread's
/// parameter version. Allocates on first use (refused while `stream` is
/// being captured). Returns pack's status, or a CUDA failure.
cmrtStatus keptWeightSpace(const void *site, int device, cudaStream_t stream,
                           int64_t bytes, const void *const *params,
                           int64_t count,
                           const std::function<cmrtStatus(void *)> &pack,
                           void *&buffer);

/// Packs and reuses so far (cmrtRnnGetWeightSpaceStats).
void weightSpaceStats(int64_t &packs, int64_t &reuses);

/// Frees every kept weight space (cmrtShutdown); the next use repacks.
void releaseWeightSpaces();

} // namespace cmrt::rnn

#endif // CUDNN_MLIR_RUNTIME_RNNWEIGHTSPACES_H
