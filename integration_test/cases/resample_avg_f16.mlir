// Average pooling on its own, 3x3 window, stride 2, padding 1, the padding
// left out of the count (torch's count_include_pad=False), fp16
// channels-last at the boundary: fusion makes it a one-op cuDNN resample
// graph (avg_exclude_padding), as the runtime's GpuOpsTest
// AvgExcludePaddingHalfNhwc (NormShape 4x32x16x16) runs it.
func.func @forward(%x: tensor<4x32x16x16xf16> {cudnn.layout = "channels_last"})
    -> (tensor<4x32x8x8xf16> {cudnn.layout = "channels_last"}) {
  %0 = tcp.avg_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<4x32x16x16xf16> -> tensor<4x32x8x8xf16>
  return %0 : tensor<4x32x8x8xf16>
}
