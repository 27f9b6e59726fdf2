// The ResNet basic block with every argument and the result channels-last,
// as PyTorch's channels_last memory format stores them: no layout
// conversions at all, two fused cuDNN graphs.
func.func @forward(%x: tensor<8x64x56x56xf16> {cudnn.layout = "channels_last"},
                   %w1: tensor<64x64x3x3xf16> {cudnn.layout = "channels_last"}, %b1: tensor<1x64x1x1xf16>,
                   %w2: tensor<64x64x3x3xf16> {cudnn.layout = "channels_last"}, %b2: tensor<1x64x1x1xf16>)
    -> (tensor<8x64x56x56xf16> {cudnn.layout = "channels_last"}) {
  %c8 = arith.constant 8 : index
  %c56 = arith.constant 56 : index
  %0 = tcp.conv2d %x, %w1
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<8x64x56x56xf16>, tensor<64x64x3x3xf16> -> tensor<8x64x56x56xf16>
  %1 = tcp.broadcast %b1, %c8, %c56, %c56 {axes = [0, 2, 3]}
      : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x56x56xf16>
  %2 = tcp.add %0, %1 : tensor<8x64x56x56xf16>, tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %3 = tcp.clamp %2 {min_float = 0.000000e+00 : f32}
      : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %4 = tcp.conv2d %3, %w2
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<8x64x56x56xf16>, tensor<64x64x3x3xf16> -> tensor<8x64x56x56xf16>
  %5 = tcp.broadcast %b2, %c8, %c56, %c56 {axes = [0, 2, 3]}
      : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x56x56xf16>
  %6 = tcp.add %4, %5 : tensor<8x64x56x56xf16>, tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %7 = tcp.add %6, %x : tensor<8x64x56x56xf16>, tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %8 = tcp.clamp %7 {min_float = 0.000000e+00 : f32}
      : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  return %8 : tensor<8x64x56x56xf16>
}
