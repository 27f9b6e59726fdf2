// torch.nn.RNN(8, 16, num_layers=2) on zero-padded sequences with per-sequence lengths (pack_padded_sequence semantics): output zero past each length, h_n at each sequence's last step.
func.func @rnn_tanh_lengths_f32(%x: tensor<9x5x8xf32>, %hx: tensor<2x5x16xf32>, %p0: tensor<16x8xf32>, %p1: tensor<16x16xf32>, %p2: tensor<16xf32>, %p3: tensor<16xf32>, %p4: tensor<16x16xf32>, %p5: tensor<16x16xf32>, %p6: tensor<16xf32>, %p7: tensor<16xf32>, %lengths: tensor<5xi64>)
    -> (tensor<9x5x16xf32>, tensor<2x5x16xf32>) {
  %0:2 = tcp.custom_op("torch.aten.rnn_tanh") %x, %hx, %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7, %lengths
      {has_biases = true, num_layers = 2 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<9x5x8xf32>, tensor<2x5x16xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<5xi64>
      -> tensor<9x5x16xf32>, tensor<2x5x16xf32>
  return %0#0, %0#1 : tensor<9x5x16xf32>, tensor<2x5x16xf32>
}
