// Batch norm training of an [N, C] tensor (BatchNorm1d, 512x100 fp32) as one
// cuDNN graph (batch-norm=cudnn): x and y enter the graph as [N, C, 1, 1];
// outputs y, saved mean, saved invstd, next running mean and var.
// COMPILE-OPTIONS: batch-norm=cudnn
func.func @forward(%x: tensor<512x100xf32>, %scale: tensor<100xf32>, %bias: tensor<100xf32>,
                   %rmean: tensor<100xf32>, %rvar: tensor<100xf32>)
    -> (tensor<512x100xf32>, tensor<100xf32>, tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<512x100xf32>, tensor<100xf32> -> tensor<512x100xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<512x100xf32>, tensor<100xf32>, tensor<100xf32>, tensor<100xf32>, tensor<100xf32>
}
