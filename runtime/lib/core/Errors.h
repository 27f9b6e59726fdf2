//===- Errors.h - the runtime's one error-reporting path --------*- C++ -*-===//

#ifndef CUDNN_MLIR_RUNTIME_ERRORS_H
#define CUDNN_MLIR_RUNTIME_ERRORS_H

#include "cudnn-mlir-runtime/Graph.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <exception>
#include <string>

#define CMRT_EXPORT __attribute__((visibility("default")))

namespace cmrt {

/// Records `message` as this thread's last error and returns `status`.
cmrtStatus fail(cmrtStatus status, std::string message);

/// Clears this thread's last error and returns CMRT_SUCCESS.
cmrtStatus succeed();

/// succeed() or fail() for a Status.
inline cmrtStatus report(const graph::Status &s) {
  return s.ok() ? succeed() : fail(s.code, s.message);
}

/// Runs `f` (returning a cmrtStatus) so that no exception, e.g. a
/// std::bad_alloc, crosses the C boundary of entry point `name`. Only for
/// files compiled with -fexceptions.
template <typename F> cmrtStatus guarded(const char *name, F &&f) {
  try {
    return f();
  } catch (const std::exception &e) {
    return fail(CMRT_ERROR_INVALID_ARGUMENT,
                std::string(name) + ": unexpected exception: " + e.what());
  } catch (...) {
    return fail(CMRT_ERROR_INVALID_ARGUMENT,
                std::string(name) + ": unexpected exception");
  }
}

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_ERRORS_H
