// RUN: cudnn-opt %s --cudnn-to-llvm-pipeline | FileCheck %s

// One function mixing a cuDNN graph and an RNN: the graph's output (an
// intermediate from the runtime's pool) is the RNN's input; both run on the
// invocation's stream, the graph first.

!v = !cudnn.tensor_desc<10x4x16xf32, alignment = 16, stride = [64, 16, 1]>

// CHECK-LABEL: llvm.func @relu_then_gru(
// CHECK:         %[[T:.*]] = llvm.call @cmrtInvocationAlloc(
// CHECK:         llvm.call @cmrtInvocationGraph(
// CHECK:         llvm.call @cmrtInvocationRnnPackedWeights(
// CHECK:         llvm.call @cmrtInvocationRnn(
// CHECK:         llvm.call @cmrtInvocationFree(%{{.*}}, %[[T]])
func.func @relu_then_gru(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>,
    %w_ih: tensor<96x16xf32>, %w_hh: tensor<96x32xf32>) -> tensor<10x4x32xf32> {
  %h = cudnn.get_current_handle !cudnn.handle
  %r = cudnn.build_and_exec_graph %h %x {
  ^bb0(%a: !v):
    %0 = cudnn.pointwise_relu(%a) type = f32 : !v -> !v
    cudnn.build_graph(%0) : !v
  } : tensor<10x4x16xf32> -> tensor<10x4x16xf32>
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%w_ih, %w_hh) : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32> -> tensor<4608xf32>
  %y, %hy = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %r hx = %hx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<4608xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32>
  return %y : tensor<10x4x32xf32>
}
