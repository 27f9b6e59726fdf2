// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s
// RUN: cudnn-opt %s --convert-tcp-to-linalg --codegen-fuse-elementwise --canonicalize | FileCheck %s --check-prefix=FUSED

// Attention's `qkv.permute(2, 0, 3, 1, 4).unbind(0)`: the slices of the
// transpose become transposes of slices of the projection, and unbind's
// squeeze happens before each transpose. The permuted [3, ...] tensor is
// never built: each slice reads the projection (at its start along the
// head-triple dim, 0, 1 or 2) as one generic of the squeezed shape.
// CHECK-LABEL: func.func @unbind_permuted_qkv
// CHECK-SAME:    (%[[QKV:.*]]: tensor<2x4x3x2x8xf32>)
// CHECK-NOT:     tensor<3x2x2x4x8xf32>
// CHECK:         tensor.extract %[[QKV]][%{{.*}}, %{{.*}}, %c0, %{{.*}}, %{{.*}}] : tensor<2x4x3x2x8xf32>
// CHECK:         tensor.extract %[[QKV]][%{{.*}}, %{{.*}}, %c1, %{{.*}}, %{{.*}}] : tensor<2x4x3x2x8xf32>
// CHECK:         tensor.extract %[[QKV]][%{{.*}}, %{{.*}}, %c2, %{{.*}}, %{{.*}}] : tensor<2x4x3x2x8xf32>
// CHECK-NOT:     tensor<3x2x2x4x8xf32>
// After fusion: the scaled query, the transposed key and the value, one
// generic each, each reading the projection.
// FUSED-LABEL: func.func @unbind_permuted_qkv
// FUSED-COUNT-3: linalg.generic
// FUSED-NOT:     linalg.generic
func.func @unbind_permuted_qkv(%qkv: tensor<2x4x3x2x8xf32>) -> (tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32>, tensor<2x2x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = tcp.transpose %qkv {permutation = array<i64: 2, 0, 3, 1, 4>} : tensor<2x4x3x2x8xf32> -> tensor<3x2x2x4x8xf32>
  %q1 = tcp.slice %t starts(%c0, %c0, %c0, %c0, %c0) sizes(%c1, %c2, %c2, %c4, %c8) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x2x2x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %q = tensor.collapse_shape %q1 [[0, 1], [2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<2x2x4x8xf32>
  %k1 = tcp.slice %t starts(%c1, %c0, %c0, %c0, %c0) sizes(%c1, %c2, %c2, %c4, %c8) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x2x2x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %k = tensor.collapse_shape %k1 [[0, 1], [2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<2x2x4x8xf32>
  %v1 = tcp.slice %t starts(%c2, %c0, %c0, %c0, %c0) sizes(%c1, %c2, %c2, %c4, %c8) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x2x2x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %v = tensor.collapse_shape %v1 [[0, 1], [2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<2x2x4x8xf32>
  %s = tcp.const {value = dense<0.5> : tensor<1x1x1x1xf32>} : tensor<1x1x1x1xf32>
  %sb = tcp.broadcast %s, %c2, %c2, %c4, %c8 {axes = [0, 1, 2, 3]} : tensor<1x1x1x1xf32>, index, index, index, index -> tensor<2x2x4x8xf32>
  %qs = tcp.mul %q, %sb : tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32> -> tensor<2x2x4x8xf32>
  %kt = tcp.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x2x4x8xf32> -> tensor<2x2x8x4xf32>
  return %qs, %kt, %v : tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32>, tensor<2x2x4x8xf32>
}

// A transpose something else reads too is built anyway: its slices stay
// slices of it.
// CHECK-LABEL: func.func @transpose_read_whole
// FUSED-LABEL: func.func @transpose_read_whole
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2xf32>)
// CHECK:         tensor.extract %[[T]]
// CHECK:         return %[[T]]
func.func @transpose_read_whole(%x: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<1x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = tcp.transpose %x {permutation = array<i64: 1, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>
  %s = tcp.slice %t starts(%c0, %c0) sizes(%c1, %c2) strides(%c1, %c1) : tensor<4x2xf32> -> tensor<1x2xf32>
  return %t, %s : tensor<4x2xf32>, tensor<1x2xf32>
}

// A collapse that only drops unit dims of a transpose drops them first:
// [1, 3, 1, 5] -> [1, 5, 3, 1] collapsed to [5, 3] is [1, 3, 1, 5] to
// [3, 5], transposed.
// CHECK-LABEL: func.func @unit_dims_dropped_first
// CHECK:         %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2, 3]] : tensor<1x3x1x5xf32> into tensor<3x5xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<3x5xf32>) outs(%{{.*}} : tensor<5x3xf32>)
func.func @unit_dims_dropped_first(%x: tensor<1x3x1x5xf32>) -> tensor<5x3xf32> {
  %t = tcp.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : tensor<1x3x1x5xf32> -> tensor<1x5x3x1xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<1x5x3x1xf32> into tensor<5x3xf32>
  return %c : tensor<5x3xf32>
}
