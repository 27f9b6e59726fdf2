//===- RnnWeightLayoutTest.cpp - PyTorch RNN parameters vs cuDNN's --------===//

#include "cudnn-mlir-runtime/RnnWeightLayout.h"

#include <gtest/gtest.h>

using namespace cmrt;
using namespace cmrt::rnn;

namespace {

std::vector<std::string> names(const WeightLayout &layout) {
  std::vector<std::string> out;
  for (const Param &p : layout.params)
    out.push_back(p.name);
  return out;
}

TEST(RnnWeightLayout, TwoLayerBidirectionalLstmWithProjectionAsTorchNamesIt) {
  // torch.nn.LSTM(10, 20, num_layers=2, bidirectional=True, proj_size=5):
  // layer 1 reads both directions' projected outputs (2 x 5).
  RnnShape shape{Cell::Lstm, 10, 20, 2, true, true, 5};
  WeightLayout layout;
  ASSERT_TRUE(describeWeights(shape, layout).ok());
  EXPECT_EQ(names(layout),
            (std::vector<std::string>{
                "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0",
                "weight_hr_l0", "weight_ih_l0_reverse", "weight_hh_l0_reverse",
                "bias_ih_l0_reverse", "bias_hh_l0_reverse",
                "weight_hr_l0_reverse", "weight_ih_l1", "weight_hh_l1",
                "bias_ih_l1", "bias_hh_l1", "weight_hr_l1",
                "weight_ih_l1_reverse", "weight_hh_l1_reverse",
                "bias_ih_l1_reverse", "bias_hh_l1_reverse",
                "weight_hr_l1_reverse"}));
  EXPECT_EQ(layout.params[0].shape, (std::vector<int64_t>{80, 10}));
  EXPECT_EQ(layout.params[1].shape, (std::vector<int64_t>{80, 5}));
  EXPECT_EQ(layout.params[2].shape, (std::vector<int64_t>{80}));
  EXPECT_EQ(layout.params[4].shape, (std::vector<int64_t>{5, 20}));
  EXPECT_EQ(layout.params[10].shape, (std::vector<int64_t>{80, 10}));
  // Per (layer, direction): 4 + 4 matrices, 4 + 4 biases, 1 projection.
  EXPECT_EQ(layout.pieces.size(), 4u * 17u);
}

TEST(RnnWeightLayout, LstmGatesMapToLinearLayersInPyTorchOrder) {
  RnnShape shape{Cell::Lstm, 3, 4, 1, true, true, 0};
  WeightLayout layout;
  ASSERT_TRUE(describeWeights(shape, layout).ok());
  // weight_hh_l0_reverse is parameter 5: pseudo-layer 1, linear layers 4-7
  // (recurrent i, f, g, o), 4 rows each.
  std::vector<Piece> hh;
  for (const Piece &p : layout.pieces)
    if (p.param == 5)
      hh.push_back(p);
  ASSERT_EQ(hh.size(), 4u);
  for (int gate = 0; gate < 4; ++gate) {
    EXPECT_EQ(hh[gate].pseudoLayer, 1);
    EXPECT_EQ(hh[gate].linLayerId, 4 + gate);
    EXPECT_EQ(hh[gate].rowOffset, 4 * gate);
    EXPECT_EQ(hh[gate].rows, 4);
    EXPECT_EQ(hh[gate].cols, 4);
    EXPECT_FALSE(hh[gate].bias);
  }
  // bias_ih_l0 (parameter 2): input-side biases, linear layers 0-3.
  int seen = 0;
  for (const Piece &p : layout.pieces)
    if (p.param == 2) {
      EXPECT_TRUE(p.bias);
      EXPECT_EQ(p.linLayerId, seen);
      EXPECT_EQ(p.cols, 1);
      ++seen;
    }
  EXPECT_EQ(seen, 4);
}

TEST(RnnWeightLayout, GruHasThreeGatesAndTheProjectionIsLinearLayer8) {
  RnnShape gru{Cell::Gru, 6, 8, 3, false, true, 0};
  WeightLayout layout;
  ASSERT_TRUE(describeWeights(gru, layout).ok());
  ASSERT_EQ(layout.params.size(), 12u);
  EXPECT_EQ(layout.params[0].shape, (std::vector<int64_t>{24, 6}));
  EXPECT_EQ(layout.params[4].shape, (std::vector<int64_t>{24, 8}));
  EXPECT_EQ(layout.pieces.back().linLayerId, 5); // bias_hh_l2: recurrent n
  EXPECT_EQ(layout.pieces.back().pseudoLayer, 2);

  RnnShape lstm{Cell::Lstm, 6, 8, 1, false, false, 2};
  ASSERT_TRUE(describeWeights(lstm, layout).ok());
  ASSERT_EQ(layout.params.size(), 3u); // weight_ih, weight_hh, weight_hr
  EXPECT_EQ(layout.params[2].name, "weight_hr_l0");
  EXPECT_EQ(layout.pieces.back().linLayerId, 8);
  EXPECT_EQ(layout.pieces.back().rows, 2);
  EXPECT_EQ(layout.pieces.back().cols, 8);
}

TEST(RnnWeightLayout, VanillaRnnWithoutBiases) {
  RnnShape shape{Cell::RnnTanh, 7, 9, 2, false, false, 0};
  WeightLayout layout;
  ASSERT_TRUE(describeWeights(shape, layout).ok());
  EXPECT_EQ(names(layout),
            (std::vector<std::string>{"weight_ih_l0", "weight_hh_l0",
                                      "weight_ih_l1", "weight_hh_l1"}));
  EXPECT_EQ(layout.params[2].shape, (std::vector<int64_t>{9, 9}));
  EXPECT_EQ(layout.pieces[1].linLayerId, 1);
}

TEST(RnnWeightLayout, InvalidShapesNameTheField) {
  WeightLayout layout;
  graph::Status s =
      describeWeights({Cell::Gru, 6, 8, 1, false, true, 4}, layout);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message, "an RNN (gru) expects proj_size = 0, or 0 < proj_size "
                       "< hidden_size (8) for an lstm, but got 4");
  s = describeWeights({Cell::Lstm, 6, 8, 1, false, true, 8}, layout);
  EXPECT_FALSE(s.ok());
  s = describeWeights({Cell::Lstm, 0, 8, 1, false, true, 0}, layout);
  EXPECT_EQ(s.message, "an RNN (lstm) expects input_size >= 1, but got 0");
  s = describeWeights({Cell::RnnRelu, 4, 8, 0, false, true, 0}, layout);
  EXPECT_EQ(s.message, "an RNN (rnn_relu) expects num_layers >= 1, but got 0");
}

TEST(RnnWeightLayout, CheckParamsNamesWhatIsWrong) {
  WeightLayout layout;
  ASSERT_TRUE(
      describeWeights({Cell::Lstm, 3, 4, 1, false, true, 0}, layout).ok());
  EXPECT_TRUE(checkParams(layout, {{16, 3}, {16, 4}, {16}, {16}}).ok());
  graph::Status s = checkParams(layout, {{16, 3}, {16, 4}});
  EXPECT_EQ(s.message, "an RNN expects 4 parameter tensors (weight_ih_l0, "
                       "weight_hh_l0, bias_ih_l0, bias_hh_l0), but got 2");
  s = checkParams(layout, {{16, 3}, {16, 3}, {16}, {16}});
  EXPECT_EQ(s.message, "an RNN expects parameter 1 (weight_hh_l0) of shape "
                       "[16, 4], but got [16, 3]");
}

} // namespace
