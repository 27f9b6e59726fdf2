//===- Rnn.cpp - cuDNN RNNs built for one configuration and device --------===//
//
// The RNN v8 API: cudnnSetRNNDescriptor_v8 once per configuration,
// cudnnSetRNNDataDescriptor for x and y (once for full-length sequences,
// per call for variable ones), cudnnGetRNNWeightParams to find PyTorch's
// parameters in the weight space, and cudnnRNNForward /
// cudnnRNNBackwardData_v8 / cudnnRNNBackwardWeights_v8 on the caller's
// stream with workspace from the runtime's pool.
//
//===----------------------------------------------------------------------===//

#include "rnn/Rnn.h"

#include "kernels/DeviceMemoryPool.h"
#include "graph/GraphValidation.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <utility>
#include <unordered_map>

using namespace cmrt;
using namespace cmrt::rnn;

namespace {

/// Owns one cuDNN descriptor.
template <typename Handle, cudnnStatus_t (*Create)(Handle *),
          cudnnStatus_t (*Destroy)(Handle)>
class Descriptor {
public:
  Descriptor() = default;
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  ~Descriptor() {
    if (handle_)
      Destroy(handle_);
  }
  cudnnStatus_t create() { return Create(&handle_); }
  Handle get() const { return handle_; }

private:
  Handle handle_ = nullptr;
};

using RnnDescriptor = Descriptor<cudnnRNNDescriptor_t, cudnnCreateRNNDescriptor,
                                 cudnnDestroyRNNDescriptor>;
using DropoutDescriptor =
    Descriptor<cudnnDropoutDescriptor_t, cudnnCreateDropoutDescriptor,
               cudnnDestroyDropoutDescriptor>;
using DataDescriptor =
    Descriptor<cudnnRNNDataDescriptor_t, cudnnCreateRNNDataDescriptor,
               cudnnDestroyRNNDataDescriptor>;
using TensorDescriptor =
    Descriptor<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor,
               cudnnDestroyTensorDescriptor>;

Status checkCudnn(cudnnStatus_t status, const std::string &what) {
  if (status == CUDNN_STATUS_SUCCESS)
    return Status::success();
  return {status == CUDNN_STATUS_NOT_SUPPORTED ? CMRT_ERROR_NOT_SUPPORTED
                                               : CMRT_ERROR_CUDNN,
          what + " failed: " + cudnnErrorText(status)};
}

Status checkCuda(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return Status::success();
  return {CMRT_ERROR_CUDA, cudaErrorText(what, err)};
}

/// One contiguous copy between a parameter and the weight space (bytes).
struct WeightCopy {
  int64_t param = 0;
  int64_t paramOffset = 0;
  int64_t spaceOffset = 0;
  int64_t bytes = 0;
};

/// The dropout RNG state of one device: created (and seeded) by the first
/// RNN with dropout there, restored into every later one. Dropout in
/// training advances it, so RNNs that train with dropout on several
/// streams at once share one sequence of random numbers.
struct DropoutState {
  void *states = nullptr;
  size_t bytes = 0;
  unsigned long long seed = 0;
};

std::mutex &dropoutMutex() {
  static auto *m = new std::mutex;
  return *m;
}

std::unordered_map<int, DropoutState> &dropoutStates() {
  // Leaked on purpose, like the caches: freed by cmrtShutdown.
  static auto *states = new std::unordered_map<int, DropoutState>;
  return *states;
}

Status setDropout(cudnnDropoutDescriptor_t desc, cudnnHandle_t handle,
                  int device, cudaStream_t stream, float p,
                  unsigned long long seed) {
  if (p == 0)
    return checkCudnn(
        cudnnSetDropoutDescriptor(desc, handle, 0.0f, nullptr, 0, 0),
        "cudnnSetDropoutDescriptor (no dropout)");
  std::lock_guard<std::mutex> lock(dropoutMutex());
  auto [it, fresh] = dropoutStates().try_emplace(device);
  DropoutState &state = it->second;
  if (!fresh)
    return checkCudnn(cudnnRestoreDropoutDescriptor(desc, handle, p,
                                                    state.states, state.bytes,
                                                    state.seed),
                      "cudnnRestoreDropoutDescriptor");
  Status s = checkCudnn(cudnnDropoutGetStatesSize(handle, &state.bytes),
                        "cudnnDropoutGetStatesSize");
  if (s.ok())
    s = checkCuda(cudaMalloc(&state.states, state.bytes),
                  "cudaMalloc (dropout state)");
  state.seed = seed;
  if (s.ok())
    s = checkCudnn(cudnnSetDropoutDescriptor(desc, handle, p, state.states,
                                             state.bytes, seed),
                   "cudnnSetDropoutDescriptor");
  if (s.ok())
    s = checkCuda(cudaStreamSynchronize(stream),
                  "cudaStreamSynchronize (dropout state)");
  if (!s.ok()) {
    if (state.states)
      cudaFree(state.states);
    dropoutStates().erase(it);
  }
  return s;
}

const double kZeroFill = 0; // zero bits read as any float type

} // namespace

struct cmrt::rnn::BuiltRnn {
  cmrtRnnConfig config{};
  int device = 0;
  WeightLayout layout;
  Algo algo = Algo::Standard;
  int64_t mathType = 0;
  DropoutDescriptor dropout;
  RnnDescriptor rnn;
  DataDescriptor x, y;
  TensorDescriptor h, c;
  int64_t weightBytes = 0;
  int64_t workInferenceBytes = 0;
  int64_t workTrainingBytes = 0;
  int64_t reserveBytes = 0;
  /// PyTorch's parameters together, in bytes.
  int64_t paramBytes = 0;
  bool autotuned = false;
  /// maxSeqLength for every sequence, on the device (cuDNN wants lengths
  /// there even when all are full).
  int32_t *fullLengths = nullptr;

  std::mutex copiesMutex;
  bool copiesFound = false;
  bool spaceHasGaps = false;
  std::vector<WeightCopy> copies;

  ~BuiltRnn() {
    if (fullLengths)
      cudaFree(fullLengths);
  }

  cudnnDataType_t dataType() const {
    return static_cast<cudnnDataType_t>(config.dataType);
  }
  bool lstm() const { return config.cell == CUDNN_LSTM; }
  bool variableLengths() const {
    return config.flags & CMRT_RNN_VARIABLE_LENGTHS;
  }
  int64_t directions() const {
    return config.direction == CUDNN_BIDIRECTIONAL ? 2 : 1;
  }
  int64_t outputSize() const {
    return config.projSize > 0 ? config.projSize : config.hiddenSize;
  }
};

namespace {

Status setData(cudnnRNNDataDescriptor_t desc, const BuiltRnn &r,
               int64_t vectorSize, const int32_t *lengths) {
  return checkCudnn(
      cudnnSetRNNDataDescriptor(
          desc, r.dataType(),
          static_cast<cudnnRNNDataLayout_t>(r.config.layout),
          static_cast<int>(r.config.maxSeqLength),
          static_cast<int>(r.config.batch), static_cast<int>(vectorSize),
          lengths, const_cast<double *>(&kZeroFill)),
      "cudnnSetRNNDataDescriptor");
}

Status setState(cudnnTensorDescriptor_t desc, const BuiltRnn &r,
                int64_t size) {
  int dims[3] = {static_cast<int>(r.config.numLayers * r.directions()),
                 static_cast<int>(r.config.batch), static_cast<int>(size)};
  int strides[3] = {dims[1] * dims[2], dims[2], 1};
  return checkCudnn(cudnnSetTensorNdDescriptor(desc, r.dataType(), 3, dims,
                                               strides),
                    "cudnnSetTensorNdDescriptor (RNN state)");
}

/// Sets the RNN descriptor for `algo` and everything that depends on it
/// (weight-space and temporary-space sizes).
Status configure(BuiltRnn &r, Algo algo, cudnnHandle_t handle) {
  const cmrtRnnConfig &c = r.config;
  cudnnDataType_t mathPrec = r.dataType() == CUDNN_DATA_DOUBLE
                                 ? CUDNN_DATA_DOUBLE
                                 : CUDNN_DATA_FLOAT;
  uint32_t aux = c.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED
                     ? CUDNN_RNN_PADDED_IO_DISABLED
                     : CUDNN_RNN_PADDED_IO_ENABLED;
  std::string what = std::string("cudnnSetRNNDescriptor_v8 (") +
                     cellName(static_cast<Cell>(c.cell)) + ", algo " +
                     std::to_string(static_cast<int64_t>(algo)) + ")";
  CMRT_TRY(checkCudnn(
      cudnnSetRNNDescriptor_v8(
          r.rnn.get(), static_cast<cudnnRNNAlgo_t>(algo),
          static_cast<cudnnRNNMode_t>(c.cell),
          static_cast<cudnnRNNBiasMode_t>(c.bias),
          static_cast<cudnnDirectionMode_t>(c.direction), CUDNN_LINEAR_INPUT,
          r.dataType(), mathPrec, static_cast<cudnnMathType_t>(r.mathType),
          static_cast<int32_t>(c.inputSize),
          static_cast<int32_t>(c.hiddenSize),
          static_cast<int32_t>(r.outputSize()),
          static_cast<int32_t>(c.numLayers), r.dropout.get(), aux),
      what));
  if (algo == Algo::PersistDynamic)
    CMRT_TRY(checkCudnn(
        cudnnBuildRNNDynamic(handle, r.rnn.get(),
                             static_cast<int>(c.batch)),
        "cudnnBuildRNNDynamic"));
  size_t weightBytes = 0, work = 0, reserve = 0, unused = 0;
  CMRT_TRY(checkCudnn(
      cudnnGetRNNWeightSpaceSize(handle, r.rnn.get(), &weightBytes),
      "cudnnGetRNNWeightSpaceSize"));
  CMRT_TRY(checkCudnn(cudnnGetRNNTempSpaceSizes(handle, r.rnn.get(),
                                                CUDNN_FWD_MODE_INFERENCE,
                                                r.x.get(), &work, &unused),
                      "cudnnGetRNNTempSpaceSizes (inference)"));
  r.workInferenceBytes = static_cast<int64_t>(work);
  CMRT_TRY(checkCudnn(cudnnGetRNNTempSpaceSizes(handle, r.rnn.get(),
                                                CUDNN_FWD_MODE_TRAINING,
                                                r.x.get(), &work, &reserve),
                      "cudnnGetRNNTempSpaceSizes (training)"));
  r.weightBytes = static_cast<int64_t>(weightBytes);
  r.workTrainingBytes = static_cast<int64_t>(work);
  r.reserveBytes = static_cast<int64_t>(reserve);
  r.algo = algo;
  return Status::success();
}

DeviceTraits traitsOf(int device) {
  DeviceTraits traits;
  cudaDeviceGetAttribute(&traits.major, cudaDevAttrComputeCapabilityMajor,
                         device);
  cudaDeviceGetAttribute(&traits.minor, cudaDevAttrComputeCapabilityMinor,
                         device);
  cudaDeviceGetAttribute(&traits.multiProcessors,
                         cudaDevAttrMultiProcessorCount, device);
  return traits;
}

/// Device memory for the build's scratch buffers.
class ScratchBuffer {
public:
  ScratchBuffer() = default;
  ScratchBuffer(const ScratchBuffer &) = delete;
  ScratchBuffer &operator=(const ScratchBuffer &) = delete;
  ~ScratchBuffer() {
    if (data_)
      cudaFree(data_);
  }
  Status allocate(int64_t bytes) {
    CMRT_TRY(checkCuda(cudaMalloc(&data_, static_cast<size_t>(
                                              std::max<int64_t>(bytes, 1))),
                       "cudaMalloc (RNN autotuning scratch)"));
    return checkCuda(cudaMemset(data_, 0, static_cast<size_t>(bytes)),
                     "cudaMemset (RNN autotuning scratch)");
  }
  void *data() const { return data_; }

private:
  void *data_ = nullptr;
};

/// One timed unit of work for the configured algorithm: a forward pass,
/// and both backward passes for an RNN that will train.
Status runOnce(const BuiltRnn &r, cudaStream_t stream,
               const cmrtRnnBuffers &buffers) {
  bool training = r.config.flags & CMRT_RNN_TRAINABLE;
  CMRT_TRY(rnn::forward(r, stream, training, buffers));
  if (!training)
    return Status::success();
  CMRT_TRY(rnn::backwardData(r, stream, buffers));
  return rnn::backwardWeights(r, stream, buffers);
}

/// Milliseconds of runOnce for the configured algorithm on zeroed scratch
/// buffers: one warm-up run, then the mean of two.
Status timeAlgorithm(const BuiltRnn &r, cudaStream_t stream, float &ms) {
  const cmrtRnnConfig &c = r.config;
  int64_t elementBytes = graph::dataTypeBytes(c.dataType);
  int64_t steps = c.maxSeqLength * c.batch;
  ScratchBuffer x, y, weights, dweights, reserve;
  CMRT_TRY(x.allocate(steps * c.inputSize * elementBytes));
  CMRT_TRY(y.allocate(steps * r.directions() * r.outputSize() * elementBytes));
  CMRT_TRY(weights.allocate(r.weightBytes));
  bool training = c.flags & CMRT_RNN_TRAINABLE;
  if (training) {
    CMRT_TRY(dweights.allocate(r.weightBytes));
    CMRT_TRY(reserve.allocate(r.reserveBytes));
  }
  // Timing needs no meaningful values: x doubles as dx, y as dy, and null
  // states read as zeros.
  cmrtRnnBuffers b{};
  b.x = x.data();
  b.dx = x.data();
  b.y = y.data();
  b.dy = y.data();
  b.weights = weights.data();
  b.dweights = dweights.data();
  b.reserve = reserve.data();
  CMRT_TRY(runOnce(r, stream, b));
  cudaEvent_t start = nullptr, stop = nullptr;
  Status s = checkCuda(cudaEventCreate(&start), "cudaEventCreate");
  if (s.ok())
    s = checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
  constexpr int kRuns = 2;
  if (s.ok())
    s = checkCuda(cudaEventRecord(start, stream), "cudaEventRecord");
  for (int i = 0; i < kRuns && s.ok(); ++i)
    s = runOnce(r, stream, b);
  if (s.ok())
    s = checkCuda(cudaEventRecord(stop, stream), "cudaEventRecord");
  if (s.ok())
    s = checkCuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
  if (s.ok())
    s = checkCuda(cudaEventElapsedTime(&ms, start, stop),
                  "cudaEventElapsedTime");
  ms /= kRuns;
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  return s;
}

/// CMRT_RNN_AUTOTUNE: configures and times every candidate algorithm, then
/// configures the fastest. Candidates cuDNN refuses are skipped; the
/// standard algorithm's failure is the build's.
Status autotune(BuiltRnn &r, cudnnHandle_t handle, cudaStream_t stream,
                const DeviceTraits &traits) {
  Algo best = Algo::Standard;
  float bestMs = std::numeric_limits<float>::infinity();
  for (Algo algo : tuningCandidates(r.config, traits)) {
    Status s = configure(r, algo, handle);
    float ms = 0;
    if (s.ok())
      s = timeAlgorithm(r, stream, ms);
    if (!s.ok()) {
      if (algo == Algo::Standard)
        return s;
      cudaGetLastError(); // a refused candidate leaves no error behind
      continue;
    }
    if (ms < bestMs) {
      best = algo;
      bestMs = ms;
    }
  }
  r.autotuned = true;
  return configure(r, best, handle);
}

} // namespace

Status rnn::buildRnn(const cmrtRnnConfig &config, int device,
                     cudaStream_t stream, std::shared_ptr<BuiltRnn> &out) {
  CMRT_TRY(checkNotCapturing(stream, "building an RNN"));
  auto r = std::make_shared<BuiltRnn>();
  r->config = config;
  r->device = device;
  CMRT_TRY(describeWeights(shapeOf(config), r->layout));
  for (const Param &param : r->layout.params) {
    int64_t elements = 1;
    for (int64_t d : param.shape)
      elements *= d;
    r->paramBytes += elements * graph::dataTypeBytes(config.dataType);
  }
  cudnnHandle_t handle = nullptr;
  CMRT_TRY(handleFor(device, stream, handle));
  r->mathType = chooseMathType(config);

  CMRT_TRY(checkCudnn(r->dropout.create(), "cudnnCreateDropoutDescriptor"));
  CMRT_TRY(setDropout(r->dropout.get(), handle, device, stream,
                      static_cast<float>(config.dropout),
                      static_cast<unsigned long long>(config.dropoutSeed)));
  CMRT_TRY(checkCudnn(r->rnn.create(), "cudnnCreateRNNDescriptor"));
  CMRT_TRY(checkCudnn(r->x.create(), "cudnnCreateRNNDataDescriptor"));
  CMRT_TRY(checkCudnn(r->y.create(), "cudnnCreateRNNDataDescriptor"));
  CMRT_TRY(checkCudnn(r->h.create(), "cudnnCreateTensorDescriptor"));
  CMRT_TRY(checkCudnn(r->c.create(), "cudnnCreateTensorDescriptor"));
  std::vector<int32_t> full(static_cast<size_t>(config.batch),
                            static_cast<int32_t>(config.maxSeqLength));
  CMRT_TRY(setData(r->x.get(), *r, config.inputSize, full.data()));
  CMRT_TRY(setData(r->y.get(), *r, r->directions() * r->outputSize(),
                   full.data()));
  CMRT_TRY(setState(r->h.get(), *r, r->outputSize()));
  CMRT_TRY(setState(r->c.get(), *r, config.hiddenSize));

  size_t lengthBytes = full.size() * sizeof(int32_t);
  CMRT_TRY(checkCuda(cudaMalloc(reinterpret_cast<void **>(&r->fullLengths),
                                lengthBytes),
                     "cudaMalloc (RNN sequence lengths)"));
  CMRT_TRY(checkCuda(cudaMemcpy(r->fullLengths, full.data(), lengthBytes,
                                cudaMemcpyHostToDevice),
                     "cudaMemcpy (RNN sequence lengths)"));

  DeviceTraits traits = traitsOf(device);
  if (config.algo < 0 && (config.flags & CMRT_RNN_AUTOTUNE)) {
    CMRT_TRY(autotune(*r, handle, stream, traits));
  } else {
    Algo algo = chooseAlgo(config, traits);
    Status s = configure(*r, algo, handle);
    // A persistent algorithm the runtime chose but cuDNN turns down for
    // this shape: the standard one always exists.
    if (!s.ok() && config.algo < 0 && algo != Algo::Standard)
      s = configure(*r, Algo::Standard, handle);
    CMRT_TRY(s);
  }
  out = std::move(r);
  return Status::success();
}

void rnn::describeRnn(const BuiltRnn &r, cmrtRnnInfo &info) {
  info.weightSpaceBytes = r.weightBytes;
  info.workspaceInferenceBytes = r.workInferenceBytes;
  info.workspaceTrainingBytes = r.workTrainingBytes;
  info.reserveBytes = r.reserveBytes;
  info.paramCount = static_cast<int64_t>(r.layout.params.size());
  info.algo = static_cast<int64_t>(r.algo);
  info.mathType = r.mathType;
  info.autotuned = r.autotuned ? 1 : 0;
  info.paramBytes = r.paramBytes;
}

namespace {

/// Where each piece of each parameter lives in the weight space. cuDNN
/// gives addresses inside a given weight space, so the first one seen
/// fixes the offsets for all.
Status findCopies(BuiltRnn &r, cudnnHandle_t handle, const void *weights) {
  std::lock_guard<std::mutex> lock(r.copiesMutex);
  if (r.copiesFound)
    return Status::success();
  TensorDescriptor matrix, bias;
  CMRT_TRY(checkCudnn(matrix.create(), "cudnnCreateTensorDescriptor"));
  CMRT_TRY(checkCudnn(bias.create(), "cudnnCreateTensorDescriptor"));
  int64_t elementBytes = graph::dataTypeBytes(r.config.dataType);
  std::vector<WeightCopy> copies;
  int64_t covered = 0;
  for (const Piece &piece : r.layout.pieces) {
    void *matrixAddr = nullptr, *biasAddr = nullptr;
    CMRT_TRY(checkCudnn(
        cudnnGetRNNWeightParams(handle, r.rnn.get(), piece.pseudoLayer,
                                static_cast<size_t>(r.weightBytes), weights,
                                piece.linLayerId, matrix.get(), &matrixAddr,
                                bias.get(), &biasAddr),
        "cudnnGetRNNWeightParams"));
    void *addr = piece.bias ? biasAddr : matrixAddr;
    const std::string &name = r.layout.params[piece.param].name;
    std::string where = std::string(piece.bias ? "bias" : "matrix") +
                        " of linear layer " +
                        std::to_string(piece.linLayerId) +
                        " of pseudo-layer " +
                        std::to_string(piece.pseudoLayer) + " (" + name +
                        " rows " + std::to_string(piece.rowOffset) + ".." +
                        std::to_string(piece.rowOffset + piece.rows) + ")";
    if (!addr)
      return {CMRT_ERROR_CUDNN,
              "cudnnGetRNNWeightParams has no " + where + ", but PyTorch's "
              "layout has one"};
    cudnnDataType_t type;
    int rank = 0, dims[3] = {0, 0, 0}, strides[3] = {0, 0, 0};
    CMRT_TRY(checkCudnn(cudnnGetTensorNdDescriptor(piece.bias ? bias.get()
                                                              : matrix.get(),
                                                   3, &type, &rank, dims,
                                                   strides),
                        "cudnnGetTensorNdDescriptor"));
    int64_t elements = 1;
    for (int i = 0; i < rank && i < 3; ++i)
      elements *= dims[i];
    if (elements != piece.rows * piece.cols)
      return {CMRT_ERROR_CUDNN,
              "cudnnGetRNNWeightParams expects " + std::to_string(elements) +
                  " elements in the " + where + ", but PyTorch's layout has " +
                  std::to_string(piece.rows * piece.cols)};
    WeightCopy copy{piece.param, piece.rowOffset * piece.cols * elementBytes,
                    static_cast<const char *>(addr) -
                        static_cast<const char *>(weights),
                    piece.rows * piece.cols * elementBytes};
    if (copy.spaceOffset < 0 ||
        copy.spaceOffset + copy.bytes > r.weightBytes)
      return {CMRT_ERROR_CUDNN, "cudnnGetRNNWeightParams places the " +
                                    where + " outside the weight space"};
    covered += copy.bytes;
    // Gates of one parameter usually sit back to back in both layouts:
    // one copy moves them all.
    if (!copies.empty()) {
      WeightCopy &last = copies.back();
      if (last.param == copy.param &&
          last.paramOffset + last.bytes == copy.paramOffset &&
          last.spaceOffset + last.bytes == copy.spaceOffset) {
        last.bytes += copy.bytes;
        continue;
      }
    }
    copies.push_back(copy);
  }
  r.spaceHasGaps = covered != r.weightBytes;
  r.copies = std::move(copies);
  r.copiesFound = true;
  return Status::success();
}

/// The descriptors and lengths of one call.
struct CallShape {
  cudnnHandle_t handle = nullptr;
  cudnnRNNDataDescriptor_t x = nullptr, y = nullptr;
  const int32_t *lengths = nullptr;
  int64_t workBytes = 0, reserveBytes = 0;
  DataDescriptor ownX, ownY; // variable lengths
  WorkspaceLease workspace;
};

Status requireBuffers(
    const char *entry,
    std::initializer_list<std::pair<const char *, const void *>> buffers) {
  for (auto [name, p] : buffers)
    if (!p)
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(entry) + " expects buffers->" + name +
                  ", but got null"};
  return Status::success();
}

/// Checks what every call shares and sets up `shape`: the device, the
/// cell-state buffers, the sequence lengths and data descriptors, and the
/// temporary-space sizes for `mode`.
Status describeCall(const BuiltRnn &r, cudaStream_t stream,
                    const cmrtRnnBuffers &b, cudnnForwardMode_t mode,
                    const char *entry, CallShape &shape) {
  int device = 0;
  CMRT_TRY(currentDevice(device));
  if (device != r.device)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            std::string(entry) + " expects the RNN's device " +
                std::to_string(r.device) + " to be current, but device " +
                std::to_string(device) + " is"};
  if (!r.lstm()) {
    const void *cell[] = {b.cx, b.cy, b.dcy, b.dcx};
    const char *names[] = {"cx", "cy", "dcy", "dcx"};
    for (int i = 0; i < 4; ++i)
      if (cell[i])
        return {CMRT_ERROR_INVALID_ARGUMENT,
                std::string(entry) + " expects no buffers->" + names[i] +
                    " for a " + cellName(static_cast<Cell>(r.config.cell)) +
                    " cell (cell states are LSTM's), but got one"};
  }
  CMRT_TRY(handleFor(device, stream, shape.handle));
  if (!r.variableLengths()) {
    if (b.seqLengths || b.hostSeqLengths)
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(entry) + " expects no sequence lengths for an RNN "
                                   "built without CMRT_RNN_VARIABLE_LENGTHS, "
                                   "but got some"};
    shape.x = r.x.get();
    shape.y = r.y.get();
    shape.lengths = r.fullLengths;
    shape.workBytes = mode == CUDNN_FWD_MODE_TRAINING ? r.workTrainingBytes
                                                      : r.workInferenceBytes;
    shape.reserveBytes = r.reserveBytes;
    return Status::success();
  }
  CMRT_TRY(requireBuffers(entry, {{"seqLengths", b.seqLengths}}));
  std::vector<int32_t> lengths(static_cast<size_t>(r.config.batch));
  if (b.hostSeqLengths) {
    std::copy(b.hostSeqLengths, b.hostSeqLengths + lengths.size(),
              lengths.begin());
  } else {
    CMRT_TRY(checkNotCapturing(stream, "reading sequence lengths"));
    CMRT_TRY(checkCuda(cudaMemcpyAsync(lengths.data(), b.seqLengths,
                                       lengths.size() * sizeof(int32_t),
                                       cudaMemcpyDeviceToHost, stream),
                       "cudaMemcpyAsync (RNN sequence lengths)"));
    CMRT_TRY(checkCuda(cudaStreamSynchronize(stream),
                       "cudaStreamSynchronize (RNN sequence lengths)"));
  }
  bool packed = r.config.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED;
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] < 1 || lengths[i] > r.config.maxSeqLength)
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(entry) + " expects sequence lengths in 1.." +
                  std::to_string(r.config.maxSeqLength) +
                  ", but sequence " + std::to_string(i) + " has " +
                  std::to_string(lengths[i])};
    if (packed && i > 0 && lengths[i] > lengths[i - 1])
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(entry) + " expects packed sequences sorted by "
                                   "decreasing length, but sequence " +
                  std::to_string(i) + " (" + std::to_string(lengths[i]) +
                  ") is longer than sequence " + std::to_string(i - 1) +
                  " (" + std::to_string(lengths[i - 1]) + ")"};
  }
  CMRT_TRY(checkCudnn(shape.ownX.create(), "cudnnCreateRNNDataDescriptor"));
  CMRT_TRY(checkCudnn(shape.ownY.create(), "cudnnCreateRNNDataDescriptor"));
  CMRT_TRY(setData(shape.ownX.get(), r, r.config.inputSize, lengths.data()));
  CMRT_TRY(setData(shape.ownY.get(), r, r.directions() * r.outputSize(),
                   lengths.data()));
  shape.x = shape.ownX.get();
  shape.y = shape.ownY.get();
  shape.lengths = b.seqLengths;
  size_t work = 0, reserve = 0;
  CMRT_TRY(checkCudnn(cudnnGetRNNTempSpaceSizes(shape.handle, r.rnn.get(),
                                                mode, shape.x, &work,
                                                &reserve),
                      "cudnnGetRNNTempSpaceSizes"));
  shape.workBytes = static_cast<int64_t>(work);
  shape.reserveBytes = static_cast<int64_t>(reserve);
  if (mode == CUDNN_FWD_MODE_TRAINING && shape.reserveBytes > r.reserveBytes)
    return {CMRT_ERROR_CUDNN,
            std::string(entry) + " expects these lengths to need at most "
                                 "the full-length reserve space (" +
                std::to_string(r.reserveBytes) + " bytes), but cuDNN asks "
                                                 "for " +
                std::to_string(shape.reserveBytes)};
  return Status::success();
}

/// describeCall, then the reserve space (when the call uses one) and the
/// workspace.
Status prepareCall(const BuiltRnn &r, cudaStream_t stream,
                   const cmrtRnnBuffers &b, cudnnForwardMode_t mode,
                   bool usesReserve, const char *entry, CallShape &shape) {
  if (usesReserve && r.reserveBytes > 0)
    CMRT_TRY(requireBuffers(entry, {{"reserve", b.reserve}}));
  CMRT_TRY(describeCall(r, stream, b, mode, entry, shape));
  return shape.workspace.acquire(r.device, stream, shape.workBytes);
}

} // namespace

Status rnn::copyWeights(BuiltRnn &r, cudaStream_t stream, void *const *params,
                        int64_t count, void *weights, bool unpack) {
  const char *entry = unpack ? "cmrtRnnUnpackWeights" : "cmrtRnnPackWeights";
  auto expected = static_cast<int64_t>(r.layout.params.size());
  if (count != expected || !params)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            std::string(entry) + " expects " + std::to_string(expected) +
                " parameter pointers (" + r.layout.params.front().name +
                ", ...), but got " + std::to_string(count)};
  for (int64_t i = 0; i < count; ++i)
    if (!params[i])
      return {CMRT_ERROR_INVALID_ARGUMENT,
              std::string(entry) + " expects a pointer for parameter " +
                  std::to_string(i) + " (" + r.layout.params[i].name +
                  "), but got null"};
  if (!weights)
    return {CMRT_ERROR_INVALID_ARGUMENT,
            std::string(entry) + " expects a weight space, but got null"};
  int device = 0;
  CMRT_TRY(currentDevice(device));
  cudnnHandle_t handle = nullptr;
  CMRT_TRY(handleFor(device, stream, handle));
  CMRT_TRY(findCopies(r, handle, weights));
  auto *space = static_cast<char *>(weights);
  if (!unpack && r.spaceHasGaps)
    CMRT_TRY(checkCuda(cudaMemsetAsync(space, 0,
                                       static_cast<size_t>(r.weightBytes),
                                       stream),
                       "cudaMemsetAsync (weight space)"));
  for (const WeightCopy &copy : r.copies) {
    char *param = static_cast<char *>(params[copy.param]) + copy.paramOffset;
    char *inSpace = space + copy.spaceOffset;
    CMRT_TRY(checkCuda(cudaMemcpyAsync(unpack ? param : inSpace,
                                       unpack ? inSpace : param,
                                       static_cast<size_t>(copy.bytes),
                                       cudaMemcpyDeviceToDevice, stream),
                       "cudaMemcpyAsync (RNN weights)"));
  }
  return Status::success();
}

Status rnn::forward(const BuiltRnn &r, cudaStream_t stream, bool training,
                    const cmrtRnnBuffers &b) {
  const char *entry = "cmrtRnnForward";
  CMRT_TRY(requireBuffers(
      entry, {{"x", b.x}, {"y", b.y}, {"weights", b.weights}}));
  cudnnForwardMode_t mode =
      training ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE;
  CallShape shape;
  CMRT_TRY(prepareCall(r, stream, b, mode, /*usesReserve=*/false, entry,
                       shape));
  // A training forward that no backward call follows (dropout only) may
  // leave the reserve space to the runtime: a temporary from the pool.
  void *reserve = b.reserve, *temporary = nullptr;
  if (training && !reserve && shape.reserveBytes > 0) {
    CMRT_TRY(deviceAlloc(shape.reserveBytes, stream, /*managed=*/false, entry,
                         temporary));
    reserve = temporary;
  }
  Status s = checkCudnn(
      cudnnRNNForward(shape.handle, r.rnn.get(), mode, shape.lengths, shape.x,
                      b.x, shape.y, b.y, r.h.get(), b.hx, b.hy, r.c.get(),
                      b.cx, b.cy, static_cast<size_t>(r.weightBytes),
                      b.weights, static_cast<size_t>(shape.workBytes),
                      shape.workspace.data(),
                      training ? static_cast<size_t>(shape.reserveBytes) : 0,
                      training ? reserve : nullptr),
      "cudnnRNNForward");
  if (temporary) {
    Status freed = deviceFree(temporary, stream, entry);
    if (s.ok())
      s = freed;
  }
  return s;
}

Status rnn::backwardData(const BuiltRnn &r, cudaStream_t stream,
                         const cmrtRnnBuffers &b) {
  const char *entry = "cmrtRnnBackwardData";
  CMRT_TRY(requireBuffers(entry, {{"y", b.y},
                                  {"dy", b.dy},
                                  {"dx", b.dx},
                                  {"weights", b.weights}}));
  CallShape shape;
  CMRT_TRY(prepareCall(r, stream, b, CUDNN_FWD_MODE_TRAINING, true, entry,
                       shape));
  return checkCudnn(
      cudnnRNNBackwardData_v8(
          shape.handle, r.rnn.get(), shape.lengths, shape.y, b.y, b.dy,
          shape.x, b.dx, r.h.get(), b.hx, b.dhy, b.dhx, r.c.get(), b.cx,
          b.dcy, b.dcx, static_cast<size_t>(r.weightBytes), b.weights,
          static_cast<size_t>(shape.workBytes), shape.workspace.data(),
          static_cast<size_t>(shape.reserveBytes), b.reserve),
      "cudnnRNNBackwardData_v8");
}

Status rnn::backwardWeights(const BuiltRnn &r, cudaStream_t stream,
                            const cmrtRnnBuffers &b) {
  const char *entry = "cmrtRnnBackwardWeights";
  CMRT_TRY(requireBuffers(
      entry, {{"x", b.x}, {"y", b.y}, {"dweights", b.dweights}}));
  CallShape shape;
  CMRT_TRY(prepareCall(r, stream, b, CUDNN_FWD_MODE_TRAINING, true, entry,
                       shape));
  CMRT_TRY(checkCuda(cudaMemsetAsync(b.dweights, 0,
                                     static_cast<size_t>(r.weightBytes),
                                     stream),
                     "cudaMemsetAsync (weight gradient)"));
  return checkCudnn(
      cudnnRNNBackwardWeights_v8(
          shape.handle, r.rnn.get(), CUDNN_WGRAD_MODE_ADD, shape.lengths,
          shape.x, b.x, r.h.get(), b.hx, shape.y, b.y,
          static_cast<size_t>(r.weightBytes), b.dweights,
          static_cast<size_t>(shape.workBytes), shape.workspace.data(),
          static_cast<size_t>(shape.reserveBytes), b.reserve),
      "cudnnRNNBackwardWeights_v8");
}

void rnn::releaseDropoutStates() {
  std::lock_guard<std::mutex> lock(dropoutMutex());
  for (auto &[device, state] : dropoutStates()) {
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    cudaDeviceSynchronize();
    cudaFree(state.states);
    cudaSetDevice(previous);
  }
  dropoutStates().clear();
}
