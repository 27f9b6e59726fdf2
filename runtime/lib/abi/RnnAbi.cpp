//===- RnnAbi.cpp - the RNN entry points of the C ABI ---------------------===//
//
// cmrtRnnGetOrBuild -> validate the config, look it up in a process-wide
// cache keyed by the config and the device, build on a miss (Rnn.cpp);
// the other entries check their handle and call Rnn.cpp. Nothing here
// throws past the C boundary.
//
//===----------------------------------------------------------------------===//

#include "core/Errors.h"
#include "core/LruCache.h"
#include "rnn/Rnn.h"
#include "rnn/RnnWeightSpaces.h"

#include <cstring>
#include <string>

using namespace cmrt;

struct cmrtRnnImpl {
  std::shared_ptr<rnn::BuiltRnn> rnn;
};

namespace {

/// The config's bytes and the device: every field matters to the build.
struct RnnKey {
  std::string bytes;
  bool operator==(const RnnKey &o) const { return bytes == o.bytes; }
};

struct RnnKeyHasher {
  size_t operator()(const RnnKey &k) const {
    return std::hash<std::string>()(k.bytes);
  }
};

using RnnCache = LruCache<RnnKey, rnn::BuiltRnn, RnnKeyHasher>;

/// RNN configurations are few per model; the cap only guards against a
/// caller that makes a new one per call.
constexpr size_t kRnnCacheCapacity = 256;

RnnCache &rnnCache() {
  // Leaked on purpose, like the graph cache: cmrtShutdown clears it.
  static auto *c = new RnnCache(kRnnCacheCapacity);
  return *c;
}

RnnKey keyOf(const cmrtRnnConfig &config, int device) {
  RnnKey key;
  key.bytes.resize(sizeof(config) + sizeof(device));
  std::memcpy(key.bytes.data(), &config, sizeof(config));
  std::memcpy(key.bytes.data() + sizeof(config), &device, sizeof(device));
  return key;
}

cmrtStatus expectHandle(const char *entry, cmrtRnn rnn) {
  if (rnn && rnn->rnn)
    return CMRT_SUCCESS;
  return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                    std::string(entry) +
                        " expects an RNN from cmrtRnnGetOrBuild, but got null");
}

/// One of the calls that run an RNN: checks the handle and the buffers,
/// then reports what `call` (returning a Status) does.
template <typename Call>
cmrtStatus runCall(const char *entry, cmrtRnn rnn,
                   const cmrtRnnBuffers *buffers, Call &&call) {
  return guarded(entry, [&] {
    if (cmrtStatus s = expectHandle(entry, rnn); s != CMRT_SUCCESS)
      return s;
    if (!buffers)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        std::string(entry) + " expects buffers, but got null");
    return report(call());
  });
}

} // namespace

void cmrt::rnn::clearRnnCache() { rnnCache().clear(); }

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnGetOrBuild(
    const cmrtRnnConfig *config, void *stream, cmrtRnn *out) {
  return guarded("cmrtRnnGetOrBuild", [&] {
    if (!out || !config)
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                        "cmrtRnnGetOrBuild expects a config and an out "
                        "pointer, but got null");
    *out = nullptr;
    if (Status s = rnn::validateConfig(*config); !s.ok())
      return report(s);
    int device = 0;
    if (Status s = currentDevice(device); !s.ok())
      return report(s);
    auto cudaStream = static_cast<cudaStream_t>(stream);
    std::shared_ptr<rnn::BuiltRnn> built;
    Status s = rnnCache().getOrBuild(
        keyOf(*config, device),
        [&](std::shared_ptr<rnn::BuiltRnn> &result) {
          return rnn::buildRnn(*config, device, cudaStream, result);
        },
        built);
    if (!s.ok())
      return report(s);
    *out = new cmrtRnnImpl{std::move(built)};
    return cmrt::succeed();
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnRelease(cmrtRnn rnn) {
  delete rnn;
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnGetInfo(cmrtRnn rnn,
                                                 cmrtRnnInfo *info) {
  if (cmrtStatus s = expectHandle("cmrtRnnGetInfo", rnn); s != CMRT_SUCCESS)
    return s;
  if (!info)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtRnnGetInfo expects an info pointer, but got null");
  rnn::describeRnn(*rnn->rnn, *info);
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnPackWeights(cmrtRnn rnn,
                                                     void *stream,
                                                     void *const *params,
                                                     int64_t count,
                                                     void *weights) {
  return guarded("cmrtRnnPackWeights", [&] {
    if (cmrtStatus s = expectHandle("cmrtRnnPackWeights", rnn);
        s != CMRT_SUCCESS)
      return s;
    return report(rnn::copyWeights(*rnn->rnn,
                                   static_cast<cudaStream_t>(stream), params,
                                   count, weights, /*unpack=*/false));
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnUnpackWeights(cmrtRnn rnn,
                                                       void *stream,
                                                       const void *weights,
                                                       void *const *params,
                                                       int64_t count) {
  return guarded("cmrtRnnUnpackWeights", [&] {
    if (cmrtStatus s = expectHandle("cmrtRnnUnpackWeights", rnn);
        s != CMRT_SUCCESS)
      return s;
    return report(rnn::copyWeights(
        *rnn->rnn, static_cast<cudaStream_t>(stream), params, count,
        const_cast<void *>(weights), /*unpack=*/true));
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnForward(cmrtRnn rnn, void *stream,
                                                 int64_t training,
                                                 const cmrtRnnBuffers *buffers) {
  return runCall("cmrtRnnForward", rnn, buffers, [&] {
    return rnn::forward(*rnn->rnn, static_cast<cudaStream_t>(stream),
                        training != 0, *buffers);
  });
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtRnnBackwardData(cmrtRnn rnn, void *stream, const cmrtRnnBuffers *buffers) {
  return runCall("cmrtRnnBackwardData", rnn, buffers, [&] {
    return rnn::backwardData(*rnn->rnn, static_cast<cudaStream_t>(stream),
                             *buffers);
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnBackwardWeights(
    cmrtRnn rnn, void *stream, const cmrtRnnBuffers *buffers) {
  return runCall("cmrtRnnBackwardWeights", rnn, buffers, [&] {
    return rnn::backwardWeights(*rnn->rnn, static_cast<cudaStream_t>(stream),
                                *buffers);
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtSetParameterVersion(uint64_t version) {
  rnn::setParameterVersion(version);
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtRnnGetWeightSpaceStats(int64_t *packs,
                                                             int64_t *reuses) {
  if (!packs || !reuses)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtRnnGetWeightSpaceStats expects non-null packs and "
                      "reuses pointers, but got null");
  rnn::weightSpaceStats(*packs, *reuses);
  return cmrt::succeed();
}
