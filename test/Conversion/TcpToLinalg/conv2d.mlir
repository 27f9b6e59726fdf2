// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// One parallel generic over (n, k, oh, ow) with no inputs; the body loops
// over kh, kw and the group's channels c from the window origin
// oh*stride - pad_top, reading input and weight with tensor.extract. A tap
// in the padding reads a clamped index and is replaced by 0. f16
// accumulates in f32 and rounds once. groups = 2: output channel k reads
// input channels (k / 3) * 2 + c.
// CHECK-LABEL: func.func @conv_f16_grouped
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x9x9xf16>, %[[W:.*]]: tensor<6x2x3x3xf16>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x6x4x4xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<2x6x4x4xf16>)
// CHECK:           %[[N:.*]] = linalg.index 0 : index
// CHECK:           %[[K:.*]] = linalg.index 1 : index
// CHECK:           %[[OH:.*]] = linalg.index 2 : index
// CHECK:           %[[C3:.*]] = arith.constant 3 : index
// CHECK:           %[[G:.*]] = arith.divui %[[K]], %[[C3]] : index
// CHECK:           %[[C2:.*]] = arith.constant 2 : index
// CHECK:           %[[C0:.*]] = arith.muli %[[G]], %[[C2]] : index
// CHECK:           %[[SH:.*]] = arith.muli %[[OH]], %{{.*}} : index
// CHECK:           %[[H0:.*]] = arith.subi %[[SH]], %{{.*}} : index
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[RH:.*]] = scf.for %[[KH:[^ ]+]] = {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32) {
// CHECK:             %[[DIL:.*]] = arith.constant 2 : index
// CHECK:             %[[OFF:.*]] = arith.muli %[[KH]], %[[DIL]] : index
// CHECK:             %[[IH:.*]] = arith.addi %[[H0]], %[[OFF]] : index
// CHECK:             %[[GE:.*]] = arith.cmpi sge, %[[IH]], %{{.*}} : index
// CHECK:             %[[C9:.*]] = arith.constant 9 : index
// CHECK:             %[[LT:.*]] = arith.cmpi slt, %[[IH]], %[[C9]] : index
// CHECK:             %[[OKH:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK:             %[[C8:.*]] = arith.constant 8 : index
// CHECK:             %[[MH:.*]] = arith.minsi %[[IH]], %[[C8]] : index
// CHECK:             %[[CH:.*]] = arith.maxsi %[[MH]], %{{.*}} : index
// CHECK:             scf.for %[[KW:[^ ]+]] = {{.*}} -> (f32) {
// CHECK:               %[[OK:.*]] = arith.andi %[[OKH]], %{{.*}} : i1
// CHECK:               scf.for %[[C:[^ ]+]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:                 %[[CIN:.*]] = arith.addi %[[C0]], %[[C]] : index
// CHECK:                 %[[V:.*]] = tensor.extract %[[X]][%[[N]], %[[CIN]], %[[CH]], %{{.*}}] : tensor<2x4x9x9xf16>
// CHECK:                 %[[WV:.*]] = tensor.extract %[[W]][%[[K]], %[[C]], %[[KH]], %[[KW]]] : tensor<6x2x3x3xf16>
// CHECK:                 %[[VW:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK:                 %[[WW:.*]] = arith.extf %[[WV]] : f16 to f32
// CHECK:                 %[[P:.*]] = arith.select %[[OK]], %[[VW]], %[[ZERO]] : f32
// CHECK:                 %[[M:.*]] = arith.mulf %[[P]], %[[WW]] : f32
// CHECK:                 %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK:                 scf.yield %[[S]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[RH]] : f32 to f16
// CHECK:           linalg.yield %[[T]] : f16
func.func @conv_f16_grouped(%x: tensor<2x4x9x9xf16>, %w: tensor<6x2x3x3xf16>) -> tensor<2x6x4x4xf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 2, 2>, groups = 2 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x4x9x9xf16>, tensor<6x2x3x3xf16> -> tensor<2x6x4x4xf16>
  return %0 : tensor<2x6x4x4xf16>
}

// f32 accumulates in f32 and yields the sum as is; without groups every
// output channel starts at input channel 0. A dynamic N sizes the output.
// CHECK-LABEL: func.func @conv_f32_dynamic_batch
// CHECK-SAME:    (%[[X:.*]]: tensor<?x3x8x8xf32>
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3x8x8xf32>
// CHECK:         tensor.empty(%[[N]]) : tensor<?x5x6x6xf32>
// CHECK:         linalg.generic
// CHECK-NOT:       arith.divui
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               scf.for %[[C:[^ ]+]] =
// CHECK:                 tensor.extract %[[X]][%{{.*}}, %[[C]], %{{.*}}, %{{.*}}] : tensor<?x3x8x8xf32>
// CHECK:                 arith.mulf
// CHECK-NOT:       arith.truncf
// CHECK:           linalg.yield %{{.*}} : f32
func.func @conv_f32_dynamic_batch(%x: tensor<?x3x8x8xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<?x5x6x6xf32> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : tensor<?x3x8x8xf32>, tensor<5x3x3x3xf32> -> tensor<?x5x6x6xf32>
  return %0 : tensor<?x5x6x6xf32>
}

// A dynamic spatial size has no static window bounds: the conv stays tcp
// (and cudnn-bufferize reports it).
// CHECK-LABEL: func.func @conv_dynamic_spatial
// CHECK:         tcp.conv2d
func.func @conv_dynamic_spatial(%x: tensor<1x3x?x8xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<1x5x?x6xf32> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : tensor<1x3x?x8xf32>, tensor<5x3x3x3xf32> -> tensor<1x5x?x6xf32>
  return %0 : tensor<1x5x?x6xf32>
}
