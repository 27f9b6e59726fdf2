/*===- Runtime.h - the cudnn-mlir runtime's C ABI ---------------*- C -*-===*\
|*                                                                          *|
|* Every function has the `cmrt` prefix, returns a cmrtStatus (or a value   *|
|* that cannot fail), and reports details through one path:                 *|
|* cmrtGetLastErrorMessage() on the calling thread.                          *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef CUDNN_MLIR_RUNTIME_RUNTIME_H
#define CUDNN_MLIR_RUNTIME_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. The values are part of the ABI. */
typedef enum cmrtStatus {
  CMRT_SUCCESS = 0,
  CMRT_ERROR_INVALID_ARGUMENT = 1,
  CMRT_ERROR_NO_DEVICE = 2,
  CMRT_ERROR_CUDA = 3,
  CMRT_ERROR_CUDNN = 4,
  CMRT_ERROR_VERSION_MISMATCH = 5,
  CMRT_ERROR_INVALID_GRAPH = 6, /* a malformed graph description */
  CMRT_ERROR_NOT_SUPPORTED = 7, /* valid, but no engine or not supported yet */
  CMRT_ERROR_MISALIGNED = 8,    /* a pointer misses its tensor's alignment */
} cmrtStatus;

/* A built, planned cuDNN graph (cmrtGraphGetOrBuild). Each handle holds a
 * reference: release it with cmrtGraphRelease. The graph stays valid while
 * a handle exists even if the cache evicts it. */
typedef struct cmrtGraphImpl *cmrtGraph;

/* Bit flags for cmrtGraphGetOrBuild; they are part of the cache key. */
typedef uint64_t cmrtGraphOptions;
enum {
  CMRT_GRAPH_DEFAULT = 0,
  /* fp32 must be exact: no engine with the TENSOR_CORE (TF32),
   * DOWN_CONVERT_INPUTS or REDUCED_PRECISION_REDUCTION numerical note. */
  CMRT_GRAPH_EXACT_FP32 = 1,
  /* Deterministic engines only: none with the NONDETERMINISTIC note. */
  CMRT_GRAPH_DETERMINISTIC = 2,
};

/* Counters of the process-wide graph cache. */
typedef struct cmrtGraphCacheStats {
  int64_t builds;    /* graphs built (cache misses that succeeded) */
  int64_t hits;      /* cmrtGraphGetOrBuild calls served from the cache */
  int64_t evictions; /* entries dropped by the LRU cap */
  int64_t entries;   /* entries now */
  int64_t capacity;  /* the cap (0 = unlimited) */
} cmrtGraphCacheStats;

/* Versions as cuDNN and CUDA encode them: cuDNN 9.19.0 is 91900, CUDA 13.0
 * is 13000. A value of 0 means "not available" (e.g. no driver). */
typedef struct cmrtVersionInfo {
  int cudnnBuild;    /* CUDNN_VERSION the runtime was compiled against */
  int cudnnLoaded;   /* cudnnGetVersion() of the library actually loaded */
  int cudaRuntime;   /* cudaRuntimeGetVersion() */
  int cudaDriver;    /* cudaDriverGetVersion(); 0 when no driver is present */
  int cudnnFrontend; /* CUDNN_FRONTEND_VERSION compiled in: 1.32.0 is 13200 */
} cmrtVersionInfo;

#define CMRT_ENTRY(ret, name, params) ret name params;
#include "cudnn-mlir-runtime/EntryPoints.def"

#ifdef __cplusplus
}
#endif

#endif /* CUDNN_MLIR_RUNTIME_RUNTIME_H */
