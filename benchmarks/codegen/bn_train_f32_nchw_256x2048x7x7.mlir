// Batch norm training forward (ResNet-50 activation 256x2048x7x7, f32, NCHW;
// f32 parameters and statistics) as generated kernels: the batch-norm
// benchmark of run_codegen_benchmarks.py.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<256x2048x7x7xf32>, %scale: tensor<2048xf32>, %bias: tensor<2048xf32>,
                   %rmean: tensor<2048xf32>, %rvar: tensor<2048xf32>)
    -> (tensor<256x2048x7x7xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<256x2048x7x7xf32>, tensor<2048xf32> -> tensor<256x2048x7x7xf32>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<256x2048x7x7xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>
}
