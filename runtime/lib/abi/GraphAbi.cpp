//===- GraphAbi.cpp - the C entry points for graph descriptions -----------===//

#include "core/Errors.h"
#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphHash.h"

namespace {
cmrtStatus report(const cmrt::graph::Status &status) {
  return status.ok() ? cmrt::succeed()
                     : cmrt::fail(status.code, status.message);
}
} // namespace

extern "C" CMRT_EXPORT cmrtStatus
cmrtValidateGraphDescription(const int64_t *words, int64_t count) {
  cmrt::graph::GraphDescription graph;
  return report(cmrt::graph::parseAndValidate(words, count, graph));
}

extern "C" CMRT_EXPORT cmrtStatus cmrtHashGraphDescription(
    const int64_t *words, int64_t count, uint64_t *hash) {
  if (!hash)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtHashGraphDescription expects a non-null hash "
                      "pointer, but got null");
  cmrt::graph::GraphDescription graph;
  if (cmrt::graph::Status s = cmrt::graph::parseAndValidate(words, count, graph);
      !s.ok())
    return report(s);
  *hash = cmrt::graph::hashWords(words, count);
  return cmrt::succeed();
}
