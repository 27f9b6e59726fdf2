// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm=cudnn -verify-diagnostics
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=report 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm=codegen | FileCheck %s --check-prefix=CODEGEN

// batch-norm=cudnn asks for every training and backward batch norm on
// cuDNN: one cuDNN's batch norm cannot take is an error that says why, not
// a generated kernel. With auto (a remark under report) and codegen the same
// ops are generated kernels.

// CODEGEN-NOT: tcp.group

// cuDNN's norm backward has no inference form.
func.func @eval_backward(%dy: tensor<2x3x4x5xf32>, %x: tensor<2x3x4x5xf32>, %p: tensor<3xf32>)
    -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  // AUTO: remark: left out of cuDNN graphs: cuDNN's norm backward has no inference form, but this op has training = false (the backward of an eval-mode batch norm)
  // expected-error @+1 {{'tcp.batch_norm_backward' op cannot run on cuDNN, which batch-norm=cudnn asks for: cuDNN's norm backward has no inference form, but this op has training = false (the backward of an eval-mode batch norm)}}
  %dx, %ds, %db = tcp.batch_norm_backward %dy, %x, %p, %p, %p {training = false}
      : tensor<2x3x4x5xf32>, tensor<3xf32> -> tensor<2x3x4x5xf32>
  return %dx, %ds, %db : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Per-channel tensors must be f32.
func.func @f16_statistics(%x: tensor<2x3x4x5xf16>, %p: tensor<3xf16>)
    -> (tensor<2x3x4x5xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) {
  // AUTO: remark: left out of cuDNN graphs: batch-norm=auto: training and backward batch norms are generated kernels
  // expected-error @+1 {{'tcp.batch_norm_training' op cannot run on cuDNN, which batch-norm=cudnn asks for: cuDNN's batch norm expects x of f16, bf16 or f32 with f32 per-channel tensors, but got x of 'f16' with per-channel tensors of 'f16'}}
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<2x3x4x5xf16>, tensor<3xf16> -> tensor<2x3x4x5xf16>
  return %y, %sm, %si, %nm, %nv : tensor<2x3x4x5xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>
}

// -----

// x must be f16, bf16 or f32.
func.func @f64_backward(%dy: tensor<4x3xf64>, %x: tensor<4x3xf64>, %p: tensor<3xf32>)
    -> (tensor<4x3xf64>, tensor<3xf32>, tensor<3xf32>) {
  // AUTO: remark: left out of cuDNN graphs: batch-norm=auto: training and backward batch norms are generated kernels
  // expected-error @+1 {{'tcp.batch_norm_backward' op cannot run on cuDNN, which batch-norm=cudnn asks for: cuDNN's batch norm expects x of f16, bf16 or f32 with f32 per-channel tensors, but got x of 'f64' with per-channel tensors of 'f32'}}
  %dx, %ds, %db = tcp.batch_norm_backward %dy, %x, %p, %p, %p
      : tensor<4x3xf64>, tensor<3xf32> -> tensor<4x3xf64>
  return %dx, %ds, %db : tensor<4x3xf64>, tensor<3xf32>, tensor<3xf32>
}

// -----

// One value per channel: the unbiased variance cuDNN updates the running
// variance with is undefined.
func.func @one_value_per_channel(%x: tensor<1x3x1x1xf32>, %p: tensor<3xf32>)
    -> (tensor<1x3x1x1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // AUTO: remark: left out of cuDNN graphs: batch-norm=auto: training and backward batch norms are generated kernels
  // expected-error @+1 {{'tcp.batch_norm_training' op cannot run on cuDNN, which batch-norm=cudnn asks for: cuDNN updates the running variance with the unbiased variance, which expects more than one value per channel, but 'tensor<1x3x1x1xf32>' has N x spatial size 1}}
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<1x3x1x1xf32>, tensor<3xf32> -> tensor<1x3x1x1xf32>
  return %y, %sm, %si, %nm, %nv : tensor<1x3x1x1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
