// A cuDNN graph and generated kernels in one entry, from TCP: conv3x3 +
// bias + ReLU (one fused cuDNN graph, NCHW f16), then a softmax over the
// last dim of its output and a round (no cuDNN path: generated kernels),
// then an NCHW -> NHWC transpose (a generated shared-memory transpose). The
// kernels read the graph's output from the runtime's pool on the entry's
// stream, in order, with no host synchronisation.
func.func @forward(%x: tensor<4x32x28x28xf16>, %w: tensor<64x32x3x3xf16>, %b: tensor<1x64x1x1xf16>)
    -> tensor<4x14x14x64xf16> {
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %0 = tcp.conv2d %x, %w
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<4x32x28x28xf16>, tensor<64x32x3x3xf16> -> tensor<4x64x14x14xf16>
  %1 = tcp.broadcast %b, %c4, %c14, %c14 {axes = [0, 2, 3]}
      : tensor<1x64x1x1xf16>, index, index, index -> tensor<4x64x14x14xf16>
  %2 = tcp.add %0, %1 : tensor<4x64x14x14xf16>, tensor<4x64x14x14xf16> -> tensor<4x64x14x14xf16>
  %3 = tcp.clamp %2 {min_float = 0.000000e+00 : f32}
      : tensor<4x64x14x14xf16> -> tensor<4x64x14x14xf16>
  %max = tcp.reduce_max %3 {axes = array<i64: 3>, keep_dims} : tensor<4x64x14x14xf16> -> tensor<4x64x14x1xf16>
  %maxb = tcp.broadcast %max, %c14 {axes = [3]} : tensor<4x64x14x1xf16>, index -> tensor<4x64x14x14xf16>
  %z = tcp.sub %3, %maxb : tensor<4x64x14x14xf16>, tensor<4x64x14x14xf16> -> tensor<4x64x14x14xf16>
  %e = tcp.exp %z : tensor<4x64x14x14xf16> -> tensor<4x64x14x14xf16>
  %sum = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<4x64x14x14xf16> -> tensor<4x64x14x1xf16>
  %sumb = tcp.broadcast %sum, %c14 {axes = [3]} : tensor<4x64x14x1xf16>, index -> tensor<4x64x14x14xf16>
  %s = tcp.divf %e, %sumb : tensor<4x64x14x14xf16>, tensor<4x64x14x14xf16> -> tensor<4x64x14x14xf16>
  %t = tcp.transpose %s {permutation = array<i64: 0, 2, 3, 1>} : tensor<4x64x14x14xf16> -> tensor<4x14x14x64xf16>
  return %t : tensor<4x14x14x64xf16>
}
