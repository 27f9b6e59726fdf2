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
} cmrtStatus;

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
