// Inference batch norm as a generated kernel (issue 7; no cuDNN graph): fp32
// NCHW 8x64x28x28 with the default batch-norm=auto: a batch norm not after a
// conv is one elementwise kernel.
func.func @forward(%x: tensor<8x64x28x28xf32>, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                   %mean: tensor<64xf32>, %var: tensor<64xf32>) -> (tensor<8x64x28x28xf32>) {
  %y = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64}
      : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
  return %y : tensor<8x64x28x28xf32>
}
