//===- FusionCost.cpp - fused graphs that lose to their split form --------===//

#include "cudnn-mlir-runtime/FusionCost.h"
#include "graph/GraphValidation.h"

#include <cstdlib>
#include <cstring>

using namespace cmrt::graph;

namespace {

bool isHalfPrecision(const Tensor &t) {
  return t.dataType == static_cast<int64_t>(DataType::Half) ||
         t.dataType == static_cast<int64_t>(DataType::BFloat16);
}

} // namespace

std::string cmrt::graph::whyRuntimeCompiledFusionLosesToSplit(
    const GraphDescription &graph) {
  if (graph.ops.size() < 2)
    return "";
  detail::TensorIndex byUid = detail::tensorsByUid(graph);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const Op &op = graph.ops[i];
    detail::ConvGrouping g;
    // A prologue's output is virtual and in the compute type, so the
    // precision is the filter's.
    if (!detail::convGroupingOf(op, byUid, g) || !isHalfPrecision(*g.filter))
      continue;
    if (g.groups > 1 && g.perGroup > 1)
      return describeOp(i, op.kind) + " is a grouped convolution (" +
             std::to_string(g.groups) + " groups of " +
             std::to_string(g.perGroup) +
             " channels), which cuDNN's runtime-compiled fused engines run "
             "several times slower than the convolution alone (cuDNN 9.14, "
             "H100)";
  }
  return "";
}

bool cmrt::graph::fusionByCostEnabled() {
  const char *value = std::getenv("CUDNN_MLIR_FUSION_BY_COST");
  return !value || std::strcmp(value, "0") != 0;
}
