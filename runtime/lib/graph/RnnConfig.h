//===- RnnConfig.h - checking an RNN configuration, choosing its algorithm -*- C++ -*-===//
//
// The CUDA-free half of the runtime's RNN support: what a cmrtRnnConfig
// must satisfy before cuDNN sees it, the torch.nn shape it implies (for the
// weight layout), and the choices the runtime makes for the caller when the
// configuration leaves them open: the math type and the algorithm. The
// algorithm follows the rules PyTorch measured for its own cuDNN RNNs
// (persistent kernels for small hidden sizes and some fp16 shapes), so that
// the same model picks the same kernels through either path.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_RNNCONFIG_H
#define CUDNN_MLIR_RUNTIME_RNNCONFIG_H

#include "cudnn-mlir-runtime/Graph.h"
#include "cudnn-mlir-runtime/RnnWeightLayout.h"

#include <cstdint>
#include <vector>

namespace cmrt::rnn {

/// cudnnRNNAlgo_t values.
enum class Algo : int64_t {
  Standard = 0,
  PersistStatic = 1,
  PersistDynamic = 2,
  PersistStaticSmallH = 3,
};

/// What the algorithm choice needs to know about the GPU.
struct DeviceTraits {
  int major = 0;
  int minor = 0;
  int multiProcessors = 0;
};

/// Checks every field of `config`; the message names the field and says
/// what was expected ("cmrtRnnConfig expects hiddenSize in 1..2^31-1, but
/// got 0"). Combinations cuDNN has no kernel for (projections or variable
/// lengths with a persistent algorithm, bias modes PyTorch has no
/// parameters for) are CMRT_ERROR_NOT_SUPPORTED.
graph::Status validateConfig(const cmrtRnnConfig &config);

/// The torch.nn.RNNBase arguments of a valid config.
RnnShape shapeOf(const cmrtRnnConfig &config);

/// The cudnnMathType_t to use: config.math, or for 0 (default) FMA for f32
/// (exact, no TF32), tensor ops for f16 and bf16, and default for f64.
int64_t chooseMathType(const cmrtRnnConfig &config);

/// The cudnnRNNAlgo_t to use: config.algo, or for -1 the standard algorithm
/// unless a persistent one is known to be faster and allowed (fixed-length
/// sequences, no projection): the small-hidden persistent kernels up to
/// hidden 384 (relu/tanh) or 192 (LSTM/GRU) forward, 256/128 when the RNN
/// also runs backward; the static persistent kernels for some single-layer
/// unidirectional f16 shapes on devices where they were measured faster.
Algo chooseAlgo(const cmrtRnnConfig &config, const DeviceTraits &device);

/// The algorithms CMRT_RNN_AUTOTUNE times, standard first: the persistent
/// ones only where cuDNN can run them (fixed lengths, no projection, not
/// f64, compute capability 6 or more) and where they can pay (batch <= 128;
/// the small-hidden kernels only up to their hidden-size limits).
std::vector<Algo> tuningCandidates(const cmrtRnnConfig &config,
                                   const DeviceTraits &device);

} // namespace cmrt::rnn

#endif // CUDNN_MLIR_RUNTIME_RNNCONFIG_H
