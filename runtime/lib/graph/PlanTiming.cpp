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
  if (graph.ops.size() != 1 || graph.ops[0].kind != OpKind::ConvFprop)
    return "";
  const Op &op = graph.ops[0];
  if (op.inputs.size() < 2)
    return "";
  detail::TensorIndex byUid = detail::tensorsByUid(graph);
  auto x = byUid.find(op.inputs[0]), w = byUid.find(op.inputs[1]);
  if (x == byUid.end() || w == byUid.end())
    return "";
  const Tensor &in = *x->second, &filter = *w->second;
  if (in.dims.size() < 3 || filter.dims.size() < 3 || filter.dims[1] <= 1)
    return "";
  int64_t perGroup = filter.dims[1];
  int64_t groups = in.dims[1] / perGroup;
  if (groups <= 1)
    return "";
  return describeOp(0, op.kind) + " is a grouped convolution (" +
         std::to_string(groups) + " groups of " + std::to_string(perGroup) +
         " channels), for which cuDNN's heuristics rank engines that pad "
         "each group first; every candidate is timed (cuDNN 9.14, H200)";
}
