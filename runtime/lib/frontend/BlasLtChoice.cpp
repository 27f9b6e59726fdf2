//===- BlasLtChoice.cpp - cuDNN's matmul plan or one cuBLASLt call --------===//

#include "frontend/BlasLtChoice.h"
#include "blas/LtMatmul.h"
#include "core/ZeroedScratch.h"
#include "frontend/DeviceTiming.h"
#include "graph/BlasLtForm.h"
#include "graph/GraphValidation.h"
#include "graph/Log.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace cmrt;
using namespace cmrt::graph;

namespace {

/// Candidates the heuristics offer and the build times.
constexpr int kCandidates = 4;
/// The most workspace a candidate may take (what the exact fp32 GEMMs get,
/// blas/Gemm.cpp, and PyTorch's cuBLAS workspace on Hopper).
constexpr int64_t kMaxWorkspaceBytes = 32 << 20;

int64_t userIndex(const BuiltGraph &built, int64_t uid) {
  for (size_t i = 0; i < built.userTensors.size(); ++i)
    if (built.userTensors[i].first == uid)
      return static_cast<int64_t>(i);
  return -1;
}

/// Enqueues `plan`'s selected candidate; `pointers` are in userTensors
/// order and `operands` index them: a, b, bias (-1: none), output.
Status runOnOperands(blas::LtPlan &plan, const int64_t operands[4],
                     cudaStream_t stream, void *const *pointers,
                     void *workspace) {
  auto at = [&](int k) -> const void * {
    return operands[k] < 0 ? nullptr : pointers[operands[k]];
  };
  return blas::runLtPlan(plan, stream, at(0), at(1), at(2),
                         pointers[operands[3]], workspace);
}

/// Times the cuDNN plan (`cudnnUs`) and each cuBLASLt candidate, and
/// selects the fastest candidate in `plan` (`ltUs`).
Status timeCandidates(const BuildRequest &r, BuiltGraph &built,
                      blas::LtPlan &plan, const int64_t operands[4],
                      double &cudnnUs, double &ltUs) {
  ZeroedScratch scratch(r.stream, "cuBLASLt timing");
  std::vector<void *> pointers;
  for (const auto &[uid, alignment] : built.userTensors) {
    (void)alignment;
    const Tensor *t = nullptr;
    for (const Tensor &x : r.desc.tensors)
      if (x.uid == uid)
        t = &x;
    void *p = nullptr;
    CMRT_TRY(scratch.allocate(t ? tensorSpanBytes(*t) : 0, p));
    pointers.push_back(p);
  }
  int64_t workspaceBytes = built.workspaceBytes;
  for (int i = 0; i < blas::ltCandidateCount(plan); ++i) {
    blas::selectLtCandidate(plan, i);
    workspaceBytes = std::max(workspaceBytes, blas::ltWorkspaceBytes(plan));
  }
  void *workspace = nullptr;
  CMRT_TRY(scratch.allocate(workspaceBytes, workspace));
  CMRT_TRY(timeOnStream(
      r.stream,
      [&] {
        return executeFrontendGraph(built, r.handle, pointers.data(),
                                    workspace);
      },
      cudnnUs));
  int best = 0;
  ltUs = 0;
  for (int i = 0; i < blas::ltCandidateCount(plan); ++i) {
    blas::selectLtCandidate(plan, i);
    double us = 0;
    Status s = timeOnStream(
        r.stream,
        [&] {
          return runOnOperands(plan, operands, r.stream, pointers.data(),
                               workspace);
        },
        us);
    if (!s.ok())
      continue; // a candidate that fails to launch is not chosen
    if (ltUs == 0 || us < ltUs) {
      ltUs = us;
      best = i;
    }
  }
  if (ltUs == 0)
    return {CMRT_ERROR_NOT_SUPPORTED, "no cuBLASLt candidate ran"};
  blas::selectLtCandidate(plan, best);
  return Status::success();
}

} // namespace

BlasLtMode cmrt::blasLtMode() {
  const char *value = std::getenv("CUDNN_MLIR_CUBLASLT");
  if (value && std::strcmp(value, "0") == 0)
    return BlasLtMode::Off;
  if (value && std::strcmp(value, "always") == 0)
    return BlasLtMode::Always;
  return BlasLtMode::Timed;
}

void cmrt::chooseBlasLt(const BuildRequest &request, BuiltGraph &built) {
  BlasLtMode mode = blasLtMode();
  if (mode == BlasLtMode::Off || !built.parts.empty() || !built.frontend)
    return;
  BlasLtForm form;
  std::string whyNot;
  if (!blasLtFormOf(request.desc, form, whyNot))
    return;
  int64_t operands[4] = {userIndex(built, form.a.uid),
                         userIndex(built, form.b.uid),
                         form.biasUid ? userIndex(built, form.biasUid) : -1,
                         userIndex(built, form.d.uid)};
  if (operands[0] < 0 || operands[1] < 0 || operands[3] < 0 ||
      (form.biasUid && operands[2] < 0))
    return;
  std::string what = describeBlasLtForm(form);
  auto keep = [&](const std::string &why) {
    logText("cuBLASLt: kept the cuDNN plan for " + what + ": " + why);
  };
  if (!checkNotCapturing(request.stream, "timing cuBLASLt").ok())
    return keep("built during stream capture, where nothing is timed");
  std::shared_ptr<blas::LtPlan> plan;
  Status s = blas::buildLtPlan(request.device, request.stream, form,
                               mode == BlasLtMode::Always ? 1 : kCandidates,
                               kMaxWorkspaceBytes, plan);
  if (!s.ok())
    return keep(s.message.substr(0, s.message.find('\n')));
  double cudnnUs = 0, ltUs = 0;
  if (mode == BlasLtMode::Timed) {
    s = timeCandidates(request, built, *plan, operands, cudnnUs, ltUs);
    if (!s.ok())
      return keep("timing failed: " +
                  s.message.substr(0, s.message.find('\n')));
    char numbers[160];
    std::snprintf(numbers, sizeof(numbers), "%.1f us against cuDNN's %.1f us",
                  ltUs, cudnnUs);
    if (ltUs > kBlasLtMargin * cudnnUs)
      return keep(std::string("cuBLASLt's best took ") + numbers);
    logText("cuBLASLt: runs " + what + " (" + blas::ltCandidateName(*plan) +
            ", " + numbers + ")");
  } else {
    logText("cuBLASLt: runs " + what + " (" + blas::ltCandidateName(*plan) +
            ", CUDNN_MLIR_CUBLASLT=always)");
  }
  built.lt = std::move(plan);
  std::copy(operands, operands + 4, built.ltOperands);
  built.workspaceBytes = blas::ltWorkspaceBytes(*built.lt);
  built.planName = blas::ltCandidateName(*built.lt);
  built.origin = CMRT_PLAN_CUBLASLT;
  built.frontend.reset();
}

Status cmrt::executeBlasLt(BuiltGraph &built, cudaStream_t stream,
                           void *const *pointers, void *workspace) {
  return runOnOperands(*built.lt, built.ltOperands, stream, pointers,
                       workspace);
}
