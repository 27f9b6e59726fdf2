// torch.nn.LSTM(16, 32, num_layers=2, bidirectional=True), seq-major, fp32 (exact FMA math): output, h_n, c_n.
func.func @rnn_lstm_2layer_bi_f32(%x: tensor<10x4x16xf32>, %hx: tensor<4x4x32xf32>, %cx: tensor<4x4x32xf32>, %p0: tensor<128x16xf32>, %p1: tensor<128x32xf32>, %p2: tensor<128xf32>, %p3: tensor<128xf32>, %p4: tensor<128x16xf32>, %p5: tensor<128x32xf32>, %p6: tensor<128xf32>, %p7: tensor<128xf32>, %p8: tensor<128x64xf32>, %p9: tensor<128x32xf32>, %p10: tensor<128xf32>, %p11: tensor<128xf32>, %p12: tensor<128x64xf32>, %p13: tensor<128x32xf32>, %p14: tensor<128xf32>, %p15: tensor<128xf32>)
    -> (tensor<10x4x64xf32>, tensor<4x4x32xf32>, tensor<4x4x32xf32>) {
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7, %p8, %p9, %p10, %p11, %p12, %p13, %p14, %p15
      {has_biases = true, num_layers = 2 : i64, dropout = 0.0 : f64, train = false, bidirectional = true, batch_first = false}
      : tensor<10x4x16xf32>, tensor<4x4x32xf32>, tensor<4x4x32xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>
      -> tensor<10x4x64xf32>, tensor<4x4x32xf32>, tensor<4x4x32xf32>
  return %0#0, %0#1, %0#2 : tensor<10x4x64xf32>, tensor<4x4x32xf32>, tensor<4x4x32xf32>
}
