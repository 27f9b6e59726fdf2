//===- Errors.cpp - the runtime's one error-reporting path ----------------===//

#include "core/Errors.h"

namespace {
thread_local std::string lastError;
} // namespace

cmrtStatus cmrt::fail(cmrtStatus status, std::string message) {
  lastError = std::move(message);
  return status;
}

cmrtStatus cmrt::succeed() {
  lastError.clear();
  return CMRT_SUCCESS;
}

extern "C" CMRT_EXPORT const char *cmrtGetLastErrorMessage(void) {
  return lastError.c_str();
}
