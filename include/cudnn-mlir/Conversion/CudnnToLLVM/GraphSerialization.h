//===- GraphSerialization.h - cudnn graph region -> description -*- C++ -*-===//
//
// Turns the body of a cudnn.execute_graph into the runtime's compact graph
// description (runtime/include/cudnn-mlir-runtime/GraphDescription.h), the
// constant that compiled code hands to cmrtInvocationGraph.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_GRAPHSERIALIZATION_H
#define CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_GRAPHSERIALIZATION_H

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::cudnn {

struct SerializedGraph {
  /// The description's words (format version included).
  std::vector<int64_t> words;
  /// Per ins buffer: its tensor UID, or 0 for a scalar passed by value
  /// (no pointer at run time).
  SmallVector<int64_t> inputUids;
  /// Per outs buffer: its tensor UID.
  SmallVector<int64_t> outputUids;
};

/// cuDNN's cudnnDataType_t value for an MLIR element type, if it has one.
std::optional<int64_t> cudnnDataTypeOf(Type type);

/// The scalar value of ins buffer `index` when it is a one-element constant
/// (it is then passed by value in the description), else nullopt.
using ScalarInputFn =
    llvm::function_ref<std::optional<TypedAttr>(unsigned index)>;

/// Serializes `op`'s graph. Block arguments get UIDs 1..n in order, op
/// results the following ones; a tensor is virtual unless it is an input or
/// a cudnn.build_graph operand, and a virtual float tensor takes the compute
/// type of the op producing it (fused engines keep intermediates in it). Emits
/// an error on `op` and fails for what the description cannot express (e.g. an
/// output that is an input).
FailureOr<SerializedGraph> serializeGraph(ExecuteGraphOp op,
                                          ScalarInputFn scalarInput);

} // namespace mlir::cudnn

#endif // CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_GRAPHSERIALIZATION_H
