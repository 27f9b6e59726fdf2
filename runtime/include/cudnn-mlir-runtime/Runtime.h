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
  /* the stream is being captured into a CUDA graph and the call would have
   * to build a plan or grow a pool (do that once before capture) */
  CMRT_ERROR_STREAM_CAPTURE = 9,
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
  /* Build every candidate plan and keep the fastest: each is timed with CUDA
   * events on the build's stream (on scratch inputs) instead of taking the
   * first that finalizes. Costs build time, once per graph (and once per
   * machine with the disk cache). */
  CMRT_GRAPH_AUTOTUNE = 4,
  /* Only engines whose workspace fits the cap in bits 32..63, in KiB (0:
   * engines that need no workspace). Build with CMRT_GRAPH_WORKSPACE_KIB. */
  CMRT_GRAPH_WORKSPACE_LIMIT = 8,
  /* Never split the graph into one graph per op when cuDNN has no engine for
   * it: the build fails with CMRT_ERROR_NOT_SUPPORTED instead, because the
   * caller has a better split form (a compiled module's, for
   * cmrtInvocationGraphTry). */
  CMRT_GRAPH_NO_SPLIT = 16,
};
/* Options word bits for a workspace cap of `kib` KiB. */
#define CMRT_GRAPH_WORKSPACE_KIB(kib)                                          \
  ((cmrtGraphOptions)CMRT_GRAPH_WORKSPACE_LIMIT |                              \
   ((cmrtGraphOptions)(uint32_t)(kib) << 32))

/* Where a built graph's plan came from. */
typedef enum cmrtPlanOrigin {
  CMRT_PLAN_HEURISTICS = 0, /* heuristics A/FALLBACK, first that finalized */
  CMRT_PLAN_AUTOTUNED = 1,  /* CMRT_GRAPH_AUTOTUNE: the fastest, timed */
  CMRT_PLAN_DISK_CACHE = 2, /* loaded from CUDNN_MLIR_CACHE_DIR */
  CMRT_PLAN_SPLIT = 3,      /* no engine took the fused graph: one per op */
  CMRT_PLAN_CUBLASLT = 4,   /* one cuBLASLt matmul, timed faster than cuDNN */
} cmrtPlanOrigin;

/* What cmrtGraphGetInfo reports about a built graph. */
typedef struct cmrtGraphInfo {
  int64_t workspaceBytes;   /* per execute (split: the largest part's) */
  int64_t scratchBytes;     /* split graphs: the intermediates between parts */
  int64_t parts;            /* 1, or the number of graphs a split runs */
  double buildMilliseconds; /* wall time of the build (or disk load) */
  cmrtPlanOrigin origin;
  char engine[128];         /* the chosen engine config ("" when split) */
} cmrtGraphInfo;

/* Counters of the process-wide graph cache. */
typedef struct cmrtGraphCacheStats {
  int64_t builds;    /* graphs built (cache misses that succeeded) */
  int64_t hits;      /* cmrtGraphGetOrBuild calls served from the cache */
  int64_t evictions; /* entries dropped by the LRU cap */
  int64_t entries;   /* entries now */
  int64_t capacity;  /* the cap (0 = unlimited) */
} cmrtGraphCacheStats;

/* What the workspace pool holds for one (device, stream). */
typedef struct cmrtWorkspaceInfo {
  int64_t bytes;        /* the current buffer (0: none yet) */
  int64_t retiredBytes; /* older buffers kept because a CUDA graph captured
                           on the stream may still use them */
  int32_t captured;     /* 1: the current buffer was used during a capture */
} cmrtWorkspaceInfo;

/* Versions as cuDNN and CUDA encode them: cuDNN 9.19.0 is 91900, CUDA 13.0
 * is 13000. A value of 0 means "not available" (e.g. no driver). */
typedef struct cmrtVersionInfo {
  int cudnnBuild;    /* CUDNN_VERSION the runtime was compiled against */
  int cudnnLoaded;   /* cudnnGetVersion() of the library actually loaded */
  int cudaRuntime;   /* cudaRuntimeGetVersion() */
  int cudaDriver;    /* cudaDriverGetVersion(); 0 when no driver is present */
  int cudnnFrontend; /* CUDNN_FRONTEND_VERSION compiled in: 1.32.0 is 13200 */
} cmrtVersionInfo;

/* A GPU code image (PTX, cubin or fatbin) of generated kernels, loaded on one
 * device (cmrtKernelModuleGet). Each handle holds a reference: release it
 * with cmrtKernelModuleRelease; the image is unloaded with the last one. */
typedef struct cmrtKernelModuleImpl *cmrtKernelModule;

/* Counters of the process-wide kernel-module cache. */
typedef struct cmrtKernelModuleStats {
  int64_t loads;        /* images loaded (cache misses that succeeded) */
  int64_t hits;         /* module gets served from the cache */
  int64_t entries;      /* modules loaded now */
  int64_t launches;     /* kernels enqueued (cmrtKernelLaunch, mgpuLaunch*) */
  int64_t mgpuFailures; /* mgpu* calls that failed (GpuToLlvmAbi.h) */
} cmrtKernelModuleStats;

/* The runtime's device-memory pool of one device (cmrtDeviceAlloc and
 * mgpuMemAlloc), as CUDA's pool attributes report it. */
typedef struct cmrtDeviceMemoryStats {
  int64_t reservedBytes;     /* device memory the pool holds now */
  int64_t reservedHighBytes; /* the most it has held */
  int64_t usedBytes;         /* handed out and not yet freed */
  int64_t usedHighBytes;     /* the most handed out at once */
} cmrtDeviceMemoryStats;

/*===-- RNNs ----------------------------------------------------------------===*
 * cuDNN's graph API has no RNN node: RNNs run through the RNN v8 API
 * (cudnnRNNForward, cudnnRNNBackwardData_v8, cudnnRNNBackwardWeights_v8).
 *===------------------------------------------------------------------------===*/

/* An RNN built for one configuration on one device (cmrtRnnGetOrBuild): the
 * RNN, dropout, data and state descriptors, the temporary-space sizes and
 * the map from PyTorch's parameters to the weight space. Each handle holds a
 * reference: release it with cmrtRnnRelease. */
typedef struct cmrtRnnImpl *cmrtRnn;

#define CMRT_RNN_CONFIG_VERSION 1

/* Bits of cmrtRnnConfig.flags. */
enum {
  /* The RNN will also run forward in training and backward: the algorithm
   * is chosen for both directions (they must share it). */
  CMRT_RNN_TRAINABLE = 1,
  /* Sequences may be shorter than maxSeqLength: each call passes their
   * lengths (cmrtRnnBuffers.seqLengths); outputs are zero past each one. */
  CMRT_RNN_VARIABLE_LENGTHS = 2,
  /* With algo -1: time every algorithm cuDNN accepts for this shape (the
   * persistent ones only for fixed lengths, no projection and batch <= 128)
   * on scratch buffers when the RNN is built, and keep the fastest. Costs
   * build time, once per configuration and device. */
  CMRT_RNN_AUTOTUNE = 4,
};

/* Everything an RNN depends on. The enums take the values of the cudnn
 * dialect's attributes, which are cuDNN's own. */
typedef struct cmrtRnnConfig {
  int64_t version;   /* CMRT_RNN_CONFIG_VERSION */
  int64_t cell;      /* cudnnRNNMode_t: 0 relu, 1 tanh, 2 LSTM, 3 GRU */
  int64_t direction; /* cudnnDirectionMode_t: 0 uni-, 1 bidirectional */
  int64_t bias;      /* cudnnRNNBiasMode_t: 0 none, 1 input, 2 double, 3 rec. */
  int64_t layout;    /* cudnnRNNDataLayout_t: 0 seq-major unpacked ([T, N, V]),
                        1 seq-major packed ([sum of lengths, V], lengths not
                        increasing), 2 batch-major unpacked ([N, T, V]) */
  int64_t math;      /* cudnnMathType_t; 0 (default) picks FMA for f32 (exact,
                        no TF32), tensor ops for f16/bf16, default for f64 */
  int64_t algo;      /* cudnnRNNAlgo_t, or -1: the runtime chooses */
  int64_t dataType;  /* cudnnDataType_t: float, double, half or bfloat16 */
  int64_t inputSize;
  int64_t hiddenSize;
  int64_t projSize;  /* LSTM projection size, 0 = none */
  int64_t numLayers;
  int64_t maxSeqLength;
  int64_t batch;
  int64_t flags;     /* CMRT_RNN_* bits */
  double dropout;    /* between layers, in training only; in [0, 1) */
  int64_t dropoutSeed;
} cmrtRnnConfig;

/* The RNN calls of cmrtInvocationRnn. */
enum {
  CMRT_RNN_FORWARD_INFERENCE = 0,
  CMRT_RNN_FORWARD_TRAINING = 1,
  CMRT_RNN_BACKWARD_DATA = 2,
  CMRT_RNN_BACKWARD_WEIGHTS = 3,
};

/* What cmrtRnnGetInfo reports. Every size is for maxSeqLength x batch. */
typedef struct cmrtRnnInfo {
  int64_t weightSpaceBytes;
  int64_t workspaceInferenceBytes; /* from the runtime's workspace pool */
  int64_t workspaceTrainingBytes;  /* training forward and backward */
  int64_t reserveBytes;  /* the caller's reserve space for training */
  int64_t paramCount;    /* PyTorch's flat parameters (cmrtRnnPackWeights) */
  int64_t algo;          /* the cudnnRNNAlgo_t used */
  int64_t mathType;      /* the cudnnMathType_t used */
  int64_t autotuned;     /* 1 if CMRT_RNN_AUTOTUNE timed the algorithms */
  int64_t paramBytes;    /* PyTorch's parameters together (compiled code
                            sizes the weight space so; the invocation entries
                            refuse an RNN whose weight space differs) */
} cmrtRnnInfo;

/* The buffers of one RNN call (device memory unless said otherwise); each
 * call reads the ones it needs and ignores the rest. x, y, dx and dy are
 * laid out as cmrtRnnConfig.layout says; h and c states are
 * [layers * directions, batch, size] (h: projSize or hiddenSize, c:
 * hiddenSize). A null hx/cx means zeros, a null hy/cy/dhx/dcx is not
 * written, a null dhy/dcy means zero gradient. */
typedef struct cmrtRnnBuffers {
  const int32_t *seqLengths;     /* [batch]; with CMRT_RNN_VARIABLE_LENGTHS */
  const int32_t *hostSeqLengths; /* the same lengths in host memory; null:
                                    the runtime reads seqLengths, which
                                    synchronises the stream */
  const void *x;
  void *y;
  const void *hx;
  void *hy;
  const void *cx;
  void *cy;
  const void *dy;
  void *dx;
  const void *dhy;
  void *dhx;
  const void *dcy;
  void *dcx;
  const void *weights;  /* the weight space (cmrtRnnPackWeights) */
  void *dweights;       /* the weight-space gradient */
  void *reserve;        /* reserveBytes: training forward -> backward; null
                           in a training forward that no backward follows:
                           the runtime uses a temporary */
} cmrtRnnBuffers;

/*===-- Compiled-module manifests ------------------------------------------===*
 * A compiled module (model.so) exports `const char cmrt_module_manifest[]`,
 * the text that lists its entries and their buffers (docs/abi.md, "The
 * manifest"). cudnn-run and the Python loader read it through
 * cmrtManifestParse, so both accept and refuse the same text with the same
 * message.
 *===------------------------------------------------------------------------===*/

/* A parsed manifest (cmrtManifestParse); free it with cmrtManifestDestroy. */
typedef struct cmrtManifestImpl *cmrtManifest;

/* The element types a manifest names, in its spelling. */
typedef enum cmrtManifestDType {
  CMRT_MANIFEST_F16 = 0,
  CMRT_MANIFEST_BF16 = 1,
  CMRT_MANIFEST_F32 = 2,
  CMRT_MANIFEST_F64 = 3,
  CMRT_MANIFEST_I1 = 4, /* one byte per element in device memory */
  CMRT_MANIFEST_I8 = 5,
  CMRT_MANIFEST_I32 = 6,
  CMRT_MANIFEST_I64 = 7,
} cmrtManifestDType;

/* One buffer of an entry (cmrtManifestGetArg). */
typedef struct cmrtManifestArg {
  int64_t index;          /* its position in the entry's buffers */
  int32_t isOutput;       /* 1: an `out` arg, 0: an `in` arg */
  int32_t dtype;          /* a cmrtManifestDType */
  const char *dtypeName;  /* "f16", "bf16", ...: static, never freed */
  int64_t elementBytes;   /* bytes per element in device memory */
  int64_t rank;
  /* rank logical dims and rank strides (in elements), valid while the
   * manifest is; either may be null when rank is 0 */
  const int64_t *dims;
  const int64_t *strides;
} cmrtManifestArg;

#define CMRT_ENTRY(ret, name, params) ret name params;
#include "cudnn-mlir-runtime/EntryPoints.def"

#ifdef __cplusplus
}
#endif

#endif /* CUDNN_MLIR_RUNTIME_RUNTIME_H */
