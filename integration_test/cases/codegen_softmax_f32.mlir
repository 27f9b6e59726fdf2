// Softmax over the last dim, f32, as torch-mlir's decomposition spells it:
// reduce_max (keep_dims), broadcast, sub, exp, reduce_sum (keep_dims),
// broadcast, divf. 37x1001 rows: one row-reduction kernel whose row loops
// run over the odd length (test/Integration/codegen-kernel-counts.test).
func.func @forward(%x: tensor<37x1001xf32>) -> tensor<37x1001xf32> {
  %c = arith.constant 1001 : index
  %max = tcp.reduce_max %x {axes = array<i64: 1>, keep_dims} : tensor<37x1001xf32> -> tensor<37x1xf32>
  %maxb = tcp.broadcast %max, %c {axes = [1]} : tensor<37x1xf32>, index -> tensor<37x1001xf32>
  %z = tcp.sub %x, %maxb : tensor<37x1001xf32>, tensor<37x1001xf32> -> tensor<37x1001xf32>
  %e = tcp.exp %z : tensor<37x1001xf32> -> tensor<37x1001xf32>
  %sum = tcp.reduce_sum %e {axes = array<i64: 1>, keep_dims} : tensor<37x1001xf32> -> tensor<37x1xf32>
  %sumb = tcp.broadcast %sum, %c {axes = [1]} : tensor<37x1xf32>, index -> tensor<37x1001xf32>
  %y = tcp.divf %e, %sumb : tensor<37x1001xf32>, tensor<37x1001xf32> -> tensor<37x1001xf32>
  return %y : tensor<37x1001xf32>
}
