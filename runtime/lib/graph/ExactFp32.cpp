//===- ExactFp32.cpp - can cuDNN keep a graph's fp32 exact? ---------------===//

#include "graph/ExactFp32.h"

#include <cstring>
#include <unordered_map>

using namespace cmrt::graph;

std::string cmrt::graph::whyFp32CannotBeExact(const GraphDescription &graph,
                                              int64_t computeCapability,
                                              const char *tf32Override) {
  if (computeCapability < 80)
    return ""; // no TF32 before Ampere
  if (tf32Override && std::strcmp(tf32Override, "0") == 0)
    return "";
  std::unordered_map<int64_t, int64_t> dataTypes;
  for (const Tensor &t : graph.tensors)
    dataTypes.emplace(t.uid, t.dataType);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const Op &op = graph.ops[i];
    if (op.kind != OpKind::Matmul)
      continue;
    for (int64_t uid : op.inputs) {
      auto it = dataTypes.find(uid);
      if (it == dataTypes.end() ||
          it->second != static_cast<int64_t>(DataType::Float))
        continue;
      return describeOp(i, op.kind) +
             ": an fp32 matmul cannot be kept exact (CMRT_GRAPH_EXACT_FP32) "
             "on compute capability " +
             std::to_string(computeCapability / 10) + "." +
             std::to_string(computeCapability % 10) +
             ": cuDNN's fp32 matmul engines compute in TF32 without saying "
             "so in their numerical notes (measured with cuDNN 9.14 on an "
             "H100); build it without CMRT_GRAPH_EXACT_FP32 "
             "(allow-tf32-matmul=true) to accept TF32, leave fp32 matmuls "
             "out of cuDNN graphs (the compiler does so unless "
             "allow-tf32-matmul), or set NVIDIA_TF32_OVERRIDE=0 in the "
             "environment";
    }
  }
  return "";
}
