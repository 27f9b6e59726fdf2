//===- PlanCacheEviction.cpp - the plan disk cache's size cap -------------===//

#include "graph/PlanCacheEviction.h"
#include "graph/Log.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <vector>

using namespace cmrt;
using namespace cmrt::plan;

namespace {

constexpr char kSuffix[] = ".cmrtplan";
constexpr int64_t kStoresPerCheck = 16;

bool isPlanFile(const std::string &name) {
  size_t n = sizeof(kSuffix) - 1;
  return name.size() > n && name.compare(name.size() - n, n, kSuffix) == 0;
}

struct PlanFileEntry {
  std::string path;
  int64_t bytes;
  struct timespec used;
};

bool usedEarlier(const PlanFileEntry &a, const PlanFileEntry &b) {
  if (a.used.tv_sec != b.used.tv_sec)
    return a.used.tv_sec < b.used.tv_sec;
  if (a.used.tv_nsec != b.used.tv_nsec)
    return a.used.tv_nsec < b.used.tv_nsec;
  return a.path < b.path; // a stable order for equal times
}

} // namespace

int64_t plan::planCacheMaxBytes(const char *value, std::string &why) {
  why.clear();
  if (!value || !*value)
    return kDefaultPlanCacheMaxBytes;
  char *end = nullptr;
  errno = 0;
  long long mib = std::strtoll(value, &end, 10);
  if (errno != 0 || *end != '\0' || mib < 0 || mib > (int64_t{1} << 40)) {
    why = std::string("CUDNN_MLIR_PLAN_CACHE_MAX_MB expects a whole number "
                      "of MiB (0: no cap), but got '") +
          value + "'; using " + std::to_string(kDefaultPlanCacheMaxBytes >> 20);
    return kDefaultPlanCacheMaxBytes;
  }
  return static_cast<int64_t>(mib) << 20;
}

Eviction plan::evictLeastRecentlyUsed(const std::string &directory,
                                      int64_t maxBytes) {
  Eviction result;
  DIR *dir = ::opendir(directory.c_str());
  if (!dir)
    return result;
  std::vector<PlanFileEntry> files;
  while (struct dirent *entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (!isPlanFile(name))
      continue;
    std::string path = directory + "/" + name;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      continue; // removed meanwhile by another process
    files.push_back({path, static_cast<int64_t>(st.st_size), st.st_mtim});
    result.bytesBefore += st.st_size;
  }
  ::closedir(dir);
  result.bytesAfter = result.bytesBefore;
  if (maxBytes <= 0 || result.bytesBefore <= maxBytes)
    return result;
  std::sort(files.begin(), files.end(), usedEarlier);
  for (const PlanFileEntry &file : files) {
    if (result.bytesAfter <= maxBytes)
      break;
    // Another process may have removed it first: its bytes are gone all
    // the same.
    if (std::remove(file.path.c_str()) == 0 || errno == ENOENT) {
      result.bytesAfter -= file.bytes;
      ++result.filesRemoved;
    }
  }
  return result;
}

void plan::touchPlanFile(const std::string &path) {
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

Eviction plan::evictAfterStore(const std::string &directory) {
  static std::atomic<int64_t> stores{0};
  if (stores++ % kStoresPerCheck != 0)
    return {};
  std::string why;
  int64_t cap =
      planCacheMaxBytes(std::getenv("CUDNN_MLIR_PLAN_CACHE_MAX_MB"), why);
  if (!why.empty())
    warnOnce("plan-cache-max", why);
  Eviction eviction = evictLeastRecentlyUsed(directory, cap);
  if (eviction.filesRemoved && logEnabled())
    logText("plan cache: removed " + std::to_string(eviction.filesRemoved) +
            " least recently used plans from '" + directory + "' (" +
            std::to_string(eviction.bytesBefore >> 10) + " KiB -> " +
            std::to_string(eviction.bytesAfter >> 10) + " KiB, cap " +
            std::to_string(cap >> 10) + " KiB)");
  return eviction;
}
