// matmul + bias + tanh-approximated GELU (tcp.gelu, approximate = "tanh")
// in fp32 on TF32 tensor cores (an exact fp32 matmul with a pointwise
// epilogue has no engine on the H100, cuDNN 9.14): one fused graph, the
// GELU cuDNN's GELU_APPROX_TANH_FWD.
// COMPILE-OPTIONS: allow-tf32-matmul=true
func.func @forward(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>, %bias: tensor<1x128xf32>) -> tensor<256x128xf32> {
  %c256 = arith.constant 256 : index
  %0 = tcp.matmul %a, %b : tensor<256x512xf32>, tensor<512x128xf32> -> tensor<256x128xf32>
  %1 = tcp.broadcast %bias, %c256 {axes = [0]} : tensor<1x128xf32>, index -> tensor<256x128xf32>
  %2 = tcp.add %0, %1 : tensor<256x128xf32>, tensor<256x128xf32> -> tensor<256x128xf32>
  %3 = tcp.gelu %2 {approximate = "tanh"} : tensor<256x128xf32> -> tensor<256x128xf32>
  return %3 : tensor<256x128xf32>
}
