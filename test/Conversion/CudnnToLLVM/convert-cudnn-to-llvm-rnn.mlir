// RUN: cudnn-opt %s -split-input-file -convert-cudnn-to-llvm | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -convert-cudnn-to-llvm=autotune=true | FileCheck %s --check-prefix=TUNED

// Weight packing and a forward pass on buffers become one
// cmrtInvocationRnnWeights and one cmrtInvocationRnn call, each with its own
// cmrtRnnConfig (17 words: version 1, cell, direction, bias, layout, math,
// algo -1, data type, input, hidden, projection, layers, sequence length,
// batch, flags, dropout bits, seed), RNN slot and source location.

// CHECK-DAG: llvm.mlir.global internal constant @__cmrt_rnn0_config(dense<[1, 3, 1, 2, 2, 0, -1, 2, 16, 32, 0, 2, 1, 1, 0, 0, 0]> : tensor<17xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @__cmrt_rnn1_config(dense<[1, 3, 1, 2, 2, 0, -1, 2, 16, 32, 0, 2, 10, 4, 2, 4602678819172646912, 0]> : tensor<17xi64>)
// CHECK-DAG: llvm.mlir.global internal @__cmrt_rnn0_rnn()
// CHECK-DAG: llvm.mlir.global internal constant @__cmrt_rnn1_where("{{.*}}convert-cudnn-to-llvm-rnn.mlir:{{[0-9]+}}:{{[0-9]+}}\00")
// TUNED-DAG: @__cmrt_rnn0_config(dense<[1, 3, 1, 2, 2, 0, -1, 2, 16, 32, 0, 2, 1, 1, 0, 0, 0]>
// TUNED-DAG: @__cmrt_rnn1_config(dense<[1, 3, 1, 2, 2, 0, -1, 2, 16, 32, 0, 2, 10, 4, 6, 4602678819172646912, 0]>

// CHECK-LABEL: llvm.func @gru(
// CHECK:         %[[INV:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK:         %[[PARAMS:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK:         llvm.call @cmrtInvocationRnnWeights(%[[INV]], %{{.*}}, %{{.*}}, %{{.*}}, %[[PARAMS]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         %[[BUFFERS:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK-COUNT-17: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK:         llvm.call @cmrtInvocationRnn(%[[INV]], %{{.*}}, %{{.*}}, %{{.*}}, %[[BUFFERS]], %{{.*}})
func.func @gru(%x: memref<4x10x16xf16>, %hx: memref<2x4x32xf16>, %w: memref<20352xf16>,
    %y: memref<4x10x64xf16>, %hy: memref<2x4x32xf16>, %l: memref<4xi32>,
    %p0: memref<96x16xf16>, %p1: memref<96x32xf16>, %p2: memref<96xf16>, %p3: memref<96xf16>,
    %p4: memref<96x16xf16>, %p5: memref<96x32xf16>, %p6: memref<96xf16>, %p7: memref<96xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 2, direction = bidirectional, bias = double, layout = batch_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<20352xf16>) params(%p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7 : memref<96x16xf16>, memref<96x32xf16>, memref<96xf16>, memref<96xf16>, memref<96x16xf16>, memref<96x32xf16>, memref<96xf16>, memref<96xf16>)
  cudnn.rnn_execute %h forward_training #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 2, direction = bidirectional, bias = double, layout = batch_major_unpacked, math = default, dropout = 0.5 : f32> x(%x : memref<4x10x16xf16>) y(%y : memref<4x10x64xf16>) hx(%hx : memref<2x4x32xf16>) hy(%hy : memref<2x4x32xf16>) weights(%w : memref<20352xf16>) seq_lengths(%l : memref<4xi32>)
  return
}
