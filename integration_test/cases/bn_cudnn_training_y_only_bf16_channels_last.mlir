// Batch norm training as one cuDNN graph (batch-norm=cudnn) whose module
// returns only y: bf16 8x64x28x28, x and y channels-last at the boundary.
// cuDNN still writes the saved and running statistics, into buffers of
// their own that the module drops.
// COMPILE-OPTIONS: batch-norm=cudnn
func.func @forward(%x: tensor<8x64x28x28xbf16> {cudnn.layout = "channels_last"}, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                   %rmean: tensor<64xf32>, %rvar: tensor<64xf32>)
    -> (tensor<8x64x28x28xbf16> {cudnn.layout = "channels_last"}) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<8x64x28x28xbf16>, tensor<64xf32> -> tensor<8x64x28x28xbf16>
  return %y : tensor<8x64x28x28xbf16>
}
