// The pools of the codegen suite that tcp-fuse-for-cudnn gives to cuDNN in
// f16 and f32 (one resample graph each, NCHW at the boundary as written). In
// bf16 they are generated kernels: cuDNN 9.14's bf16 resample returned wrong
// maxima and NaN averages on the H100 (this case found it),
// 2x8x33x35: max 3x3 stride 2 pad 1; max 2x2 stride 2 with ceil_mode (the
// last, partial window kept: cuDNN gets more bottom/right padding); avg 3x3
// stride 2 pad 1 with and without count_include_pad. The pools that stay
// generated kernels are codegen_pool_bf16.
func.func @forward(%x: tensor<2x8x33x35xbf16>)
    -> (tensor<2x8x17x18xbf16>, tensor<2x8x17x18xbf16>, tensor<2x8x17x18xbf16>,
        tensor<2x8x17x18xbf16>) {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xbf16> -> tensor<2x8x17x18xbf16>
  %1 = tcp.max_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xbf16> -> tensor<2x8x17x18xbf16>
  %2 = tcp.avg_pool2d %x {count_include_pad, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xbf16> -> tensor<2x8x17x18xbf16>
  %3 = tcp.avg_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x33x35xbf16> -> tensor<2x8x17x18xbf16>
  return %0, %1, %2, %3 : tensor<2x8x17x18xbf16>, tensor<2x8x17x18xbf16>, tensor<2x8x17x18xbf16>, tensor<2x8x17x18xbf16>
}
