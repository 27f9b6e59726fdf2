// matmul + bias + exact GELU in fp32 compiled with the default options, i.e.
// PyTorch's default matmul precision ("highest": exact fp32). cuDNN computes
// every fp32 matmul in TF32 (cuDNN 9.14, H100), so the matmul runs on cuBLAS
// in exact fp32 (cmrtInvocationGemm, convert-tcp-to-cublas) and bias + GELU
// as one generated elementwise kernel: no cuDNN graph, no naive generated
// matmul. K = 512 keeps the fp32 tolerance (1e-4) far below TF32's error.
func.func @forward(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>, %bias: tensor<1x128xf32>) -> tensor<256x128xf32> {
  %c256 = arith.constant 256 : index
  %0 = tcp.matmul %a, %b : tensor<256x512xf32>, tensor<512x128xf32> -> tensor<256x128xf32>
  %1 = tcp.broadcast %bias, %c256 {axes = [0]} : tensor<1x128xf32>, index -> tensor<256x128xf32>
  %2 = tcp.add %0, %1 : tensor<256x128xf32>, tensor<256x128xf32> -> tensor<256x128xf32>
  %3 = tcp.gelu %2 : tensor<256x128xf32> -> tensor<256x128xf32>
  return %3 : tensor<256x128xf32>
}
