// Benchmark (a): the GPU suite's 6-op elementwise chain (codegen_chain_f32)
// on 8192x8192 f32 tensors (256 MiB each): y = clamp(tanh(x * a + b) * c,
// -0.5, 0.5) - 0.25, c a broadcast row. One vectorized kernel: reads x, a, b
// (and c), writes y.
func.func @forward(%x: tensor<8192x8192xf32>, %a: tensor<8192x8192xf32>, %b: tensor<8192x8192xf32>, %c: tensor<1x8192xf32>) -> tensor<8192x8192xf32> {
  %n = arith.constant 8192 : index
  %k = tcp.const {value = dense<2.500000e-01> : tensor<1x1xf32>} : tensor<1x1xf32>
  %0 = tcp.mul %x, %a : tensor<8192x8192xf32>, tensor<8192x8192xf32> -> tensor<8192x8192xf32>
  %1 = tcp.add %0, %b : tensor<8192x8192xf32>, tensor<8192x8192xf32> -> tensor<8192x8192xf32>
  %2 = tcp.tanh %1 : tensor<8192x8192xf32> -> tensor<8192x8192xf32>
  %cb = tcp.broadcast %c, %n {axes = [0]} : tensor<1x8192xf32>, index -> tensor<8192x8192xf32>
  %3 = tcp.mul %2, %cb : tensor<8192x8192xf32>, tensor<8192x8192xf32> -> tensor<8192x8192xf32>
  %4 = tcp.clamp %3 {max_float = 5.000000e-01 : f32, min_float = -5.000000e-01 : f32} : tensor<8192x8192xf32> -> tensor<8192x8192xf32>
  %kb = tcp.broadcast %k, %n, %n {axes = [0, 1]} : tensor<1x1xf32>, index, index -> tensor<8192x8192xf32>
  %5 = tcp.sub %4, %kb : tensor<8192x8192xf32>, tensor<8192x8192xf32> -> tensor<8192x8192xf32>
  return %5 : tensor<8192x8192xf32>
}
