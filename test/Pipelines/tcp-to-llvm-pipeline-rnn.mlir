// RUN: cudnn-opt %s --tcp-to-llvm-pipeline | FileCheck %s

// A torch.aten.lstm custom op goes all the way to LLVM: its parameters are
// packed into a weight space the runtime keeps across calls (repacked only
// when they change: cudnn-pack-rnn-weights-once), and the forward pass
// runs, each through one runtime call, with no allocation of the module's
// own (the GPU suite runs this form against torch.nn.LSTM:
// integration_test/cases/rnn_*.mlir).

// CHECK-DAG: llvm.mlir.global internal constant @__cmrt_rnn0_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 16, 32, 0, 1, 1, 1, 0, 0, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @__cmrt_rnn1_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 16, 32, 0, 1, 10, 4, 0, 0, 0]>
// CHECK-LABEL: llvm.func @lstm(
// CHECK-NOT:     llvm.call @cmrtInvocationAlloc
// CHECK:         llvm.call @cmrtInvocationRnnPackedWeights(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NOT:     llvm.call @cmrtInvocationAlloc
// CHECK:         llvm.call @cmrtInvocationRnn(
// CHECK-NOT:     llvm.call @cmrtInvocationFree
// CHECK-LABEL: llvm.func @cmrt_entry_lstm(
func.func @lstm(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %cx: tensor<1x4x32xf32>,
    %w_ih: tensor<128x16xf32>, %w_hh: tensor<128x32xf32>, %b_ih: tensor<128xf32>, %b_hh: tensor<128xf32>)
    -> (tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>) {
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %w_ih, %w_hh, %b_ih, %b_hh
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<128x16xf32>,
        tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>
      -> tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
  return %0#0, %0#1, %0#2 : tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
}
