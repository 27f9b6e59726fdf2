// Inference batch norm on its own (fp16 data, fp32 statistics). No cuDNN
// engine runs a batch norm alone on sm_90 (its graph computes rsqrt(var +
// eps) on the statistics with no anchor), so batch-norm=auto makes it one
// generated elementwise kernel (convert-tcp-batch-norm-to-linalg); no graph.
func.func @forward(%x: tensor<8x64x28x28xf16>, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                   %mean: tensor<64xf32>, %var: tensor<64xf32>) -> tensor<8x64x28x28xf16> {
  %0 = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64}
      : tensor<8x64x28x28xf16>, tensor<64xf32> -> tensor<8x64x28x28xf16>
  return %0 : tensor<8x64x28x28xf16>
}
