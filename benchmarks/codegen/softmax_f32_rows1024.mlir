// Benchmark (b): softmax over the last dim of 32768x1024 f32 (128 MiB):
// reduce_max, broadcast, sub, exp, reduce_sum, broadcast, divf. One
// row-reduction kernel, each row held in registers.
func.func @forward(%x: tensor<32768x1024xf32>) -> tensor<32768x1024xf32> {
  %c = arith.constant 1024 : index
  %max = tcp.reduce_max %x {axes = array<i64: 1>, keep_dims} : tensor<32768x1024xf32> -> tensor<32768x1xf32>
  %maxb = tcp.broadcast %max, %c {axes = [1]} : tensor<32768x1xf32>, index -> tensor<32768x1024xf32>
  %z = tcp.sub %x, %maxb : tensor<32768x1024xf32>, tensor<32768x1024xf32> -> tensor<32768x1024xf32>
  %e = tcp.exp %z : tensor<32768x1024xf32> -> tensor<32768x1024xf32>
  %sum = tcp.reduce_sum %e {axes = array<i64: 1>, keep_dims} : tensor<32768x1024xf32> -> tensor<32768x1xf32>
  %sumb = tcp.broadcast %sum, %c {axes = [1]} : tensor<32768x1xf32>, index -> tensor<32768x1024xf32>
  %y = tcp.divf %e, %sumb : tensor<32768x1024xf32>, tensor<32768x1024xf32> -> tensor<32768x1024xf32>
  return %y : tensor<32768x1024xf32>
}
