//===- PlanFile.h - the on-disk plan cache's file format --------*- C++ -*-===//
//
// Each built plan that cudnn-frontend can serialize is stored as
// <folder>/<CacheKey::toString()>.cmrtplan (the folder: planCacheDirectory,
// on unless CUDNN_MLIR_PLAN_CACHE=0), so the next
// process loads it instead of querying heuristics and compiling engines. A
// file is
//   magic "CMRTPLAN" (8 bytes), format version (u64), frontend version (u64),
//   graph hash, compute capability, cuDNN version (u64 each),
//   payload size (u64), payload FNV-1a hash (u64), payload bytes
// all little-endian. Anything that does not match - another key, another
// frontend, a short or altered file - is a miss with a reason, never an
// error: the caller rebuilds and overwrites it. Each write goes to a
// temporary file of its own renamed into place, so readers never see half a
// file, even with writers in several threads. No CUDA here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_PLANFILE_H
#define CUDNN_MLIR_RUNTIME_PLANFILE_H

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphHash.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cmrt::plan {

/// 2: plans stored before the engine errata (EngineErrata.h) may hold an
/// engine config that the errata now deselect. 3: likewise for fusion by
/// cost (FusionCost.h). 4: plans of graphs that are now timed
/// (PlanTiming.h) were the heuristics' choice.
inline constexpr uint64_t kPlanFileVersion = 4;

/// The variables that place the disk cache (null: unset).
struct CacheEnvironment {
  const char *cacheDir = nullptr;     // CUDNN_MLIR_CACHE_DIR
  const char *planCache = nullptr;    // CUDNN_MLIR_PLAN_CACHE: 0/off/no/false
  const char *xdgCacheHome = nullptr; // XDG_CACHE_HOME
  const char *home = nullptr;         // HOME
};

/// The plan folder: `plans` under the cudnn-mlir cache folder, which is
/// CUDNN_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/cudnn_mlir, else
/// $HOME/.cache/cudnn_mlir (the Python package's artifact cache,
/// cudnn_mlir.driver.compiler.default_cache_dir, is the same folder). ""
/// when CUDNN_MLIR_PLAN_CACHE turns the cache off or no folder can be named
/// (no HOME). A switch value that is neither on nor off leaves the cache on
/// and says so in `why` (empty otherwise).
std::string planCacheDirectory(const CacheEnvironment &env, std::string &why);

/// planCacheDirectory of this process's environment (a bad switch value is
/// warned about once).
std::string cacheDirectoryFromEnvironment();

/// <dir>/<key>.cmrtplan
std::string planFilePath(const std::string &directory,
                         const graph::CacheKey &key);

/// The file's bytes for `payload` (what writePlanFile stores).
std::vector<uint8_t> encodePlanFile(const graph::CacheKey &key,
                                    int64_t frontendVersion,
                                    const std::vector<uint8_t> &payload);

/// Checks `bytes` against the key and versions and extracts the payload.
/// On a mismatch returns false and says why in `why`.
bool decodePlanFile(const std::vector<uint8_t> &bytes,
                    const graph::CacheKey &key, int64_t frontendVersion,
                    std::vector<uint8_t> &payload, std::string &why);

/// Creates the directory if needed, then writes atomically. A failure is a
/// Status to log, not to return to the caller of a build.
graph::Status writePlanFile(const std::string &path,
                            const graph::CacheKey &key,
                            int64_t frontendVersion,
                            const std::vector<uint8_t> &payload);

/// Reads and decodes; false with `why` when absent or unusable.
bool readPlanFile(const std::string &path, const graph::CacheKey &key,
                  int64_t frontendVersion, std::vector<uint8_t> &payload,
                  std::string &why);

} // namespace cmrt::plan

#endif // CUDNN_MLIR_RUNTIME_PLANFILE_H
