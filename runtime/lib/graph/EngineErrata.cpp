//===- EngineErrata.cpp - engine configs that compute a graph wrongly -----===//

#include "graph/EngineErrata.h"
#include "graph/GraphValidation.h"

#include <algorithm>

using namespace cmrt::graph;

namespace {

/// Whether every dim after N and C is 1.
bool spatiallyOneByOne(const Tensor &t) {
  return t.dims.size() > 2 && std::all_of(t.dims.begin() + 2, t.dims.end(),
                                          [](int64_t d) { return d == 1; });
}

} // namespace

std::string cmrt::graph::whyRuntimeCompiledEnginesAreDeselected(
    const GraphDescription &graph) {
  detail::TensorIndex byUid = detail::tensorsByUid(graph);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const Op &op = graph.ops[i];
    if (op.kind != OpKind::ConvFprop || op.inputs.empty() || op.outputs.empty())
      continue;
    auto x = byUid.find(op.inputs[0]), y = byUid.find(op.outputs[0]);
    if (x == byUid.end() || y == byUid.end())
      continue;
    if (x->second->dataType != static_cast<int64_t>(DataType::Float) ||
        !spatiallyOneByOne(*y->second) || spatiallyOneByOne(*x->second))
      continue;
    return describeOp(i, op.kind) +
           " is an fp32 convolution from a larger input to a 1x1 output, "
           "which cuDNN's runtime-compiled engines (eng4, eng7) compute "
           "wrongly (cuDNN 9.14 on an H100); they are deselected for this "
           "graph";
  }
  return "";
}
