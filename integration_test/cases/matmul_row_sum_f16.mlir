// matmul, then a row sum writing fp16. No cuDNN 9.14 engine runs a reduction
// epilogue writing fp16 on the H100 (this case found it), so the matmul is
// a cuDNN graph and the row sum a generated row-reduction kernel
// (accumulating in f32) on its output.
func.func @forward(%a: tensor<64x128xf16>, %b: tensor<128x32xf16>) -> tensor<64xf16> {
  %0 = tcp.matmul %a, %b : tensor<64x128xf16>, tensor<128x32xf16> -> tensor<64x32xf16>
  %1 = tcp.reduce_sum %0 {axes = array<i64: 1>} : tensor<64x32xf16> -> tensor<64xf16>
  return %1 : tensor<64xf16>
}
