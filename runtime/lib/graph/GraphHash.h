//===- GraphHash.h - stable hashes and plan-cache keys ----------*- C++ -*-===//
//
// Plan-cache keys must be identical across processes and machines (plans are
// saved to disk and loaded by the next process), so they come from FNV-1a
// over the description's words in little-endian byte order, never from
// std::hash, whose values are unspecified.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GRAPHHASH_H
#define CUDNN_MLIR_RUNTIME_GRAPHHASH_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace cmrt::graph {

/// FNV-1a (64-bit) over `count` words, each as its 8 little-endian bytes.
/// A description's parser enforces one encoding per graph, so equal graphs
/// hash equal.
uint64_t hashWords(const int64_t *words, int64_t count,
                   uint64_t seed = 0xcbf29ce484222325ull);

/// What a plan depends on: the graph, the device it runs on and the cuDNN
/// that built it.
struct CacheKey {
  uint64_t graphHash = 0;
  int64_t computeCapability = 0; // major * 10 + minor: 90 for an H100
  int64_t cudnnVersion = 0;      // cudnnGetVersion(): 91400 for 9.14.0

  bool operator==(const CacheKey &o) const {
    return graphHash == o.graphHash &&
           computeCapability == o.computeCapability &&
           cudnnVersion == o.cudnnVersion;
  }
  bool operator!=(const CacheKey &o) const { return !(*this == o); }

  /// All three fields folded into one stable 64-bit value.
  uint64_t combined() const;
  /// e.g. "sm90-cudnn91400-0123456789abcdef": a file name for the disk cache.
  std::string toString() const;
};

/// The graph hash a built graph is cached under: the description's hash
/// continued over the cmrtGraphOptions word (options change the plan).
inline uint64_t hashGraphAndOptions(const int64_t *words, int64_t count,
                                    uint64_t options) {
  int64_t word = static_cast<int64_t>(options);
  return hashWords(&word, 1, hashWords(words, count));
}

CacheKey makeCacheKey(uint64_t graphHash, int64_t computeCapability,
                      int64_t cudnnVersion);

/// For std::unordered_map<CacheKey, ...>.
struct CacheKeyHasher {
  size_t operator()(const CacheKey &key) const {
    return static_cast<size_t>(key.combined());
  }
};

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_GRAPHHASH_H
