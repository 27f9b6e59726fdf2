// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn=split-fallback=false | FileCheck %s --check-prefix=FUSED-ONLY

// A conv with a bias and ReLU epilogue: the fused graph tries, and the
// scf.if after it runs the split form when cuDNN had no engine for it: the
// conv alone in a graph, the bias and ReLU as tcp ops (generated kernels),
// written into the fused graph's result tensors.
func.func @conv_bias_relu(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x7x7xf32>, %bias: tensor<1x8x1x1xf32>) -> tensor<1x8x8x8xf32> {
  %0 = tcp.isolated_group %x, %w, %bias attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x3x16x16xf32>, %b: tensor<8x3x7x7xf32>, %c: tensor<1x8x1x1xf32>):
    %c8 = arith.constant 8 : index
    %1 = tcp.conv2d %a, %b {dilation = array<i64: 1, 1>, pad = array<i64: 3, 3, 3, 3>, stride = array<i64: 2, 2>}
        : tensor<1x3x16x16xf32>, tensor<8x3x7x7xf32> -> tensor<1x8x8x8xf32>
    %2 = tcp.broadcast %c, %c8, %c8 {axes = [2, 3]} : tensor<1x8x1x1xf32>, index, index -> tensor<1x8x8x8xf32>
    %3 = tcp.add %1, %2 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32> -> tensor<1x8x8x8xf32>
    %4 = tcp.clamp %3 {min_float = 0.000000e+00 : f32} : tensor<1x8x8x8xf32> -> tensor<1x8x8x8xf32>
    tcp.yield %4 : tensor<1x8x8x8xf32>
  } : tensor<1x3x16x16xf32>, tensor<8x3x7x7xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x16x16xf32>, %[[W:.*]]: tensor<8x3x7x7xf32>, %[[B:.*]]: tensor<1x8x1x1xf32>)
// CHECK:         %[[G:.*]], %[[RAN:.*]] = cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[W]], %[[B]] {
// CHECK:           cudnn.convolution
// CHECK:           cudnn.pointwise_add
// CHECK:           cudnn.pointwise_relu
// CHECK:         } : tensor<1x3x16x16xf32>, tensor<8x3x7x7xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x8x8xf32> tries i1
// CHECK:         %[[R:.*]] = scf.if %[[RAN]] -> (tensor<1x8x8x8xf32>) {
// CHECK:           scf.yield %[[G]] : tensor<1x8x8x8xf32>
// CHECK:         } else {
// CHECK:           %[[CONV:.*]] = cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[W]] {
// CHECK-NOT:         pointwise
// CHECK:             cudnn.convolution
// CHECK-NOT:         pointwise
// CHECK:           } : tensor<1x3x16x16xf32>, tensor<8x3x7x7xf32> -> tensor<1x8x8x8xf32>{{$}}
// CHECK:           %[[BC:.*]] = tcp.broadcast %[[B]]
// CHECK:           %[[ADD:.*]] = tcp.add %[[CONV]], %[[BC]]
// CHECK:           %[[RELU:.*]] = tcp.clamp %[[ADD]]
// CHECK:           %[[INTO:.*]] = bufferization.materialize_in_destination %[[RELU]] in %[[G]]
// CHECK:           scf.yield %[[INTO]] : tensor<1x8x8x8xf32>
// CHECK:         }
// CHECK:         return %[[R]]

// FUSED-ONLY-LABEL: func.func @conv_bias_relu
// FUSED-ONLY:         %[[G:.*]] = cudnn.build_and_exec_graph
// FUSED-ONLY:         } : tensor<1x3x16x16xf32>, tensor<8x3x7x7xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x8x8xf32>{{$}}
// FUSED-ONLY-NOT:     scf.if
// FUSED-ONLY:         return %[[G]]

// -----

// The seed's prologue form, ReLU before the conv: the split form runs the
// ReLU as a tcp op and hands its result to the conv's own graph.
func.func @relu_conv(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = tcp.isolated_group %x, %w attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x8x8xf32>, %b: tensor<4x4x3x3xf32>):
    %1 = tcp.clamp %a {min_float = 0.000000e+00 : f32} : tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
    %2 = tcp.conv2d %1, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
    tcp.yield %2 : tensor<1x4x8x8xf32>
  } : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func.func @relu_conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<4x4x3x3xf32>)
// CHECK:         %{{.*}}, %[[RAN:.*]] = cudnn.build_and_exec_graph
// CHECK:         scf.if %[[RAN]]
// CHECK:         } else {
// CHECK:           %[[RELU:.*]] = tcp.clamp %[[X]]
// CHECK:           %[[CONV:.*]] = cudnn.build_and_exec_graph %{{.*}} %[[RELU]], %[[W]] {
// CHECK:           %[[INTO:.*]] = bufferization.materialize_in_destination %[[CONV]]
// CHECK:           scf.yield %[[INTO]]

// -----

// A conv alone, or a norm, has nothing to split off: no split form.
func.func @conv_alone(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = tcp.isolated_group %x, %w attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x8x8xf32>, %b: tensor<4x4x3x3xf32>):
    %1 = tcp.conv2d %a, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
    tcp.yield %1 : tensor<1x4x8x8xf32>
  } : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func.func @conv_alone
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph
// CHECK:         } : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>{{$}}
// CHECK-NOT:     scf.if
// CHECK:         return %[[G]]

// -----

// A transposed convolution alone (cuDNN's data-gradient convolution, with
// fewer engines than a forward one) has a generated form: the graph
// tries, and the op itself, left to code generation, runs where cuDNN had
// no engine.
func.func @conv_transpose_alone(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x4x4xf32>) -> tensor<1x2x8x8xf32> {
  %0 = tcp.isolated_group %x, %w attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x4x4xf32>, %b: tensor<4x2x4x4xf32>):
    %1 = tcp.conv_transpose2d %a, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
        : tensor<1x4x4x4xf32>, tensor<4x2x4x4xf32> -> tensor<1x2x8x8xf32>
    tcp.yield %1 : tensor<1x2x8x8xf32>
  } : tensor<1x4x4x4xf32>, tensor<4x2x4x4xf32> -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// CHECK-LABEL: func.func @conv_transpose_alone
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x4x4xf32>, %[[W:.*]]: tensor<4x2x4x4xf32>)
// CHECK:         %[[OUT:.*]], %[[RAN:.*]] = cudnn.build_and_exec_graph
// CHECK:           cudnn.convolution_backward_data
// CHECK:         } : {{.*}} tries i1
// CHECK:         %[[IF:.*]] = scf.if %[[RAN]]
// CHECK-NEXT:      scf.yield %[[OUT]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[T:.*]] = tcp.conv_transpose2d %[[X]], %[[W]]
// CHECK-NEXT:      %[[M:.*]] = bufferization.materialize_in_destination %[[T]] in %[[OUT]]
// CHECK-NEXT:      scf.yield %[[M]]
// CHECK:         return %[[IF]]
// FUSED-ONLY-LABEL: func.func @conv_transpose_alone
// FUSED-ONLY-NOT:   scf.if
// FUSED-ONLY:       return

// -----

// A matmul with a GELU epilogue, and two outputs (the matmul and the GELU).
func.func @matmul_gelu_two_outputs(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>) -> (tensor<16x8xf16>, tensor<16x8xf16>) {
  %0:2 = tcp.isolated_group %a, %b attributes {group_type = "cudnn"} {
  ^bb0(%x: tensor<16x32xf16>, %y: tensor<32x8xf16>):
    %1 = tcp.matmul %x, %y : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
    %2 = tcp.gelu %1 : tensor<16x8xf16> -> tensor<16x8xf16>
    tcp.yield %1, %2 : tensor<16x8xf16>, tensor<16x8xf16>
  } : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>, tensor<16x8xf16>
  return %0#0, %0#1 : tensor<16x8xf16>, tensor<16x8xf16>
}

// CHECK-LABEL: func.func @matmul_gelu_two_outputs
// CHECK:         %[[G:.*]]:2, %[[RAN:.*]] = cudnn.build_and_exec_graph
// CHECK:         -> tensor<16x8xf16>, tensor<16x8xf16> tries i1
// CHECK:         %[[R:.*]]:2 = scf.if %[[RAN]] -> (tensor<16x8xf16>, tensor<16x8xf16>) {
// CHECK:           scf.yield %[[G]]#0, %[[G]]#1
// CHECK:         } else {
// CHECK:           %[[MM:.*]] = cudnn.build_and_exec_graph
// CHECK:             cudnn.matmul
// CHECK:           %[[GELU:.*]] = tcp.gelu %[[MM]]
// CHECK:           %[[MMI:.*]] = bufferization.materialize_in_destination %[[MM]] in %[[G]]#0
// CHECK:           %[[GELUI:.*]] = bufferization.materialize_in_destination %[[GELU]] in %[[G]]#1
// CHECK:           scf.yield %[[MMI]], %[[GELUI]]
// CHECK:         return %[[R]]#0, %[[R]]#1
