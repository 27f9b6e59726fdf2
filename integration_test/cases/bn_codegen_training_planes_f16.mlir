// Batch norm training as generated kernels (issue 7; no cuDNN graph): fp16 NCHW
// 3x136x9x32: 136 channels of 864 values, a block each that also
// normalises its channel (one partial trip of 8-value vectors);
// outputs y, saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<3x136x9x32xf16>, %scale: tensor<136xf32>, %bias: tensor<136xf32>,
                   %rmean: tensor<136xf32>, %rvar: tensor<136xf32>)
    -> (tensor<3x136x9x32xf16>, tensor<136xf32>, tensor<136xf32>, tensor<136xf32>, tensor<136xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<3x136x9x32xf16>, tensor<136xf32> -> tensor<3x136x9x32xf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<3x136x9x32xf16>, tensor<136xf32>, tensor<136xf32>, tensor<136xf32>, tensor<136xf32>
}
