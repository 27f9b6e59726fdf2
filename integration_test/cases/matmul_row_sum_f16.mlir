// matmul with a row-sum reduction in its epilogue (fp32 accumulation); the
// reduced dim is dropped after the graph (a view, no copy).
func.func @forward(%a: tensor<64x128xf16>, %b: tensor<128x32xf16>) -> tensor<64xf16> {
  %0 = tcp.matmul %a, %b : tensor<64x128xf16>, tensor<128x32xf16> -> tensor<64x32xf16>
  %1 = tcp.reduce_sum %0 {axes = array<i64: 1>} : tensor<64x32xf16> -> tensor<64xf16>
  return %1 : tensor<64xf16>
}
