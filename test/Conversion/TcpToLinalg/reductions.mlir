// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$KEEP:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
// CHECK-DAG: #[[$DROP:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID1:.*]] = affine_map<(d0) -> (d0)>

// f32 sums accumulate in f32 into a zero-filled init; no epilogue.
// CHECK-LABEL: func.func @sum_keep_dims_f32
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x1x1xf32>
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$KEEP]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2x1x1xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @sum_keep_dims_f32(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %0 = tcp.reduce_sum %x {axes = array<i64: 1, 2>, keep_dims} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// f16 sums accumulate in f32 and are rounded in a parallel epilogue.
// CHECK-LABEL: func.func @sum_drop_dims_f16
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2xf32>)
// CHECK:         %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$DROP]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME:        ins(%{{.*}} : tensor<2x3x4xf16>) outs(%[[F]] : tensor<2xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %[[A:.*]]: f32):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[W]], %[[A]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<2xf16>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
// CHECK-SAME:        ins(%[[ACC]] : tensor<2xf32>) outs(%[[E2]] : tensor<2xf16>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
// CHECK:         return %[[R]]
func.func @sum_drop_dims_f16(%x: tensor<2x3x4xf16>) -> tensor<2xf16> {
  %0 = tcp.reduce_sum %x {axes = array<i64: 1, 2>} : tensor<2x3x4xf16> -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// CHECK-LABEL: func.func @sum_i32
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK:         linalg.fill ins(%[[Z]] : i32)
// CHECK:         linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK:           arith.addi
func.func @sum_i32(%x: tensor<5x3xi32>) -> tensor<3xi32> {
  %0 = tcp.reduce_sum %x {axes = array<i64: 0>} : tensor<5x3xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// The mean divides (never multiplies by a reciprocal) by the number of
// reduced elements, 3*4, before rounding, in one epilogue.
// CHECK-LABEL: func.func @mean_bf16
// CHECK:         %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$KEEP]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME:        outs(%{{.*}} : tensor<2x1x1xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:           arith.addf
// CHECK:         %[[N:.*]] = arith.constant 1.200000e+01 : f32
// CHECK:         linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[ACC]] : tensor<2x1x1xf32>) outs(%{{.*}} : tensor<2x1x1xbf16>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[V]], %[[N]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[Q]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[T]] : bf16
func.func @mean_bf16(%x: tensor<2x3x4xbf16>) -> tensor<2x1x1xbf16> {
  %0 = tcp.reduce_mean %x {axes = array<i64: 1, 2>, keep_dims} : tensor<2x3x4xbf16> -> tensor<2x1x1xbf16>
  return %0 : tensor<2x1x1xbf16>
}

// CHECK-LABEL: func.func @mean_f32
// CHECK:         %[[N:.*]] = arith.constant 5.000000e+00 : f32
// CHECK:         linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[V]], %[[N]] : f32
// CHECK-NEXT:      linalg.yield %[[Q]] : f32
func.func @mean_f32(%x: tensor<5x3xf32>) -> tensor<3xf32> {
  %0 = tcp.reduce_mean %x {axes = array<i64: 0>} : tensor<5x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// A dynamic reduced extent is counted at run time.
// CHECK-LABEL: func.func @mean_dynamic
// CHECK-SAME:    (%[[X:.*]]: tensor<?x3xf32>)
// CHECK:         %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3xf32>
// CHECK:         %[[I:.*]] = arith.index_castui %[[D]] : index to i64
// CHECK:         %[[N:.*]] = arith.uitofp %[[I]] : i64 to f32
// CHECK:         arith.divf %{{.*}}, %[[N]] : f32
func.func @mean_dynamic(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %0 = tcp.reduce_mean %x {axes = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// max/min stay in the element type (exact), from -inf/+inf.
// CHECK-LABEL: func.func @max_min_f16
// CHECK:         %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK:         linalg.fill ins(%[[NINF]] : f16) outs(%{{.*}} : tensor<2xf16>)
// CHECK:         linalg.generic {indexing_maps = [#[[$ID3]], #[[$DROP]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %[[A:.*]]: f16):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[IN]], %[[A]] : f16
// CHECK-NEXT:      linalg.yield %[[M]] : f16
// CHECK:         %[[PINF:.*]] = arith.constant 0x7C00 : f16
// CHECK:         linalg.fill ins(%[[PINF]] : f16)
// CHECK:           arith.minimumf %{{.*}}, %{{.*}} : f16
// CHECK-NOT:     arith.extf
func.func @max_min_f16(%x: tensor<2x3x4xf16>) -> (tensor<2xf16>, tensor<2xf16>) {
  %0 = tcp.reduce_max %x {axes = array<i64: 1, 2>} : tensor<2x3x4xf16> -> tensor<2xf16>
  %1 = tcp.reduce_min %x {axes = array<i64: 1, 2>} : tensor<2x3x4xf16> -> tensor<2xf16>
  return %0, %1 : tensor<2xf16>, tensor<2xf16>
}

// CHECK-LABEL: func.func @max_min_i32
// CHECK:         %[[LO:.*]] = arith.constant -2147483648 : i32
// CHECK:         linalg.fill ins(%[[LO]] : i32)
// CHECK:           arith.maxsi
// CHECK:         %[[HI:.*]] = arith.constant 2147483647 : i32
// CHECK:         linalg.fill ins(%[[HI]] : i32)
// CHECK:           arith.minsi
func.func @max_min_i32(%x: tensor<5x3xi32>) -> (tensor<1x3xi32>, tensor<1x3xi32>) {
  %0 = tcp.reduce_max %x {axes = array<i64: 0>, keep_dims} : tensor<5x3xi32> -> tensor<1x3xi32>
  %1 = tcp.reduce_min %x {axes = array<i64: 0>, keep_dims} : tensor<5x3xi32> -> tensor<1x3xi32>
  return %0, %1 : tensor<1x3xi32>, tensor<1x3xi32>
}
