// Batch norm backward as one cuDNN graph (batch-norm=cudnn: cuDNN's norm
// backward): fp16 16x96x14x14 with dy, x and dx channels-last at the
// boundary, f32 scale, saved mean and invstd (those of x); outputs dx,
// dscale, dbias.
// COMPILE-OPTIONS: batch-norm=cudnn
func.func @forward(%dy: tensor<16x96x14x14xf16> {cudnn.layout = "channels_last"}, %x: tensor<16x96x14x14xf16> {cudnn.layout = "channels_last"},
                   %scale: tensor<96xf32>, %mean: tensor<96xf32>, %invstd: tensor<96xf32>)
    -> (tensor<16x96x14x14xf16> {cudnn.layout = "channels_last"}, tensor<96xf32>, tensor<96xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %mean, %invstd
      : tensor<16x96x14x14xf16>, tensor<96xf32> -> tensor<16x96x14x14xf16>
  return %dx, %dscale, %dbias : tensor<16x96x14x14xf16>, tensor<96xf32>, tensor<96xf32>
}
