// The pools of the codegen suite that tcp-fuse-for-cudnn gives to cuDNN
// instead (one resample graph each, NCHW at the boundary as written), f16,
// 2x8x33x35: max 3x3 stride 2 pad 1; max 2x2 stride 2 with ceil_mode (the
// last, partial window kept: cuDNN gets more bottom/right padding); avg 3x3
// stride 2 pad 1 with and without count_include_pad. The pools that stay
// generated kernels are codegen_pool_f16.
func.func @forward(%x: tensor<2x8x33x35xf16>)
    -> (tensor<2x8x17x18xf16>, tensor<2x8x17x18xf16>, tensor<2x8x17x18xf16>,
        tensor<2x8x17x18xf16>) {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xf16> -> tensor<2x8x17x18xf16>
  %1 = tcp.max_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xf16> -> tensor<2x8x17x18xf16>
  %2 = tcp.avg_pool2d %x {count_include_pad, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xf16> -> tensor<2x8x17x18xf16>
  %3 = tcp.avg_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xf16> -> tensor<2x8x17x18xf16>
  return %0, %1, %2, %3 : tensor<2x8x17x18xf16>, tensor<2x8x17x18xf16>, tensor<2x8x17x18xf16>, tensor<2x8x17x18xf16>
}
