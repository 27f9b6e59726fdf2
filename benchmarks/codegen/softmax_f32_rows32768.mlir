// Benchmark (b): softmax over the last dim of 1024x32768 f32 (128 MiB):
// reduce_max, broadcast, sub, exp, reduce_sum, broadcast, divf. One
// row-reduction kernel, 1024 threads per row, loads in batches of 8.
func.func @forward(%x: tensor<1024x32768xf32>) -> tensor<1024x32768xf32> {
  %c = arith.constant 32768 : index
  %max = tcp.reduce_max %x {axes = array<i64: 1>, keep_dims} : tensor<1024x32768xf32> -> tensor<1024x1xf32>
  %maxb = tcp.broadcast %max, %c {axes = [1]} : tensor<1024x1xf32>, index -> tensor<1024x32768xf32>
  %z = tcp.sub %x, %maxb : tensor<1024x32768xf32>, tensor<1024x32768xf32> -> tensor<1024x32768xf32>
  %e = tcp.exp %z : tensor<1024x32768xf32> -> tensor<1024x32768xf32>
  %sum = tcp.reduce_sum %e {axes = array<i64: 1>, keep_dims} : tensor<1024x32768xf32> -> tensor<1024x1xf32>
  %sumb = tcp.broadcast %sum, %c {axes = [1]} : tensor<1024x1xf32>, index -> tensor<1024x32768xf32>
  %y = tcp.divf %e, %sumb : tensor<1024x32768xf32>, tensor<1024x32768xf32> -> tensor<1024x32768xf32>
  return %y : tensor<1024x32768xf32>
}
