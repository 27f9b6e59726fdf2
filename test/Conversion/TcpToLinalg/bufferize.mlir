// RUN: cudnn-opt %s --convert-tcp-to-linalg \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

// The lowered IR bufferizes: reads of captured tensors inside a generic's
// body (slice, pooling) become memref.load, and no tensor is left.

// CHECK-LABEL: func.func @slice_then_add
// CHECK-SAME:    (%[[X:.*]]: memref<8x8xf32{{.*}}>, %[[Y:.*]]: memref<4x4xf32{{.*}}>) -> memref<4x4xf32>
// CHECK:         %[[S:.*]] = memref.alloc() {{.*}}: memref<4x4xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[S]] : memref<4x4xf32>)
// CHECK:           memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<8x8xf32{{.*}}>
// CHECK:         linalg.generic {{.*}} ins(%[[S]], %[[Y]] : memref<4x4xf32>, memref<4x4xf32{{.*}}>)
// CHECK:           arith.addf
// CHECK-NOT:     tensor.
func.func @slice_then_add(%x: tensor<8x8xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = tcp.slice %x starts(%c0, %c0) sizes(%c4, %c4) strides(%c2, %c2) : tensor<8x8xf32> -> tensor<4x4xf32>
  %1 = tcp.add %0, %y : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME:    (%[[X:.*]]: memref<1x1x4x4xf16{{.*}}>)
// CHECK:         linalg.generic
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               memref.load %[[X]]
// CHECK-NOT:     tensor.
func.func @max_pool(%x: tensor<1x1x4x4xf16>) -> tensor<1x1x2x2xf16> {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x4x4xf16> -> tensor<1x1x2x2xf16>
  return %0 : tensor<1x1x2x2xf16>
}

// The reduction's filled init and the mean's epilogue bufferize too.
// CHECK-LABEL: func.func @mean
// CHECK:         linalg.fill
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK-NOT:     tensor.
func.func @mean(%x: tensor<4x8xf16>) -> tensor<4xf16> {
  %0 = tcp.reduce_mean %x {axes = array<i64: 1>} : tensor<4x8xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
