//===- RnnConfig.cpp - checking an RNN configuration, choosing its algorithm ===//

#include "graph/RnnConfig.h"

#include "graph/GraphValidation.h"

#include <limits>
#include <string>

using namespace cmrt;
using namespace cmrt::rnn;
using graph::Status;

namespace {

// cuDNN's values (cudnnDataType_t, cudnnRNNDataLayout_t, cudnnRNNBiasMode_t,
// cudnnDirectionMode_t, cudnnMathType_t), spelled here so that this file
// needs no cuDNN headers.
constexpr int64_t kFloat = static_cast<int64_t>(graph::DataType::Float);
constexpr int64_t kDouble = static_cast<int64_t>(graph::DataType::Double);
constexpr int64_t kHalf = static_cast<int64_t>(graph::DataType::Half);
constexpr int64_t kBfloat16 = static_cast<int64_t>(graph::DataType::BFloat16);
constexpr int64_t kSeqMajorPacked = 1;
constexpr int64_t kNoBias = 0, kSingleInputBias = 1, kSingleRecurrentBias = 3;
constexpr int64_t kBidirectional = 1;
constexpr int64_t kDefaultMath = 0, kTensorOpMath = 1, kFmaMath = 3;

constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

Status expect(cmrtStatus code, const std::string &field,
              const std::string &what, const std::string &got) {
  return {code, "cmrtRnnConfig expects " + field + " " + what + ", but got " +
                    got};
}

Status expectInRange(const char *field, int64_t value, int64_t lo,
                     int64_t hi, const char *meaning = nullptr) {
  if (value >= lo && value <= hi)
    return Status::success();
  std::string range = std::to_string(lo) + ".." +
                      (hi == kMaxInt32 ? std::string("2^31-1")
                                       : std::to_string(hi));
  if (meaning)
    range += std::string(" (") + meaning + ")";
  return expect(CMRT_ERROR_INVALID_ARGUMENT, field, "in " + range,
                std::to_string(value));
}

bool isFloatType(int64_t dataType) {
  return dataType == kFloat || dataType == kDouble ||
         dataType == kHalf || dataType == kBfloat16;
}

bool isPersistent(int64_t algo) {
  return algo == static_cast<int64_t>(Algo::PersistStatic) ||
         algo == static_cast<int64_t>(Algo::PersistDynamic) ||
         algo == static_cast<int64_t>(Algo::PersistStaticSmallH);
}

/// Sequences of one length, not packed: what every persistent kernel needs.
bool fixedLengths(const cmrtRnnConfig &config) {
  return !(config.flags & CMRT_RNN_VARIABLE_LENGTHS) &&
         config.layout != kSeqMajorPacked;
}

/// Fixed lengths, no projection, not f64, a GPU that has them: where
/// cuDNN can run its persistent kernels at all.
bool persistentPossible(const cmrtRnnConfig &config,
                        const DeviceTraits &device) {
  return fixedLengths(config) && config.projSize == 0 &&
         config.dataType != kDouble && device.major >= 6;
}

/// PyTorch's measurements of the small-hidden persistent kernels: faster up
/// to these hidden sizes, which are lower for the backward pass.
bool smallHiddenPays(const cmrtRnnConfig &config, const DeviceTraits &device) {
  if (!persistentPossible(config, device))
    return false;
  bool gated = config.cell == static_cast<int64_t>(Cell::Lstm) ||
               config.cell == static_cast<int64_t>(Cell::Gru);
  bool backward = config.flags & CMRT_RNN_TRAINABLE;
  int64_t limit = gated ? (backward ? 128 : 192) : (backward ? 256 : 384);
  return config.hiddenSize <= limit;
}

/// PyTorch's measurements of the static persistent kernels in f16: one
/// unidirectional layer with sizes in multiples of 128, and batch sizes
/// that were measured faster on Volta and on large Ampere-or-later parts.
bool staticPersistentPays(const cmrtRnnConfig &config,
                          const DeviceTraits &device) {
  if (!persistentPossible(config, device) || config.dataType != kHalf ||
      config.numLayers != 1 ||
      config.direction == kBidirectional || config.hiddenSize > 1024 ||
      config.hiddenSize % 128 != 0 || config.inputSize % 128 != 0)
    return false;
  int64_t batch = config.batch, steps = config.maxSeqLength;
  if (device.major == 7 && device.minor != 5)
    return ((batch % 16 == 0 && batch != 80 && batch != 112) || batch == 8) &&
           ((steps >= 40 && batch <= 128) || (steps >= 20 && batch <= 96) ||
            (steps >= 10 && batch <= 32));
  if (device.major >= 8 && device.minor != 6 &&
      device.multiProcessors >= 98) {
    if (config.cell == static_cast<int64_t>(Cell::Gru))
      return false;
    if (config.cell == static_cast<int64_t>(Cell::Lstm))
      return batch % 8 == 0 && batch <= 128;
    return batch % 8 == 0 && batch <= 128 &&
           (batch < 96 || config.hiddenSize < 896);
  }
  return false;
}

} // namespace

Status rnn::validateConfig(const cmrtRnnConfig &c) {
  if (c.version != CMRT_RNN_CONFIG_VERSION)
    return expect(CMRT_ERROR_VERSION_MISMATCH, "version",
                  std::to_string(CMRT_RNN_CONFIG_VERSION),
                  std::to_string(c.version));
  CMRT_TRY(expectInRange("cell", c.cell, 0, 3,
                         "0 rnn_relu, 1 rnn_tanh, 2 lstm, 3 gru"));
  CMRT_TRY(expectInRange("direction", c.direction, 0, 1,
                         "0 unidirectional, 1 bidirectional"));
  CMRT_TRY(expectInRange("bias", c.bias, 0, 3, "cudnnRNNBiasMode_t"));
  CMRT_TRY(expectInRange("layout", c.layout, 0, 2, "cudnnRNNDataLayout_t"));
  CMRT_TRY(expectInRange("math", c.math, 0, 3, "cudnnMathType_t"));
  CMRT_TRY(expectInRange("algo", c.algo, -1, 3,
                         "cudnnRNNAlgo_t, or -1 to choose"));
  if (!isFloatType(c.dataType))
    return expect(CMRT_ERROR_NOT_SUPPORTED, "dataType",
                  "float, double, half or bfloat16 (cudnnDataType_t 0, 1, 2 "
                  "or 9)",
                  std::to_string(c.dataType));
  CMRT_TRY(expectInRange("inputSize", c.inputSize, 1, kMaxInt32));
  CMRT_TRY(expectInRange("hiddenSize", c.hiddenSize, 1, kMaxInt32));
  CMRT_TRY(expectInRange("numLayers", c.numLayers, 1, kMaxInt32));
  CMRT_TRY(expectInRange("maxSeqLength", c.maxSeqLength, 1, kMaxInt32));
  CMRT_TRY(expectInRange("batch", c.batch, 1, kMaxInt32));
  if (c.projSize < 0 ||
      (c.projSize > 0 &&
       (c.cell != static_cast<int64_t>(Cell::Lstm) || c.projSize >= c.hiddenSize)))
    return expect(CMRT_ERROR_INVALID_ARGUMENT, "projSize",
                  "0, or 0 < projSize < hiddenSize (" +
                      std::to_string(c.hiddenSize) + ") for an lstm",
                  std::to_string(c.projSize) + " for " +
                      cellName(static_cast<Cell>(c.cell)));
  constexpr int64_t kKnownFlags =
      CMRT_RNN_TRAINABLE | CMRT_RNN_VARIABLE_LENGTHS | CMRT_RNN_AUTOTUNE;
  if (c.flags & ~kKnownFlags)
    return expect(CMRT_ERROR_INVALID_ARGUMENT, "flags",
                  "only CMRT_RNN_TRAINABLE, CMRT_RNN_VARIABLE_LENGTHS and "
                  "CMRT_RNN_AUTOTUNE bits",
                  std::to_string(c.flags));
  if (!(c.dropout >= 0 && c.dropout < 1))
    return expect(CMRT_ERROR_INVALID_ARGUMENT, "dropout", "in [0, 1)",
                  std::to_string(c.dropout));
  if (c.bias == kSingleInputBias || c.bias == kSingleRecurrentBias)
    return expect(CMRT_ERROR_NOT_SUPPORTED, "bias",
                  "0 (none) or 2 (double: PyTorch's bias_ih and bias_hh)",
                  std::to_string(c.bias));
  if (isPersistent(c.algo) && c.projSize > 0)
    return expect(CMRT_ERROR_NOT_SUPPORTED, "algo",
                  "0 (standard) with an LSTM projection", std::to_string(c.algo));
  if (isPersistent(c.algo) && !fixedLengths(c))
    return expect(CMRT_ERROR_NOT_SUPPORTED, "algo",
                  "0 (standard) with variable-length or packed sequences",
                  std::to_string(c.algo));
  if (isPersistent(c.algo) && c.dataType == kDouble)
    return expect(CMRT_ERROR_NOT_SUPPORTED, "algo",
                  "0 (standard) for double data", std::to_string(c.algo));
  return Status::success();
}

RnnShape rnn::shapeOf(const cmrtRnnConfig &config) {
  RnnShape shape;
  shape.cell = static_cast<Cell>(config.cell);
  shape.inputSize = config.inputSize;
  shape.hiddenSize = config.hiddenSize;
  shape.numLayers = config.numLayers;
  shape.bidirectional = config.direction == kBidirectional;
  shape.hasBiases = config.bias != kNoBias;
  shape.projSize = config.projSize;
  return shape;
}

int64_t rnn::chooseMathType(const cmrtRnnConfig &config) {
  if (config.math != kDefaultMath)
    return config.math;
  if (config.dataType == kFloat)
    return kFmaMath;
  if (config.dataType == kHalf || config.dataType == kBfloat16)
    return kTensorOpMath;
  return kDefaultMath;
}

Algo rnn::chooseAlgo(const cmrtRnnConfig &config, const DeviceTraits &device) {
  if (config.algo >= 0)
    return static_cast<Algo>(config.algo);
  if (smallHiddenPays(config, device))
    return Algo::PersistStaticSmallH;
  if (staticPersistentPays(config, device))
    return Algo::PersistStatic;
  return Algo::Standard;
}

std::vector<Algo> rnn::tuningCandidates(const cmrtRnnConfig &config,
                                        const DeviceTraits &device) {
  std::vector<Algo> algos{Algo::Standard};
  // Persistent kernels keep the batch's state on chip: measured (H100,
  // benchmarks/probe_rnn_algorithms.py) 3-15x faster than the standard
  // algorithm up to batch 32 and 3-30x slower at 256.
  constexpr int64_t kMaxPersistentBatch = 128;
  if (!persistentPossible(config, device) ||
      config.batch > kMaxPersistentBatch)
    return algos;
  algos.push_back(Algo::PersistStatic);
  algos.push_back(Algo::PersistDynamic);
  if (smallHiddenPays(config, device))
    algos.push_back(Algo::PersistStaticSmallH);
  return algos;
}
