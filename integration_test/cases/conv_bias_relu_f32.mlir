// conv3x3 stride 2 + bias + ReLU in fp32 (exact: no TF32), one fused graph.
func.func @forward(%x: tensor<4x32x28x28xf32>, %w: tensor<64x32x3x3xf32>, %b: tensor<1x64x1x1xf32>)
    -> tensor<4x64x14x14xf32> {
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %0 = tcp.conv2d %x, %w
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<4x32x28x28xf32>, tensor<64x32x3x3xf32> -> tensor<4x64x14x14xf32>
  %1 = tcp.broadcast %b, %c4, %c14, %c14 {axes = [0, 2, 3]}
      : tensor<1x64x1x1xf32>, index, index, index -> tensor<4x64x14x14xf32>
  %2 = tcp.add %0, %1 : tensor<4x64x14x14xf32>, tensor<4x64x14x14xf32> -> tensor<4x64x14x14xf32>
  %3 = tcp.clamp %2 {min_float = 0.000000e+00 : f32}
      : tensor<4x64x14x14xf32> -> tensor<4x64x14x14xf32>
  return %3 : tensor<4x64x14x14xf32>
}
