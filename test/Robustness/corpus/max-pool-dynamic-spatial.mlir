// fuzz-cudnn-opt.test under UBSan (2026-11-26): --tcp-to-cudnn-pipeline
// overflowed computing ceil_mode padding from dynamic spatial sizes.
func.func @pool_dynamic_spatial(%x: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}
