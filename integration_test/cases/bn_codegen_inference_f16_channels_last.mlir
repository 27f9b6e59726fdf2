// Inference batch norm as a generated kernel (issue 7; no cuDNN graph): fp16
// with x and y channels-last at the boundary, C = 1000 and odd N*H*W
// (2x1000x7x9), batch-norm=auto.
func.func @forward(%x: tensor<2x1000x7x9xf16> {cudnn.layout = "channels_last"}, %scale: tensor<1000xf32>, %bias: tensor<1000xf32>,
                   %mean: tensor<1000xf32>, %var: tensor<1000xf32>) -> (tensor<2x1000x7x9xf16> {cudnn.layout = "channels_last"}) {
  %y = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64}
      : tensor<2x1000x7x9xf16>, tensor<1000xf32> -> tensor<2x1000x7x9xf16>
  return %y : tensor<2x1000x7x9xf16>
}
