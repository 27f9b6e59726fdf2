// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=fold-batch-norm=false | FileCheck %s --check-prefix=NOFOLD
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm-fold=centered | FileCheck %s --check-prefix=CENTERED
// RUN: not cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=batch-norm-fold=folded 2>&1 >/dev/null | FileCheck %s --check-prefix=BADFORM
// BADFORM: tcp-fuse-for-cudnn expects batch-norm-fold=scaled or centered, but got 'folded'

// fold-batch-norm: an inference batch norm after a conv, or after the
// conv's bias add (Conv2d(bias=True), as in torchvision's VGG-bn), becomes
// a per-channel mul and add that join the conv's cuDNN graph; its scale
// and shift are computed by tcp ops on the C-element parameters. Without
// the fold the batch norm is a generated kernel outside the graph.

// The scale and shift are computed in f32 (as PyTorch's batch norm does for
// f16 parameters) and rounded to the activation type once.
// CHECK-LABEL: func.func @conv_bn
// CHECK-NOT:     tcp.batch_norm
// CHECK:         tcp.cast %{{.*}} : tensor<8xf16> -> tensor<8xf32>
// CHECK:         tcp.sqrt %{{.*}} : tensor<8xf32> -> tensor<8xf32>
// CHECK:         tcp.divf %{{.*}} : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
// CHECK:         tcp.cast %{{.*}} : tensor<8xf32> -> tensor<8xf16>
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.conv2d
// CHECK:           tcp.mul
// CHECK:           tcp.add
// CHECK:           tcp.clamp
// CHECK:           tcp.yield
// CHECK-NOT:     tcp.batch_norm
// NOFOLD-LABEL: func.func @conv_bn
// NOFOLD:       tcp.group
// NOFOLD:       tcp.batch_norm
// batch-norm-fold=centered: y = (x + -mean) * s + bias, the three vectors
// computed in f32 and rounded once.
// CENTERED-LABEL: func.func @conv_bn
// CENTERED-NOT:     tcp.batch_norm
// CENTERED:         tcp.divf %{{.*}} : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
// CENTERED:         %[[NEG:.*]] = tcp.neg %{{.*}} : tensor<8xf32> -> tensor<8xf32>
// CENTERED:         tcp.cast %[[NEG]] : tensor<8xf32> -> tensor<8xf16>
// CENTERED:         tcp.group attributes {group_type = "cudnn"} {
// CENTERED:           %[[NEGB:.*]] = tcp.broadcast
// CENTERED:           %[[SB:.*]] = tcp.broadcast
// CENTERED:           %[[BB:.*]] = tcp.broadcast
// CENTERED:           %[[CONV:.*]] = tcp.conv2d
// CENTERED:           %[[C:.*]] = tcp.add %[[CONV]], %[[NEGB]]
// CENTERED:           %[[M:.*]] = tcp.mul %[[C]], %[[SB]]
// CENTERED:           %[[Y:.*]] = tcp.add %[[M]], %[[BB]]
// CENTERED:           tcp.clamp %[[Y]]
// CENTERED:           tcp.yield
func.func @conv_bn(%x: tensor<2x8x4x4xf16>, %w: tensor<8x8x3x3xf16>, %p: tensor<8xf16>) -> tensor<2x8x4x4xf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x8x4x4xf16>, tensor<8x8x3x3xf16> -> tensor<2x8x4x4xf16>
  %1 = tcp.batch_norm %0, %p, %p, %p, %p {epsilon = 1.0e-05 : f64} : tensor<2x8x4x4xf16>, tensor<8xf16> -> tensor<2x8x4x4xf16>
  %2 = tcp.clamp %1 {min_float = 0.0 : f32} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  return %2 : tensor<2x8x4x4xf16>
}

// -----

// CHECK-LABEL: func.func @conv_bias_bn
// CHECK-NOT:     tcp.batch_norm
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.conv2d
// CHECK:           tcp.add
// CHECK:           tcp.mul
// CHECK:           tcp.add
// CHECK:           tcp.clamp
// CHECK:           tcp.yield
// CHECK-NOT:     tcp.batch_norm
// NOFOLD-LABEL: func.func @conv_bias_bn
// NOFOLD:       tcp.group
// NOFOLD:       tcp.batch_norm
func.func @conv_bias_bn(%x: tensor<2x8x4x4xf16>, %w: tensor<8x8x3x3xf16>, %bias: tensor<1x8x1x1xf16>, %p: tensor<8xf16>) -> tensor<2x8x4x4xf16> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x8x4x4xf16>, tensor<8x8x3x3xf16> -> tensor<2x8x4x4xf16>
  %b = tcp.broadcast %bias, %c2, %c4, %c4 {axes = [0, 2, 3]} : tensor<1x8x1x1xf16>, index, index, index -> tensor<2x8x4x4xf16>
  %1 = tcp.add %0, %b : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %2 = tcp.batch_norm %1, %p, %p, %p, %p {epsilon = 1.0e-05 : f64} : tensor<2x8x4x4xf16>, tensor<8xf16> -> tensor<2x8x4x4xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  return %3 : tensor<2x8x4x4xf16>
}

// -----

// Constant parameters and a constant weight used only by the conv: s is
// multiplied into the weight (per output channel) and only the shift is
// added: scale 4, var 3 (eps 1: s = 4 / sqrt(4) = 2), mean 1, bias 5: the
// weight 0.5 becomes 1 and the shift is 5 - 1 * 2 = 3.
// CHECK-LABEL: func.func @constant_fold
// CHECK-DAG:     tcp.const {value = dense<1.000000e+00> : tensor<2x2x1x1xf32>}
// CHECK-DAG:     tcp.const {value = dense<3.000000e+00> : tensor<2xf32>}
// CHECK-NOT:     tcp.mul
// CHECK-NOT:     tcp.batch_norm
func.func @constant_fold(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = tcp.const {value = dense<0.5> : tensor<2x2x1x1xf32>} : tensor<2x2x1x1xf32>
  %scale = tcp.const {value = dense<4.0> : tensor<2xf32>} : tensor<2xf32>
  %bias = tcp.const {value = dense<5.0> : tensor<2xf32>} : tensor<2xf32>
  %mean = tcp.const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
  %var = tcp.const {value = dense<3.0> : tensor<2xf32>} : tensor<2xf32>
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32> -> tensor<1x2x3x3xf32>
  %1 = tcp.batch_norm %0, %scale, %bias, %mean, %var {epsilon = 1.0 : f64} : tensor<1x2x3x3xf32>, tensor<2xf32> -> tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}
