// Batch norm training as generated kernels (issue 7; no cuDNN graph): stress:
// 67x2x509x511 fp32, 17,426,903 (> 2^24) values a channel, x = 1000 + N(0, 1)
// (a mean 1000x the deviation): a float32 count would stop at 2^24 and a sum
// of squares would cancel; Welford with 64-bit counts does neither. outputs y,
// saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<67x2x509x511xf32>, %scale: tensor<2xf32>, %bias: tensor<2xf32>,
                   %rmean: tensor<2xf32>, %rvar: tensor<2xf32>)
    -> (tensor<67x2x509x511xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<67x2x509x511xf32>, tensor<2xf32> -> tensor<67x2x509x511xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<67x2x509x511xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
