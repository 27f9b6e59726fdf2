// Batch norm training as generated kernels (issue 7; no cuDNN graph): fp32
// with x and y channels-last at the boundary, C = 1000 and odd N*H*W
// (2x1000x7x9); outputs y, saved mean, saved invstd, next running mean and
// var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<2x1000x7x9xf32> {cudnn.layout = "channels_last"}, %scale: tensor<1000xf32>, %bias: tensor<1000xf32>,
                   %rmean: tensor<1000xf32>, %rvar: tensor<1000xf32>)
    -> (tensor<2x1000x7x9xf32> {cudnn.layout = "channels_last"}, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<2x1000x7x9xf32>, tensor<1000xf32> -> tensor<2x1000x7x9xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<2x1000x7x9xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}
