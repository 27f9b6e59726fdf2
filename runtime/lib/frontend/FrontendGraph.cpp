//===- FrontendGraph.cpp - described graph -> cudnn-frontend graph --------===//
//
// Compiled with -fexceptions -frtti (the frontend throws and uses RTTI).
// Every entry catches everything: no exception leaves this file.
//
//===----------------------------------------------------------------------===//

#include "frontend/FrontendGraph.h"
#include "core/Context.h"
#include "core/ZeroedScratch.h"
#include "cudnn-mlir-runtime/FusionCost.h"
#include "frontend/FrontendTranslate.h"
#include "graph/BackendRefusal.h"
#include "graph/EngineErrata.h"
#include "graph/ExactFp32.h"
#include "graph/GraphValidation.h"
#include "graph/Log.h"
#include "graph/PlanCacheEviction.h"
#include "graph/PlanFile.h"
#include "graph/PlanTiming.h"

#include <cudnn_frontend.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>

namespace fe = cudnn_frontend;
using namespace cmrt;
using namespace cmrt::graph;

static_assert(CUDNN_FRONTEND_VERSION == CMRT_FRONTEND_PIN_VERSION,
              "cudnn-frontend headers differ from the version CMake pinned");

namespace {

std::string feCodeName(fe::error_code_t code) {
  std::ostringstream os;
  os << code;
  return os.str();
}

Status feFailure(const char *stage, fe::error_t err, const std::string &dump) {
  std::string message = std::string("cudnn-frontend ") + stage + " failed (" +
                        feCodeName(err.get_code()) + "): " + err.get_message();
  std::string last = cudnnLastErrorString();
  if (!last.empty())
    message += "\ncudnnGetLastErrorString: " + last;
  message += "\n" + dump;
  cmrtStatus code = CMRT_ERROR_CUDNN;
  // No engine config for the graph, or a descriptor cuDNN refuses: what
  // the split fallback answers.
  if (err.get_code() == fe::error_code_t::GRAPH_NOT_SUPPORTED ||
      err.get_code() ==
          fe::error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED ||
      err.get_code() == fe::error_code_t::HEURISTIC_QUERY_FAILED ||
      (err.get_code() == fe::error_code_t::CUDNN_BACKEND_API_FAILED &&
       graph::isBackendRefusal(err.get_message())))
    code = CMRT_ERROR_NOT_SUPPORTED;
  return {code, message};
}

/// Returns the Status of a frontend step from the enclosing function.
#define CMRT_FE_STEP(stage, expr, dump)                                        \
  do {                                                                         \
    fe::error_t err_ = (expr);                                                 \
    if (err_.is_bad())                                                         \
      return feFailure(stage, err_, dump);                                     \
  } while (0)

/// Times every built plan on zero-filled scratch tensors; the fastest
/// becomes the graph's plan.
Status autotune(fe::graph::Graph &g, const BuildRequest &r,
                const std::string &dump) {
  ZeroedScratch buffers(r.stream, "autotuning");
  std::unordered_map<int64_t, void *> pack;
  for (const Tensor &t : r.desc.tensors) {
    if (t.isVirtual || t.isByValue)
      continue;
    void *p = nullptr;
    CMRT_TRY(buffers.allocate(tensorSpanBytes(t), p));
    pack[t.uid] = p;
  }
  void *workspace = nullptr;
  CMRT_TRY(buffers.allocate(g.get_autotune_workspace_size(), workspace));
  CMRT_FE_STEP("autotune", g.autotune(r.handle, pack, workspace), dump);
  return Status::success();
}

/// A frontend graph whose plan came from the disk cache, or null (with the
/// reason logged) when there is none usable.
std::shared_ptr<fe::graph::Graph> loadFromDisk(const BuildRequest &r,
                                               const std::string &path,
                                               const std::string &dump) {
  std::vector<uint8_t> payload;
  std::string why;
  if (!plan::readPlanFile(path, r.key, CUDNN_FRONTEND_VERSION, payload,
                          why)) {
    if (logEnabled())
      logText("plan cache miss: " + why);
    return nullptr;
  }
  auto g = std::make_shared<fe::graph::Graph>();
  fe::error_t err{fe::error_code_t::OK, ""};
  auto start = std::chrono::steady_clock::now();
  double deserializeMs = 0;
  try {
    err = g->deserialize(r.handle, payload, /*enforce_precompiled=*/false,
                         /*run_warmup=*/false);
    deserializeMs = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    // A throwaway capture that loads the plan's kernels now rather than on
    // the first execute.
    if (err.is_good())
      err = g->warmup(r.handle);
  } catch (const std::exception &e) {
    err = {fe::error_code_t::INVALID_VALUE, e.what()};
  }
  if (err.is_bad()) {
    logText("plan cache: '" + path + "' no longer loads (" +
            feCodeName(err.get_code()) + ": " + err.get_message() +
            "); rebuilding it\n" + dump);
    return nullptr;
  }
  if (logEnabled()) {
    double totalMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    char line[160];
    std::snprintf(line, sizeof(line),
                  "plan cache: loaded (%zu bytes; deserialize %.3f ms, "
                  "kernel warm-up %.3f ms) from ",
                  payload.size(), deserializeMs, totalMs - deserializeMs);
    logText(line + path);
  }
  return g;
}

/// Stores the plan for the next process; failures are logged, not returned.
void storeOnDisk(const fe::graph::Graph &g, const BuildRequest &r,
                 const std::string &path) {
  std::vector<uint8_t> payload;
  fe::error_t err{fe::error_code_t::OK, ""};
  try {
    err = g.serialize(payload, /*serialize_structure=*/false);
  } catch (const std::exception &e) {
    err = {fe::error_code_t::INVALID_VALUE, e.what()};
  }
  if (err.is_bad()) {
    logOnce("serialize:" + path,
            "plan cache: the engine cannot be serialized (" +
                feCodeName(err.get_code()) + ": " + err.get_message() +
                "); this graph is rebuilt in every process");
    return;
  }
  Status s = plan::writePlanFile(path, r.key, CUDNN_FRONTEND_VERSION, payload);
  if (!s.ok()) {
    logOnce("write:" + path, s.message);
    return;
  }
  plan::evictAfterStore(path.substr(0, path.rfind('/')));
}

/// Heuristics (A, then FALLBACK), filters, plans; autotuned on request or
/// by PlanTiming.h's rules (`tuned` says whether the plan was timed).
Status planFromHeuristics(fe::graph::Graph &g, const BuildRequest &r,
                          const std::string &dump, bool &tuned) {
  CMRT_FE_STEP("validate", g.validate(), dump);
  CMRT_FE_STEP("build_operation_graph", g.build_operation_graph(r.handle),
               dump);
  CMRT_FE_STEP("create_execution_plans",
               g.create_execution_plans(
                   {fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK}),
               dump);
  if (r.options & CMRT_GRAPH_EXACT_FP32)
    g.deselect_numeric_notes({fe::NumericalNote_t::TENSOR_CORE,
                              fe::NumericalNote_t::DOWN_CONVERT_INPUTS,
                              fe::NumericalNote_t::REDUCED_PRECISION_REDUCTION});
  if (r.options & CMRT_GRAPH_DETERMINISTIC)
    g.deselect_numeric_notes({fe::NumericalNote_t::NONDETERMINISTIC});
  if (int64_t cap = workspaceLimitBytes(r.options); cap >= 0)
    g.deselect_workspace_greater_than(cap);
  // After an erratum deselects engines, a failing check_support says why.
  std::string checkedDump = dump;
  if (std::string why = whyRuntimeCompiledEnginesAreDeselected(r.desc);
      !why.empty()) {
    g.deselect_behavior_notes({fe::BehaviorNote_t::RUNTIME_COMPILATION});
    logText("engine errata: " + why);
    checkedDump = "engine errata: " + why + "\n" + dump;
  }
  // With a compiled split form to fall back on (cmrtInvocationGraphTry),
  // runtime-compiled engines that lose to it are deselected too; with
  // nothing left the module runs the split form, and says why first.
  std::string costWhy;
  if ((r.options & CMRT_GRAPH_NO_SPLIT) && fusionByCostEnabled())
    costWhy = whyRuntimeCompiledFusionLosesToSplit(r.desc);
  if (!costWhy.empty()) {
    g.deselect_behavior_notes({fe::BehaviorNote_t::RUNTIME_COMPILATION});
    logText(kFusionByCostPrefix + costWhy);
  }
  if (fe::error_t err = g.check_support(r.handle); err.is_bad()) {
    Status failed = feFailure("check_support", err, checkedDump);
    if (!costWhy.empty()) {
      failed.code = CMRT_ERROR_NOT_SUPPORTED;
      failed.message = kFusionByCostPrefix + costWhy +
                       "; no precompiled engine fuses it\n" + failed.message;
    }
    return failed;
  }
  // Autotuned on request, or timed because the heuristics misrank this
  // kind of graph (PlanTiming.h); a failed timing of the latter keeps the
  // heuristics' choice.
  bool requested = r.options & CMRT_GRAPH_AUTOTUNE;
  std::string timedWhy = requested ? "" : whyPlansAreTimed(r.desc);
  tuned = requested || !timedWhy.empty();
  CMRT_FE_STEP(
      "build_plans",
      g.build_plans(r.handle, tuned ? fe::BuildPlanPolicy_t::ALL
                                    : fe::BuildPlanPolicy_t::HEURISTICS_CHOICE),
      dump);
  if (requested)
    CMRT_TRY(autotune(g, r, dump));
  if (timedWhy.empty())
    return Status::success();
  if (Status s = autotune(g, r, dump); !s.ok()) {
    tuned = false;
    logText(
        "plan timing: " + timedWhy +
        "; the timing failed, so the heuristics' choice stays: " + s.message);
  } else if (logEnabled()) {
    logText("plan timing: " + timedWhy);
  }
  return Status::success();
}

/// Puts built.userTensors in the frontend's variant-pack order (by UID),
/// so that executing passes one pointer array instead of building a map.
/// Both lists name the same tensors unless the translation lost or added
/// one, which is reported, not run.
Status orderLikeVariantPack(fe::graph::Graph &g, BuiltGraph &built) {
  CMRT_FE_STEP("prepare_variant_pack_template",
               g.prepare_variant_pack_template(), built.dump);
  std::vector<int64_t> order = g.get_variant_pack_uids_sorted();
  std::vector<std::pair<int64_t, int64_t>> ordered;
  ordered.reserve(order.size());
  for (int64_t uid : order) {
    auto it = std::find_if(
        built.userTensors.begin(), built.userTensors.end(),
        [&](const std::pair<int64_t, int64_t> &t) { return t.first == uid; });
    if (it == built.userTensors.end())
      return {CMRT_ERROR_CUDNN,
              "cudnn-frontend's plan expects a pointer for tensor UID " +
                  std::to_string(uid) +
                  ", which the description has as virtual or by value\n" +
                  built.dump};
    ordered.push_back(*it);
  }
  if (ordered.size() != built.userTensors.size())
    return {CMRT_ERROR_CUDNN,
            "cudnn-frontend's plan takes pointers for " +
                std::to_string(ordered.size()) +
                " tensors, but the description has " +
                std::to_string(built.userTensors.size()) +
                " non-virtual, non-by-value tensors\n" + built.dump};
  built.userTensors = std::move(ordered);
  return Status::success();
}

Status buildImpl(const BuildRequest &r, std::shared_ptr<BuiltGraph> &out) {
  auto start = std::chrono::steady_clock::now();
  auto built = std::make_shared<BuiltGraph>();
  built->device = r.device;
  built->dump = dumpGraph(r.desc);
  // Before the disk cache too: a plan stored by a process that ran with
  // NVIDIA_TF32_OVERRIDE=0 computes in TF32 in one that does not.
  if (r.options & CMRT_GRAPH_EXACT_FP32) {
    std::string why = whyFp32CannotBeExact(
        r.desc, r.key.computeCapability, std::getenv("NVIDIA_TF32_OVERRIDE"));
    if (!why.empty())
      return {CMRT_ERROR_NOT_SUPPORTED, why + "\n" + built->dump};
  }
  for (const Tensor &t : r.desc.tensors)
    if (!t.isVirtual && !t.isByValue)
      built->userTensors.push_back({t.uid, t.alignment});

  std::string directory = plan::cacheDirectoryFromEnvironment();
  std::string path =
      directory.empty() ? "" : plan::planFilePath(directory, r.key);
  std::shared_ptr<fe::graph::Graph> g;
  if (!path.empty()) {
    g = loadFromDisk(r, path, built->dump);
    if (g)
      built->origin = CMRT_PLAN_DISK_CACHE;
  }
  if (!g) {
    g = std::make_shared<fe::graph::Graph>();
    g->set_name("cmrt");
    try {
      translateToFrontend(r.desc, *g);
    } catch (const UnsupportedGraph &u) {
      return {CMRT_ERROR_NOT_SUPPORTED,
              "cudnn-mlir's runtime cannot build this graph: " + u.message +
                  "\n" + built->dump};
    }
    bool tuned = false;
    CMRT_TRY(planFromHeuristics(*g, r, built->dump, tuned));
    built->origin = tuned ? CMRT_PLAN_AUTOTUNED : CMRT_PLAN_HEURISTICS;
    if (!path.empty())
      storeOnDisk(*g, r, path);
  }
  int64_t workspace = 0;
  CMRT_FE_STEP("get_workspace_size", g->get_workspace_size(workspace),
               built->dump);
  built->workspaceBytes = workspace;
  CMRT_TRY(orderLikeVariantPack(*g, *built));
  std::string planName;
  if (g->get_plan_name(planName).is_good())
    built->planName = planName;
  std::vector<fe::BehaviorNote_t> notes;
  if (g->get_behavior_notes(notes).is_good())
    built->runtimeCompiled =
        std::find(notes.begin(), notes.end(),
                  fe::BehaviorNote_t::RUNTIME_COMPILATION) != notes.end();
  built->frontend = g;
  built->buildMilliseconds =
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now() - start)
          .count();
  out = std::move(built);
  return Status::success();
}

#undef CMRT_FE_STEP

} // namespace

const char *cmrt::planOriginName(cmrtPlanOrigin origin) {
  switch (origin) {
  case CMRT_PLAN_HEURISTICS: return "heuristics";
  case CMRT_PLAN_AUTOTUNED: return "autotuned";
  case CMRT_PLAN_DISK_CACHE: return "disk cache";
  case CMRT_PLAN_SPLIT: return "split";
  case CMRT_PLAN_CUBLASLT:
    return "cuBLASLt";
  }
  return "unknown origin";
}

Status cmrt::buildFrontendGraph(const BuildRequest &request,
                                std::shared_ptr<BuiltGraph> &out) {
  const GraphDescription &desc = request.desc;
  try {
    return buildImpl(request, out);
  } catch (const std::exception &e) {
    return {CMRT_ERROR_CUDNN, std::string("cudnn-frontend threw while "
                                          "building the graph: ") +
                                  e.what() + "\n" + dumpGraph(desc)};
  } catch (...) {
    return {CMRT_ERROR_CUDNN,
            "cudnn-frontend threw an unknown exception while building the "
            "graph\n" + dumpGraph(desc)};
  }
}

Status cmrt::executeFrontendGraph(BuiltGraph &graph, cudnnHandle_t handle,
                                  void *const *pointers, void *workspace) {
  try {
    auto *g = static_cast<fe::graph::Graph *>(graph.frontend.get());
    std::lock_guard<std::mutex> lock(graph.executeMutex);
    // The frontend patches the array into a copy of its template; it does
    // not write through the pointer.
    fe::error_t err =
        g->execute(handle, const_cast<void **>(pointers),
                   static_cast<int>(graph.userTensors.size()), workspace);
    if (err.is_bad())
      return feFailure("execute", err, graph.dump);
    return Status::success();
  } catch (const std::exception &e) {
    return {CMRT_ERROR_CUDNN, std::string("cudnn-frontend threw while "
                                          "executing the graph: ") +
                                  e.what() + "\n" + graph.dump};
  } catch (...) {
    return {CMRT_ERROR_CUDNN,
            "cudnn-frontend threw an unknown exception while executing the "
            "graph\n" + graph.dump};
  }
}
