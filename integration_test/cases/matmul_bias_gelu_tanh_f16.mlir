// matmul + bias + tanh-approximated GELU (tcp.gelu, approximate = "tanh")
// in fp16: one fused graph, the GELU cuDNN's GELU_APPROX_TANH_FWD.
func.func @forward(%a: tensor<256x512xf16>, %b: tensor<512x128xf16>, %bias: tensor<1x128xf16>) -> tensor<256x128xf16> {
  %c256 = arith.constant 256 : index
  %0 = tcp.matmul %a, %b : tensor<256x512xf16>, tensor<512x128xf16> -> tensor<256x128xf16>
  %1 = tcp.broadcast %bias, %c256 {axes = [0]} : tensor<1x128xf16>, index -> tensor<256x128xf16>
  %2 = tcp.add %0, %1 : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
  %3 = tcp.gelu %2 {approximate = "tanh"} : tensor<256x128xf16> -> tensor<256x128xf16>
  return %3 : tensor<256x128xf16>
}
