//===- FusionTiming.cpp - fused plan against its split form, timed --------===//

#include "frontend/FusionTiming.h"
#include "core/Context.h"
#include "core/ZeroedScratch.h"
#include "cudnn-mlir-runtime/FusionCost.h"
#include "frontend/BlasLtChoice.h"
#include "frontend/DeviceTiming.h"
#include "frontend/GraphBuild.h"
#include "graph/GraphValidation.h"
#include "graph/Log.h"
#include "graph/SplitFormModel.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

using namespace cmrt;
using namespace cmrt::graph;

namespace {

/// The pointers `graph.userTensors` need, from `byUid`.
std::vector<void *> pointersFor(const BuiltGraph &graph,
                                std::unordered_map<int64_t, void *> &byUid) {
  std::vector<void *> pointers;
  for (const auto &[uid, alignment] : graph.userTensors) {
    (void)alignment;
    pointers.push_back(byUid[uid]);
  }
  return pointers;
}

Status timeBoth(const BuildRequest &r, BuiltGraph &fused,
                FusionTiming &timing) {
  SplitFormModel model = modelSplitForm(r.desc);
  if (model.anchors.empty())
    return {CMRT_ERROR_NOT_SUPPORTED, "the graph has no anchor"};

  std::vector<std::shared_ptr<BuiltGraph>> anchors;
  for (const GraphDescription &part : model.anchors) {
    std::shared_ptr<BuiltGraph> built;
    BuildRequest request = partRequest(r, part);
    CMRT_TRY(buildFrontendGraph(request, built));
    // The split form's anchor graph gets the cuBLASLt choice every graph
    // gets (GraphBuild.cpp), so its time here is the faster library's, as
    // it will run. (ViT-B/16's MLP matmul with its erf-GELU epilogue,
    // 6304x3072x768 f16 on an H100: 90.4 us fused, 43.8 us for cuDNN's
    // matmul alone; there cuBLASLt did not win the bias-less matmul.)
    chooseBlasLt(request, *built);
    anchors.push_back(std::move(built));
  }

  // One buffer per UID, large enough for its fused and its anchor form.
  std::unordered_map<int64_t, int64_t> bytes;
  auto need = [&](const Tensor &t) {
    if (!t.isByValue)
      bytes[t.uid] = std::max(bytes[t.uid], tensorSpanBytes(t));
  };
  for (const Tensor &t : r.desc.tensors)
    need(t);
  for (const GraphDescription &part : model.anchors)
    for (const Tensor &t : part.tensors)
      need(t);
  ZeroedScratch scratch(r.stream, "fusion timing");
  std::unordered_map<int64_t, void *> byUid;
  for (const auto &[uid, size] : bytes)
    CMRT_TRY(scratch.allocate(size, byUid[uid]));
  int64_t workspaceBytes = fused.workspaceBytes;
  for (const auto &a : anchors)
    workspaceBytes = std::max(workspaceBytes, a->workspaceBytes);
  void *workspace = nullptr;
  CMRT_TRY(scratch.allocate(workspaceBytes, workspace));
  int64_t half = (model.generatedBytes / 2 + 255) / 256 * 256;
  void *from = nullptr, *to = nullptr;
  CMRT_TRY(scratch.allocate(half, from));
  CMRT_TRY(scratch.allocate(half, to));

  std::vector<void *> fusedPointers = pointersFor(fused, byUid);
  CMRT_TRY(timeOnStream(
      r.stream,
      [&] {
        return executeFrontendGraph(fused, r.handle, fusedPointers.data(),
                                    workspace);
      },
      timing.fusedUs));
  for (const auto &a : anchors) {
    std::vector<void *> pointers = pointersFor(*a, byUid);
    double us = 0;
    CMRT_TRY(timeOnStream(
        r.stream,
        [&] {
          return a->lt ? executeBlasLt(*a, r.stream, pointers.data(), workspace)
                       : executeFrontendGraph(*a, r.handle, pointers.data(),
                                              workspace);
        },
        us));
    timing.anchorsUs += us;
  }
  auto copy = [&](int64_t size) {
    return [&r, from, to, size]() -> Status {
      cudaError_t err = cudaMemcpyAsync(to, from, static_cast<size_t>(size),
                                        cudaMemcpyDeviceToDevice, r.stream);
      if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return {CMRT_ERROR_CUDA, cudaErrorText("cudaMemcpyAsync", err)};
      }
      return Status::success();
    };
  };
  if (model.generatedKernels > 0 && half > 0) {
    CMRT_TRY(timeOnStream(r.stream, copy(half), timing.generatedUs));
    double launchUs = 0;
    if (model.generatedKernels > 1)
      CMRT_TRY(timeOnStream(r.stream, copy(256), launchUs));
    timing.generatedUs += (model.generatedKernels - 1) * launchUs;
  }
  return Status::success();
}

} // namespace

bool cmrt::judgedByTiming(const BuildRequest &request,
                          const BuiltGraph &fused) {
  return (request.options & CMRT_GRAPH_NO_SPLIT) &&
         request.desc.ops.size() > 1 && fused.runtimeCompiled &&
         fusionByCostEnabled();
}

void cmrt::judgeFusionByTiming(const BuildRequest &request, BuiltGraph &fused,
                               std::string &why) {
  why.clear();
  FusionTiming timing;
  Status s = timeBoth(request, fused, timing);
  if (!s.ok()) {
    logText("fusion by timing: kept the fused plan, timing failed: " +
            s.message.substr(0, s.message.find('\n')) + "\n" + fused.dump);
    return;
  }
  why = whySplitFormWinsByTiming(timing);
  if (logEnabled() && why.empty()) {
    char line[200];
    std::snprintf(line, sizeof(line),
                  "fusion by timing: kept the fused plan (%.1f us; split "
                  "form about %.1f + %.1f us)",
                  timing.fusedUs, timing.anchorsUs, timing.generatedUs);
    logText(line);
  }
}
