// Batch norm training as one cuDNN graph (batch-norm=cudnn: cuDNN's norm
// forward, training phase, with running statistics): fp32 NCHW 8x64x28x28
// at the boundary; outputs y, saved mean, saved invstd, next running mean
// and var.
// COMPILE-OPTIONS: batch-norm=cudnn
func.func @forward(%x: tensor<8x64x28x28xf32>, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                   %rmean: tensor<64xf32>, %rvar: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
