// Backward of eval-mode batch norm (training = false) as generated kernels:
// fp32 NCHW 8x64x28x28; mean and invstd are the running statistics, so
// dx = dy * invstd * scale; dscale and dbias are the same two sums as in
// training. Checked against autograd through F.batch_norm(training=False).
func.func @forward(%dy: tensor<8x64x28x28xf32>, %x: tensor<8x64x28x28xf32>, %scale: tensor<64xf32>,
                   %mean: tensor<64xf32>, %invstd: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %mean, %invstd {training = false}
      : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
  return %dx, %dscale, %dbias : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>
}
