//===- PlanFile.cpp - the on-disk plan cache's file format ----------------===//

#include "graph/PlanFile.h"
#include "graph/Log.h"
#include "graph/PlanCacheEviction.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

using namespace cmrt;
using namespace cmrt::plan;
using graph::CacheKey;
using graph::Status;

namespace {

constexpr char kMagic[8] = {'C', 'M', 'R', 'T', 'P', 'L', 'A', 'N'};
constexpr size_t kHeaderBytes = 8 + 7 * 8; // magic, then 7 words

void putWord(std::vector<uint8_t> &out, uint64_t word) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<uint8_t>(word >> (8 * i)));
}

uint64_t getWord(const std::vector<uint8_t> &in, size_t offset) {
  uint64_t word = 0;
  for (int i = 0; i < 8; ++i)
    word |= static_cast<uint64_t>(in[offset + i]) << (8 * i);
  return word;
}

uint64_t hashBytes(const uint8_t *data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// mkdir -p.
bool makeDirectories(const std::string &path, std::string &error) {
  std::string prefix;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    prefix = path.substr(0, pos);
    if (prefix.empty())
      continue;
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
      error = "cannot create directory '" + prefix + "': " +
              std::strerror(errno);
      return false;
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = "'" + path + "' is not a directory";
    return false;
  }
  return true;
}

} // namespace

std::string plan::planCacheDirectory(const CacheEnvironment &env,
                                     std::string &why) {
  why.clear();
  std::string planCache = env.planCache ? env.planCache : "";
  for (char &c : planCache)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (planCache == "0" || planCache == "off" || planCache == "no" ||
      planCache == "false")
    return "";
  if (!planCache.empty() && planCache != "1" && planCache != "on" &&
      planCache != "yes" && planCache != "true")
    why = std::string("CUDNN_MLIR_PLAN_CACHE expects 1/on/yes/true or "
                      "0/off/no/false, but found '") +
          env.planCache + "'; the plan cache stays on";
  std::string base;
  if (env.cacheDir && *env.cacheDir)
    base = env.cacheDir;
  else if (env.xdgCacheHome && *env.xdgCacheHome)
    base = std::string(env.xdgCacheHome) + "/cudnn_mlir";
  else if (env.home && *env.home)
    base = std::string(env.home) + "/.cache/cudnn_mlir";
  else
    return "";
  while (base.size() > 1 && base.back() == '/')
    base.pop_back();
  return base + "/plans";
}

std::string plan::cacheDirectoryFromEnvironment() {
  CacheEnvironment env;
  env.cacheDir = std::getenv("CUDNN_MLIR_CACHE_DIR");
  env.planCache = std::getenv("CUDNN_MLIR_PLAN_CACHE");
  env.xdgCacheHome = std::getenv("XDG_CACHE_HOME");
  env.home = std::getenv("HOME");
  std::string why;
  std::string directory = planCacheDirectory(env, why);
  if (!why.empty())
    warnOnce("plan-cache-switch", why);
  return directory;
}

std::string plan::planFilePath(const std::string &directory,
                               const CacheKey &key) {
  std::string path = directory;
  if (!path.empty() && path.back() != '/')
    path += '/';
  return path + key.toString() + ".cmrtplan";
}

std::vector<uint8_t> plan::encodePlanFile(const CacheKey &key,
                                          int64_t frontendVersion,
                                          const std::vector<uint8_t> &payload) {
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  out.reserve(kHeaderBytes + payload.size());
  putWord(out, kPlanFileVersion);
  putWord(out, static_cast<uint64_t>(frontendVersion));
  putWord(out, key.graphHash);
  putWord(out, static_cast<uint64_t>(key.computeCapability));
  putWord(out, static_cast<uint64_t>(key.cudnnVersion));
  putWord(out, payload.size());
  putWord(out, hashBytes(payload.data(), payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

bool plan::decodePlanFile(const std::vector<uint8_t> &bytes,
                          const CacheKey &key, int64_t frontendVersion,
                          std::vector<uint8_t> &payload, std::string &why) {
  payload.clear();
  if (bytes.size() < kHeaderBytes) {
    why = "expects at least " + std::to_string(kHeaderBytes) +
          " bytes of header, but the file has " +
          std::to_string(bytes.size());
    return false;
  }
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) {
    why = "expects the magic CMRTPLAN, but the file starts otherwise";
    return false;
  }
  auto expect = [&](size_t word, uint64_t want, const char *what) {
    uint64_t got = getWord(bytes, 8 + 8 * word);
    if (got == want)
      return true;
    why = std::string("expects ") + what + " " + hex(want) + ", but got " +
          hex(got);
    return false;
  };
  if (!expect(0, kPlanFileVersion, "plan file version") ||
      !expect(1, static_cast<uint64_t>(frontendVersion),
              "cudnn-frontend version") ||
      !expect(2, key.graphHash, "graph hash") ||
      !expect(3, static_cast<uint64_t>(key.computeCapability),
              "compute capability") ||
      !expect(4, static_cast<uint64_t>(key.cudnnVersion), "cuDNN version"))
    return false;
  uint64_t size = getWord(bytes, 8 + 8 * 5);
  if (size != bytes.size() - kHeaderBytes) {
    why = "expects a payload of " + std::to_string(size) +
          " bytes, but the file holds " +
          std::to_string(bytes.size() - kHeaderBytes);
    return false;
  }
  uint64_t hash = hashBytes(bytes.data() + kHeaderBytes, size);
  if (!expect(6, hash, "payload hash")) {
    why += " (the file is corrupt)";
    return false;
  }
  payload.assign(bytes.begin() + kHeaderBytes, bytes.end());
  return true;
}

Status plan::writePlanFile(const std::string &path, const CacheKey &key,
                           int64_t frontendVersion,
                           const std::vector<uint8_t> &payload) {
  size_t slash = path.rfind('/');
  std::string error;
  if (slash != std::string::npos && slash > 0 &&
      !makeDirectories(path.substr(0, slash), error))
    return {CMRT_ERROR_INVALID_ARGUMENT, "plan cache: " + error};
  std::vector<uint8_t> bytes = encodePlanFile(key, frontendVersion, payload);
  // One temporary per write, not per process: two threads writing one path
  // must not rename each other's file away or write into it.
  static std::atomic<uint64_t> writes{0};
  std::string temporary = path + ".tmp" +
                          std::to_string(static_cast<long long>(::getpid())) +
                          "." + std::to_string(writes++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out.good()) {
      std::remove(temporary.c_str());
      return {CMRT_ERROR_INVALID_ARGUMENT,
              "plan cache: cannot write '" + temporary + "'"};
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    return {CMRT_ERROR_INVALID_ARGUMENT,
            "plan cache: cannot rename '" + temporary + "' to '" + path +
                "': " + reason};
  }
  return Status::success();
}

bool plan::readPlanFile(const std::string &path, const CacheKey &key,
                        int64_t frontendVersion,
                        std::vector<uint8_t> &payload, std::string &why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "no file '" + path + "'";
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (!decodePlanFile(bytes, key, frontendVersion, payload, why)) {
    why = "'" + path + "' " + why;
    return false;
  }
  touchPlanFile(path); // used now: the last to be evicted
  return true;
}
