// Batch norm training as generated kernels (issue 7; no cuDNN graph): every
// channel constant (its own value): variance 0, so saved invstd = 1/sqrt(eps)
// and y = bias exactly; outputs y, saved mean, saved invstd, next running mean
// and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<4x5x9x11xf32>, %scale: tensor<5xf32>, %bias: tensor<5xf32>,
                   %rmean: tensor<5xf32>, %rvar: tensor<5xf32>)
    -> (tensor<4x5x9x11xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<4x5x9x11xf32>, tensor<5xf32> -> tensor<4x5x9x11xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<4x5x9x11xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}
