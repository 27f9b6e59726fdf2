//===- GraphSplit.cpp - one graph per op, for the split fallback ----------===//

#include "graph/GraphSplit.h"

#include <unordered_map>
#include <unordered_set>

using namespace cmrt::graph;

SplitGraph cmrt::graph::splitPerOp(const GraphDescription &fused) {
  std::unordered_map<int64_t, Tensor> tensors;
  for (const Tensor &t : fused.tensors)
    tensors.emplace(t.uid, t);

  SplitGraph split;
  for (const Tensor &t : fused.tensors) {
    if (!t.isVirtual)
      continue;
    Tensor &real = tensors.at(t.uid);
    real.isVirtual = false;
    real.alignment = kScratchAlignment;
    int64_t bytes = tensorSpanBytes(real);
    split.scratch.push_back({t.uid, split.scratchBytes, bytes});
    split.scratchBytes += (bytes + kScratchAlignment - 1) / kScratchAlignment *
                          kScratchAlignment;
  }

  for (const Op &op : fused.ops) {
    GraphDescription part;
    std::unordered_set<int64_t> added;
    auto add = [&](int64_t uid) {
      if (uid != 0 && added.insert(uid).second)
        part.tensors.push_back(tensors.at(uid));
    };
    for (int64_t uid : op.inputs)
      add(uid);
    for (int64_t uid : op.outputs)
      add(uid);
    part.ops.push_back(op);
    split.parts.push_back(std::move(part));
  }
  return split;
}
