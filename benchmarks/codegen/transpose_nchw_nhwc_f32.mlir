// Benchmark (d): NCHW -> NHWC of 64x128x64x64 f32 (128 MiB): one
// shared-memory transpose kernel (32x32 tiles).
func.func @forward(%x: tensor<64x128x64x64xf32>) -> tensor<64x64x64x128xf32> {
  %0 = tcp.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : tensor<64x128x64x64xf32> -> tensor<64x64x64x128xf32>
  return %0 : tensor<64x64x64x128xf32>
}
