// torch.nn.LSTM(12, 24, proj_size=8): projected hidden state.
func.func @rnn_lstm_proj_f32(%x: tensor<6x3x12xf32>, %hx: tensor<1x3x8xf32>, %cx: tensor<1x3x24xf32>, %p0: tensor<96x12xf32>, %p1: tensor<96x8xf32>, %p2: tensor<96xf32>, %p3: tensor<96xf32>, %p4: tensor<8x24xf32>)
    -> (tensor<6x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x24xf32>) {
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %p0, %p1, %p2, %p3, %p4
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false, proj_size = 8 : i64}
      : tensor<6x3x12xf32>, tensor<1x3x8xf32>, tensor<1x3x24xf32>, tensor<96x12xf32>, tensor<96x8xf32>, tensor<96xf32>, tensor<96xf32>, tensor<8x24xf32>
      -> tensor<6x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x24xf32>
  return %0#0, %0#1, %0#2 : tensor<6x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x24xf32>
}
