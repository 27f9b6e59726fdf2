// Benchmark (c): a column reduction, the sum over dim 0 of 16384x4096 f32
// (256 MiB read, 16 KiB written): column-reduction kernels split over
// blocks, then a combining kernel.
func.func @forward(%x: tensor<16384x4096xf32>) -> tensor<4096xf32> {
  %0 = tcp.reduce_sum %x {axes = array<i64: 0>} : tensor<16384x4096xf32> -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
