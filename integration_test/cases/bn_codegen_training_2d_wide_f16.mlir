// Batch norm training as generated kernels (issue 7; no cuDNN graph): rank 2
// (BatchNorm1d on [N, C] = 777x2048, f16): the channel is the innermost memory
// dimension, and with 2048 channels each thread reads 4 of them as one vector
// (Welford over columns, vector 4); outputs y, saved mean, saved
// invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<777x2048xf16>, %scale: tensor<2048xf32>, %bias: tensor<2048xf32>,
                   %rmean: tensor<2048xf32>, %rvar: tensor<2048xf32>)
    -> (tensor<777x2048xf16>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<777x2048xf16>, tensor<2048xf32> -> tensor<777x2048xf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<777x2048xf16>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>
}
