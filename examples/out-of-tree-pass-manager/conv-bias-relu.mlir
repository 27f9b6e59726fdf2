// conv3x3 + bias + ReLU in TCP, as torch-mlir's TorchToTcp writes it; the
// example's input (README.md). tcp-to-cudnn-pipeline makes it one cuDNN graph.
func.func @conv_bias_relu(%x: tensor<4x32x28x28xf16>, %w: tensor<32x32x3x3xf16>,
                          %b: tensor<1x32x1x1xf16>) -> tensor<4x32x28x28xf16> {
  %c4 = arith.constant 4 : index
  %c28 = arith.constant 28 : index
  %0 = tcp.conv2d %x, %w
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<4x32x28x28xf16>, tensor<32x32x3x3xf16> -> tensor<4x32x28x28xf16>
  %1 = tcp.broadcast %b, %c4, %c28, %c28 {axes = [0, 2, 3]}
      : tensor<1x32x1x1xf16>, index, index, index -> tensor<4x32x28x28xf16>
  %2 = tcp.add %0, %1 : tensor<4x32x28x28xf16>, tensor<4x32x28x28xf16> -> tensor<4x32x28x28xf16>
  %3 = tcp.clamp %2 {min_float = 0.000000e+00 : f32}
      : tensor<4x32x28x28xf16> -> tensor<4x32x28x28xf16>
  return %3 : tensor<4x32x28x28xf16>
}
