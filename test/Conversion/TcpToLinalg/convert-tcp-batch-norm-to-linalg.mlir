// RUN: cudnn-opt %s --convert-tcp-batch-norm-to-linalg | FileCheck %s

// Inference: one elementwise generic over x reading the four per-channel
// tensors along dimension 1; f16 data and parameters computed in f32, the
// inverse deviation rsqrt(var + eps) per element, rounded once.
// CHECK-DAG: #[[$X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$XSTAT:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK-DAG: #[[$CSTAT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0)>
// CHECK-LABEL: func.func @inference_f16
// CHECK:         %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK:         linalg.generic {indexing_maps = [#[[$X]], #[[$C]], #[[$C]], #[[$C]], #[[$C]], #[[$X]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%arg0, %arg3, %arg4, %arg1, %arg2 :
// CHECK:           %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[MEAN:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[VAR:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[SUM:.*]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:           %[[INV:.*]] = math.rsqrt %[[SUM]] : f32
// CHECK:           %[[CENTERED:.*]] = arith.subf %[[X]], %[[MEAN]] : f32
// CHECK:           arith.mulf %[[CENTERED]], %[[INV]] : f32
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT:     tcp.batch_norm
func.func @inference_f16(%x: tensor<2x3x4x5xf16>, %s: tensor<3xf16>, %b: tensor<3xf16>, %m: tensor<3xf16>, %v: tensor<3xf16>) -> tensor<2x3x4x5xf16> {
  %y = tcp.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-03 : f64} : tensor<2x3x4x5xf16>, tensor<3xf16> -> tensor<2x3x4x5xf16>
  return %y : tensor<2x3x4x5xf16>
}

// Training: the statistics are one reduction over every dimension but the
// channel (loops: channel first, then N, H, W), into Welford states (i64
// count, f32 mean and M2) marked for Chan merging; the step's 1/count may
// be approximated (afn: a 2-ulp reciprocal instead of a division) and its
// multiply-adds fused (contract); then per channel the saved statistics and
// the running ones; then the normalisation.
// CHECK-LABEL: func.func @training_bf16
// CHECK-DAG:     %[[MOMENTUM:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-DAG:     %[[KEEP:.*]] = arith.constant 0.899999976 : f32
// CHECK:         %[[COUNT0:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<3xi64>)
// CHECK:         %[[STATS:.*]]:3 = linalg.generic {indexing_maps = [#[[$XSTAT]], #[[$CSTAT]], #[[$CSTAT]], #[[$CSTAT]]], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%arg0 : tensor<2x3x4x5xbf16>) outs(%[[COUNT0]], %{{.*}}, %{{.*}} : tensor<3xi64>, tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME:        attrs = {codegen.combiner = "welford"}
// CHECK:         ^bb0(%[[IN:.*]]: bf16, %[[N:.*]]: i64, %[[MU:.*]]: f32, %[[M2:.*]]: f32):
// CHECK:           %[[V:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK:           %[[N1:.*]] = arith.addi %[[N]], %{{.*}} : i64
// CHECK:           %[[NF:.*]] = arith.sitofp %[[N1]] : i64 to f32
// CHECK:           %[[R:.*]] = arith.divf %{{.*}}, %[[NF]] fastmath<afn> : f32
// CHECK:           %[[D:.*]] = arith.subf %[[V]], %[[MU]] : f32
// CHECK:           %[[STEP:.*]] = arith.mulf %[[D]], %[[R]] fastmath<contract> : f32
// CHECK:           %[[MU1:.*]] = arith.addf %[[MU]], %[[STEP]] fastmath<contract> : f32
// CHECK:           %[[D2:.*]] = arith.subf %[[V]], %[[MU1]] : f32
// CHECK:           %[[P:.*]] = arith.mulf %[[D]], %[[D2]] fastmath<contract> : f32
// CHECK:           %[[M21:.*]] = arith.addf %[[M2]], %[[P]] fastmath<contract> : f32
// CHECK:           linalg.yield %[[N1]], %[[MU1]], %[[M21]] : i64, f32, f32
// CHECK:         %[[FINAL:.*]]:6 = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK-SAME:        ins(%[[STATS]]#0, %[[STATS]]#1, %[[STATS]]#2, %arg3, %arg4 :
// CHECK:           %[[BIASED:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:           math.rsqrt
// CHECK:           %[[NM1:.*]] = arith.subf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[UNBIASED:.*]] = arith.divf %{{.*}}, %[[NM1]] : f32
// CHECK:           arith.mulf %[[KEEP]], %{{.*}} : f32
// CHECK:           arith.mulf %[[MOMENTUM]], %{{.*}} : f32
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK-SAME:        ins(%arg0, %[[FINAL]]#0, %[[FINAL]]#1, %arg1, %arg2 :
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         return %[[Y]], %[[FINAL]]#2, %[[FINAL]]#3, %[[FINAL]]#4, %[[FINAL]]#5
func.func @training_bf16(%x: tensor<2x3x4x5xbf16>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>)
    -> (tensor<2x3x4x5xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<2x3x4x5xbf16>, tensor<3xf32> -> tensor<2x3x4x5xbf16>
  return %y, %sm, %si, %nm, %nv : tensor<2x3x4x5xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// Backward: sum(dy) and sum(dy * (x - mean)) in one reduction with two
// outputs, each an addition (codegen-map-to-gpu merges such partial states
// value by value); dscale and dbias per channel; dx elementwise.
// CHECK-LABEL: func.func @backward_f16
// CHECK-DAG:     %[[COUNT:.*]] = arith.constant 6.000000e+01 : f32
// CHECK:         %[[SUMS:.*]]:2 = linalg.generic {indexing_maps = [#[[$XSTAT]], #[[$XSTAT]], #[[$CSTAT]], #[[$CSTAT]], #[[$CSTAT]]], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%arg0, %arg1, %arg3 :
// CHECK:         ^bb0(%[[DY:.*]]: f16, %[[X:.*]]: f16, %[[MEAN:.*]]: f32, %[[S0:.*]]: f32, %[[S1:.*]]: f32):
// CHECK:           %[[DYF:.*]] = arith.extf %[[DY]] : f16 to f32
// CHECK:           %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:           %[[C:.*]] = arith.subf %[[XF]], %[[MEAN]] : f32
// CHECK:           %[[N0:.*]] = arith.addf %[[S0]], %[[DYF]] : f32
// CHECK:           %[[P:.*]] = arith.mulf %[[DYF]], %[[C]] : f32
// CHECK:           %[[N1:.*]] = arith.addf %[[S1]], %[[P]] : f32
// CHECK:           linalg.yield %[[N0]], %[[N1]] : f32, f32
// CHECK:         %[[PARAMS:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK-SAME:        ins(%[[SUMS]]#0, %[[SUMS]]#1, %arg4 :
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1, %arg3, %arg4, %arg2, %[[SUMS]]#0, %[[SUMS]]#1 :
// CHECK:           arith.divf %{{.*}}, %[[COUNT]] : f32
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         return %[[DX]], %[[PARAMS]]#0, %[[PARAMS]]#1
func.func @backward_f16(%dy: tensor<2x3x5x6xf16>, %x: tensor<2x3x5x6xf16>, %s: tensor<3xf32>, %m: tensor<3xf32>, %i: tensor<3xf32>)
    -> (tensor<2x3x5x6xf16>, tensor<3xf32>, tensor<3xf32>) {
  %dx, %ds, %db = tcp.batch_norm_backward %dy, %x, %s, %m, %i : tensor<2x3x5x6xf16>, tensor<3xf32> -> tensor<2x3x5x6xf16>
  return %dx, %ds, %db : tensor<2x3x5x6xf16>, tensor<3xf32>, tensor<3xf32>
}

// Eval-mode backward (training = false): the same two sums and parameter
// gradients, and dx = dy * invstd * scale, with no mean terms.
// CHECK-LABEL: func.func @backward_eval_f16
// CHECK:         %[[SUMS:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
// CHECK:         %[[PARAMS:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1, %arg3, %arg4, %arg2, %[[SUMS]]#0, %[[SUMS]]#1 :
// CHECK-NEXT:    ^bb0(%[[DY:.*]]: f16, %{{.*}}: f16, %{{.*}}: f32, %[[INV:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f16):
// CHECK-NEXT:      %[[DYF:.*]] = arith.extf %[[DY]] : f16 to f32
// CHECK-NEXT:      %[[G:.*]] = arith.mulf %[[DYF]], %[[INV]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[G]], %[[S]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
// CHECK:         return %[[DX]], %[[PARAMS]]#0, %[[PARAMS]]#1
func.func @backward_eval_f16(%dy: tensor<2x3x5x6xf16>, %x: tensor<2x3x5x6xf16>, %s: tensor<3xf32>, %m: tensor<3xf32>, %i: tensor<3xf32>)
    -> (tensor<2x3x5x6xf16>, tensor<3xf32>, tensor<3xf32>) {
  %dx, %ds, %db = tcp.batch_norm_backward %dy, %x, %s, %m, %i {training = false} : tensor<2x3x5x6xf16>, tensor<3xf32> -> tensor<2x3x5x6xf16>
  return %dx, %ds, %db : tensor<2x3x5x6xf16>, tensor<3xf32>, tensor<3xf32>
}

// Batch norms inside a cuDNN group belong to convert-tcp-to-cudnn.
// CHECK-LABEL: func.func @inside_group
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.batch_norm
func.func @inside_group(%x: tensor<2x3x4x5xf32>, %p: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = tcp.group attributes {group_type = "cudnn"} {
    %y = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64} : tensor<2x3x4x5xf32>, tensor<3xf32> -> tensor<2x3x4x5xf32>
    tcp.yield %y : tensor<2x3x4x5xf32>
  } : tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}
