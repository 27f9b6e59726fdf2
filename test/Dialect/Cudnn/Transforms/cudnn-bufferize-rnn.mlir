// RUN: cudnn-opt %s --cudnn-bufferize | FileCheck %s

// Weight packing and a forward pass become cudnn.rnn_execute on buffers:
// the weight space, y, hy and cy freshly allocated, the inputs read in
// place.

// CHECK-LABEL: func.func @lstm(
// CHECK-SAME:    %[[X:.*]]: memref<10x4x16xf32>, %[[HX:.*]]: memref<1x4x32xf32>, %[[CX:.*]]: memref<1x4x32xf32>, %[[WIH:.*]]: memref<128x16xf32>, %[[WHH:.*]]: memref<128x32xf32>, %[[L:.*]]: memref<4xi32>)
// CHECK:         %[[H:.*]] = cudnn.get_current_handle
// CHECK:         %[[W:.*]] = memref.alloc() {{.*}}: memref<6144xf32>
// CHECK:         cudnn.rnn_execute %[[H]] pack_weights #cudnn.rnn_config<cell = lstm, {{.*}}> weights(%[[W]] : memref<6144xf32>) params(%[[WIH]], %[[WHH]] : memref<128x16xf32>, memref<128x32xf32>)
// CHECK-DAG:     %[[Y:.*]] = memref.alloc() {{.*}}: memref<10x4x32xf32>
// CHECK-DAG:     %[[HY:.*]] = memref.alloc() {{.*}}: memref<1x4x32xf32>
// CHECK-DAG:     %[[CY:.*]] = memref.alloc() {{.*}}: memref<1x4x32xf32>
// CHECK:         cudnn.rnn_execute %[[H]] forward_training #cudnn.rnn_config<cell = lstm, {{.*}}dropout = 5.000000e-01 : f32> x(%[[X]] : memref<10x4x16xf32>) y(%[[Y]] : memref<10x4x32xf32>) hx(%[[HX]] : memref<1x4x32xf32>) hy(%[[HY]] : memref<1x4x32xf32>) cx(%[[CX]] : memref<1x4x32xf32>) cy(%[[CY]] : memref<1x4x32xf32>) weights(%[[W]] : memref<6144xf32>) seq_lengths(%[[L]] : memref<4xi32>)
// CHECK:         return %[[Y]], %[[HY]], %[[CY]]
func.func @lstm(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %cx: tensor<1x4x32xf32>,
    %w_ih: tensor<128x16xf32>, %w_hh: tensor<128x32xf32>, %lengths: tensor<4xi32>)
    -> (tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.5 : f32> params(%w_ih, %w_hh) : !cudnn.handle, tensor<128x16xf32>, tensor<128x32xf32> -> tensor<6144xf32>
  %y, %hy, %cy = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.5 : f32> phase = training x = %x hx = %hx cx = %cx weights = %w seq_lengths = %lengths : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<6144xf32>, tensor<4xi32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return %y, %hy, %cy : tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
}
