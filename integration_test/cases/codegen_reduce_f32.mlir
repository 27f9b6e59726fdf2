// Row and column reductions on odd shapes, f32 (no cuDNN graph; f16/bf16
// accumulate in f32). Rows (innermost axis reduced) of 37x1001: sum, max
// (keep_dims), mean, min. Columns of 513x77 (axis 0): sum, max, mean
// (keep_dims). Axes [0, 2] of 6x37x45: sum, mean (keep_dims), max. A tall
// column, 4099x33 summed over axis 0 (split across blocks).
func.func @forward(%a: tensor<37x1001xf32>,
                   %b: tensor<513x77xf32>,
                   %z: tensor<6x37x45xf32>,
                   %t: tensor<4099x33xf32>)
    -> (tensor<37xf32>, tensor<37x1xf32>, tensor<37xf32>, tensor<37xf32>,
        tensor<77xf32>, tensor<77xf32>, tensor<1x77xf32>, tensor<37xf32>,
        tensor<1x37x1xf32>, tensor<37xf32>, tensor<33xf32>) {
  %r0 = tcp.reduce_sum %a {axes = array<i64: 1>} : tensor<37x1001xf32> -> tensor<37xf32>
  %r1 = tcp.reduce_max %a {axes = array<i64: 1>, keep_dims} : tensor<37x1001xf32> -> tensor<37x1xf32>
  %r2 = tcp.reduce_mean %a {axes = array<i64: 1>} : tensor<37x1001xf32> -> tensor<37xf32>
  %r3 = tcp.reduce_min %a {axes = array<i64: 1>} : tensor<37x1001xf32> -> tensor<37xf32>
  %c0 = tcp.reduce_sum %b {axes = array<i64: 0>} : tensor<513x77xf32> -> tensor<77xf32>
  %c1 = tcp.reduce_max %b {axes = array<i64: 0>} : tensor<513x77xf32> -> tensor<77xf32>
  %c2 = tcp.reduce_mean %b {axes = array<i64: 0>, keep_dims} : tensor<513x77xf32> -> tensor<1x77xf32>
  %m0 = tcp.reduce_sum %z {axes = array<i64: 0, 2>} : tensor<6x37x45xf32> -> tensor<37xf32>
  %m1 = tcp.reduce_mean %z {axes = array<i64: 0, 2>, keep_dims} : tensor<6x37x45xf32> -> tensor<1x37x1xf32>
  %m2 = tcp.reduce_max %z {axes = array<i64: 0, 2>} : tensor<6x37x45xf32> -> tensor<37xf32>
  %t0 = tcp.reduce_sum %t {axes = array<i64: 0>} : tensor<4099x33xf32> -> tensor<33xf32>
  return %r0, %r1, %r2, %r3, %c0, %c1, %c2, %m0, %m1, %m2, %t0
      : tensor<37xf32>, tensor<37x1xf32>, tensor<37xf32>, tensor<37xf32>,
        tensor<77xf32>, tensor<77xf32>, tensor<1x77xf32>,
        tensor<37xf32>, tensor<1x37x1xf32>, tensor<37xf32>, tensor<33xf32>
}
