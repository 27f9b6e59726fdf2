// Batch norm training forward (ResNet-50 activation 32x256x56x56, f16,
// channels-last at the boundary; f32 parameters and statistics) as generated
// kernels: the batch-norm benchmark of run_codegen_benchmarks.py.
// COMPILE-OPTIONS: batch-norm=codegen
func.func @forward(%x: tensor<32x256x56x56xf16> {cudnn.layout = "channels_last"}, %scale: tensor<256xf32>, %bias: tensor<256xf32>,
                   %rmean: tensor<256xf32>, %rvar: tensor<256xf32>)
    -> (tensor<32x256x56x56xf16> {cudnn.layout = "channels_last"}, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) {
  %y, %mean, %invstd, %nmean, %nvar = tcp.batch_norm_training %x, %scale, %bias, %rmean, %rvar
      {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<32x256x56x56xf16>, tensor<256xf32> -> tensor<32x256x56x56xf16>
  return %y, %mean, %invstd, %nmean, %nvar : tensor<32x256x56x56xf16>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>
}
