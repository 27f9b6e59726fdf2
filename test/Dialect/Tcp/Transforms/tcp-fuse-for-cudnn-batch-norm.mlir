// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=report -verify-diagnostics | FileCheck %s --check-prefix=AUTO
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm=cudnn | FileCheck %s --check-prefix=CUDNN
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm=codegen | FileCheck %s --check-prefix=CODEGEN

// The batch-norm policy for inference batch norms that are not folded into
// a conv. auto: none runs alone on a cuDNN engine on sm_90, so it is a
// generated kernel; codegen: a generated kernel; cudnn: a norm graph. A
// training batch norm has no cuDNN path from TCP: always left out.

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
// CUDNN-NOT:     tcp.group
// CODEGEN-LABEL: func.func @training
// CODEGEN-NOT:   tcp.group
func.func @training(%x: tensor<2x3x4x5xf16>, %p: tensor<3xf32>)
    -> (tensor<2x3x4x5xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // expected-remark @+1 {{left out of cuDNN graphs: not an op cuDNN graphs run (see the support table)}}
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<2x3x4x5xf16>, tensor<3xf32> -> tensor<2x3x4x5xf16>
  return %y, %sm, %si, %nm, %nv : tensor<2x3x4x5xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
