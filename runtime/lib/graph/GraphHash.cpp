//===- GraphHash.cpp - stable hashes and plan-cache keys ------------------===//

#include "graph/GraphHash.h"

#include <cstdio>

using namespace cmrt::graph;

namespace {
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t mixWord(uint64_t hash, uint64_t word) {
  // Byte by byte, least significant first: the same on any host byte order.
  for (int i = 0; i < 8; ++i) {
    hash ^= (word >> (8 * i)) & 0xff;
    hash *= kFnvPrime;
  }
  return hash;
}
} // namespace

uint64_t cmrt::graph::hashWords(const int64_t *words, int64_t count,
                                uint64_t seed) {
  uint64_t hash = seed;
  for (int64_t i = 0; i < count; ++i)
    hash = mixWord(hash, static_cast<uint64_t>(words[i]));
  return hash;
}

uint64_t CacheKey::combined() const {
  uint64_t hash = mixWord(0xcbf29ce484222325ull, graphHash);
  hash = mixWord(hash, static_cast<uint64_t>(computeCapability));
  return mixWord(hash, static_cast<uint64_t>(cudnnVersion));
}

std::string CacheKey::toString() const {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "sm%lld-cudnn%lld-%016llx",
                static_cast<long long>(computeCapability),
                static_cast<long long>(cudnnVersion),
                static_cast<unsigned long long>(graphHash));
  return buf;
}

CacheKey cmrt::graph::makeCacheKey(uint64_t graphHash,
                                   int64_t computeCapability,
                                   int64_t cudnnVersion) {
  return {graphHash, computeCapability, cudnnVersion};
}
