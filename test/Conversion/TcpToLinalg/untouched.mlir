// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// Ops with a cuDNN path are left for a later pass to report.
// CHECK-LABEL: func.func @cudnn_ops_stay
// CHECK:         tcp.conv2d
// CHECK:         tcp.matmul
// CHECK:         tcp.batch_matmul
// CHECK:         tcp.batch_norm
// CHECK:         tcp.layer_norm
// CHECK:         tcp.custom_op("torch.aten.foo")
// CHECK-NOT:     linalg.
func.func @cudnn_ops_stay(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x3x3xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>,
                          %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x16xf32>, %c: tensor<8xf32>)
    -> (tensor<1x8x4x4xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>, tensor<8xf32>) {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32> -> tensor<1x8x4x4xf32>
  %1 = tcp.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %2 = tcp.batch_matmul %ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32> -> tensor<2x4x16xf32>
  %3 = tcp.batch_norm %x, %c, %c, %c, %c {epsilon = 1.000000e-05 : f64} : tensor<1x8x6x6xf32>, tensor<8xf32> -> tensor<1x8x6x6xf32>
  %4 = tcp.layer_norm %x {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64} : tensor<1x8x6x6xf32> -> tensor<1x8x6x6xf32>
  %5 = tcp.custom_op("torch.aten.foo") %c : tensor<8xf32> -> tensor<8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x8x4x4xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>, tensor<8xf32>
}

// Inside a cuDNN group the ops belong to convert-tcp-to-cudnn; outside it
// they are lowered.
// CHECK-LABEL: func.func @cudnn_group_stays
// CHECK:         tcp.isolated_group
// CHECK:           tcp.clamp
// CHECK:           tcp.yield
// CHECK:         linalg.generic
// CHECK:           math.tanh
// CHECK-NOT:     tcp.tanh
func.func @cudnn_group_stays(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8xf32>):
    %1 = tcp.clamp %a {min_float = 0.0 : f32} : tensor<8xf32> -> tensor<8xf32>
    tcp.yield %1 : tensor<8xf32>
  } : tensor<8xf32> -> tensor<8xf32>
  %2 = tcp.tanh %0 : tensor<8xf32> -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
