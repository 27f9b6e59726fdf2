// Batch norm training as generated kernels (issue 7; no cuDNN graph): fp32 NCHW
// 8x192x28x28: 192 channels, a block each, so each block also normalises its
// own channel (the statistics' kernel runs the normalisation; four trips of
// 128 threads x 4 vectors, the first three kept in shared memory, the last
// partial);
// outputs y, saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<8x192x28x28xf32>, %scale: tensor<192xf32>, %bias: tensor<192xf32>,
                   %rmean: tensor<192xf32>, %rvar: tensor<192xf32>)
    -> (tensor<8x192x28x28xf32>, tensor<192xf32>, tensor<192xf32>, tensor<192xf32>, tensor<192xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<8x192x28x28xf32>, tensor<192xf32> -> tensor<8x192x28x28xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<8x192x28x28xf32>, tensor<192xf32>, tensor<192xf32>, tensor<192xf32>, tensor<192xf32>
}
