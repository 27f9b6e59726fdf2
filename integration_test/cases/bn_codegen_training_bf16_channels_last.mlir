// Batch norm training as generated kernels (issue 7; no cuDNN graph): bf16
// with x and y channels-last at the boundary, C = 3 and odd everything
// (5x3x15x17); outputs y, saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<5x3x15x17xbf16> {cudnn.layout = "channels_last"}, %scale: tensor<3xf32>, %bias: tensor<3xf32>,
                   %rmean: tensor<3xf32>, %rvar: tensor<3xf32>)
    -> (tensor<5x3x15x17xbf16> {cudnn.layout = "channels_last"}, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<5x3x15x17xbf16>, tensor<3xf32> -> tensor<5x3x15x17xbf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<5x3x15x17xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
