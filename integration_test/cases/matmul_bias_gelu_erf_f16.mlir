// matmul + bias + exact GELU (tcp.gelu, approximate = "none":
// x * 0.5 * (1 + erf(x / sqrt(2)))) in fp16: one fused graph, the GELU
// cuDNN's GELU_FWD.
func.func @forward(%a: tensor<256x512xf16>, %b: tensor<512x128xf16>, %bias: tensor<1x128xf16>) -> tensor<256x128xf16> {
  %c256 = arith.constant 256 : index
  %0 = tcp.matmul %a, %b : tensor<256x512xf16>, tensor<512x128xf16> -> tensor<256x128xf16>
  %1 = tcp.broadcast %bias, %c256 {axes = [0]} : tensor<1x128xf16>, index -> tensor<256x128xf16>
  %2 = tcp.add %0, %1 : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
  %3 = tcp.gelu %2 : tensor<256x128xf16> -> tensor<256x128xf16>
  return %3 : tensor<256x128xf16>
}
