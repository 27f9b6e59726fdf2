// Batch norm training as generated kernels (issue 7; no cuDNN graph): stress:
// 67x2x509x511 fp16 channels-last, > 2^24 values a channel, x = 100 + N(0, 1);
// outputs y, saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<67x2x509x511xf16> {cudnn.layout = "channels_last"}, %scale: tensor<2xf32>, %bias: tensor<2xf32>,
                   %rmean: tensor<2xf32>, %rvar: tensor<2xf32>)
    -> (tensor<67x2x509x511xf16> {cudnn.layout = "channels_last"}, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<67x2x509x511xf16>, tensor<2xf32> -> tensor<67x2x509x511xf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<67x2x509x511xf16>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
