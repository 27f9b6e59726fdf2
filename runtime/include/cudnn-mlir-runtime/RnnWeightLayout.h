//===- RnnWeightLayout.h - PyTorch RNN parameters vs cuDNN's weights -*- C++ -*-===//
//
// PyTorch hands an RNN its parameters as a flat list, per layer and
// direction: weight_ih, weight_hh, bias_ih, bias_hh (with biases) and
// weight_hr (LSTM projections), each weight holding every gate's rows
// stacked (LSTM i, f, g, o; GRU r, z, n). cuDNN keeps one weight space in
// which cudnnGetRNNWeightParams locates each (pseudo-layer, linear layer)
// matrix and bias: pseudo-layer = layer x directions + direction; linear
// layers 0..G-1 multiply the layer's input, G..2G-1 the recurrent state, 8
// is LSTM's projection; the gates in the same order as PyTorch's. This file
// works out, without a GPU, which parameters an RNN expects (names and
// shapes, as torch.nn.LSTM/GRU/RNN name them) and where every gate of
// every parameter goes: what the runtime copies into the weight space once
// per parameter set, and what a gradient copies back.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_RNNWEIGHTLAYOUT_H
#define CUDNN_MLIR_RUNTIME_RNNWEIGHTLAYOUT_H

#include "cudnn-mlir-runtime/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cmrt::rnn {

/// The cell, with the values of the dialect's RnnCellMode (and of
/// cudnnRNNMode_t).
enum class Cell : int32_t { RnnRelu = 0, RnnTanh = 1, Lstm = 2, Gru = 3 };

/// What determines the parameters: the torch.nn.RNNBase arguments.
struct RnnShape {
  Cell cell = Cell::Lstm;
  int64_t inputSize = 0;
  int64_t hiddenSize = 0;
  int64_t numLayers = 1;
  bool bidirectional = false;
  bool hasBiases = true;
  int64_t projSize = 0; // LSTM only; 0 = no projection
};

/// One parameter tensor, as torch.nn names it (weight_ih_l0_reverse, ...).
struct Param {
  std::string name;
  std::vector<int64_t> shape;
};

/// A block of rows of one parameter that is one cuDNN matrix or bias:
/// rows [rowOffset, rowOffset + rows) of parameter `param` (every column
/// of a weight; a bias has one column).
struct Piece {
  int64_t param = 0;
  int64_t rowOffset = 0;
  int64_t rows = 0;
  int64_t cols = 1;
  int32_t pseudoLayer = 0;
  int32_t linLayerId = 0;
  bool bias = false;
};

/// The layout of every parameter of an RNN.
struct WeightLayout {
  std::vector<Param> params;
  std::vector<Piece> pieces;
};

/// The cell's name as the dialect spells it ("lstm"), for messages.
const char *cellName(Cell cell);

/// Gates per cell: 1 (vanilla RNN), 3 (GRU), 4 (LSTM).
int64_t gatesOf(Cell cell);

/// The parameters `shape` expects, in PyTorch's order, and their pieces;
/// an invalid shape (non-positive sizes, a projection on a cell other than
/// LSTM or not smaller than the hidden size) is an error naming the field.
graph::Status describeWeights(const RnnShape &shape, WeightLayout &out);

/// Checks parameter shapes given by a caller (`shapes[i]` for parameter i)
/// against what `layout` expects; the message names the parameter.
graph::Status
checkParams(const WeightLayout &layout,
            const std::vector<std::vector<int64_t>> &shapes);

} // namespace cmrt::rnn

#endif // CUDNN_MLIR_RUNTIME_RNNWEIGHTLAYOUT_H
