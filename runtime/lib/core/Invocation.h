//===- Invocation.h - the calling thread's invocation, inside the runtime -===//
//
// What other parts of the runtime need to know about the invocation (the run
// of one exported entry of a compiled module, InvocationAbi.cpp) the calling
// thread is in: generated kernels launched through MLIR's mgpu* ABI run on
// its stream and report their failures to it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_INVOCATION_H
#define CUDNN_MLIR_RUNTIME_INVOCATION_H

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include <string>

namespace cmrt {

/// Whether the calling thread is inside an invocation; if so, its stream.
bool currentInvocationStream(cudaStream_t &stream);

/// Whether the calling thread's innermost invocation has already failed
/// (its later work must not run).
bool currentInvocationFailed();

/// Records a failure on the calling thread's innermost invocation, if any
/// (the first failure is the one cmrtInvocationEnd reports).
void failCurrentInvocation(cmrtStatus status, const std::string &message);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_INVOCATION_H
