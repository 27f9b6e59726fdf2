// A 6-op elementwise chain, bf16: y = clamp(tanh(x * a + b) * c, -0.5, 0.5)
// - 0.25, with c a row vector (broadcast along axis 0) and 0.25 a constant
// broadcast from 1x1, as TorchToTcp writes `x - 0.25`. codegen-fuse-
// elementwise must make it ONE vectorized kernel (checked by
// test/Integration/codegen-kernel-counts.test).
func.func @forward(%x: tensor<128x1000xbf16>,
                   %a: tensor<128x1000xbf16>,
                   %b: tensor<128x1000xbf16>,
                   %c: tensor<1x1000xbf16>)
    -> (tensor<128x1000xbf16>) {
  %c128 = arith.constant 128 : index
  %c1000 = arith.constant 1000 : index
  %k = tcp.const {value = dense<2.500000e-01> : tensor<1x1xbf16>} : tensor<1x1xbf16>
  %0 = tcp.mul %x, %a : tensor<128x1000xbf16>, tensor<128x1000xbf16> -> tensor<128x1000xbf16>
  %1 = tcp.add %0, %b : tensor<128x1000xbf16>, tensor<128x1000xbf16> -> tensor<128x1000xbf16>
  %2 = tcp.tanh %1 : tensor<128x1000xbf16> -> tensor<128x1000xbf16>
  %cb = tcp.broadcast %c, %c128 {axes = [0]} : tensor<1x1000xbf16>, index -> tensor<128x1000xbf16>
  %3 = tcp.mul %2, %cb : tensor<128x1000xbf16>, tensor<128x1000xbf16> -> tensor<128x1000xbf16>
  %4 = tcp.clamp %3 {max_float = 5.000000e-01 : f32, min_float = -5.000000e-01 : f32} : tensor<128x1000xbf16> -> tensor<128x1000xbf16>
  %kb = tcp.broadcast %k, %c128, %c1000 {axes = [0, 1]} : tensor<1x1xbf16>, index, index -> tensor<128x1000xbf16>
  %5 = tcp.sub %4, %kb : tensor<128x1000xbf16>, tensor<128x1000xbf16> -> tensor<128x1000xbf16>
  return %5 : tensor<128x1000xbf16>
}
