// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
// CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$LEAD:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$PERM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-DAG: #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @broadcast_trailing
// CHECK-SAME:    (%[[X:.*]]: tensor<2x1x1xf16>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x5x20xf16>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$BCAST]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]] : tensor<2x1x1xf16>) outs(%[[E]] : tensor<2x5x20xf16>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      linalg.yield %[[IN]] : f16
// CHECK:         return %[[R]]
func.func @broadcast_trailing(%x: tensor<2x1x1xf16>) -> tensor<2x5x20xf16> {
  %c5 = arith.constant 5 : index
  %c20 = arith.constant 20 : index
  %0 = tcp.broadcast %x, %c5, %c20 {axes = [1, 2]} : tensor<2x1x1xf16>, index, index -> tensor<2x5x20xf16>
  return %0 : tensor<2x5x20xf16>
}

// CHECK-LABEL: func.func @broadcast_leading_i32
// CHECK:         linalg.generic {indexing_maps = [#[[$LEAD]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%{{.*}} : tensor<1x64xi32>) outs(%{{.*}} : tensor<8x64xi32>)
func.func @broadcast_leading_i32(%x: tensor<1x64xi32>) -> tensor<8x64xi32> {
  %c8 = arith.constant 8 : index
  %0 = tcp.broadcast %x, %c8 {axes = [0]} : tensor<1x64xi32>, index -> tensor<8x64xi32>
  return %0 : tensor<8x64xi32>
}

// A dynamic broadcast size comes from the op's size operand.
// CHECK-LABEL: func.func @broadcast_dynamic
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64xf32>, %[[N:.*]]: index)
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x64xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$LEAD]], #[[$ID2]]]
// CHECK-SAME:        outs(%[[E]] : tensor<?x64xf32>)
func.func @broadcast_dynamic(%x: tensor<1x64xf32>, %n: index) -> tensor<?x64xf32> {
  %0 = tcp.broadcast %x, %n {axes = [0]} : tensor<1x64xf32>, index -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// Result dim i is input dim permutation[i]: NCHW -> NHWC reads input
// (n, c, h, w) at loop (d0, d3, d1, d2).
// CHECK-LABEL: func.func @transpose_nhwc
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64x56x57xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x56x57x64xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$PERM]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]] : tensor<1x64x56x57xf32>) outs(%[[E]] : tensor<1x56x57x64xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK-NOT:     linalg.transpose
func.func @transpose_nhwc(%x: tensor<1x64x56x57xf32>) -> tensor<1x56x57x64xf32> {
  %0 = tcp.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : tensor<1x64x56x57xf32> -> tensor<1x56x57x64xf32>
  return %0 : tensor<1x56x57x64xf32>
}

// A dynamic result dim is sized from the input dim it comes from.
// CHECK-LABEL: func.func @transpose_dynamic
// CHECK-SAME:    (%[[X:.*]]: tensor<?x3xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xf32>
// CHECK:         tensor.empty(%[[D]]) : tensor<3x?xf32>
func.func @transpose_dynamic(%x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  %0 = tcp.transpose %x {permutation = array<i64: 1, 0>} : tensor<?x3xf32> -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}
