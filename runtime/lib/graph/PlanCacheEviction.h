//===- PlanCacheEviction.h - the plan disk cache's size cap -----*- C++ -*-===//
//
// The disk cache (PlanFile.h) keeps one file per graph, GPU and cuDNN: with
// many models, machines and library updates it grows without end. After a
// process stores plans, the least recently used *.cmrtplan files are removed
// until the folder is under the cap (CUDNN_MLIR_PLAN_CACHE_MAX_MB, 1024 MiB
// by default, 0 for no cap). "Used" is the file's modification time: a
// write sets it, and a read that decodes sets it again (touchPlanFile).
// With several processes at once: removing a file another process is
// reading leaves that process its open file; one that opens it afterwards
// misses and rebuilds it, as for any miss. No CUDA here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_PLANCACHEEVICTION_H
#define CUDNN_MLIR_RUNTIME_PLANCACHEEVICTION_H

#include <cstdint>
#include <string>

namespace cmrt::plan {

inline constexpr int64_t kDefaultPlanCacheMaxBytes = int64_t{1024} << 20;

/// CUDNN_MLIR_PLAN_CACHE_MAX_MB in bytes: kDefaultPlanCacheMaxBytes when
/// unset; 0 (no cap) for "0". A value that is not a whole number of MiB
/// gives the default and says so in `why` (empty otherwise).
int64_t planCacheMaxBytes(const char *value, std::string &why);

struct Eviction {
  int64_t bytesBefore = 0; // the plan files' total before
  int64_t bytesAfter = 0;
  int64_t filesRemoved = 0;
};

/// Removes the least recently used plan files (*.cmrtplan) of `directory`
/// until they hold at most `maxBytes` together; other files stay. A
/// missing folder, or `maxBytes` <= 0, removes nothing.
Eviction evictLeastRecentlyUsed(const std::string &directory, int64_t maxBytes);

/// Marks the plan file at `path` used now (its place in the eviction
/// order); a file that is gone is no error.
void touchPlanFile(const std::string &path);

/// What a process does after storing a plan in `directory`: evicts to the
/// environment's cap on its first store and on every 16th after (a folder
/// listing each time is more than a store needs). Returns what was removed.
Eviction evictAfterStore(const std::string &directory);

} // namespace cmrt::plan

#endif // CUDNN_MLIR_RUNTIME_PLANCACHEEVICTION_H
