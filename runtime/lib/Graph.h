//===- Graph.h - parsing and validating graph descriptions ------*- C++ -*-===//
//
// The runtime's C++ side of the graph description format that
// cudnn-mlir-runtime/GraphDescription.h specifies. Kept free of CUDA and of
// the per-thread error state so that it can be unit-tested on any machine and
// reused by the plan cache; the C ABI wrappers turn a Status into
// cmrt::fail().
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_GRAPH_H
#define CUDNN_MLIR_RUNTIME_GRAPH_H

#include "cudnn-mlir-runtime/GraphDescription.h"
#include "cudnn-mlir-runtime/Runtime.h"

#include <string>

namespace cmrt::graph {

struct Status {
  cmrtStatus code = CMRT_SUCCESS;
  std::string message;

  bool ok() const { return code == CMRT_SUCCESS; }
  static Status success() { return {}; }
  static Status invalid(std::string message) {
    return {CMRT_ERROR_INVALID_GRAPH, std::move(message)};
  }
};

/// Decodes `count` words into `out`. Checks the structure only (header,
/// record lengths, known op kinds, canonical encodings), so that nothing is
/// read past the buffer; validate() checks the meaning.
Status parse(const int64_t *words, int64_t count, GraphDescription &out);

/// Checks everything cuDNN would otherwise reject obscurely (or accept and
/// misbehave on): tensor shapes and strides, UIDs, which tensors are virtual,
/// and each op's operands and attributes.
Status validate(const GraphDescription &graph);

/// parse() then validate().
Status parseAndValidate(const int64_t *words, int64_t count,
                        GraphDescription &out);

/// "op #3 (pointwise)": how every diagnostic names an op.
std::string describeOp(size_t index, OpKind kind);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_GRAPH_H
