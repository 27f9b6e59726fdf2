//===- GraphValidation.h - shared by the validation files -------*- C++ -*-===//

#ifndef CUDNN_MLIR_RUNTIME_GRAPHVALIDATION_H
#define CUDNN_MLIR_RUNTIME_GRAPHVALIDATION_H

#include "cudnn-mlir-runtime/Graph.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace cmrt::graph::detail {

using TensorIndex = std::unordered_map<int64_t, const Tensor *>;

/// `graph`'s tensors by UID, unchecked (validation rejects a UID given
/// twice; here the first wins): what the rules that read a described
/// graph's shapes look operands up in (EngineErrata.h, FusionCost.h,
/// PlanTiming.h).
TensorIndex tensorsByUid(const GraphDescription &graph);

/// A convolution's grouping: `groups` of `perGroup` input channels each.
struct ConvGrouping {
  const Tensor *input = nullptr, *filter = nullptr;
  int64_t groups = 0, perGroup = 0;
};

/// The grouping of `op` (a ConvFprop whose image and filter `byUid` holds,
/// of rank 3 or more); false for any other op.
bool convGroupingOf(const Op &op, const TensorIndex &byUid, ConvGrouping &out);

struct Slot {
  std::string name;
  bool required;
};

/// The operand and result slots of an op, in record order.
struct OpSchema {
  std::vector<Slot> inputs;
  std::vector<Slot> outputs;
};

/// Number of inputs of a cudnnPointwiseMode_t, 0 for an unknown mode.
int pointwiseArity(int64_t mode);

/// Schema of `op` (GraphOps.def's slots); for pointwise ops it depends on
/// the mode's arity. The op's attributes must match its kind.
const OpSchema &schemaFor(const Op &op);

bool isKnownDataType(int64_t dataType);

/// Whether the attribute struct is the one `op.kind` carries (a C++-built
/// description can get this wrong; a parsed one cannot).
bool attrsMatchKind(const Op &op);

/// Sets `out` to the default attribute struct of op kind `kind` (the parse
/// dispatch); false if `kind` is no line of GraphOps.def.
bool defaultAttrsFor(int64_t kind, OpAttrs &out);

/// An op whose operand UIDs are known to resolve, with the helpers its
/// checks need to name things in messages.
struct OpView {
  size_t index;
  const Op &op;
  const OpSchema &schema;
  const TensorIndex &tensors;

  std::string name() const { return describeOp(index, op.kind); }
  /// Null for an absent optional slot.
  const Tensor *input(size_t i) const { return lookup(op.inputs, i); }
  const Tensor *output(size_t i) const { return lookup(op.outputs, i); }
  /// "x (UID 3)".
  std::string inputName(size_t i) const;
  std::string outputName(size_t i) const;

private:
  const Tensor *lookup(const std::vector<int64_t> &uids, size_t i) const;
};

/// Attribute and shape rules of one op kind (GraphOpChecks.cpp).
Status checkOpAttributes(const OpView &view);

std::string formatList(const std::vector<int64_t> &values);

} // namespace cmrt::graph::detail

/// Returns the Status of `expr` from the enclosing function if it failed.
#define CMRT_TRY(expr)                                                         \
  do {                                                                         \
    if (::cmrt::graph::Status s_ = (expr); !s_.ok())                           \
      return s_;                                                               \
  } while (false)

#endif // CUDNN_MLIR_RUNTIME_GRAPHVALIDATION_H
