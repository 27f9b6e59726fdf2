// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=fold-batch-norm=false | FileCheck %s --check-prefix=NOFOLD
//
// Inference batch norm after a conv is folded before grouping.

// Parameters known only at run time: s = scale / sqrt(var + eps) and
// shift = bias - mean * s are tcp ops on the C-element (f32) parameters, cast
// to the activation type; the conv gets a scale+bias epilogue in its graph.
// CHECK-LABEL: func.func @runtime_parameters
// CHECK-SAME:    (%{{.*}}: tensor<2x4x8x8xf16>, %{{.*}}: tensor<4x4x3x3xf16>, %[[G:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[M:.*]]: tensor<4xf32>, %[[V:.*]]: tensor<4xf32>)
// CHECK:         %[[EPS:.*]] = tcp.const {value = dense<9.99999974E-6> : tensor<4xf32>}
// CHECK:         %[[VE:.*]] = tcp.add %[[V]], %[[EPS]]
// CHECK:         %[[SD:.*]] = tcp.sqrt %[[VE]]
// CHECK:         %[[S:.*]] = tcp.divf %[[G]], %[[SD]]
// CHECK:         %[[MS:.*]] = tcp.mul %[[M]], %[[S]]
// CHECK:         %[[SH:.*]] = tcp.sub %[[B]], %[[MS]]
// CHECK:         %[[S16:.*]] = tcp.cast %[[S]] : tensor<4xf32> -> tensor<4xf16>
// CHECK:         %[[S4:.*]] = tensor.expand_shape %[[S16]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 4, 1, 1]
// CHECK:         %[[SH16:.*]] = tcp.cast %[[SH]] : tensor<4xf32> -> tensor<4xf16>
// CHECK:         %[[SH4:.*]] = tensor.expand_shape %[[SH16]]
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           %[[SB:.*]] = tcp.broadcast %[[S4]]
// CHECK:           %[[SHB:.*]] = tcp.broadcast %[[SH4]]
// CHECK:           %[[C:.*]] = tcp.conv2d
// CHECK:           %[[Y:.*]] = tcp.mul %[[C]], %[[SB]]
// CHECK:           %[[Z:.*]] = tcp.add %[[Y]], %[[SHB]]
// CHECK:           %[[R:.*]] = tcp.clamp %[[Z]]
// CHECK:           tcp.yield %[[R]]
// CHECK-NOT:     tcp.batch_norm
// NOFOLD-LABEL: func.func @runtime_parameters
// NOFOLD:         tcp.group
// NOFOLD-NEXT:      tcp.conv2d
// NOFOLD-NEXT:      tcp.yield
// NOFOLD:         tcp.group
// NOFOLD-NEXT:      tcp.batch_norm
// NOFOLD-NEXT:      tcp.yield
// NOFOLD:         tcp.clamp
func.func @runtime_parameters(%x: tensor<2x4x8x8xf16>, %w: tensor<4x4x3x3xf16>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<2x4x8x8xf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x4x8x8xf16>, tensor<4x4x3x3xf16> -> tensor<2x4x8x8xf16>
  %1 = tcp.batch_norm %0, %g, %b, %m, %v {epsilon = 1.0e-5 : f64} : tensor<2x4x8x8xf16>, tensor<4xf32> -> tensor<2x4x8x8xf16>
  %2 = tcp.clamp %1 {min_float = 0.0 : f32} : tensor<2x4x8x8xf16> -> tensor<2x4x8x8xf16>
  return %2 : tensor<2x4x8x8xf16>
}

// -----

// Constant parameters and a constant weight: s = [2/sqrt(16), 4/sqrt(4)] =
// [0.5, 2] is folded into the weight ([1, 2] -> [0.5, 4]) and only the bias
// add of shift = [1 - 0.5*0.5, -1 - 1*2] = [0.75, -3] remains.
// CHECK-LABEL: func.func @constant_parameters
// CHECK-DAG:     %[[W:.*]] = tcp.const {value = dense<{{\[\[\[\[}}5.000000e-01]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<2x1x1x1xf32>}
// CHECK-DAG:     %[[SH:.*]] = tcp.const {value = dense<[7.500000e-01, -3.000000e+00]> : tensor<2xf32>}
// CHECK:         tcp.group
// CHECK:           %[[C:.*]] = tcp.conv2d %{{.*}}, %[[W]]
// CHECK-NEXT:      %[[Y:.*]] = tcp.add %[[C]], %{{.*}}
// CHECK-NEXT:      tcp.yield %[[Y]]
func.func @constant_parameters(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = tcp.const {value = dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>} : tensor<2x1x1x1xf32>
  %g = tcp.const {value = dense<[2.0, 4.0]> : tensor<2xf32>} : tensor<2xf32>
  %b = tcp.const {value = dense<[1.0, -1.0]> : tensor<2xf32>} : tensor<2xf32>
  %m = tcp.const {value = dense<[0.5, 1.0]> : tensor<2xf32>} : tensor<2xf32>
  %v = tcp.const {value = dense<[16.0, 4.0]> : tensor<2xf32>} : tensor<2xf32>
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 2 : i64, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x2x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x4x4xf32>
  %1 = tcp.batch_norm %0, %g, %b, %m, %v {epsilon = 0.0 : f64} : tensor<1x2x4x4xf32>, tensor<2xf32> -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// Constant parameters but a weight that is an argument: s and the shift are
// constants, the conv gets a constant scale+bias epilogue.
// CHECK-LABEL: func.func @constant_parameters_argument_weight
// CHECK-DAG:     tcp.const {value = dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>}
// CHECK-DAG:     tcp.const {value = dense<[7.500000e-01, -3.000000e+00]> : tensor<2xf32>}
// CHECK:         tcp.group
// CHECK:           %[[C:.*]] = tcp.conv2d
// CHECK-NEXT:      %[[Y:.*]] = tcp.mul %[[C]]
// CHECK-NEXT:      %[[Z:.*]] = tcp.add %[[Y]]
// CHECK-NEXT:      tcp.yield %[[Z]]
func.func @constant_parameters_argument_weight(%x: tensor<1x2x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %g = tcp.const {value = dense<[2.0, 4.0]> : tensor<2xf32>} : tensor<2xf32>
  %b = tcp.const {value = dense<[1.0, -1.0]> : tensor<2xf32>} : tensor<2xf32>
  %m = tcp.const {value = dense<[0.5, 1.0]> : tensor<2xf32>} : tensor<2xf32>
  %v = tcp.const {value = dense<[16.0, 4.0]> : tensor<2xf32>} : tensor<2xf32>
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 2 : i64, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x2x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x4x4xf32>
  %1 = tcp.batch_norm %0, %g, %b, %m, %v {epsilon = 0.0 : f64} : tensor<1x2x4x4xf32>, tensor<2xf32> -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// A batch norm that does not follow a conv is not folded: it is a norm graph
// of its own.
// CHECK-LABEL: func.func @not_after_conv
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.batch_norm
func.func @not_after_conv(%x: tensor<2x4x8x8xf16>, %g: tensor<4xf32>) -> tensor<2x4x8x8xf16> {
  %0 = tcp.batch_norm %x, %g, %g, %g, %g {epsilon = 1.0e-5 : f64} : tensor<2x4x8x8xf16>, tensor<4xf32> -> tensor<2x4x8x8xf16>
  return %0 : tensor<2x4x8x8xf16>
}
