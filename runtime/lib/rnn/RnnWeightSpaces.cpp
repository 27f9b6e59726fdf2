//===- RnnWeightSpaces.cpp - weight spaces kept across calls --------------===//

#include "rnn/RnnWeightSpaces.h"
#include "core/Context.h"
#include "core/Errors.h"

#include <map>
#include <mutex>
#include <thread>
#include <tuple>

using namespace cmrt;
using namespace cmrt::rnn;

namespace {

thread_local uint64_t threadParameterVersion = 0;

struct SpaceKey {
  const void *site;
  int device;
  cudaStream_t stream;
  std::thread::id thread;
  bool operator<(const SpaceKey &o) const {
    return std::tie(site, device, stream, thread) <
           std::tie(o.site, o.device, o.stream, o.thread);
  }
};

struct Space {
  void *buffer = nullptr;
  int64_t bytes = 0;
  PackedFrom packedFrom;
};

struct Store {
  std::mutex mutex;
  std::map<SpaceKey, Space> spaces;
  int64_t packs = 0;
  int64_t reuses = 0;
};

Store &store() {
  // Leaked on purpose, like the graph cache: freeing device memory after
  // the CUDA runtime unloaded at exit is unsafe; cmrtShutdown frees it.
  static Store *s = new Store;
  return *s;
}

} // namespace

void cmrt::rnn::setParameterVersion(uint64_t version) {
  threadParameterVersion = version;
}

cmrtStatus cmrt::rnn::keptWeightSpace(
    const void *site, int device, cudaStream_t stream, int64_t bytes,
    const void *const *params, int64_t count,
    const std::function<cmrtStatus(void *)> &pack, void *&buffer) {
  buffer = nullptr;
  Store &s = store();
  // Held across the pack: it only enqueues copies, and the entry is this
  // thread's alone anyway.
  std::lock_guard<std::mutex> lock(s.mutex);
  Space &space =
      s.spaces[{site, device, stream, std::this_thread::get_id()}];
  if (space.bytes != bytes) {
    if (Status c = checkNotCapturing(
            stream, "allocating an RNN's weight space (" +
                        std::to_string(bytes) + " bytes)");
        !c.ok())
      return cmrt::fail(c.code, c.message + "; call the module once before "
                                             "capturing it");
    if (space.buffer)
      (void)cudaFree(space.buffer);
    space = Space{};
    cudaError_t err = cudaMalloc(&space.buffer, static_cast<size_t>(bytes));
    if (err != cudaSuccess) {
      space = Space{};
      return cmrt::fail(CMRT_ERROR_CUDA,
                        cudaErrorText("allocating an RNN's weight space", err));
    }
    space.bytes = bytes;
  }
  uint64_t version = threadParameterVersion;
  if (space.packedFrom.holds(version, params, count)) {
    ++s.reuses;
    buffer = space.buffer;
    return cmrt::succeed();
  }
  space.packedFrom.forget();
  if (cmrtStatus st = pack(space.buffer))
    return st;
  space.packedFrom.record(version, params, count);
  ++s.packs;
  buffer = space.buffer;
  return cmrt::succeed();
}

void cmrt::rnn::weightSpaceStats(int64_t &packs, int64_t &reuses) {
  Store &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  packs = s.packs;
  reuses = s.reuses;
}

void cmrt::rnn::releaseWeightSpaces() {
  Store &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (auto &[key, space] : s.spaces) {
    (void)key;
    if (space.buffer)
      (void)cudaFree(space.buffer);
  }
  s.spaces.clear();
}
