// Batch norm backward as generated kernels: bf16 [N, C] = 4099x100 (a
// BatchNorm1d), where the channel is the innermost memory dimension: the
// two sums run as a reduction over columns, split over blocks.
func.func @forward(%dy: tensor<4099x100xbf16>, %x: tensor<4099x100xbf16>, %scale: tensor<100xf32>,
                   %mean: tensor<100xf32>, %invstd: tensor<100xf32>)
    -> (tensor<4099x100xbf16>, tensor<100xf32>, tensor<100xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %mean, %invstd
      : tensor<4099x100xbf16>, tensor<100xf32> -> tensor<4099x100xbf16>
  return %dx, %dscale, %dbias : tensor<4099x100xbf16>, tensor<100xf32>, tensor<100xf32>
}
