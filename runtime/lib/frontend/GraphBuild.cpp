//===- GraphBuild.cpp - build with the split fallback, and execute --------===//

#include "frontend/GraphBuild.h"
#include "core/Context.h"
#include "cudnn-mlir-runtime/FusionCost.h"
#include "frontend/BlasLtChoice.h"
#include "frontend/FusionTiming.h"
#include "graph/GraphValidation.h"
#include "graph/Log.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace cmrt;
using namespace cmrt::graph;

namespace {

/// The first line of a message (cuDNN's reasons run to several).
std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

void logBuild(const BuiltGraph &g) {
  if (!logEnabled())
    return;
  char head[160];
  std::snprintf(head, sizeof(head),
                "built graph on device %d in %.3f ms (%s), workspace %lld "
                "bytes",
                g.device, g.buildMilliseconds, planOriginName(g.origin),
                static_cast<long long>(g.workspaceBytes));
  std::string text = head;
  if (!g.planName.empty())
    text += ", engine " + g.planName;
  if (!g.parts.empty())
    text += ", " + std::to_string(g.parts.size()) + " parts";
  logText(text + "\n" + g.dump);
}

/// Where each of `part`'s user tensors lives in the split graph `whole`:
/// one of its user tensors, or a scratch tensor. splitPerOp gives every
/// tensor of a part one of the two.
std::vector<BuiltGraph::PartOperand> partOperandsOf(const BuiltGraph &part,
                                                    const BuiltGraph &whole) {
  std::vector<BuiltGraph::PartOperand> operands;
  for (const auto &[uid, alignment] : part.userTensors) {
    (void)alignment;
    BuiltGraph::PartOperand operand;
    for (size_t i = 0; i < whole.userTensors.size(); ++i)
      if (whole.userTensors[i].first == uid)
        operand.userIndex = static_cast<int64_t>(i);
    if (operand.userIndex < 0)
      for (const ScratchTensor &t : whole.scratch)
        if (t.uid == uid)
          operand.scratchOffset = t.offset;
    operands.push_back(operand);
  }
  return operands;
}

Status buildSplit(const BuildRequest &request, const Status &fusedFailure,
                  std::shared_ptr<BuiltGraph> &out) {
  auto start = std::chrono::steady_clock::now();
  SplitGraph split = splitPerOp(request.desc);
  auto built = std::make_shared<BuiltGraph>();
  built->device = request.device;
  built->dump = dumpGraph(request.desc);
  built->origin = CMRT_PLAN_SPLIT;
  for (const Tensor &t : request.desc.tensors)
    if (!t.isVirtual && !t.isByValue)
      built->userTensors.push_back({t.uid, t.alignment});
  built->scratch = split.scratch;
  built->scratchBytes = split.scratchBytes;

  for (size_t i = 0; i < split.parts.size(); ++i) {
    const GraphDescription &part = split.parts[i];
    std::shared_ptr<BuiltGraph> builtPart;
    Status s = buildFrontendGraph(partRequest(request, part), builtPart);
    if (!s.ok())
      return {s.code,
              "cuDNN has no engine for the fused graph (" +
                  firstLine(fusedFailure.message) +
                  "), and the split fallback failed on " +
                  describeOp(i, part.ops[0].kind) + ": " + s.message +
                  "\nthe fused graph:\n" + built->dump};
    built->workspaceBytes =
        std::max(built->workspaceBytes, builtPart->workspaceBytes);
    built->partOperands.push_back(partOperandsOf(*builtPart, *built));
    built->parts.push_back(std::move(builtPart));
  }
  built->buildMilliseconds =
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now() - start)
          .count();
  // Once per fused graph and process, whether or not logging is on: a
  // split graph is slower, and the user should know.
  warnOnce("split:" + request.key.toString(),
          "cuDNN has no engine for a fused graph, so it runs split into " +
              std::to_string(built->parts.size()) +
              " graphs, one per op: " + firstLine(fusedFailure.message) +
              "\n" + built->dump);
  out = std::move(built);
  return Status::success();
}

} // namespace

BuildRequest cmrt::partRequest(const BuildRequest &whole,
                               const GraphDescription &part) {
  std::vector<int64_t> words = serialize(part);
  return {part,
          whole.options,
          makeCacheKey(hashGraphAndOptions(words.data(),
                                           static_cast<int64_t>(words.size()),
                                           whole.options),
                       whole.key.computeCapability, whole.key.cudnnVersion),
          whole.device,
          whole.handle,
          whole.stream};
}

Status cmrt::buildGraph(const BuildRequest &request,
                        std::shared_ptr<BuiltGraph> &out) {
  Status fused = buildFrontendGraph(request, out);
  if (fused.ok()) {
    logBuild(*out);
    if (judgedByTiming(request, *out)) {
      std::string why;
      judgeFusionByTiming(request, *out, why);
      if (!why.empty()) {
        out->refusal = std::string(kFusionByCostPrefix) + why;
        out->frontend.reset();
        logText(out->refusal + "\n" + out->dump);
        return fused;
      }
    }
    chooseBlasLt(request, *out);
    return fused;
  }
  if (fused.code != CMRT_ERROR_NOT_SUPPORTED || request.desc.ops.size() < 2 ||
      (request.options & CMRT_GRAPH_NO_SPLIT))
    return fused;
  CMRT_TRY(buildSplit(request, fused, out));
  logBuild(*out);
  return Status::success();
}

Status cmrt::executeBuiltGraph(BuiltGraph &graph, cudaStream_t stream,
                               void *const *pointers) {
  auto start = logEnabled() ? std::chrono::steady_clock::now()
                            : std::chrono::steady_clock::time_point{};
  cudnnHandle_t handle = nullptr;
  CMRT_TRY(handleFor(graph.device, stream, handle));
  // Split graphs: [scratch tensors | workspace] in one pooled buffer; the
  // scratch size is a multiple of kScratchAlignment, so the workspace after
  // it stays aligned.
  WorkspaceLease lease;
  CMRT_TRY(lease.acquire(graph.device, stream,
                         graph.scratchBytes + graph.workspaceBytes));
  auto *base = static_cast<char *>(lease.data());
  void *workspace = base ? base + graph.scratchBytes : nullptr;
  if (graph.lt) {
    CMRT_TRY(executeBlasLt(graph, stream, pointers, workspace));
  } else if (graph.parts.empty()) {
    CMRT_TRY(executeFrontendGraph(graph, handle, pointers, workspace));
  } else {
    std::vector<void *> partPointers;
    for (size_t p = 0; p < graph.parts.size(); ++p) {
      partPointers.clear();
      for (const BuiltGraph::PartOperand &o : graph.partOperands[p])
        partPointers.push_back(o.userIndex >= 0 ? pointers[o.userIndex]
                                                : base + o.scratchOffset);
      CMRT_TRY(executeFrontendGraph(*graph.parts[p], handle,
                                    partPointers.data(), workspace));
    }
  }
  if (logEnabled()) {
    double us = std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    char time[48];
    std::snprintf(time, sizeof(time), "%.1f", us);
    logText(std::string("executed graph (") + planOriginName(graph.origin) +
            (graph.planName.empty() ? "" : ", engine " + graph.planName) +
            "): enqueued in " + time + " us");
  }
  return Status::success();
}
