// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-DAG: #[[$RHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$BLHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>
// CHECK-DAG: #[[$BRHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$BOUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// One generic over (k, m, n): K is reduced outside the innermost loop (a
// column reduction for codegen-map-to-gpu), into a zero fill; f32 needs no
// epilogue.
// CHECK-LABEL: func.func @matmul_f32
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>)
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK:           %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK:           %[[S:.*]] = arith.addf %[[P]], %[[ACC]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @matmul_f32(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = tcp.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// f16 accumulates in f32 over (b, k, m, n); a parallel epilogue rounds once.
// CHECK-LABEL: func.func @batch_matmul_f16
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x16xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$BLHS]], #[[$BRHS]], #[[$BOUT]]], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf16>, tensor<2x8x16xf16>) outs(%[[F]] : tensor<2x4x16xf32>)
// CHECK:         ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK:           %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:           %[[YW:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[XW]], %[[YW]] : f32
// CHECK:           arith.addf %[[P]], %[[ACC]] : f32
// CHECK:         linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[R]] : tensor<2x4x16xf32>) outs(%{{.*}} : tensor<2x4x16xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @batch_matmul_f16(%a: tensor<2x4x8xf16>, %b: tensor<2x8x16xf16>) -> tensor<2x4x16xf16> {
  %0 = tcp.batch_matmul %a, %b : tensor<2x4x8xf16>, tensor<2x8x16xf16> -> tensor<2x4x16xf16>
  return %0 : tensor<2x4x16xf16>
}

// Dynamic M and N take their sizes from lhs and rhs.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME:    (%[[A:.*]]: tensor<?x8xf64>, %[[B:.*]]: tensor<8x?xf64>)
// CHECK-DAG:     %[[M:.*]] = tensor.dim %[[A]], %c0
// CHECK-DAG:     %[[N:.*]] = tensor.dim %[[B]], %c1
// CHECK:         tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf64>
// CHECK:         linalg.generic
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f64
func.func @matmul_dynamic(%a: tensor<?x8xf64>, %b: tensor<8x?xf64>) -> tensor<?x?xf64> {
  %0 = tcp.matmul %a, %b : tensor<?x8xf64>, tensor<8x?xf64> -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
