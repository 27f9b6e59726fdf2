// COMPILE-OPTIONS: fuse-fp32=false
// fp32 anchors with fuse-fp32=false stay out of cuDNN graphs, so the conv,
// matmul and batch matmul are generated kernels: a grouped, strided,
// padded, dilated conv (2x8x17x19 by 16x4x3x3, groups 2, stride 2, pad 1,
// dilation 2: one thread per output looping over the window), and the
// matmuls as column reductions over K.
func.func @forward(%x: tensor<2x8x17x19xf32>, %w: tensor<16x4x3x3xf32>,
                   %a: tensor<64x96xf32>, %b: tensor<96x80xf32>,
                   %ba: tensor<3x32x48xf32>, %bb: tensor<3x48x40xf32>)
    -> (tensor<2x16x8x9xf32>, tensor<64x80xf32>, tensor<3x32x40xf32>) {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 2, 2>, groups = 2 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x17x19xf32>, tensor<16x4x3x3xf32> -> tensor<2x16x8x9xf32>
  %1 = tcp.matmul %a, %b : tensor<64x96xf32>, tensor<96x80xf32> -> tensor<64x80xf32>
  %2 = tcp.batch_matmul %ba, %bb : tensor<3x32x48xf32>, tensor<3x48x40xf32> -> tensor<3x32x40xf32>
  return %0, %1, %2 : tensor<2x16x8x9xf32>, tensor<64x80xf32>, tensor<3x32x40xf32>
}
