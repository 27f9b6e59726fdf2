//===- SplitFormModel.cpp - what a fused graph's split form costs ---------===//

#include "graph/SplitFormModel.h"
#include "graph/GraphSplit.h"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

using namespace cmrt::graph;

namespace {

bool isAnchor(OpKind kind) {
  return kind != OpKind::Pointwise && kind != OpKind::Reduction;
}

/// The data type the compiled split form stores between its kernels: that
/// of the fused graph's first non-virtual output.
int64_t storedDataType(const GraphDescription &fused,
                       const std::unordered_map<int64_t, const Tensor *> &by) {
  for (const Op &op : fused.ops)
    for (int64_t uid : op.outputs) {
      auto it = by.find(uid);
      if (it != by.end() && !it->second->isVirtual)
        return it->second->dataType;
    }
  return static_cast<int64_t>(DataType::Half);
}

} // namespace

SplitFormModel cmrt::graph::modelSplitForm(const GraphDescription &fused) {
  std::unordered_map<int64_t, const Tensor *> byUid;
  for (const Tensor &t : fused.tensors)
    byUid[t.uid] = &t;
  int64_t stored = storedDataType(fused, byUid);
  auto asStored = [&](const Tensor &t) {
    Tensor real = t;
    if (real.isVirtual) {
      real.isVirtual = false;
      real.dataType = stored;
      real.alignment = 16;
    }
    return real;
  };

  // Which ops touch each virtual tensor: one only among non-anchors stays
  // in registers.
  std::unordered_set<int64_t> touchedByAnchor;
  for (const Op &op : fused.ops) {
    if (!isAnchor(op.kind))
      continue;
    for (int64_t uid : op.inputs)
      touchedByAnchor.insert(uid);
    for (int64_t uid : op.outputs)
      touchedByAnchor.insert(uid);
  }

  SplitFormModel model;
  std::unordered_set<int64_t> counted;
  bool before = false, after = false, seenAnchor = false;
  SplitGraph split = splitPerOp(fused);
  for (size_t i = 0; i < fused.ops.size(); ++i) {
    const Op &op = fused.ops[i];
    if (isAnchor(op.kind)) {
      seenAnchor = true;
      GraphDescription part = std::move(split.parts[i]);
      for (Tensor &t : part.tensors)
        t = asStored(*byUid.at(t.uid));
      model.anchors.push_back(std::move(part));
      continue;
    }
    (seenAnchor ? after : before) = true;
    auto count = [&](int64_t uid) {
      auto it = byUid.find(uid);
      if (uid == 0 || it == byUid.end() || it->second->isByValue ||
          !counted.insert(uid).second)
        return;
      const Tensor &t = *it->second;
      if (t.isVirtual && !touchedByAnchor.count(uid))
        return;
      model.generatedBytes += tensorSpanBytes(asStored(t));
    };
    for (int64_t uid : op.inputs)
      count(uid);
    for (int64_t uid : op.outputs)
      count(uid);
  }
  model.generatedKernels = (before ? 1 : 0) + (after ? 1 : 0);
  return model;
}

std::string cmrt::graph::whySplitFormWinsByTiming(const FusionTiming &t) {
  double split = t.anchorsUs + t.generatedUs;
  if (t.fusedUs <= 0 || split <= 0 || t.fusedUs <= kSplitMargin * split ||
      t.fusedUs - split < kSplitMinSavingUs)
    return "";
  char text[256];
  std::snprintf(text, sizeof(text),
                "timed on this device, the fused graph's runtime-compiled "
                "plan takes %.1f us, its split form about %.1f us (the "
                "anchors alone %.1f us, the generated kernels about %.1f us)",
                t.fusedUs, split, t.anchorsUs, t.generatedUs);
  return text;
}
