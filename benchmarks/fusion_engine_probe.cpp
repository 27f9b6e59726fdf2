// Diagnostic for issue 27 (fusion by cost): which engines does cuDNN offer
// for a fused conv graph (scale/bias/ReLU prologue or epilogue) against the
// conv alone, do they carry the RUNTIME_COMPILATION behaviour note, and how
// fast is each? (Every plan here passes select_numeric_notes(TENSOR_CORE),
// the FFMA runtime-fusion engine included, so that note tells nothing.) fp16 NHWC,
// float compute, shapes from ResNeXt-50, MobileNetV2 and VGG. Build here,
// run on the GPU machine (carry the binary):
//   g++ -std=c++17 -O1 -Ibuild/third_party/cudnn-frontend-1.32.0/include \
//     -I/usr/local/cuda/include benchmarks/fusion_engine_probe.cpp \
//     -o probe -L/usr/local/cuda/lib64 -lcudnn -lcudart -lnvrtc
//   ./probe            (every case; results in benchmarks/results/)
// Every candidate plan (heuristics A + FALLBACK) is built, run 3 times to
// warm up, then timed over 20 back-to-back runs with CUDA events.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudnn_frontend.h>

#include <cstdio>
#include <string>
#include <vector>

namespace fe = cudnn_frontend;
using Attr = fe::graph::Tensor_attributes;

namespace {

struct Case {
  const char *name;
  int64_t n, c, h, w, k, r, groups, pad;
  bool prologue, epilogue;
};

std::vector<int64_t> nhwcStrides(int64_t n, int64_t c, int64_t h, int64_t w) {
  return {c * h * w, 1, c * w, c};
}

/// Uids: 1 X, 2 W, 3 Y, 10/11 prologue scale/bias, 20/21 epilogue ones.
std::shared_ptr<fe::graph::Graph> makeGraph(const Case &k) {
  auto g = std::make_shared<fe::graph::Graph>();
  g->set_io_data_type(fe::DataType_t::HALF)
      .set_intermediate_data_type(fe::DataType_t::FLOAT)
      .set_compute_data_type(fe::DataType_t::FLOAT);
  auto channelVector = [&](const char *name, int64_t uid, int64_t c) {
    return g->tensor(Attr().set_name(name).set_uid(uid).set_dim({1, c, 1, 1})
                         .set_stride({c, 1, c, c}));
  };
  auto x = g->tensor(Attr().set_name("x").set_uid(1)
                         .set_dim({k.n, k.c, k.h, k.w})
                         .set_stride(nhwcStrides(k.n, k.c, k.h, k.w)));
  auto in = x;
  auto pw = [&](std::shared_ptr<fe::graph::Tensor_attributes> a,
                std::shared_ptr<fe::graph::Tensor_attributes> b,
                fe::PointwiseMode_t mode) {
    return g->pointwise(a, b, fe::graph::Pointwise_attributes().set_mode(mode)
                                  .set_compute_data_type(
                                      fe::DataType_t::FLOAT));
  };
  auto relu = [&](std::shared_ptr<fe::graph::Tensor_attributes> a) {
    return g->pointwise(a, fe::graph::Pointwise_attributes()
                               .set_mode(fe::PointwiseMode_t::RELU_FWD)
                               .set_compute_data_type(fe::DataType_t::FLOAT));
  };
  if (k.prologue) {
    in = relu(pw(pw(x, channelVector("ps", 10, k.c), fe::PointwiseMode_t::MUL),
                 channelVector("pb", 11, k.c), fe::PointwiseMode_t::ADD));
    in->set_data_type(fe::DataType_t::HALF);
  }
  int64_t cg = k.c / k.groups;
  auto wt = g->tensor(Attr().set_name("w").set_uid(2)
                          .set_dim({k.k, cg, k.r, k.r})
                          .set_stride({cg * k.r * k.r, 1, cg * k.r, cg}));
  auto y = g->conv_fprop(in, wt, fe::graph::Conv_fprop_attributes()
                                     .set_padding({k.pad, k.pad})
                                     .set_stride({1, 1})
                                     .set_dilation({1, 1})
                                     .set_compute_data_type(
                                         fe::DataType_t::FLOAT));
  if (k.epilogue)
    y = relu(pw(pw(y, channelVector("es", 20, k.k), fe::PointwiseMode_t::MUL),
                channelVector("eb", 21, k.k), fe::PointwiseMode_t::ADD));
  y->set_output(true).set_uid(3).set_data_type(fe::DataType_t::HALF);
  return g;
}

bool prepare(fe::graph::Graph &g, cudnnHandle_t handle) {
  return g.validate().is_good() && g.build_operation_graph(handle).is_good() &&
         g.create_execution_plans({fe::HeurMode_t::A,
                                   fe::HeurMode_t::FALLBACK})
             .is_good();
}

void *deviceHalves(int64_t count) {
  void *p = nullptr;
  cudaMalloc(&p, count * 2);
  std::vector<__half> host(count);
  for (int64_t i = 0; i < count; ++i)
    host[i] = __float2half(0.01f * static_cast<float>((i * 37) % 101 - 50));
  cudaMemcpy(p, host.data(), count * 2, cudaMemcpyHostToDevice);
  return p;
}

void probe(const Case &k, cudnnHandle_t handle) {
  int64_t oh = k.h + 2 * k.pad - k.r + 1, ow = k.w + 2 * k.pad - k.r + 1;
  std::printf("\n## %s: x[%ld,%ld,%ld,%ld] w[%ld,%ld,%ld,%ld] groups %ld, "
              "prologue %d, epilogue %d\n",
              k.name, (long)k.n, (long)k.c, (long)k.h, (long)k.w, (long)k.k,
              (long)(k.c / k.groups), (long)k.r, (long)k.r, (long)k.groups,
              (int)k.prologue, (int)k.epilogue);
  auto g = makeGraph(k);
  if (!prepare(*g, handle)) {
    std::printf("  graph not supported\n");
    return;
  }
  fe::error_t sup = g->check_support(handle);
  if (sup.is_bad()) {
    std::printf("  check_support: %s\n", sup.get_message().c_str());
    return;
  }
  g->build_plans(handle, fe::BuildPlanPolicy_t::HEURISTICS_CHOICE);
  std::string choice;
  g->get_plan_name(choice);
  g->build_plans(handle, fe::BuildPlanPolicy_t::ALL);
  std::unordered_map<int64_t, void *> ptrs{
      {1, deviceHalves(k.n * k.c * k.h * k.w)},
      {2, deviceHalves(k.k * (k.c / k.groups) * k.r * k.r)},
      {3, deviceHalves(k.n * k.k * oh * ow)}};
  for (int64_t uid : {10, 11})
    if (k.prologue) ptrs[uid] = deviceHalves(k.c);
  for (int64_t uid : {20, 21})
    if (k.epilogue) ptrs[uid] = deviceHalves(k.k);
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);
  for (int64_t i = 0; i < g->get_execution_plan_count(); ++i) {
    std::string name;
    g->get_plan_name_at_index(i, name);
    std::vector<fe::BehaviorNote_t> notes;
    g->get_behavior_notes_for_plan_at_index(i, notes);
    bool rtc = false;
    for (auto n : notes)
      rtc |= n == fe::BehaviorNote_t::RUNTIME_COMPILATION;
    std::printf("  %s %-34s rtc=%d", name == choice ? "*" : " ",
                name.c_str(), (int)rtc);
    if (g->build_plan_at_index(handle, i).is_bad()) {
      std::printf(" does not build\n");
      continue;
    }
    int64_t ws = 0;
    g->get_workspace_size_plan_at_index(i, ws);
    void *w = nullptr;
    if (ws) cudaMalloc(&w, ws);
    bool ok = true;
    for (int rep = 0; rep < 3 && ok; ++rep)
      ok = g->execute_plan_at_index(handle, ptrs, w, i).is_good();
    if (!ok) {
      std::printf(" execute failed\n");
      if (w) cudaFree(w);
      continue;
    }
    cudaEventRecord(start);
    for (int rep = 0; rep < 20; ++rep)
      g->execute_plan_at_index(handle, ptrs, w, i);
    cudaEventRecord(end);
    cudaEventSynchronize(end);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, end);
    std::printf(" ws=%ld %8.1f us\n", (long)ws, 1000.0 * ms / 20);
    if (w) cudaFree(w);
  }
  for (auto &[uid, p] : ptrs)
    cudaFree(p);
}

} // namespace

int main() {
  cudnnHandle_t handle;
  if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) {
    std::printf("no cudnn\n");
    return 1;
  }
  std::printf("cudnn %zu (* = heuristics' choice; rtc = RUNTIME_COMPILATION "
              "behaviour note)\n",
              cudnnGetVersion());
  const Case cases[] = {
      {"resnext50 grouped 3x3, epilogue", 32, 256, 56, 56, 256, 3, 32, 1, false, true},
      {"resnext50 grouped 3x3, alone", 32, 256, 56, 56, 256, 3, 32, 1, false, false},
      {"resnext50 grouped 3x3 stage 2, epilogue", 32, 512, 28, 28, 512, 3, 32, 1, false, true},
      {"resnext50 grouped 3x3 stage 2, alone", 32, 512, 28, 28, 512, 3, 32, 1, false, false},
      {"resnext50 grouped 3x3 stage 3, epilogue", 32, 1024, 14, 14, 1024, 3, 32, 1, false, true},
      {"resnext50 grouped 3x3 stage 3, alone", 32, 1024, 14, 14, 1024, 3, 32, 1, false, false},
      {"resnext50 grouped 3x3 batch 1, epilogue", 1, 256, 56, 56, 256, 3, 32, 1, false, true},
      {"resnext50 grouped 3x3 batch 1, alone", 1, 256, 56, 56, 256, 3, 32, 1, false, false},
      {"regnety400mf grouped 3x3 (13 groups of 8), epilogue", 32, 104, 28, 28, 104, 3, 13, 1, false, true},
      {"regnety400mf grouped 3x3 (13 groups of 8), alone", 32, 104, 28, 28, 104, 3, 13, 1, false, false},
      {"regnety400mf grouped 3x3 (55 groups of 8), epilogue", 32, 440, 7, 7, 440, 3, 55, 1, false, true},
      {"regnety400mf grouped 3x3 (55 groups of 8), alone", 32, 440, 7, 7, 440, 3, 55, 1, false, false},
      {"vgg 3x3 56^2, prologue+epilogue", 32, 128, 56, 56, 256, 3, 1, 1, true, true},
      {"vgg 3x3 56^2, epilogue", 32, 128, 56, 56, 256, 3, 1, 1, false, true},
      {"vgg 3x3 56^2, alone", 32, 128, 56, 56, 256, 3, 1, 1, false, false},
      {"vgg 3x3 112^2 batch 1, prologue+epilogue", 1, 64, 112, 112, 128, 3, 1, 1, true, true},
      {"vgg 3x3 112^2 batch 1, alone", 1, 64, 112, 112, 128, 3, 1, 1, false, false},
      {"resnext50 grouped 3x3 stage 4, epilogue", 32, 1024, 7, 7, 1024, 3, 32, 1, false, true},
      {"resnext50 grouped 3x3 stage 4, alone", 32, 1024, 7, 7, 1024, 3, 32, 1, false, false},
      {"mobilenetv2 depthwise 3x3, epilogue", 32, 144, 56, 56, 144, 3, 144, 1, false, true},
      {"mobilenetv2 depthwise 3x3, alone", 32, 144, 56, 56, 144, 3, 144, 1, false, false},
      {"vgg 3x3 112^2, prologue+epilogue", 32, 64, 112, 112, 128, 3, 1, 1, true, true},
      {"vgg 3x3 112^2, epilogue", 32, 64, 112, 112, 128, 3, 1, 1, false, true},
      {"vgg 3x3 112^2, alone", 32, 64, 112, 112, 128, 3, 1, 1, false, false},
      {"vgg 3x3 224^2, prologue+epilogue", 32, 64, 224, 224, 64, 3, 1, 1, true, true},
      {"vgg 3x3 224^2, epilogue", 32, 64, 224, 224, 64, 3, 1, 1, false, true},
      {"vgg 3x3 224^2, alone", 32, 64, 224, 224, 64, 3, 1, 1, false, false},
      {"resnet 1x1 56^2, epilogue", 32, 256, 56, 56, 64, 1, 1, 0, false, true},
      {"resnet 1x1 56^2, alone", 32, 256, 56, 56, 64, 1, 1, 0, false, false},
  };
  for (const Case &k : cases)
    probe(k, handle);
  return 0;
}
