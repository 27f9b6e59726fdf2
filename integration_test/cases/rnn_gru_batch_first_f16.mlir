// torch.nn.GRU(32, 64, batch_first=True) in fp16 (tensor-op math, fp32 accumulation).
func.func @rnn_gru_batch_first_f16(%x: tensor<8x12x32xf16>, %hx: tensor<1x8x64xf16>, %p0: tensor<192x32xf16>, %p1: tensor<192x64xf16>, %p2: tensor<192xf16>, %p3: tensor<192xf16>)
    -> (tensor<8x12x64xf16>, tensor<1x8x64xf16>) {
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %p0, %p1, %p2, %p3
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = true}
      : tensor<8x12x32xf16>, tensor<1x8x64xf16>, tensor<192x32xf16>, tensor<192x64xf16>, tensor<192xf16>, tensor<192xf16>
      -> tensor<8x12x64xf16>, tensor<1x8x64xf16>
  return %0#0, %0#1 : tensor<8x12x64xf16>, tensor<1x8x64xf16>
}
