// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// One parallel generic over (n, c, oh, ow); the window is two scf.for loops
// from the origin oh*stride - pad_top. Taps outside the input read a clamped
// index and are replaced by -inf; the max stays in f16.
// CHECK-LABEL: func.func @max_pool_f16
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x7x7xf16>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x2x4x4xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<1x2x4x4xf16>)
// CHECK:           %[[C:.*]] = linalg.index 1 : index
// CHECK:           %[[OH:.*]] = linalg.index 2 : index
// CHECK:           %[[OW:.*]] = linalg.index 3 : index
// CHECK:           %[[SH:.*]] = arith.muli %[[OH]], %{{.*}} : index
// CHECK:           %[[H0:.*]] = arith.subi %[[SH]], %{{.*}} : index
// CHECK:           %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK:           %[[KH_END:.*]] = arith.constant 3 : index
// CHECK:           %[[RH:.*]] = scf.for %[[KH:[^ ]+]] = %{{.*}} to %[[KH_END]] step %{{.*}} iter_args(%[[AH:.*]] = %[[NINF]]) -> (f16) {
// CHECK:             %[[RW:.*]] = scf.for %[[KW:[^ ]+]] = {{.*}} iter_args(%[[AW:[^ ]+]] = %[[AH]]) -> (f16) {
// CHECK:               %[[IH:.*]] = arith.addi %[[H0]], %[[KH]] : index
// CHECK:               %[[C7:.*]] = arith.constant 7 : index
// CHECK:               %[[GE:.*]] = arith.cmpi sge, %[[IH]], %{{.*}} : index
// CHECK:               %[[LT:.*]] = arith.cmpi slt, %[[IH]], %[[C7]] : index
// CHECK:               %[[OKH:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK:               %[[C6:.*]] = arith.constant 6 : index
// CHECK:               %[[MH:.*]] = arith.minsi %[[IH]], %[[C6]] : index
// CHECK:               %[[CH:.*]] = arith.maxsi %[[MH]], %{{.*}} : index
// CHECK:               %[[OK:.*]] = arith.andi %[[OKH]], %{{.*}} : i1
// CHECK:               %[[V:.*]] = tensor.extract %[[X]][%{{.*}}, %[[C]], %[[CH]], %{{.*}}] : tensor<1x2x7x7xf16>
// CHECK:               %[[P:.*]] = arith.select %[[OK]], %[[V]], %[[NINF]] : f16
// CHECK:               %[[M:.*]] = arith.maximumf %[[AW]], %[[P]] : f16
// CHECK:               scf.yield %[[M]] : f16
// CHECK:             scf.yield %[[RW]] : f16
// CHECK:           linalg.yield %[[RH]] : f16
func.func @max_pool_f16(%x: tensor<1x2x7x7xf16>) -> tensor<1x2x4x4xf16> {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<1x2x7x7xf16> -> tensor<1x2x4x4xf16>
  return %0 : tensor<1x2x4x4xf16>
}

// Dilated taps are `dilation` apart.
// CHECK-LABEL: func.func @max_pool_dilated
// CHECK:         scf.for %[[KH:[^ ]+]] =
// CHECK:           scf.for
// CHECK:             %[[C2:.*]] = arith.constant 2 : index
// CHECK:             %[[OFF:.*]] = arith.muli %[[KH]], %[[C2]] : index
// CHECK:             arith.addi %{{.*}}, %[[OFF]] : index
func.func @max_pool_dilated(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  %0 = tcp.max_pool2d %x {dilation = array<i64: 2, 2>, kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// The average accumulates f16 in f32 (padding adds 0). With
// count_include_pad the divisor is the window clipped to the padded input:
// (min(h0 + 3, 7 + 1) - h0) * (min(w0 + 3, 7 + 1) - w0).
// CHECK-LABEL: func.func @avg_pool_include_pad_f16
// CHECK:         linalg.generic {indexing_maps = [#[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK:           %[[H0:.*]] = arith.subi
// CHECK:           %[[W0:.*]] = arith.subi
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32) {
// CHECK:             scf.for
// CHECK:               %[[V:.*]] = tensor.extract {{.*}} : tensor<1x2x7x7xf16>
// CHECK:               %[[W:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK:               %[[P:.*]] = arith.select %{{.*}}, %[[W]], %[[ZERO]] : f32
// CHECK:               arith.addf %{{.*}}, %[[P]] : f32
// CHECK:           %[[K:.*]] = arith.constant 3 : index
// CHECK:           %[[HE:.*]] = arith.addi %[[H0]], %[[K]] : index
// CHECK:           %[[C8:.*]] = arith.constant 8 : index
// CHECK:           %[[HC:.*]] = arith.minsi %[[HE]], %[[C8]] : index
// CHECK:           %[[DH:.*]] = arith.subi %[[HC]], %[[H0]] : index
// CHECK:           %[[DW:.*]] = arith.subi %{{.*}}, %[[W0]] : index
// CHECK:           %[[N:.*]] = arith.muli %[[DH]], %[[DW]] : index
// CHECK:           %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:           %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK:           %[[Q:.*]] = arith.divf %[[SUM]], %[[NF]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK:           linalg.yield %[[T]] : f16
func.func @avg_pool_include_pad_f16(%x: tensor<1x2x7x7xf16>) -> tensor<1x2x4x4xf16> {
  %0 = tcp.avg_pool2d %x {count_include_pad, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<1x2x7x7xf16> -> tensor<1x2x4x4xf16>
  return %0 : tensor<1x2x4x4xf16>
}

// Without count_include_pad only the taps inside the input count:
// (min(h0 + 3, 6) - max(h0, 0)) * (...). ceil_mode adds a last window
// (oh = 3, rows 5..7) that hangs over the bottom/right edge.
// CHECK-LABEL: func.func @avg_pool_exclude_pad_ceil
// CHECK:         tensor.empty() : tensor<1x1x4x4xf32>
// CHECK:           %[[H0:.*]] = arith.subi
// CHECK:           %[[SUM:.*]] = scf.for
// CHECK:               scf.yield %{{.*}} : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %{{.*}} : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[K:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[HE:.*]] = arith.addi %[[H0]], %[[K]] : index
// CHECK:           %[[C6:.*]] = arith.constant 6 : index
// CHECK:           %[[HC:.*]] = arith.minsi %[[HE]], %[[C6]] : index
// CHECK:           %[[Z:.*]] = arith.constant 0 : index
// CHECK:           %[[HB:.*]] = arith.maxsi %[[H0]], %[[Z]] : index
// CHECK:           %[[DH:.*]] = arith.subi %[[HC]], %[[HB]] : index
// CHECK:           arith.divf %[[SUM]], %{{.*}} : f32
// CHECK-NOT:       arith.truncf
func.func @avg_pool_exclude_pad_ceil(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32> {
  %0 = tcp.avg_pool2d %x {ceil_mode, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<1x1x6x6xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// Dynamic H/W are not lowered: the op stays for a later pass to report.
// CHECK-LABEL: func.func @pool_dynamic_spatial
// CHECK:         tcp.max_pool2d
// CHECK-NOT:     linalg.generic
func.func @pool_dynamic_spatial(%x: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}
