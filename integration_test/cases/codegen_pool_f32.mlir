// The pools tcp-fuse-for-cudnn leaves to generated kernels, NCHW 2x8x33x35,
// f32: max 3x3 with dilation 2 (stride 1, pad 1: cuDNN's resample has no
// dilation) and an average pool with ceil_mode that adds a window (no cuDNN
// resample mode counts a ceil-mode window like torch): 2x2 stride 2 pad 0
// without count_include_pad. The 2x2 stride 2 pad 1 one with
// count_include_pad adds no window on 33x35 (ceil and floor agree), so it
// is a cuDNN resample graph. The plain pools are codegen_pool_cudnn_f32.
func.func @forward(%x: tensor<2x8x33x35xf32>)
    -> (tensor<2x8x31x33xf32>, tensor<2x8x17x18xf32>, tensor<2x8x17x18xf32>) {
  %0 = tcp.max_pool2d %x {dilation = array<i64: 2, 2>, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<2x8x33x35xf32> -> tensor<2x8x31x33xf32>
  %1 = tcp.avg_pool2d %x {ceil_mode, count_include_pad, kernel_size = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xf32> -> tensor<2x8x17x18xf32>
  %2 = tcp.avg_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xf32> -> tensor<2x8x17x18xf32>
  return %0, %1, %2 : tensor<2x8x31x33xf32>, tensor<2x8x17x18xf32>, tensor<2x8x17x18xf32>
}
