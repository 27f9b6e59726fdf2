// tcp.gelu without a conv or matmul to follow: generated kernels, no cuDNN
// graph. Both forms on %x (uniform in [-6, 6], both tails and the middle;
// 32x1000 rows are a multiple of 16 bytes: the vector path) and on %y
// (45x77, odd: a tail, or scalar code): exact (math.erf, libdevice) and
// tanh-approximated, computed in f32 for f16/bf16 and rounded once.
func.func @forward(%x: tensor<32x1000xbf16>, %y: tensor<45x77xbf16>)
    -> (tensor<32x1000xbf16>, tensor<32x1000xbf16>, tensor<45x77xbf16>,
        tensor<45x77xbf16>) {
  %0 = tcp.gelu %x : tensor<32x1000xbf16> -> tensor<32x1000xbf16>
  %1 = tcp.gelu %x {approximate = "tanh"} : tensor<32x1000xbf16> -> tensor<32x1000xbf16>
  %2 = tcp.gelu %y {approximate = "none"} : tensor<45x77xbf16> -> tensor<45x77xbf16>
  %3 = tcp.gelu %y {approximate = "tanh"} : tensor<45x77xbf16> -> tensor<45x77xbf16>
  return %0, %1, %2, %3 : tensor<32x1000xbf16>, tensor<32x1000xbf16>,
      tensor<45x77xbf16>, tensor<45x77xbf16>
}
