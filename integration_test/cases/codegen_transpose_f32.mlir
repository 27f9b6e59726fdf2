// Layout transposes, f32: NCHW -> NHWC of 2x67x31x45 and NHWC -> NCHW
// of 2x31x45x67 (odd extents: partial 32x32 shared-memory tiles on every
// edge). Generated transpose kernels, no cuDNN graph.
func.func @forward(%x: tensor<2x67x31x45xf32>,
                   %y: tensor<2x31x45x67xf32>)
    -> (tensor<2x31x45x67xf32>, tensor<2x67x31x45xf32>) {
  %0 = tcp.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : tensor<2x67x31x45xf32> -> tensor<2x31x45x67xf32>
  %1 = tcp.transpose %y {permutation = array<i64: 0, 3, 1, 2>} : tensor<2x31x45x67xf32> -> tensor<2x67x31x45xf32>
  return %0, %1 : tensor<2x31x45x67xf32>, tensor<2x67x31x45xf32>
}
