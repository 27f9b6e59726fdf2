// Batch norm training as generated kernels (issue 7; no cuDNN graph):
// epsilon = 0 and momentum 0.25, channels with means in [-0.5, 0.5] and
// standard deviations down to 1e-3 (saved invstd up to 1000); outputs y,
// saved mean, saved invstd, next running mean and var. The reference is
// the float64 formula: torch.nn.functional.batch_norm rejects eps = 0.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<6x16x10x12xf32>, %scale: tensor<16xf32>, %bias: tensor<16xf32>,
                   %rmean: tensor<16xf32>, %rvar: tensor<16xf32>)
    -> (tensor<6x16x10x12xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 0.000000e+00 : f64, momentum = 2.500000e-01 : f64}
      : tensor<6x16x10x12xf32>, tensor<16xf32> -> tensor<6x16x10x12xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<6x16x10x12xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
