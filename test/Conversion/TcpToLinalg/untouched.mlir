// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// The batch norms and custom ops have no linalg form: they are left for a
// later pass to report. (conv2d, matmul, batch_matmul and the layer norms are
// lowered: conv2d.mlir, matmul.mlir, layer-norm.mlir.)
// CHECK-LABEL: func.func @cudnn_ops_stay
// CHECK:         tcp.batch_norm
// CHECK:         tcp.custom_op("torch.aten.foo")
// CHECK-NOT:     linalg.
func.func @cudnn_ops_stay(%x: tensor<1x8x6x6xf32>, %c: tensor<8xf32>) -> (tensor<1x8x6x6xf32>, tensor<8xf32>) {
  %0 = tcp.batch_norm %x, %c, %c, %c, %c {epsilon = 1.000000e-05 : f64} : tensor<1x8x6x6xf32>, tensor<8xf32> -> tensor<1x8x6x6xf32>
  %1 = tcp.custom_op("torch.aten.foo") %c : tensor<8xf32> -> tensor<8xf32>
  return %0, %1 : tensor<1x8x6x6xf32>, tensor<8xf32>
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
