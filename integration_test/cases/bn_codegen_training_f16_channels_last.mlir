// Batch norm training as generated kernels (issue 7; no cuDNN graph): fp16
// with x and y channels-last at the boundary (8x64x28x28, as PyTorch's
// torch.channels_last stores them); outputs y, saved mean, saved invstd, next
// running mean and var.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<8x64x28x28xf16> {cudnn.layout = "channels_last"}, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                   %rmean: tensor<64xf32>, %rvar: tensor<64xf32>)
    -> (tensor<8x64x28x28xf16> {cudnn.layout = "channels_last"}, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<8x64x28x28xf16>, tensor<64xf32> -> tensor<8x64x28x28xf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<8x64x28x28xf16>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
