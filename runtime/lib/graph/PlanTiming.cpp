//===- PlanTiming.cpp - graphs whose plans are timed ----------------------===//

#include "graph/PlanTiming.h"
#include "graph/GraphValidation.h"

#include <cstdlib>
#include <cstring>

using namespace cmrt::graph;

std::string cmrt::graph::whyPlansAreTimed(const GraphDescription &graph) {
  const char *enabled = std::getenv("CUDNN_MLIR_PLAN_TIMING");
  if (enabled && std::strcmp(enabled, "0") == 0)
    return "";
  if (graph.ops.size() != 1)
    return "";
  const Op &op = graph.ops[0];
  detail::ConvGrouping g;
  if (!detail::convGroupingOf(op, detail::tensorsByUid(graph), g) ||
      g.groups <= 1 || g.perGroup <= 1)
    return "";
  return describeOp(0, op.kind) + " is a grouped convolution (" +
         std::to_string(g.groups) + " groups of " + std::to_string(g.perGroup) +
         " channels), for which cuDNN's heuristics rank engines that pad "
         "each group first; every candidate is timed (cuDNN 9.14, H200)";
}
