// RUN: cudnn-opt %s -tcp-to-cudnn-pipeline | FileCheck %s
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline=report-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS

// A linear layer as torch imports it: y = x @ w^T + b with w [out, in].
// The graph reads w through transposed strides; no transpose runs (it was a
// generated kernel copying the whole weight on every call: 62 us of
// AlexNet's 480 at batch 32 for its 4096x9216 classifier weight on an
// H100). The split form's matmul reads it the same way.
// CHECK-LABEL: func.func @linear
// CHECK-SAME:    %[[W:[a-z0-9]+]]: tensor<64x128xf16>
// CHECK-NOT:     tcp.transpose
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %{{.*}}, %[[W]]
// CHECK:           cudnn.matmul(%{{.*}}, %{{.*}}) type = f32 : !cudnn.tensor_desc<16x128xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<128x64xf16, alignment = 16, stride = [1, 128]>
// CHECK-NOT:     tcp.transpose
// CHECK:         return
// KERNELS:       remark: @linear: 1 GPU kernel{{$}}
// KERNELS-NEXT:    linear_kernel0: elementwise
func.func @linear(%x: tensor<16x128xf16>, %w: tensor<64x128xf16>, %b: tensor<64xf16>) -> tensor<16x64xf16> {
  %c16 = arith.constant 16 : index
  %wt = tcp.transpose %w {permutation = array<i64: 1, 0>} : tensor<64x128xf16> -> tensor<128x64xf16>
  %m = tcp.matmul %x, %wt : tensor<16x128xf16>, tensor<128x64xf16> -> tensor<16x64xf16>
  %b2 = tensor.expand_shape %b [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
  %bb = tcp.broadcast %b2, %c16 {axes = [0]} : tensor<1x64xf16>, index -> tensor<16x64xf16>
  %y = tcp.add %m, %bb : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}
