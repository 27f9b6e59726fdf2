// matmul + bias + sigmoid-approximated GELU (z * sigmoid(1.702 z)) in fp16:
// one fused graph; the constant 1.702 is passed to cuDNN by value.
func.func @forward(%a: tensor<256x512xf16>, %b: tensor<512x128xf16>, %bias: tensor<1x128xf16>) -> tensor<256x128xf16> {
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %k = tcp.const {value = dense<1.702> : tensor<1x1xf16>} : tensor<1x1xf16>
  %0 = tcp.matmul %a, %b : tensor<256x512xf16>, tensor<512x128xf16> -> tensor<256x128xf16>
  %1 = tcp.broadcast %bias, %c256 {axes = [0]} : tensor<1x128xf16>, index -> tensor<256x128xf16>
  %2 = tcp.add %0, %1 : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
  %3 = tcp.broadcast %k, %c256, %c128 {axes = [0, 1]} : tensor<1x1xf16>, index, index -> tensor<256x128xf16>
  %4 = tcp.mul %2, %3 : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
  %5 = tcp.sigmoid %4 : tensor<256x128xf16> -> tensor<256x128xf16>
  %6 = tcp.mul %2, %5 : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
  return %6 : tensor<256x128xf16>
}
