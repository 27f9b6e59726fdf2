// Softmax over rows of 1024, f32: one row-reduction kernel of 256 threads
// per row, each thread's 4 elements loaded once and held in registers for
// the sum and the division (test/Integration/codegen-kernel-counts.test).
func.func @forward(%x: tensor<96x1024xf32>) -> tensor<96x1024xf32> {
  %c = arith.constant 1024 : index
  %max = tcp.reduce_max %x {axes = array<i64: 1>, keep_dims} : tensor<96x1024xf32> -> tensor<96x1xf32>
  %maxb = tcp.broadcast %max, %c {axes = [1]} : tensor<96x1xf32>, index -> tensor<96x1024xf32>
  %z = tcp.sub %x, %maxb : tensor<96x1024xf32>, tensor<96x1024xf32> -> tensor<96x1024xf32>
  %e = tcp.exp %z : tensor<96x1024xf32> -> tensor<96x1024xf32>
  %sum = tcp.reduce_sum %e {axes = array<i64: 1>, keep_dims} : tensor<96x1024xf32> -> tensor<96x1xf32>
  %sumb = tcp.broadcast %sum, %c {axes = [1]} : tensor<96x1xf32>, index -> tensor<96x1024xf32>
  %y = tcp.divf %e, %sumb : tensor<96x1024xf32>, tensor<96x1024xf32> -> tensor<96x1024xf32>
  return %y : tensor<96x1024xf32>
}
