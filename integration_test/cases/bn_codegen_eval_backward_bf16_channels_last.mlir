// Backward of eval-mode batch norm as generated kernels: bf16 channels-last
// at the boundary (8x40x9x11, odd spatial size), f32 per-channel tensors.
func.func @forward(%dy: tensor<8x40x9x11xbf16> {cudnn.layout = "channels_last"}, %x: tensor<8x40x9x11xbf16> {cudnn.layout = "channels_last"},
                   %scale: tensor<40xf32>, %mean: tensor<40xf32>, %invstd: tensor<40xf32>)
    -> (tensor<8x40x9x11xbf16> {cudnn.layout = "channels_last"}, tensor<40xf32>, tensor<40xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %mean, %invstd {training = false}
      : tensor<8x40x9x11xbf16>, tensor<40xf32> -> tensor<8x40x9x11xbf16>
  return %dx, %dscale, %dbias : tensor<8x40x9x11xbf16>, tensor<40xf32>, tensor<40xf32>
}
