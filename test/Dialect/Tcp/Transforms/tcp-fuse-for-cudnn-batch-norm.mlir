// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=report -verify-diagnostics | FileCheck %s --check-prefix=AUTO
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm=cudnn | FileCheck %s --check-prefix=CUDNN
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm=codegen | FileCheck %s --check-prefix=CODEGEN

// The batch-norm policy. For inference batch norms that are not folded into
// a conv, auto: none runs alone on a cuDNN engine on sm_90, so it is a
// generated kernel; codegen: a generated kernel; cudnn: a norm graph. For
// training and backward batch norms, auto and codegen: generated kernels;
// cudnn: a norm graph each (what cuDNN cannot take is then an error:
// tcp-fuse-for-cudnn-batch-norm-cudnn-invalid.mlir). A backward with
// training = false (eval mode) is always a generated kernel: cuDNN's norm
// backward has no inference form.

// AUTO-LABEL: func.func @inference_alone
// AUTO-NOT:     tcp.group
// CUDNN-LABEL: func.func @inference_alone
// CUDNN:         tcp.group
// CUDNN-NEXT:      tcp.batch_norm
// CODEGEN-LABEL: func.func @inference_alone
// CODEGEN-NOT:   tcp.group
func.func @inference_alone(%x: tensor<2x3x4x5xf16>, %p: tensor<3xf32>) -> tensor<2x3x4x5xf16> {
  // expected-remark @+1 {{left out of cuDNN graphs: no cuDNN engine runs a batch norm alone on sm_90 (it is a generated kernel; after a conv it is folded)}}
  %y = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64} : tensor<2x3x4x5xf16>, tensor<3xf32> -> tensor<2x3x4x5xf16>
  return %y : tensor<2x3x4x5xf16>
}

// -----

// AUTO-LABEL: func.func @training
// AUTO-NOT:     tcp.group
// CUDNN-LABEL: func.func @training
// CUDNN:         %[[G:.*]]:5 = tcp.group attributes {group_type = "cudnn"} {
// CUDNN-NEXT:      %[[Y:.*]], %[[M:.*]], %[[I:.*]], %[[RM:.*]], %[[RV:.*]] = tcp.batch_norm_training
// CUDNN-NEXT:      tcp.yield %[[Y]], %[[M]], %[[I]], %[[RM]], %[[RV]]
// CUDNN:         return %[[G]]#0, %[[G]]#1, %[[G]]#2, %[[G]]#3, %[[G]]#4
// CODEGEN-LABEL: func.func @training
// CODEGEN-NOT:   tcp.group
func.func @training(%x: tensor<2x3x4x5xf16>, %p: tensor<3xf32>)
    -> (tensor<2x3x4x5xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // expected-remark @+1 {{left out of cuDNN graphs: batch-norm=auto: training and backward batch norms are generated kernels (batch-norm=cudnn makes them cuDNN norm graphs)}}
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<2x3x4x5xf16>, tensor<3xf32> -> tensor<2x3x4x5xf16>
  return %y, %sm, %si, %nm, %nv : tensor<2x3x4x5xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Each batch norm is a graph of its own, even when one feeds the other (the
// ReLU between them stays outside: a norm graph takes no epilogue), and
// only the results used later leave its group.

// AUTO-LABEL: func.func @training_then_backward
// AUTO-NOT:     tcp.group
// CUDNN-LABEL: func.func @training_then_backward
// CUDNN:         %[[F:.*]]:3 = tcp.group attributes {group_type = "cudnn"} {
// CUDNN-NEXT:      %[[Y:.*]], %[[M:.*]], %[[I:.*]], %{{.*}}, %{{.*}} = tcp.batch_norm_training %{{.*}}
// CUDNN-NEXT:      tcp.yield %[[Y]], %[[M]], %[[I]] : tensor<8x4x3x3xbf16>, tensor<4xf32>, tensor<4xf32>
// CUDNN:         %[[R:.*]] = tcp.clamp %[[F]]#0
// CUDNN:         %[[B:.*]]:2 = tcp.group attributes {group_type = "cudnn"} {
// CUDNN-NEXT:      %[[DX:.*]], %[[DS:.*]], %{{.*}} = tcp.batch_norm_backward %[[R]], %{{.*}}, %{{.*}}, %[[F]]#1, %[[F]]#2
// CUDNN-NEXT:      tcp.yield %[[DX]], %[[DS]] : tensor<8x4x3x3xbf16>, tensor<4xf32>
// CUDNN:         return %[[B]]#0, %[[B]]#1
// CODEGEN-LABEL: func.func @training_then_backward
// CODEGEN-NOT:   tcp.group
func.func @training_then_backward(%x: tensor<8x4x3x3xbf16>, %p: tensor<4xf32>)
    -> (tensor<8x4x3x3xbf16>, tensor<4xf32>) {
  // One remark per reason, on the first op, with the count.
  // expected-remark @+1 {{left out of cuDNN graphs, 2 ops (the first here): batch-norm=auto: training and backward batch norms are generated kernels (batch-norm=cudnn makes them cuDNN norm graphs)}}
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<8x4x3x3xbf16>, tensor<4xf32> -> tensor<8x4x3x3xbf16>
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %r = tcp.clamp %y {min_float = 0.0 : f32} : tensor<8x4x3x3xbf16> -> tensor<8x4x3x3xbf16>
  %dx, %ds, %db = tcp.batch_norm_backward %r, %x, %p, %sm, %si
      : tensor<8x4x3x3xbf16>, tensor<4xf32> -> tensor<8x4x3x3xbf16>
  return %dx, %ds : tensor<8x4x3x3xbf16>, tensor<4xf32>
}

// -----

// f32 x, and rank 2 ([N, C]: BatchNorm1d), are cuDNN batch norms too.

// AUTO-LABEL: func.func @backward_2d_f32
// AUTO-NOT:     tcp.group
// CUDNN-LABEL: func.func @backward_2d_f32
// CUDNN:         tcp.group attributes {group_type = "cudnn"} {
// CUDNN-NEXT:      tcp.batch_norm_backward
// CODEGEN-LABEL: func.func @backward_2d_f32
// CODEGEN-NOT:   tcp.group
func.func @backward_2d_f32(%dy: tensor<16x3xf32>, %x: tensor<16x3xf32>, %p: tensor<3xf32>)
    -> (tensor<16x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // expected-remark @+1 {{left out of cuDNN graphs: batch-norm=auto: training and backward batch norms are generated kernels (batch-norm=cudnn makes them cuDNN norm graphs)}}
  %dx, %ds, %db = tcp.batch_norm_backward %dy, %x, %p, %p, %p
      : tensor<16x3xf32>, tensor<3xf32> -> tensor<16x3xf32>
  return %dx, %ds, %db : tensor<16x3xf32>, tensor<3xf32>, tensor<3xf32>
}
