//===- LruCache.h - a thread-safe LRU map for built graphs ------*- C++ -*-===//
//
// Header-only and CUDA-free so the CPU unit tests exercise the same code the
// runtime's graph cache uses. Values are shared_ptrs: an evicted value lives
// on while someone still holds it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_LRUCACHE_H
#define CUDNN_MLIR_RUNTIME_LRUCACHE_H

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace cmrt {

struct LruStats {
  int64_t builds = 0;
  int64_t hits = 0;
  int64_t evictions = 0;
  int64_t entries = 0;
  int64_t capacity = 0;
};

template <typename Key, typename Value, typename Hasher = std::hash<Key>>
class LruCache {
public:
  explicit LruCache(size_t capacity) : capacity_(capacity) {}

  /// The value for `key`, moved to the front; null on a miss. Counts a hit.
  std::shared_ptr<Value> get(const Key &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end())
      return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    ++stats_.hits;
    return it->second->second;
  }

  /// Looks `key` up; on a miss calls `build(std::shared_ptr<Value>&)`, which
  /// returns true on success, and inserts its result. `build` runs under a
  /// per-cache build lock (not the lookup lock), so a key is built once even
  /// when threads race for it, while lookups of other keys proceed.
  template <typename Build>
  auto getOrBuild(const Key &key, Build &&build, std::shared_ptr<Value> &out)
      -> decltype(build(out)) {
    if ((out = get(key)))
      return decltype(build(out)){};
    std::lock_guard<std::mutex> buildLock(buildMutex_);
    if ((out = get(key)))
      return decltype(build(out)){};
    auto result = build(out);
    if (out) {
      insert(key, out);
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.builds;
    }
    return result;
  }

  /// Inserts or replaces, then evicts beyond the cap.
  void insert(const Key &key, std::shared_ptr<Value> value) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      it->second->second = std::move(value);
      order_.splice(order_.begin(), order_, it->second);
    } else {
      order_.emplace_front(key, std::move(value));
      index_.emplace(key, order_.begin());
    }
    evictLocked();
  }

  /// 0 = unlimited.
  void setCapacity(size_t capacity) {
    std::lock_guard<std::mutex> lock(mutex_);
    capacity_ = capacity;
    evictLocked();
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    order_.clear();
    index_.clear();
    size_t capacity = capacity_;
    stats_ = LruStats{};
    capacity_ = capacity;
  }

  bool contains(const Key &key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return index_.count(key) != 0;
  }

  LruStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    LruStats s = stats_;
    s.entries = static_cast<int64_t>(index_.size());
    s.capacity = static_cast<int64_t>(capacity_);
    return s;
  }

private:
  void evictLocked() {
    while (capacity_ != 0 && index_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
      ++stats_.evictions;
    }
  }

  using Entry = std::pair<Key, std::shared_ptr<Value>>;
  mutable std::mutex mutex_;
  std::mutex buildMutex_;
  size_t capacity_;
  std::list<Entry> order_; // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hasher> index_;
  LruStats stats_;
};

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_LRUCACHE_H
