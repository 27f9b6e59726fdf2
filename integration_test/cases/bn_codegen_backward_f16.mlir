// Batch norm backward as generated kernels: fp16 NCHW with C = 3 and an
// odd plane (4x3x33x17), f32 per-channel tensors, f32 accumulation.
func.func @forward(%dy: tensor<4x3x33x17xf16>, %x: tensor<4x3x33x17xf16>, %scale: tensor<3xf32>,
                   %mean: tensor<3xf32>, %invstd: tensor<3xf32>)
    -> (tensor<4x3x33x17xf16>, tensor<3xf32>, tensor<3xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %mean, %invstd
      : tensor<4x3x33x17xf16>, tensor<3xf32> -> tensor<4x3x33x17xf16>
  return %dx, %dscale, %dbias : tensor<4x3x33x17xf16>, tensor<3xf32>, tensor<3xf32>
}
