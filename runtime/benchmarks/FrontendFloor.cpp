//===- FrontendFloor.cpp - host cost of cudnn-frontend alone --------------===//
//
// Compiled with -fexceptions -frtti, like the runtime's frontend files.
//
//===----------------------------------------------------------------------===//

#include "FrontendFloor.h"

#include <cudnn_frontend.h>

#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

namespace fe = cudnn_frontend;

namespace {

void check(fe::error_t err, const char *what) {
  if (err.is_bad()) {
    std::fprintf(stderr, "FrontendFloor: %s: %s\n", what,
                 err.get_message().c_str());
    std::exit(1);
  }
}

void *deviceBuffer(size_t bytes) {
  void *p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess ||
      cudaMemset(p, 0x3C, bytes) != cudaSuccess) {
    std::fprintf(stderr, "FrontendFloor: cudaMalloc of %zu bytes failed\n",
                 bytes);
    std::exit(1);
  }
  return p;
}

} // namespace

cmrt::bench::FrontendFloor cmrt::bench::measureFrontendFloor(
    cudaStream_t stream) {
  const int64_t n = 2, c = 32, k = 32, h = 16, w = 16;
  cudnnHandle_t handle = nullptr;
  if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS ||
      cudnnSetStream(handle, stream) != CUDNN_STATUS_SUCCESS) {
    std::fprintf(stderr, "FrontendFloor: cudnnCreate failed\n");
    std::exit(1);
  }
  FrontendFloor result;
  {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::HALF)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    auto x = g.tensor(fe::graph::Tensor_attributes()
                          .set_name("x")
                          .set_uid(1)
                          .set_dim({n, c, h, w})
                          .set_stride({h * w * c, 1, w * c, c}));
    auto filter = g.tensor(fe::graph::Tensor_attributes()
                               .set_name("w")
                               .set_uid(2)
                               .set_dim({k, c, 3, 3})
                               .set_stride({9 * c, 1, 3 * c, c}));
    auto bias = g.tensor(fe::graph::Tensor_attributes()
                             .set_name("bias")
                             .set_uid(4)
                             .set_dim({1, k, 1, 1})
                             .set_stride({k, 1, k, k}));
    auto conv = g.conv_fprop(x, filter,
                             fe::graph::Conv_fprop_attributes()
                                 .set_padding({1, 1})
                                 .set_stride({1, 1})
                                 .set_dilation({1, 1}));
    auto sum = g.pointwise(conv, bias,
                           fe::graph::Pointwise_attributes().set_mode(
                               fe::PointwiseMode_t::ADD));
    auto y = g.pointwise(sum, fe::graph::Pointwise_attributes().set_mode(
                                  fe::PointwiseMode_t::RELU_FWD));
    y->set_output(true).set_uid(6);

    check(g.validate(), "validate");
    check(g.build_operation_graph(handle), "build_operation_graph");
    check(g.create_execution_plans(
              {fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK}),
          "create_execution_plans");
    check(g.check_support(handle), "check_support");
    check(g.build_plans(handle), "build_plans");
    check(g.get_plan_name(result.engine), "get_plan_name");

    int64_t workspaceBytes = 0;
    check(g.get_workspace_size(workspaceBytes), "get_workspace_size");
    void *workspace =
        workspaceBytes > 0 ? deviceBuffer(static_cast<size_t>(workspaceBytes))
                           : nullptr;
    void *xp = deviceBuffer(n * c * h * w * 2);
    void *wp = deviceBuffer(k * c * 9 * 2);
    void *bp = deviceBuffer(k * 2);
    void *yp = deviceBuffer(n * k * h * w * 2);
    std::unordered_map<int64_t, void *> map = {
        {1, xp}, {2, wp}, {4, bp}, {6, yp}};
    void *sorted[] = {xp, wp, bp, yp}; // UIDs 1, 2, 4, 6
    if (g.get_variant_pack_uids_sorted() != std::vector<int64_t>{1, 2, 4, 6}) {
      std::fprintf(stderr, "FrontendFloor: unexpected variant-pack UIDs\n");
      std::exit(1);
    }
    result.mapExecute = hostCostPerCall(stream, [&] {
      check(g.execute(handle, map, workspace), "execute (map)");
    });
    result.arrayExecute = hostCostPerCall(stream, [&] {
      check(g.execute(handle, sorted, 4, workspace), "execute (array)");
    });
    for (void *p : {workspace, xp, wp, bp, yp})
      cudaFree(p);
  }
  cudnnDestroy(handle);
  return result;
}
