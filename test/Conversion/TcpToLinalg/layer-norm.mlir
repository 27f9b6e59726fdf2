// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s
// RUN: cudnn-opt %s --convert-tcp-to-linalg --codegen-fuse-elementwise --canonicalize --cse \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" --codegen-map-to-gpu=report-kernels \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS

// Each layer norm is one row-reduction kernel: no per-row buffer is shared
// or reused inside the group, so bufferization splits nothing.
// KERNELS: remark: @layer_norm_f16: 1 GPU kernel{{$}}
// KERNELS-NEXT: layer_norm_f16_kernel0: row reduction ({{.*}}3 ops fused)
// KERNELS: remark: @layer_norm_training_f32: 1 GPU kernel{{$}}
// KERNELS-NEXT: layer_norm_training_f32_kernel0: row reduction ({{.*}}5 ops fused)
// KERNELS: remark: @layer_norm_training_f16_stats: 1 GPU kernel{{$}}
// KERNELS-NEXT: layer_norm_training_f16_stats_kernel0: row reduction ({{.*}}5 ops fused)

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
// CHECK-DAG: #[[$TRAIL:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW2:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$PERROW:.*]] = affine_map<(d0) -> (d0, 0)>

// normalized_rank = 2 over 2x3 rows of 4x5: two f32 row reductions over the
// trailing loops (the sum, then the squares around sum / 20: two passes, not
// E[x^2] - mean^2), then one parallel generic that reads the per-row sums
// through maps without the trailing loops, scale and bias through maps of
// the trailing loops only, and rounds once to f16.
// CHECK-LABEL: func.func @layer_norm_f16
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4x5xf16>, %[[G:.*]]: tensor<4x5xf16>, %[[B:.*]]: tensor<4x5xf16>)
// CHECK:         %[[N:.*]] = arith.constant 2.000000e+01 : f32
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x3x1x1xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<2x3x4x5xf16>) outs(%[[F1]] : tensor<2x3x1x1xf32>)
// CHECK:         ^bb0(%[[V:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK:           %[[W:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK:           %[[S:.*]] = arith.addf %[[W]], %[[ACC]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         %[[NZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[F2:.*]] = linalg.fill ins(%[[NZERO]] : f32) outs(%{{.*}} : tensor<2x3x1x1xf32>)
// CHECK:         %[[SQ:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[SUM]] : tensor<2x3x4x5xf16>, tensor<2x3x1x1xf32>) outs(%[[F2]] : tensor<2x3x1x1xf32>)
// CHECK:         ^bb0(%[[V:.*]]: f16, %[[RS:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK:           %[[W:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK:           %[[MEAN:.*]] = arith.divf %[[RS]], %[[N]] : f32
// CHECK:           %[[D:.*]] = arith.subf %[[W]], %[[MEAN]] : f32
// CHECK:           %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK:           %[[S:.*]] = arith.addf %[[D2]], %[[ACC]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x3x4x5xf16>
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]], #[[$TRAIL]], #[[$TRAIL]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]], %[[SUM]], %[[SQ]], %[[G]], %[[B]] : {{.*}}) outs(%[[E]] : tensor<2x3x4x5xf16>)
// CHECK:         ^bb0(%[[V:.*]]: f16, %[[RS:.*]]: f32, %[[RQ:.*]]: f32, %[[GV:.*]]: f16, %[[BV:.*]]: f16, %{{.*}}: f16):
// CHECK:           %[[W:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK:           %[[MEAN:.*]] = arith.divf %[[RS]], %[[N]] : f32
// CHECK:           %[[D:.*]] = arith.subf %[[W]], %[[MEAN]] : f32
// CHECK:           %[[VAR:.*]] = arith.divf %[[RQ]], %[[N]] : f32
// CHECK:           %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK:           %[[VE:.*]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:           %[[R:.*]] = math.rsqrt %[[VE]] : f32
// CHECK:           %[[NORM:.*]] = arith.mulf %[[D]], %[[R]] : f32
// CHECK:           %[[GW:.*]] = arith.extf %[[GV]] : f16 to f32
// CHECK:           %[[SC:.*]] = arith.mulf %[[NORM]], %[[GW]] : f32
// CHECK:           %[[BW:.*]] = arith.extf %[[BV]] : f16 to f32
// CHECK:           %[[SB:.*]] = arith.addf %[[SC]], %[[BW]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[SB]] : f32 to f16
// CHECK:           linalg.yield %[[T]] : f16
// CHECK:         return %[[Y]]
func.func @layer_norm_f16(%x: tensor<2x3x4x5xf16>, %g: tensor<4x5xf16>, %b: tensor<4x5xf16>) -> tensor<2x3x4x5xf16> {
  %0 = tcp.layer_norm %x scale(%g : tensor<4x5xf16>) bias(%b : tensor<4x5xf16>) {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
      : tensor<2x3x4x5xf16> -> tensor<2x3x4x5xf16>
  return %0 : tensor<2x3x4x5xf16>
}

// The training form in f32, no scale or bias: mean and rstd are per-row
// generics over the row loops (after the sum and after the squares) writing
// the 8x1 results; the normalisation reads the sums and comes last.
// CHECK-LABEL: func.func @layer_norm_training_f32
// CHECK-SAME:    (%[[X:.*]]: tensor<8x32xf32>)
// CHECK:         %[[N:.*]] = arith.constant 3.200000e+01 : f32
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<8x32xf32>)
// CHECK:         %[[MEAN:.*]] = linalg.generic {indexing_maps = [#[[$PERROW]], #[[$PERROW]]], iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<8x1xf32>) outs(%{{.*}} : tensor<8x1xf32>)
// CHECK:           %[[M:.*]] = arith.divf %{{.*}}, %[[N]] : f32
// CHECK:           linalg.yield %[[M]] : f32
// CHECK:         %[[SQ:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]], #[[$ROW2]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[SUM]] : tensor<8x32xf32>, tensor<8x1xf32>)
// CHECK:         %[[RSTD:.*]] = linalg.generic {indexing_maps = [#[[$PERROW]], #[[$PERROW]]], iterator_types = ["parallel"]} ins(%[[SQ]] : tensor<8x1xf32>) outs(%{{.*}} : tensor<8x1xf32>)
// CHECK:           arith.divf %{{.*}}, %[[N]] : f32
// CHECK:           arith.constant 1.000000e-03 : f32
// CHECK:           math.rsqrt
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]], #[[$ROW2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[SUM]], %[[SQ]] : tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>)
// CHECK-NOT:       arith.truncf
// CHECK:         return %[[Y]], %[[MEAN]], %[[RSTD]]
func.func @layer_norm_training_f32(%x: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>) {
  %y, %mean, %rstd = tcp.layer_norm_training %x {epsilon = 1.000000e-03 : f64, normalized_rank = 1 : i64}
      : tensor<8x32xf32> -> tensor<8x32xf32>, tensor<8x1xf32>
  return %y, %mean, %rstd : tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>
}

// f16 statistics are computed in f32 and rounded once per row.
// CHECK-LABEL: func.func @layer_norm_training_f16_stats
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<8x1xf32>) outs(%{{.*}} : tensor<8x1xf16>)
// CHECK:           arith.divf
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<8x1xf32>) outs(%{{.*}} : tensor<8x1xf16>)
// CHECK:           math.rsqrt
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @layer_norm_training_f16_stats(%x: tensor<8x32xf16>) -> (tensor<8x32xf16>, tensor<8x1xf16>, tensor<8x1xf16>) {
  %y, %mean, %rstd = tcp.layer_norm_training %x {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64}
      : tensor<8x32xf16> -> tensor<8x32xf16>, tensor<8x1xf16>
  return %y, %mean, %rstd : tensor<8x32xf16>, tensor<8x1xf16>, tensor<8x1xf16>
}
