//===- RnnWeightLayout.cpp - PyTorch RNN parameters vs cuDNN's weights ----===//

#include "cudnn-mlir-runtime/RnnWeightLayout.h"

#include "graph/GraphValidation.h"

using namespace cmrt;
using namespace cmrt::rnn;
using cmrt::graph::detail::formatList;

namespace {

constexpr int32_t kProjectionLinLayer = 8;

} // namespace

const char *rnn::cellName(Cell cell) {
  switch (cell) {
  case Cell::RnnRelu:
    return "rnn_relu";
  case Cell::RnnTanh:
    return "rnn_tanh";
  case Cell::Lstm:
    return "lstm";
  case Cell::Gru:
    return "gru";
  }
  return "unknown";
}

int64_t rnn::gatesOf(Cell cell) {
  switch (cell) {
  case Cell::Lstm:
    return 4;
  case Cell::Gru:
    return 3;
  default:
    return 1;
  }
}

graph::Status rnn::describeWeights(const RnnShape &shape, WeightLayout &out) {
  out = {};
  auto invalid = [&](const std::string &what) {
    return graph::Status::invalid(std::string("an RNN (") +
                                  cellName(shape.cell) + ") expects " + what);
  };
  if (shape.cell != Cell::RnnRelu && shape.cell != Cell::RnnTanh &&
      shape.cell != Cell::Lstm && shape.cell != Cell::Gru)
    return graph::Status::invalid(
        "an RNN expects a cell of rnn_relu, rnn_tanh, lstm or gru, but got " +
        std::to_string(static_cast<int32_t>(shape.cell)));
  if (shape.inputSize < 1)
    return invalid("input_size >= 1, but got " +
                   std::to_string(shape.inputSize));
  if (shape.hiddenSize < 1)
    return invalid("hidden_size >= 1, but got " +
                   std::to_string(shape.hiddenSize));
  if (shape.numLayers < 1)
    return invalid("num_layers >= 1, but got " +
                   std::to_string(shape.numLayers));
  if (shape.projSize < 0 ||
      (shape.projSize > 0 &&
       (shape.cell != Cell::Lstm || shape.projSize >= shape.hiddenSize)))
    return invalid("proj_size = 0, or 0 < proj_size < hidden_size (" +
                   std::to_string(shape.hiddenSize) +
                   ") for an lstm, but got " + std::to_string(shape.projSize));

  int64_t gates = gatesOf(shape.cell);
  int64_t directions = shape.bidirectional ? 2 : 1;
  int64_t hidden = shape.hiddenSize;
  // What the recurrent matrices multiply, and what a layer passes on.
  int64_t state = shape.projSize > 0 ? shape.projSize : hidden;
  for (int64_t layer = 0; layer < shape.numLayers; ++layer) {
    int64_t input = layer == 0 ? shape.inputSize : state * directions;
    for (int64_t direction = 0; direction < directions; ++direction) {
      std::string suffix =
          "_l" + std::to_string(layer) + (direction ? "_reverse" : "");
      auto pseudo = static_cast<int32_t>(layer * directions + direction);
      auto addGated = [&](const std::string &name, int64_t cols, bool bias,
                          int32_t firstLinLayer) {
        int64_t param = static_cast<int64_t>(out.params.size());
        out.params.push_back(
            {name + suffix, bias ? std::vector<int64_t>{gates * hidden}
                                 : std::vector<int64_t>{gates * hidden, cols}});
        for (int64_t gate = 0; gate < gates; ++gate)
          out.pieces.push_back({param, gate * hidden, hidden, bias ? 1 : cols,
                                pseudo,
                                firstLinLayer + static_cast<int32_t>(gate),
                                bias});
      };
      addGated("weight_ih", input, /*bias=*/false, 0);
      addGated("weight_hh", state, /*bias=*/false,
               static_cast<int32_t>(gates));
      if (shape.hasBiases) {
        addGated("bias_ih", 1, /*bias=*/true, 0);
        addGated("bias_hh", 1, /*bias=*/true, static_cast<int32_t>(gates));
      }
      if (shape.projSize > 0) {
        int64_t param = static_cast<int64_t>(out.params.size());
        out.params.push_back({"weight_hr" + suffix, {shape.projSize, hidden}});
        out.pieces.push_back({param, 0, shape.projSize, hidden, pseudo,
                              kProjectionLinLayer, false});
      }
    }
  }
  return graph::Status::success();
}

graph::Status
rnn::checkParams(const WeightLayout &layout,
                 const std::vector<std::vector<int64_t>> &shapes) {
  if (shapes.size() != layout.params.size()) {
    std::string names;
    for (size_t i = 0; i < layout.params.size() && i < 5; ++i)
      names += (i ? ", " : "") + layout.params[i].name;
    return graph::Status::invalid(
        "an RNN expects " + std::to_string(layout.params.size()) +
        " parameter tensors (" + names +
        (layout.params.size() > 5 ? ", ..." : "") + "), but got " +
        std::to_string(shapes.size()));
  }
  for (size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i] != layout.params[i].shape)
      return graph::Status::invalid(
          "an RNN expects parameter " + std::to_string(i) + " (" +
          layout.params[i].name + ") of shape " +
          formatList(layout.params[i].shape) + ", but got " +
          formatList(shapes[i]));
  return graph::Status::success();
}
