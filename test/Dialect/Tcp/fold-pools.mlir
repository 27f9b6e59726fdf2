// RUN: cudnn-opt %s -canonicalize -split-input-file | FileCheck %s

// A pool with a 1x1 window moved by 1 over an unpadded input is its input:
// AlexNet's AdaptiveAvgPool2d((6, 6)) of a 6x6 feature map imports as one.

// CHECK-LABEL: func.func @identity_avg_pool
// CHECK-SAME: (%[[X:.*]]: tensor<2x256x6x6xf16>)
// CHECK-NOT: tcp.avg_pool2d
// CHECK: return %[[X]]
func.func @identity_avg_pool(%x: tensor<2x256x6x6xf16>) -> tensor<2x256x6x6xf16> {
  %0 = tcp.avg_pool2d %x {count_include_pad, kernel_size = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<2x256x6x6xf16> -> tensor<2x256x6x6xf16>
  return %0 : tensor<2x256x6x6xf16>
}

// -----

// CHECK-LABEL: func.func @identity_max_pool
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x5x7xf32>)
// CHECK-NOT: tcp.max_pool2d
// CHECK: return %[[X]]
func.func @identity_max_pool(%x: tensor<1x8x5x7xf32>) -> tensor<1x8x5x7xf32> {
  %0 = tcp.max_pool2d %x {ceil_mode, dilation = array<i64: 2, 2>, kernel_size = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x5x7xf32> -> tensor<1x8x5x7xf32>
  return %0 : tensor<1x8x5x7xf32>
}

// -----

// Moved by 2, or over padding, the 1x1 window is no identity.
// CHECK-LABEL: func.func @strided_or_padded
// CHECK: tcp.avg_pool2d
// CHECK: tcp.max_pool2d
func.func @strided_or_padded(%x: tensor<1x8x6x6xf32>) -> (tensor<1x8x3x3xf32>, tensor<1x8x8x8xf32>) {
  %0 = tcp.avg_pool2d %x {kernel_size = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x8x6x6xf32> -> tensor<1x8x3x3xf32>
  %1 = tcp.max_pool2d %x {kernel_size = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x8x6x6xf32> -> tensor<1x8x8x8xf32>
  return %0, %1 : tensor<1x8x3x3xf32>, tensor<1x8x8x8xf32>
}
