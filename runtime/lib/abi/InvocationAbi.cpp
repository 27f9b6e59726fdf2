//===- InvocationAbi.cpp - C entry points that compiled code calls --------===//
//
// cmrtInvocation*: the calls convert-cudnn-to-llvm emits. An invocation is
// the run of one exported entry of a compiled module; it carries the stream,
// the device and a sticky status so that generated code needs no error
// branches: once a call fails, the rest of the invocation is skipped and
// cmrtInvocationEnd reports the first failure. Graphs are built once per
// call site and device through a slot the module owns, so a warm call pays
// no parse, validation or hashing of the description.
//
//===----------------------------------------------------------------------===//

#include "core/Context.h"
#include "core/Errors.h"
#include "core/Invocation.h"
#include "cudnn-mlir-runtime/FusionCost.h"
#include "graph/Log.h"
#include "kernels/DeviceMemoryPool.h"
#include "kernels/LayoutTransform.h"
#include "module/ReproCommand.h"
#include "rnn/RnnWeightSpaces.h"

#include <array>
#include <atomic>
#include <memory>
#include <vector>

using namespace cmrt;

namespace {

struct Invocation {
  cudaStream_t stream = nullptr;
  int device = -1;
  cmrtStatus status = CMRT_SUCCESS;
  std::string message;
};

/// Per thread, the invocations in progress, innermost last. unique_ptr keeps
/// each one's address stable while the stack grows.
thread_local std::vector<std::unique_ptr<Invocation>> invocations;

/// Devices a slot can hold a graph or constant for; more than any node has.
constexpr int kMaxDevices = 64;

/// What a module's slot points at: one entry per device, filled on first
/// use there. Slots live as long as the process (a module's globals may
/// outlive cmrtShutdown and be used again).
struct Slot {
  std::array<std::atomic<void *>, kMaxDevices> perDevice{};
};

Slot &slotFor(void **slot) {
  auto *atomicSlot = reinterpret_cast<std::atomic<Slot *> *>(slot);
  Slot *s = atomicSlot->load(std::memory_order_acquire);
  if (s)
    return *s;
  auto fresh = std::make_unique<Slot>();
  Slot *expected = nullptr;
  if (atomicSlot->compare_exchange_strong(expected, fresh.get(),
                                          std::memory_order_acq_rel))
    return *fresh.release();
  return *expected;
}

/// What a graph's slot holds for a device where cuDNN has no engine for it
/// and the module runs its split form instead (cmrtInvocationGraphTry).
char noEngineMarker;
void *const kNoEngine = &noEngineMarker;

/// The first line of a message (cuDNN's reasons run to several).
std::string firstLine(const char *text) {
  std::string line = text ? text : "";
  return line.substr(0, line.find('\n'));
}

Invocation *active(void *invocation) {
  auto *inv = static_cast<Invocation *>(invocation);
  return inv && inv->status == CMRT_SUCCESS ? inv : nullptr;
}

/// Records the first failure of the invocation; later ones are effects of it.
void failInvocation(Invocation &inv, cmrtStatus status,
                    const std::string &message) {
  if (inv.status != CMRT_SUCCESS)
    return;
  inv.status = status;
  inv.message = message;
}

/// Records the runtime's last error as the invocation's, after `where`
/// and followed by `trailer` on a line of its own (when not empty).
void failFromLastError(Invocation &inv, cmrtStatus status,
                       const std::string &where,
                       const std::string &trailer = "") {
  std::string message = where + ": " + std::string(cmrtGetLastErrorMessage());
  if (!trailer.empty())
    message += "\n" + trailer;
  failInvocation(inv, status, message);
}

/// The handle (a cmrtGraph, a cmrtRnn) a module keeps in `slot` for the
/// invocation's device: built by `build` on first use there; if another
/// thread fills the slot first, ours is released and theirs used.
template <typename Handle, typename Build, typename Release>
cmrtStatus handleInSlot(void **slot, const Invocation &inv, Handle &out,
                        Build &&build, Release &&release) {
  std::atomic<void *> &cell = slotFor(slot).perDevice[inv.device];
  out = static_cast<Handle>(cell.load(std::memory_order_acquire));
  if (out)
    return CMRT_SUCCESS;
  Handle built = nullptr;
  if (cmrtStatus s = build(built))
    return s;
  void *expected = nullptr;
  if (cell.compare_exchange_strong(expected, built,
                                   std::memory_order_acq_rel)) {
    out = built;
  } else {
    release(built);
    out = static_cast<Handle>(expected);
  }
  return CMRT_SUCCESS;
}

/// The RNN a module keeps in `slot` for `config` on the invocation's device.
/// Compiled code sizes the weight space as the parameters together, so an
/// RNN whose cuDNN weight space differs is refused before it fills the slot.
cmrtStatus rnnInSlot(const char *entry, void **slot, const Invocation &inv,
                     const cmrtRnnConfig *config, cmrtRnn &out) {
  if (!slot)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "an RNN call expects a slot, but got null");
  return handleInSlot(
      slot, inv, out,
      [&](cmrtRnn &built) {
        if (cmrtStatus s = cmrtRnnGetOrBuild(config, inv.stream, &built))
          return s;
        cmrtRnnInfo info{};
        cmrtRnnGetInfo(built, &info);
        if (info.weightSpaceBytes == info.paramBytes)
          return CMRT_SUCCESS;
        cmrtRnnRelease(built);
        built = nullptr;
        return cmrt::fail(CMRT_ERROR_NOT_SUPPORTED,
                          std::string(entry) +
                              " expects cuDNN's weight space to hold exactly "
                              "the parameters (" +
                              std::to_string(info.paramBytes) +
                              " bytes, as the compiled module sizes it), but "
                              "it has " +
                              std::to_string(info.weightSpaceBytes) +
                              " bytes");
      },
      cmrtRnnRelease);
}

/// Runs `call` (returning a cmrtStatus) for the RNN in `slot`; a failure
/// fails the invocation with a message naming `where`.
template <typename Call>
cmrtStatus withRnn(const char *entry, Invocation &inv, void **slot,
                   const cmrtRnnConfig *config, const char *where,
                   Call &&call) {
  cmrtStatus s = guarded(entry, [&] {
    cmrtRnn rnn = nullptr;
    if (cmrtStatus b = rnnInSlot(entry, slot, inv, config, rnn))
      return b;
    return call(rnn);
  });
  if (s != CMRT_SUCCESS)
    failFromLastError(inv, s, std::string("RNN at ") + (where ? where : "?"));
  return s;
}

} // namespace

bool cmrt::currentInvocationStream(cudaStream_t &stream) {
  if (invocations.empty())
    return false;
  stream = invocations.back()->stream;
  return true;
}

bool cmrt::currentInvocationFailed() {
  return !invocations.empty() && invocations.back()->status != CMRT_SUCCESS;
}

void cmrt::failCurrentInvocation(cmrtStatus status,
                                 const std::string &message) {
  if (!invocations.empty())
    failInvocation(*invocations.back(), status, message);
}

extern "C" CMRT_EXPORT void *cmrtInvocationBegin(void *stream) {
  try {
    auto inv = std::make_unique<Invocation>();
    inv->stream = static_cast<cudaStream_t>(stream);
    Status s = currentDevice(inv->device);
    if (!s.ok())
      failInvocation(*inv, s.code, s.message);
    else if (inv->device >= kMaxDevices)
      failInvocation(*inv, CMRT_ERROR_NO_DEVICE,
                     "cmrtInvocationBegin expects a device ordinal below " +
                         std::to_string(kMaxDevices) + ", but got " +
                         std::to_string(inv->device));
    invocations.push_back(std::move(inv));
    return invocations.back().get();
  } catch (...) {
    return nullptr; // out of memory: cmrtInvocationEnd(null) reports it
  }
}

extern "C" CMRT_EXPORT void *cmrtInvocationCurrent(void) {
  return invocations.empty() ? nullptr : invocations.back().get();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationEnd(void *invocation) {
  if (!invocation)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtInvocationEnd expects an invocation from "
                      "cmrtInvocationBegin, but got null (out of memory?)");
  if (invocations.empty() || invocations.back().get() != invocation)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtInvocationEnd expects the calling thread's "
                      "innermost invocation, but got another");
  std::unique_ptr<Invocation> inv = std::move(invocations.back());
  invocations.pop_back();
  if (inv->status == CMRT_SUCCESS)
    return cmrt::succeed();
  return cmrt::fail(inv->status, inv->message);
}

/// The graph `words` built with `options` that a module keeps in `slot` for
/// the invocation's device (what cmrtInvocationGraph and
/// cmrtInvocationGraphTry share).
static cmrtStatus graphInSlot(void **slot, const Invocation &inv,
                              const int64_t *words, int64_t count,
                              cmrtGraphOptions options, cmrtGraph &out) {
  return handleInSlot(
      slot, inv, out,
      [&](cmrtGraph &built) {
        return cmrtGraphGetOrBuild(words, count, options, inv.stream, &built);
      },
      cmrtGraphRelease);
}

/// How a failure names a graph's call site (its source location).
static std::string graphAt(const char *where) {
  return std::string("graph at ") + (where ? where : "?");
}

/// Records a failed graph call: its site, the runtime's error (the graph
/// dump included) and, when `caller` (the call's return address) lies in a
/// compiled module, the cudnn-run line that reruns it.
static void failGraphCall(Invocation &inv, cmrtStatus status,
                          const char *where, const void *caller) {
  failFromLastError(inv, status, graphAt(where),
                    reproCommandForCaller(caller));
}

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationGraph(
    void *invocation, void **slot, const int64_t *words, int64_t count,
    cmrtGraphOptions options, const int64_t *uids, void *const *pointers,
    int64_t n, const char *where) {
  Invocation *inv = active(invocation);
  if (!inv)
    return CMRT_ERROR_INVALID_ARGUMENT;
  cmrtStatus s = guarded("cmrtInvocationGraph", [&] {
    if (!slot)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtInvocationGraph expects a slot, but got null");
    cmrtGraph graph = nullptr;
    if (cmrtStatus b = graphInSlot(slot, *inv, words, count, options, graph))
      return b;
    return cmrtGraphExecute(graph, inv->stream, uids, pointers, n);
  });
  // The name is only spelled out on a failure: this is the per-call path.
  if (s != CMRT_SUCCESS)
    failGraphCall(*inv, s, where, __builtin_return_address(0));
  return s;
}

extern "C" CMRT_EXPORT int cmrtInvocationGraphTry(
    void *invocation, void **slot, const int64_t *words, int64_t count,
    cmrtGraphOptions options, const int64_t *uids, void *const *pointers,
    int64_t n, const char *where) {
  Invocation *inv = active(invocation);
  if (!inv || !slot) {
    // Records the error (a null slot); a failed invocation runs nothing,
    // its split form included.
    cmrtInvocationGraph(invocation, slot, words, count, options, uids,
                        pointers, n, where);
    return 1;
  }
  std::atomic<void *> &cell = slotFor(slot).perDevice[inv->device];
  if (cell.load(std::memory_order_acquire) == kNoEngine)
    return 0;
  cmrtGraph graph = nullptr;
  cmrtStatus built = guarded("cmrtInvocationGraphTry", [&] {
    return graphInSlot(slot, *inv, words, count, options | CMRT_GRAPH_NO_SPLIT,
                       graph);
  });
  if (built == CMRT_ERROR_NOT_SUPPORTED) {
    void *expected = nullptr;
    cell.compare_exchange_strong(expected, kNoEngine,
                                 std::memory_order_acq_rel);
    const char *at = where ? where : "?";
    std::string reason = firstLine(cmrtGetLastErrorMessage());
    std::string text = std::string("the module runs its compiled split form "
                                   "for the graph at ") +
                       at + " on device " + std::to_string(inv->device) +
                       " (the convolution, matmul, norm or pooling alone in "
                       "cuDNN, the rest as generated kernels): " +
                       reason;
    // By cost the split form is the faster one: worth a log line, not a
    // warning. Without an engine it is the only one: the user should know.
    if (reason.rfind(cmrt::graph::kFusionByCostPrefix, 0) == 0)
      logOnce(std::string("split-form:") + at, text);
    else
      warnOnce(std::string("split-form:") + at, text);
    return 0;
  }
  if (built == CMRT_SUCCESS && static_cast<void *>(graph) == kNoEngine)
    return 0; // another thread found no engine first
  cmrtStatus s = built != CMRT_SUCCESS
                     ? built
                     : guarded("cmrtInvocationGraphTry", [&] {
                         return cmrtGraphExecute(graph, inv->stream, uids,
                                                 pointers, n);
                       });
  if (s != CMRT_SUCCESS)
    failGraphCall(*inv, s, where, __builtin_return_address(0));
  return 1;
}

extern "C" CMRT_EXPORT void *cmrtInvocationAlloc(void *invocation,
                                                 int64_t bytes) {
  Invocation *inv = active(invocation);
  if (!inv)
    return nullptr;
  void *out = nullptr;
  cmrtStatus s = guarded("cmrtInvocationAlloc", [&] {
    return report(deviceAlloc(bytes, inv->stream, /*managed=*/false,
                              "cmrtInvocationAlloc", out));
  });
  if (s != CMRT_SUCCESS)
    failFromLastError(*inv, s,
                      "allocating " + std::to_string(bytes) + " bytes");
  return s == CMRT_SUCCESS ? out : nullptr;
}

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationFree(void *invocation,
                                                     void *pointer) {
  auto *inv = static_cast<Invocation *>(invocation);
  if (!inv || !pointer)
    return CMRT_SUCCESS;
  // Frees run even after a failure: the memory was allocated before it.
  cmrtStatus s = guarded("cmrtInvocationFree", [&] {
    return report(deviceFree(pointer, inv->stream, "cmrtInvocationFree"));
  });
  if (s != CMRT_SUCCESS)
    failFromLastError(*inv, s, "freeing device memory");
  return s;
}

extern "C" CMRT_EXPORT void *cmrtInvocationConstant(void *invocation,
                                                    void **slot,
                                                    const void *host,
                                                    int64_t bytes) {
  Invocation *inv = active(invocation);
  if (!inv || !slot || !host || bytes <= 0)
    return nullptr;
  void *out = nullptr;
  cmrtStatus s = guarded("cmrtInvocationConstant", [&] {
    std::atomic<void *> &cell = slotFor(slot).perDevice[inv->device];
    out = cell.load(std::memory_order_acquire);
    if (out)
      return cmrt::succeed();
    void *device = nullptr;
    if (cudaError_t e = cudaMalloc(&device, static_cast<size_t>(bytes)))
      return cmrt::fail(CMRT_ERROR_CUDA,
                        cudaErrorText("cudaMalloc for a constant", e));
    // Synchronous with respect to the host buffer (pageable memory), and
    // ordered before the invocation's later work on its stream.
    if (cudaError_t e =
            cudaMemcpyAsync(device, host, static_cast<size_t>(bytes),
                            cudaMemcpyHostToDevice, inv->stream)) {
      cudaFree(device);
      return cmrt::fail(CMRT_ERROR_CUDA,
                        cudaErrorText("uploading a constant", e));
    }
    void *expected = nullptr;
    if (cell.compare_exchange_strong(expected, device,
                                     std::memory_order_acq_rel)) {
      out = device;
    } else {
      cudaStreamSynchronize(inv->stream);
      cudaFree(device);
      out = expected;
    }
    return cmrt::succeed();
  });
  if (s != CMRT_SUCCESS) {
    failFromLastError(*inv, s,
                      "constant of " + std::to_string(bytes) + " bytes");
    return nullptr;
  }
  return out;
}

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationCopy(void *invocation,
                                                     void *dst, const void *src,
                                                     int64_t bytes) {
  Invocation *inv = active(invocation);
  if (!inv)
    return CMRT_ERROR_INVALID_ARGUMENT;
  if (bytes <= 0 || dst == src)
    return CMRT_SUCCESS;
  if (cudaError_t e = cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes),
                                      cudaMemcpyDeviceToDevice, inv->stream)) {
    failInvocation(*inv, CMRT_ERROR_CUDA,
                   cudaErrorText("device-to-device copy", e));
    return CMRT_ERROR_CUDA;
  }
  return CMRT_SUCCESS;
}

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationTransform(
    void *invocation, int64_t dataType, int64_t rank, const int64_t *dims,
    void *dst, const int64_t *dstStrides, const void *src,
    const int64_t *srcStrides) {
  Invocation *inv = active(invocation);
  if (!inv)
    return CMRT_ERROR_INVALID_ARGUMENT;
  cmrtStatus s = guarded("cmrtInvocationTransform", [&] {
    if (!dims || !dstStrides || !srcStrides || !dst || !src)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtInvocationTransform expects non-null dims, "
                        "strides and pointers, but got null");
    return report(transformLayout(inv->device, inv->stream, dataType, rank,
                                  dims, dstStrides, dst, srcStrides, src));
  });
  if (s != CMRT_SUCCESS)
    failFromLastError(*inv, s, "layout conversion");
  return s;
}

extern "C" CMRT_EXPORT int64_t cmrtInvocationRnnReserveBytes(
    void *invocation, void **slot, const cmrtRnnConfig *config,
    const char *where) {
  Invocation *inv = active(invocation);
  if (!inv)
    return 0;
  int64_t bytes = 0;
  withRnn("cmrtInvocationRnnReserveBytes", *inv, slot, config, where,
          [&](cmrtRnn rnn) {
            cmrtRnnInfo info{};
            cmrtStatus s = cmrtRnnGetInfo(rnn, &info);
            bytes = info.reserveBytes;
            return s;
          });
  return bytes;
}

extern "C" CMRT_EXPORT cmrtStatus cmrtInvocationRnnWeights(
    void *invocation, void **slot, const cmrtRnnConfig *config,
    int64_t unpack, void *const *params, int64_t count, void *weights,
    const char *where) {
  Invocation *inv = active(invocation);
  if (!inv)
    return CMRT_ERROR_INVALID_ARGUMENT;
  return withRnn("cmrtInvocationRnnWeights", *inv, slot, config, where,
                 [&](cmrtRnn rnn) {
                   return unpack ? cmrtRnnUnpackWeights(rnn, inv->stream,
                                                        weights, params, count)
                                 : cmrtRnnPackWeights(rnn, inv->stream, params,
                                                      count, weights);
                 });
}

extern "C" CMRT_EXPORT void *cmrtInvocationRnnPackedWeights(
    void *invocation, void **slot, const cmrtRnnConfig *config,
    void *const *params, int64_t count, const char *where) {
  Invocation *inv = active(invocation);
  if (!inv)
    return nullptr;
  void *weights = nullptr;
  withRnn("cmrtInvocationRnnPackedWeights", *inv, slot, config, where,
          [&](cmrtRnn rnn) {
            cmrtRnnInfo info{};
            if (cmrtStatus s = cmrtRnnGetInfo(rnn, &info))
              return s;
            // The slot names the call site: one per op in the module.
            return rnn::keptWeightSpace(
                slot, inv->device, inv->stream, info.weightSpaceBytes,
                params, count,
                [&](void *buffer) {
                  return cmrtRnnPackWeights(rnn, inv->stream, params, count,
                                            buffer);
                },
                weights);
          });
  return weights;
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtInvocationRnn(void *invocation, void **slot, const cmrtRnnConfig *config,
                  int64_t op, const cmrtRnnBuffers *buffers,
                  const char *where) {
  Invocation *inv = active(invocation);
  if (!inv)
    return CMRT_ERROR_INVALID_ARGUMENT;
  return withRnn("cmrtInvocationRnn", *inv, slot, config, where,
                 [&](cmrtRnn rnn) {
                   switch (op) {
                   case CMRT_RNN_FORWARD_INFERENCE:
                   case CMRT_RNN_FORWARD_TRAINING:
                     return cmrtRnnForward(
                         rnn, inv->stream,
                         op == CMRT_RNN_FORWARD_TRAINING ? 1 : 0, buffers);
                   case CMRT_RNN_BACKWARD_DATA:
                     return cmrtRnnBackwardData(rnn, inv->stream, buffers);
                   case CMRT_RNN_BACKWARD_WEIGHTS:
                     return cmrtRnnBackwardWeights(rnn, inv->stream, buffers);
                   default:
                     return cmrt::fail(
                         CMRT_ERROR_INVALID_ARGUMENT,
                         "cmrtInvocationRnn expects op 0..3 "
                         "(CMRT_RNN_FORWARD_INFERENCE .. "
                         "CMRT_RNN_BACKWARD_WEIGHTS), but got " +
                             std::to_string(op));
                   }
                 });
}
