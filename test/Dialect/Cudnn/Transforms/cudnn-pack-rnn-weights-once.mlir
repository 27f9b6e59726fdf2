// RUN: cudnn-opt %s --split-input-file --cudnn-pack-rnn-weights-once | FileCheck %s
// RUN: cudnn-opt %s --split-input-file --cudnn-pack-rnn-weights-once=report=true --verify-diagnostics > /dev/null

// A call-local weight space, written by its pack and read by the forward
// pass, becomes the runtime's: no allocation, no pack, no free.

// CHECK-LABEL: func.func @forward(
// CHECK-SAME:    %[[H:[^:]*]]: !cudnn.handle, %[[X:[^:]*]]: memref<10x4x16xf32>, %{{[^:]*}}: memref<10x4x32xf32>, %{{[^:]*}}: memref<1x4x32xf32>, %{{[^:]*}}: memref<1x4x32xf32>, %[[A:[^:]*]]: memref<96x16xf32>, %[[B:[^:]*]]: memref<96x32xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         %[[W:.*]] = cudnn.rnn_weight_space %[[H]] config = #cudnn.rnn_config<cell = gru, {{.*}}> params(%[[A]], %[[B]] : memref<96x16xf32>, memref<96x32xf32>) : memref<4608xf32>
// CHECK-NOT:     pack_weights
// CHECK:         cudnn.rnn_execute %[[H]] forward_inference {{.*}} weights(%[[W]] : memref<4608xf32>)
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @forward(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %hx: memref<1x4x32xf32>, %hy: memref<1x4x32xf32>, %a: memref<96x16xf32>, %b: memref<96x32xf32>) {
  %w = memref.alloc() : memref<4608xf32>
  // expected-remark @below {{weight space kept by the runtime, packed once per parameter set}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4608xf32>) params(%a, %b : memref<96x16xf32>, memref<96x32xf32>)
  cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%x : memref<10x4x16xf32>) y(%y : memref<10x4x32xf32>) hx(%hx : memref<1x4x32xf32>) hy(%hy : memref<1x4x32xf32>) weights(%w : memref<4608xf32>)
  memref.dealloc %w : memref<4608xf32>
  return
}

// -----

// A weight space the function returns keeps its allocation and its pack.

// CHECK-LABEL: func.func @returned(
// CHECK:         %[[W:.*]] = memref.alloc() : memref<4608xf32>
// CHECK:         cudnn.rnn_execute %{{.*}} pack_weights {{.*}} weights(%[[W]] : memref<4608xf32>)
// CHECK-NOT:     cudnn.rnn_weight_space
// CHECK:         return %[[W]]
func.func @returned(%h: !cudnn.handle, %a: memref<96x16xf32>, %b: memref<96x32xf32>) -> memref<4608xf32> {
  %w = memref.alloc() : memref<4608xf32>
  // expected-remark @below {{weight space packed on every call: it is used by 'func.return', not only as an RNN call's weights}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4608xf32>) params(%a, %b : memref<96x16xf32>, memref<96x32xf32>)
  return %w : memref<4608xf32>
}

// -----

// Read by something other than an RNN call's `weights` (here a copy): kept.

// CHECK-LABEL: func.func @copied(
// CHECK:         memref.alloc() : memref<4608xf32>
// CHECK:         pack_weights
// CHECK-NOT:     cudnn.rnn_weight_space
// CHECK:         memref.copy
func.func @copied(%h: !cudnn.handle, %a: memref<96x16xf32>, %b: memref<96x32xf32>, %out: memref<4608xf32>) {
  %w = memref.alloc() : memref<4608xf32>
  // expected-remark @below {{weight space packed on every call: it is used by 'memref.copy', not only as an RNN call's weights}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4608xf32>) params(%a, %b : memref<96x16xf32>, memref<96x32xf32>)
  memref.copy %w, %out : memref<4608xf32> to memref<4608xf32>
  memref.dealloc %w : memref<4608xf32>
  return
}

// -----

// A weight space that is not an allocation of the function (an argument
// the caller owns): nothing to take over.

// CHECK-LABEL: func.func @argument(
// CHECK:         pack_weights
// CHECK-NOT:     cudnn.rnn_weight_space
func.func @argument(%h: !cudnn.handle, %w: memref<4608xf32>, %a: memref<96x16xf32>, %b: memref<96x32xf32>) {
  // expected-remark @below {{weight space packed on every call: it is not an allocation of the function}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4608xf32>) params(%a, %b : memref<96x16xf32>, memref<96x32xf32>)
  return
}

// -----

// A reader before the pack (it would read whatever the buffer held): kept.

// CHECK-LABEL: func.func @read_before_pack(
// CHECK:         memref.alloc() : memref<4608xf32>
// CHECK-NOT:     cudnn.rnn_weight_space
func.func @read_before_pack(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %hx: memref<1x4x32xf32>, %hy: memref<1x4x32xf32>, %a: memref<96x16xf32>, %b: memref<96x32xf32>) {
  %w = memref.alloc() : memref<4608xf32>
  cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%x : memref<10x4x16xf32>) y(%y : memref<10x4x32xf32>) hx(%hx : memref<1x4x32xf32>) hy(%hy : memref<1x4x32xf32>) weights(%w : memref<4608xf32>)
  // expected-remark @below {{weight space packed on every call: an RNN call reads it outside the pack's block or before the pack}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4608xf32>) params(%a, %b : memref<96x16xf32>, memref<96x32xf32>)
  memref.dealloc %w : memref<4608xf32>
  return
}
