// Inference batch norm as a generated kernel (issue 7; no cuDNN graph):
// epsilon = 0 with running variances down to 1e-6 (invstd up to 1000), C =
// 1000, batch-norm=codegen.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<3x1000x5x7xf32>, %scale: tensor<1000xf32>, %bias: tensor<1000xf32>,
                   %mean: tensor<1000xf32>, %var: tensor<1000xf32>) -> (tensor<3x1000x5x7xf32>) {
  %y = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 0.000000e+00 : f64}
      : tensor<3x1000x5x7xf32>, tensor<1000xf32> -> tensor<3x1000x5x7xf32>
  return %y : tensor<3x1000x5x7xf32>
}
