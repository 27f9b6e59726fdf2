// Batch norm training as generated kernels (issue 7; no cuDNN graph): rank 2
// (BatchNorm1d on [N, C] = 4099x1000): the channel is the innermost memory
// dimension, so the statistics reduce columns; outputs y, saved mean, saved
// invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<4099x1000xf32>, %scale: tensor<1000xf32>, %bias: tensor<1000xf32>,
                   %rmean: tensor<1000xf32>, %rvar: tensor<1000xf32>)
    -> (tensor<4099x1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<4099x1000xf32>, tensor<1000xf32> -> tensor<4099x1000xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<4099x1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}
