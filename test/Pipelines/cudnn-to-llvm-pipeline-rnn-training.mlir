// RUN: cudnn-opt %src_root/integration_test/cases/rnn_lstm_training_f32.mlir --cudnn-to-llvm-pipeline | FileCheck %s

// An LSTM training step on the cudnn RNN ops (the GPU suite's
// rnn_lstm_training_f32): the parameters are packed into the weight space
// the runtime keeps (forward and backward data only read it), the reserve
// space is allocated with the size the runtime reports, then forward (training),
// backward data and backward weights run in order, the weight gradient is
// unpacked, and the reserve space is freed. Every call of this RNN but the
// weight copies has the same config (trainable: flags 1), so they share one
// cuDNN RNN.

// CHECK-DAG: @__cmrt_rnn0_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 8, 16, 0, 1, 1, 1, 0, 0, 0]>
// CHECK-DAG: @__cmrt_rnn1_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 8, 16, 0, 1, 5, 3, 1, 0, 0]>
// CHECK-DAG: @__cmrt_rnn2_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 8, 16, 0, 1, 5, 3, 1, 0, 0]>
// CHECK-DAG: @__cmrt_rnn3_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 8, 16, 0, 1, 5, 3, 1, 0, 0]>
// CHECK-DAG: @__cmrt_rnn4_config(dense<[1, 2, 0, 2, 0, 0, -1, 0, 8, 16, 0, 1, 5, 3, 1, 0, 0]>
// CHECK-LABEL: llvm.func @rnn_lstm_training_f32(
// CHECK:         llvm.call @cmrtInvocationRnnPackedWeights(
// CHECK:         %[[BYTES:.*]] = llvm.call @cmrtInvocationRnnReserveBytes(
// CHECK:         %[[RESERVE:.*]] = llvm.call @cmrtInvocationAlloc(%{{.*}}, %[[BYTES]])
// CHECK:         llvm.call @cmrtInvocationRnn(%{{.*}}, %{{.*}}, %{{.*}}, %[[FWD:.*]], %{{.*}}, %{{.*}})
// CHECK:         llvm.call @cmrtInvocationRnn(%{{.*}}, %{{.*}}, %{{.*}}, %[[BWD:.*]], %{{.*}}, %{{.*}})
// CHECK:         llvm.call @cmrtInvocationRnn(
// CHECK:         llvm.call @cmrtInvocationRnnWeights(
// CHECK:         llvm.call @cmrtInvocationFree(%{{.*}}, %[[RESERVE]])
