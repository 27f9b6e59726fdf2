// Batch norm backward as generated kernels (issue 7; no cuDNN graph): fp32
// NCHW 8x64x28x28. sum(dy) and sum(dy * (x - mean)) per channel in one
// two-value reduction over planes, then dscale, dbias and dx.
func.func @forward(%dy: tensor<8x64x28x28xf32>, %x: tensor<8x64x28x28xf32>, %scale: tensor<64xf32>,
                   %mean: tensor<64xf32>, %invstd: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %mean, %invstd
      : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
  return %dx, %dscale, %dbias : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>
}
