//===- Graph.h - parsing and validating graph descriptions ------*- C++ -*-===//
//
// The C++ side of the graph description format that GraphDescription.h
// specifies: parse, validate, dump. Free of CUDA and of the runtime's
// per-thread error state, so that it is unit-tested on any machine, reused by
// the plan cache, and called by the compiler, which validates every graph it
// serializes with these same checks. The C ABI wrappers turn a Status into
// cmrt::fail(). Implemented in runtime/lib/graph (the static library
// CudnnMlirRuntimeGraph).
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

/// Bytes of one element of a cudnnDataType_t; 0 for an unknown type.
int64_t dataTypeBytes(int64_t dataType);

/// Bytes from a tensor's first element to one past its last, as its dims and
/// strides lay it out (the size of a buffer that holds it). The tensor must
/// be valid (positive dims, non-negative strides).
int64_t tensorSpanBytes(const Tensor &tensor);

/// "op #3 (pointwise)": how every diagnostic names an op.
std::string describeOp(size_t index, OpKind kind);

/// The cmrtGraphOptions bits the runtime knows.
inline constexpr uint64_t kKnownGraphOptions =
    CMRT_GRAPH_EXACT_FP32 | CMRT_GRAPH_DETERMINISTIC | CMRT_GRAPH_AUTOTUNE |
    CMRT_GRAPH_WORKSPACE_LIMIT | CMRT_GRAPH_NO_SPLIT | 0xffffffff00000000ull;

/// The workspace cap in bytes of an options word, or -1 for none.
inline int64_t workspaceLimitBytes(uint64_t options) {
  if (!(options & CMRT_GRAPH_WORKSPACE_LIMIT))
    return -1;
  return static_cast<int64_t>(options >> 32) * 1024;
}

/// CMRT_ERROR_INVALID_ARGUMENT for unknown option bits.
Status checkOptions(uint64_t options);

/// A short readable dump for error messages and logs (GraphDump.cpp):
///   graph: 3 tensors, 1 op
///     tensor UID 1: half [2,32,16,16] strides [8192,1,512,32] align 16
///     tensor UID 3: float [2,32,16,16] ... virtual
///     op #0 (conv_fprop) compute float pad [1,1]/[1,1] stride [1,1]
///           dilation [1,1]: x=1 w=2 -> y=3
std::string dumpGraph(const GraphDescription &graph);

/// "half", "float", ...; "dtype(42)" for an unknown value.
std::string dataTypeName(int64_t dataType);
/// "add", "relu_fwd", ...; "mode(42)" for an unknown value.
std::string pointwiseModeName(int64_t mode);
/// "add", "amax", ...
std::string reductionModeName(int64_t mode);
/// "layer", "instance", "batch", "rms"; "mode(3)" for an unknown value.
std::string normModeName(int64_t mode);
/// "max_pool", "avg_include_padding", "avg_exclude_padding".
std::string resampleModeName(int64_t mode);

} // namespace cmrt::graph

#endif // CUDNN_MLIR_RUNTIME_GRAPH_H
