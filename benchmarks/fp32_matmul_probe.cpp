// Diagnostic: which cuDNN engines run an fp32 matmul at TF32 precision?
// (runtime/lib/graph/ExactFp32.h; results in
// benchmarks/results/fp32-matmul-probe-h100-2026-11-23.txt). Build here,
// run on the GPU machine (carry the binary):
//   g++ -std=c++17 -O1 -Ibuild/third_party/cudnn-frontend-1.32.0/include \
//     -I/usr/local/cuda/include benchmarks/fp32_matmul_probe.cpp -o probe \
//     -L/usr/local/cuda/lib64 -lcudnn -lcudart -lnvrtc
//   ./probe K [epilogue 0|1]   (NVIDIA_TF32_OVERRIDE=0 ./probe 32 0)
// Builds [B x M x K] x [B x K x N] fp32 matmul (optionally + bias + ReLU),
// every candidate plan (heuristics A + FALLBACK), runs each, and prints its
// name, behaviour notes, whether our exact fp32 filter
// (CMRT_GRAPH_EXACT_FP32) keeps it, and its max relative error against a
// float64 reference.
#include <cudnn_frontend.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <vector>

namespace fe = cudnn_frontend;

static std::shared_ptr<fe::graph::Graph> makeGraph(int64_t b, int64_t m,
                                                   int64_t k, int64_t n,
                                                   bool epilogue) {
  auto g = std::make_shared<fe::graph::Graph>();
  g->set_io_data_type(fe::DataType_t::FLOAT)
      .set_intermediate_data_type(fe::DataType_t::FLOAT)
      .set_compute_data_type(fe::DataType_t::FLOAT);
  auto a = g->tensor(fe::graph::Tensor_attributes().set_name("a").set_uid(1)
                         .set_dim({b, m, k}).set_stride({m * k, k, 1}));
  auto bb = g->tensor(fe::graph::Tensor_attributes().set_name("b").set_uid(2)
                          .set_dim({b, k, n}).set_stride({k * n, n, 1}));
  auto c = g->matmul(a, bb, fe::graph::Matmul_attributes()
                                .set_compute_data_type(fe::DataType_t::FLOAT));
  if (epilogue) {
    auto bias = g->tensor(fe::graph::Tensor_attributes().set_name("bias")
                              .set_uid(4).set_dim({1, 1, n})
                              .set_stride({n, n, 1}));
    auto s = g->pointwise(c, bias, fe::graph::Pointwise_attributes().set_mode(
                                       fe::PointwiseMode_t::ADD));
    c = g->pointwise(s, fe::graph::Pointwise_attributes().set_mode(
                            fe::PointwiseMode_t::RELU_FWD));
  }
  c->set_output(true).set_uid(3).set_data_type(fe::DataType_t::FLOAT);
  return g;
}

int main(int argc, char **argv) {
  int64_t b = 1, m = 64, k = argc > 1 ? atoi(argv[1]) : 32, n = 96;
  bool epilogue = argc > 2 && atoi(argv[2]);
  cudnnHandle_t handle;
  if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) {
    std::printf("no cudnn\n");
    return 1;
  }
  std::printf("cudnn %zu, K=%ld epilogue=%d\n", cudnnGetVersion(), (long)k,
              (int)epilogue);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> ha(b * m * k), hb(b * k * n), hbias(n), hc(b * m * n);
  for (auto &v : ha) v = dist(rng);
  for (auto &v : hb) v = dist(rng);
  for (auto &v : hbias) v = dist(rng);
  std::vector<double> ref(b * m * n);
  double scale = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l) s += (double)ha[i * k + l] * hb[l * n + j];
      if (epilogue) s = std::max(0.0, s + hbias[j]);
      ref[i * n + j] = s;
      scale = std::max(scale, std::fabs(s));
    }
  float *da, *db, *dc, *dbias;
  cudaMalloc(&da, ha.size() * 4); cudaMalloc(&db, hb.size() * 4);
  cudaMalloc(&dc, hc.size() * 4); cudaMalloc(&dbias, n * 4);
  cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dbias, hbias.data(), n * 4, cudaMemcpyHostToDevice);

  // Which plan names survive our exact fp32 filter?
  std::set<std::string> kept;
  {
    auto g = makeGraph(b, m, k, n, epilogue);
    if (g->validate().is_bad() || g->build_operation_graph(handle).is_bad() ||
        g->create_execution_plans({fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK})
            .is_bad()) {
      std::printf("graph build failed\n");
      return 1;
    }
    g->deselect_numeric_notes({fe::NumericalNote_t::TENSOR_CORE,
                               fe::NumericalNote_t::DOWN_CONVERT_INPUTS,
                               fe::NumericalNote_t::REDUCED_PRECISION_REDUCTION});
    auto sup = g->check_support(handle);
    std::printf("exact filter check_support: %s\n",
                sup.is_good() ? "ok" : sup.get_message().c_str());
    g->build_plans(handle, fe::BuildPlanPolicy_t::ALL);
    for (int64_t i = 0; i < g->get_execution_plan_count(); ++i) {
      std::string name;
      if (g->build_plan_at_index(handle, i).is_good() &&
          g->get_plan_name_at_index(i, name).is_good())
        kept.insert(name);
    }
    std::string chosen;
    g->get_plan_name(chosen);
    std::printf("exact filter heuristics choice: %s\n", chosen.c_str());
  }
  auto g = makeGraph(b, m, k, n, epilogue);
  g->validate();
  g->build_operation_graph(handle);
  g->create_execution_plans({fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK});
  g->check_support(handle);
  g->build_plans(handle, fe::BuildPlanPolicy_t::ALL);
  int64_t count = g->get_execution_plan_count();
  std::printf("%ld candidate plans without a filter\n", (long)count);
  for (int64_t i = 0; i < count; ++i) {
    std::string name;
    g->get_plan_name_at_index(i, name);
    std::vector<fe::BehaviorNote_t> notes;
    g->get_behavior_notes_for_plan_at_index(i, notes);
    std::string noteText;
    for (auto nt : notes) noteText += std::to_string((int)nt) + ",";
    if (g->build_plan_at_index(handle, i).is_bad()) {
      std::printf("  [%ld] %-40s notes{%s} kept=%d: does not build\n", (long)i,
                  name.c_str(), noteText.c_str(), (int)kept.count(name));
      continue;
    }
    int64_t ws = 0;
    g->get_workspace_size_plan_at_index(i, ws);
    void *w = nullptr;
    if (ws) cudaMalloc(&w, ws);
    std::unordered_map<int64_t, void *> ptrs{{1, da}, {2, db}, {3, dc}};
    if (epilogue) ptrs[4] = dbias;
    cudaMemset(dc, 0, hc.size() * 4);
    auto st = g->execute_plan_at_index(handle, ptrs, w, i);
    cudaDeviceSynchronize();
    cudaMemcpy(hc.data(), dc, hc.size() * 4, cudaMemcpyDeviceToHost);
    double err = 0;
    for (size_t j = 0; j < hc.size(); ++j)
      err = std::max(err, std::fabs(hc[j] - ref[j]));
    std::printf("  [%ld] %-40s notes{%s} kept=%d exec=%s err/max=%.3g\n",
                (long)i, name.c_str(), noteText.c_str(), (int)kept.count(name),
                st.is_good() ? "ok" : st.get_message().c_str(), err / scale);
    if (w) cudaFree(w);
  }
  return 0;
}
