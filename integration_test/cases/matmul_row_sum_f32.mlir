// COMPILE-OPTIONS: allow-tf32-matmul=true
// matmul with a row-sum reduction in its epilogue, fp32 data and output;
// the reduced dim is dropped after the graph (a view and a device copy).
func.func @forward(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64xf32> {
  %0 = tcp.matmul %a, %b : tensor<64x128xf32>, tensor<128x32xf32> -> tensor<64x32xf32>
  %1 = tcp.reduce_sum %0 {axes = array<i64: 1>} : tensor<64x32xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
