//===- Errors.h - the runtime's one error-reporting path --------*- C++ -*-===//

#ifndef CUDNN_MLIR_RUNTIME_ERRORS_H
#define CUDNN_MLIR_RUNTIME_ERRORS_H

#include "cudnn-mlir-runtime/Runtime.h"

#include <string>

#define CMRT_EXPORT __attribute__((visibility("default")))

namespace cmrt {

/// Records `message` as this thread's last error and returns `status`.
cmrtStatus fail(cmrtStatus status, std::string message);

/// Clears this thread's last error and returns CMRT_SUCCESS.
cmrtStatus succeed();

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_ERRORS_H
