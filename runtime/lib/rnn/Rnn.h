//===- Rnn.h - cuDNN RNNs built for one configuration and device -*- C++ -*-===//
//
// A BuiltRnn owns the cuDNN descriptors of one cmrtRnnConfig on one device:
// the RNN descriptor (with its dropout descriptor), the data descriptors of
// x and y for full-length sequences, the h and c state descriptors, the
// temporary-space sizes and, once the first weight space is seen, where
// every PyTorch parameter lives in it. Calls only read it, so one BuiltRnn
// serves every thread; variable-length calls build their data descriptors
// per call.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_RNN_H
#define CUDNN_MLIR_RUNTIME_RNN_H

#include "core/Context.h"
#include "graph/RnnConfig.h"

#include <memory>
#include <mutex>
#include <vector>

namespace cmrt::rnn {

struct BuiltRnn;

/// Builds the RNN for `config` (valid: rnn::validateConfig) on `device`,
/// which is current. Synchronises `device` (the dropout state and the
/// device copy of full sequence lengths are set up here); refused while
/// `stream` is being captured.
Status buildRnn(const cmrtRnnConfig &config, int device, cudaStream_t stream,
                std::shared_ptr<BuiltRnn> &out);

/// What cmrtRnnGetInfo reports.
void describeRnn(const BuiltRnn &rnn, cmrtRnnInfo &info);

/// Copies PyTorch's `count` parameters into the weight space `weights`
/// (`unpack` false), or the weight space into the parameters (`unpack`
/// true), ordered on `stream`.
Status copyWeights(BuiltRnn &rnn, cudaStream_t stream, void *const *params,
                   int64_t count, void *weights, bool unpack);

/// cudnnRNNForward.
Status forward(const BuiltRnn &rnn, cudaStream_t stream, bool training,
               const cmrtRnnBuffers &buffers);
/// cudnnRNNBackwardData_v8.
Status backwardData(const BuiltRnn &rnn, cudaStream_t stream,
                    const cmrtRnnBuffers &buffers);
/// Zeroes dweights, then cudnnRNNBackwardWeights_v8 (add mode).
Status backwardWeights(const BuiltRnn &rnn, cudaStream_t stream,
                       const cmrtRnnBuffers &buffers);

/// Frees the per-device dropout states (cmrtShutdown, after the cache).
void releaseDropoutStates();

/// Empties the RNN cache (cmrtShutdown); handles stay valid.
void clearRnnCache();

} // namespace cmrt::rnn

#endif // CUDNN_MLIR_RUNTIME_RNN_H
