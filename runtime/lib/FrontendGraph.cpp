//===- FrontendGraph.cpp - described graph -> cudnn-frontend graph --------===//
//
// Compiled with -fexceptions -frtti (the frontend throws and uses RTTI).
// Every entry catches everything: no exception leaves this file.
//
//===----------------------------------------------------------------------===//

#include "FrontendGraph.h"
#include "Context.h"
#include "FrontendTranslate.h"

#include <cudnn_frontend.h>

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
  if (err.get_code() == fe::error_code_t::GRAPH_NOT_SUPPORTED ||
      err.get_code() == fe::error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED)
    code = CMRT_ERROR_NOT_SUPPORTED;
  return {code, message};
}

Status buildImpl(const GraphDescription &desc, uint64_t options, int device,
                 cudnnHandle_t handle, std::shared_ptr<BuiltGraph> &out) {
  auto built = std::make_shared<BuiltGraph>();
  built->device = device;
  built->dump = dumpGraph(desc);
  for (const Tensor &t : desc.tensors)
    if (!t.isVirtual && !t.isByValue)
      built->userTensors.push_back({t.uid, t.alignment});

  auto g = std::make_shared<fe::graph::Graph>();
  g->set_name("cmrt");
  try {
    translateToFrontend(desc, *g);
  } catch (const UnsupportedGraph &u) {
    return {CMRT_ERROR_NOT_SUPPORTED,
            "cudnn-mlir's runtime cannot build this graph: " + u.message +
                "\n" + built->dump};
  }

#define CMRT_FE_STEP(stage, expr)                                              \
  do {                                                                         \
    fe::error_t err_ = (expr);                                                 \
    if (err_.is_bad())                                                         \
      return feFailure(stage, err_, built->dump);                              \
  } while (0)

  CMRT_FE_STEP("validate", g->validate());
  CMRT_FE_STEP("build_operation_graph", g->build_operation_graph(handle));
  CMRT_FE_STEP("create_execution_plans",
               g->create_execution_plans(
                   {fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK}));
  if (options & CMRT_GRAPH_EXACT_FP32)
    g->deselect_numeric_notes({fe::NumericalNote_t::TENSOR_CORE,
                               fe::NumericalNote_t::DOWN_CONVERT_INPUTS,
                               fe::NumericalNote_t::REDUCED_PRECISION_REDUCTION});
  if (options & CMRT_GRAPH_DETERMINISTIC)
    g->deselect_numeric_notes({fe::NumericalNote_t::NONDETERMINISTIC});
  CMRT_FE_STEP("check_support", g->check_support(handle));
  CMRT_FE_STEP("build_plans",
               g->build_plans(handle, fe::BuildPlanPolicy_t::HEURISTICS_CHOICE));
  int64_t workspace = 0;
  CMRT_FE_STEP("get_workspace_size", g->get_workspace_size(workspace));
#undef CMRT_FE_STEP

  built->workspaceBytes = workspace;
  std::string planName;
  if (g->get_plan_name(planName).is_good())
    built->planName = planName;
  built->frontend = g;
  out = std::move(built);
  return Status::success();
}

} // namespace

Status cmrt::buildFrontendGraph(const GraphDescription &desc, uint64_t options,
                                int device, cudnnHandle_t handle,
                                std::shared_ptr<BuiltGraph> &out) {
  try {
    return buildImpl(desc, options, device, handle, out);
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
                                  std::unordered_map<int64_t, void *> &pointers,
                                  void *workspace) {
  try {
    auto *g = static_cast<fe::graph::Graph *>(graph.frontend.get());
    std::lock_guard<std::mutex> lock(graph.executeMutex);
    fe::error_t err = g->execute(handle, pointers, workspace);
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
