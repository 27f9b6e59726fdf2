// Batch norm training as generated kernels (issue 7; no cuDNN graph): fp16
// NCHW with C = 3 and an odd plane (4x3x33x17; f32 statistics); outputs y,
// saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<4x3x33x17xf16>, %scale: tensor<3xf32>, %bias: tensor<3xf32>,
                   %rmean: tensor<3xf32>, %rvar: tensor<3xf32>)
    -> (tensor<4x3x33x17xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<4x3x33x17xf16>, tensor<3xf32> -> tensor<4x3x33x17xf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<4x3x33x17xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
