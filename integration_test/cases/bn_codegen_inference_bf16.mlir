// Inference batch norm as a generated kernel (issue 7; no cuDNN graph): bf16
// NCHW with C = 3 and odd planes (4x3x33x17), batch-norm=codegen.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<4x3x33x17xbf16>, %scale: tensor<3xf32>, %bias: tensor<3xf32>,
                   %mean: tensor<3xf32>, %var: tensor<3xf32>) -> (tensor<4x3x33x17xbf16>) {
  %y = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64}
      : tensor<4x3x33x17xbf16>, tensor<3xf32> -> tensor<4x3x33x17xbf16>
  return %y : tensor<4x3x33x17xbf16>
}
