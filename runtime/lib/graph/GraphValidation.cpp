//===- GraphValidation.cpp - tensors, operands and dataflow ---------------===//
//
// What cuDNN would reject with a bare status (or accept and misbehave on) is
// caught here with a message that names the op (index and kind) and the
// tensor (UID). Per-kind attribute rules live in GraphOpChecks.cpp.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphValidation.h"

using namespace cmrt::graph;
using namespace cmrt::graph::detail;

namespace {

std::string tensorName(int64_t uid) { return "tensor UID " + std::to_string(uid); }

bool allPositive(const std::vector<int64_t> &values) {
  for (int64_t v : values)
    if (v <= 0)
      return false;
  return true;
}

Status checkTensorShape(const Tensor &t) {
  std::string name = tensorName(t.uid);
  int64_t rank = static_cast<int64_t>(t.dims.size());
  if (rank < 1 || rank > kMaxRank)
    return Status::invalid(name + " expects a rank in [1, " +
                           std::to_string(kMaxRank) + "], but got " +
                           std::to_string(rank));
  if (!allPositive(t.dims))
    return Status::invalid(name + " expects positive dims, but got " +
                           formatList(t.dims));
  if (t.strides.size() != t.dims.size())
    return Status::invalid(name + " expects " + std::to_string(rank) +
                           " strides (one per dim), but got " +
                           std::to_string(t.strides.size()));
  if (!allPositive(t.strides))
    return Status::invalid(name + " expects positive strides, but got " +
                           formatList(t.strides));
  return Status::success();
}

Status checkTensor(const Tensor &t) {
  std::string name = tensorName(t.uid);
  if (t.uid <= 0)
    return Status::invalid("tensor UID " + std::to_string(t.uid) +
                           " expects a positive UID (0 marks an absent "
                           "operand), but got " + std::to_string(t.uid));
  if (!isKnownDataType(t.dataType))
    return Status::invalid(name + " expects a cudnnDataType_t value, but "
                                  "got " + std::to_string(t.dataType));
  CMRT_TRY(checkTensorShape(t));
  if (t.alignment <= 0 || (t.alignment & (t.alignment - 1)) != 0)
    return Status::invalid(name + " expects a power-of-two byte alignment, "
                                  "but got " + std::to_string(t.alignment));
  if (t.isVirtual && t.isByValue)
    return Status::invalid(name + " expects to be either virtual or "
                                  "by-value, but got both");
  if (t.isByValue)
    for (int64_t d : t.dims)
      if (d != 1)
        return Status::invalid(name + " is by-value and expects every dim "
                                      "to be 1, but got " + formatList(t.dims));
  return Status::success();
}

Status indexTensors(const GraphDescription &graph, TensorIndex &index) {
  for (const Tensor &t : graph.tensors) {
    CMRT_TRY(checkTensor(t));
    if (!index.emplace(t.uid, &t).second)
      return Status::invalid(tensorName(t.uid) + " expects a unique UID, "
                                                 "but got it twice");
  }
  return Status::success();
}

std::string slotNames(const std::vector<Slot> &slots) {
  std::string out;
  for (const Slot &s : slots)
    out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

Status checkSlots(const std::string &opName, const char *kind,
                  const std::vector<Slot> &slots,
                  const std::vector<int64_t> &uids,
                  const TensorIndex &tensors) {
  if (uids.size() != slots.size())
    return Status::invalid(opName + " expects " +
                           std::to_string(slots.size()) + " " + kind + "s (" +
                           slotNames(slots) + "), but got " +
                           std::to_string(uids.size()));
  for (size_t i = 0; i < slots.size(); ++i) {
    if (uids[i] == 0) {
      if (slots[i].required)
        return Status::invalid(opName + " expects " + kind + " " +
                               slots[i].name + ", but got none (UID 0)");
      continue;
    }
    if (!tensors.count(uids[i]))
      return Status::invalid(opName + " expects " + kind + " " +
                             slots[i].name + " to be a tensor of the graph, "
                             "but got unknown UID " + std::to_string(uids[i]));
  }
  return Status::success();
}

Status checkOperands(const OpView &view) {
  std::string name = view.name();
  if (view.schema.inputs.empty())
    return Status::invalid(name + " expects a known pointwise mode, but got " +
                           std::to_string(
                               std::get<PointwiseAttrs>(view.op.attrs).mode));
  CMRT_TRY(checkSlots(name, "input", view.schema.inputs, view.op.inputs,
                      view.tensors));
  CMRT_TRY(checkSlots(name, "output", view.schema.outputs, view.op.outputs,
                      view.tensors));
  for (size_t i = 0; i < view.op.outputs.size(); ++i)
    if (const Tensor *t = view.output(i); t && t->isByValue)
      return Status::invalid(name + " expects output " + view.outputName(i) +
                             " to live in memory, but got a by-value tensor");
  return Status::success();
}

/// Which op produces each tensor, and whether any op reads it.
struct Dataflow {
  std::unordered_map<int64_t, size_t> producer;
  std::unordered_map<int64_t, bool> read;
};

Status recordOp(const GraphDescription &graph, size_t i, Dataflow &flow) {
  const Op &op = graph.ops[i];
  for (int64_t uid : op.inputs) {
    if (uid == 0)
      continue;
    flow.read[uid] = true;
  }
  for (int64_t uid : op.outputs) {
    if (uid == 0)
      continue;
    auto [it, inserted] = flow.producer.emplace(uid, i);
    if (!inserted)
      return Status::invalid(
          tensorName(uid) + " expects one producer, but is produced by " +
          describeOp(it->second, graph.ops[it->second].kind) + " and " +
          describeOp(i, op.kind));
  }
  return Status::success();
}

/// Ops must come in dataflow order (the builder adds them in this order),
/// which also rules out cycles and ops that read their own output.
Status checkOrder(const GraphDescription &graph, const Dataflow &flow) {
  for (size_t i = 0; i < graph.ops.size(); ++i)
    for (int64_t uid : graph.ops[i].inputs) {
      auto it = flow.producer.find(uid);
      if (uid != 0 && it != flow.producer.end() && it->second >= i)
        return Status::invalid(
            describeOp(i, graph.ops[i].kind) + " reads " + tensorName(uid) +
            " and expects it to be produced by an earlier op, but it is "
            "produced by " +
            describeOp(it->second, graph.ops[it->second].kind));
    }
  return Status::success();
}

Status checkTensorUse(const Tensor &t, const Dataflow &flow) {
  bool produced = flow.producer.count(t.uid) != 0;
  bool read = flow.read.count(t.uid) != 0;
  std::string name = tensorName(t.uid);
  if (t.isVirtual && !produced)
    return Status::invalid(
        "virtual " + name + " expects to be produced by an op, but got a "
        "graph input (no op produces it; graph inputs live in memory)");
  if (t.isVirtual && !read)
    return Status::invalid(
        "virtual " + name + " expects to be read by an op, but got a graph "
        "output (no op reads it; graph outputs live in memory)");
  if (!produced && !read)
    return Status::invalid(name + " expects to be used by an op, but no op "
                                  "reads or writes it");
  return Status::success();
}

Status checkDataflow(const GraphDescription &graph) {
  Dataflow flow;
  for (size_t i = 0; i < graph.ops.size(); ++i)
    CMRT_TRY(recordOp(graph, i, flow));
  CMRT_TRY(checkOrder(graph, flow));
  for (const Tensor &t : graph.tensors)
    CMRT_TRY(checkTensorUse(t, flow));
  return Status::success();
}

} // namespace

Status cmrt::graph::validate(const GraphDescription &graph) {
  if (graph.ops.empty())
    return Status::invalid("graph description expects at least one op, but "
                           "got none");
  TensorIndex tensors;
  CMRT_TRY(indexTensors(graph, tensors));
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (!attrsMatchKind(graph.ops[i]))
      return Status::invalid(describeOp(i, graph.ops[i].kind) +
                             " expects the attributes of its kind, but got "
                             "another kind's");
    const OpSchema &schema = schemaFor(graph.ops[i]);
    OpView view{i, graph.ops[i], schema, tensors};
    CMRT_TRY(checkOperands(view));
    CMRT_TRY(checkOpAttributes(view));
  }
  return checkDataflow(graph);
}

Status cmrt::graph::parseAndValidate(const int64_t *words, int64_t count,
                                     GraphDescription &out) {
  CMRT_TRY(parse(words, count, out));
  return validate(out);
}
