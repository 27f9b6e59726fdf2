//===- SplitByCostReport.cpp - graphs the runtime runs split by cost ------===//

#include "SplitByCostReport.h"

#include "cudnn-mlir-runtime/FusionCost.h"
#include "cudnn-mlir-runtime/Graph.h"

using namespace mlir;
using namespace mlir::cudnn;

void SplitByCostReport::note(ExecuteGraphOp op,
                             const std::vector<int64_t> &words) {
  if (!op.getRan())
    return; // no split form: the fused graph is the only way
  cmrt::graph::GraphDescription graph;
  if (!cmrt::graph::parseAndValidate(words.data(),
                                     static_cast<int64_t>(words.size()), graph)
           .ok())
    return; // serialization reports a refused description itself
  std::string why = cmrt::graph::whyRuntimeCompiledFusionLosesToSplit(graph);
  if (!why.empty())
    byReason.add(why, op);
}

void SplitByCostReport::emit() const {
  for (const auto &[why, ops] : byReason.getGroups()) {
    InFlightDiagnostic remark = ops.front()->emitRemark();
    if (ops.size() == 1)
      remark << "this graph runs its split form by cost";
    else
      remark << ops.size()
             << " graphs (the first here) run their split forms "
                "by cost";
    remark << " unless a precompiled cuDNN engine takes the fused graph "
              "(CUDNN_MLIR_FUSION_BY_COST=0 turns the rule off): "
           << why;
  }
}
