// A channels-last f16 network with the ops that used to sit behind layout
// conversions: a bias and ReLU no graph takes, a grouped conv with a
// batch-norm epilogue (which also gets a split form), a channel concat, and
// a squeeze-and-excite gate (pooling, a 1x1 conv, sigmoid, scaling), whose
// concat reads the grouped conv's split-form `scf.if` result. Its
// arguments and result are declared channels-last, so no conversion is
// needed anywhere: the generated kernels work on the graphs' bytes
// (cudnn.layout_view), including those of the split form.
//
// RUN: cudnn-opt %s -tcp-to-cudnn-pipeline | FileCheck %s
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @block
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         cudnn.layout_view
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           cudnn.layout_view %{{.*}} : tensor<2x16x8x8xf16, #cudnn.channels_last> -> tensor<2x8x8x16xf16>
// CHECK:         tcp.concat %{{.*}}, %{{.*}} attributes {axis = 3 : i64} : tensor<2x8x8x16xf16>, tensor<2x8x8x16xf16> -> tensor<2x8x8x32xf16>
// CHECK:         tcp.reduce_mean %{{.*}} {axes = array<i64: 1, 2>, keep_dims} : tensor<2x8x8x32xf16> -> tensor<2x1x1x32xf16>
// CHECK:         tcp.broadcast %{{.*}}, %{{.*}}, %{{.*}} {axes = [1, 2]} : tensor<2x1x1x32xf16>, index, index -> tensor<2x8x8x32xf16>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return

// The kernels read and write the graphs' buffers: no layout transform and
// no copy runs.
// LLVM-LABEL: llvm.func @block
// LLVM-NOT:     cmrtInvocationCopy
// LLVM:         llvm.return
func.func @block(%x: tensor<2x16x8x8xf16> {cudnn.layout = "channels_last"},
                 %w0: tensor<16x16x3x3xf16> {cudnn.layout = "channels_last"},
                 %b0: tensor<1x16x1x1xf16>,
                 %w1: tensor<16x4x3x3xf16> {cudnn.layout = "channels_last"},
                 %s1: tensor<1x16x1x1xf16>, %t1: tensor<1x16x1x1xf16>,
                 %w2: tensor<32x32x1x1xf16>,
                 %w3: tensor<16x32x3x3xf16> {cudnn.layout = "channels_last"})
    -> (tensor<2x16x8x8xf16> {cudnn.layout = "channels_last"}) {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  // A conv, then a bias and ReLU that run as a kernel of their own.
  %0 = tcp.conv2d %x, %w0 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<2x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<2x16x8x8xf16>
  %bb0 = tcp.broadcast %b0, %c2, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x16x1x1xf16>, index, index, index -> tensor<2x16x8x8xf16>
  %2 = tcp.add %0, %bb0 : tensor<2x16x8x8xf16>, tensor<2x16x8x8xf16> -> tensor<2x16x8x8xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<2x16x8x8xf16> -> tensor<2x16x8x8xf16>
  // A grouped conv with a scale, shift and ReLU epilogue.
  %4 = tcp.conv2d %3, %w1 {groups = 4 : i64, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<2x16x8x8xf16>, tensor<16x4x3x3xf16> -> tensor<2x16x8x8xf16>
  %sb = tcp.broadcast %s1, %c2, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x16x1x1xf16>, index, index, index -> tensor<2x16x8x8xf16>
  %tb = tcp.broadcast %t1, %c2, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x16x1x1xf16>, index, index, index -> tensor<2x16x8x8xf16>
  %5 = tcp.mul %4, %sb : tensor<2x16x8x8xf16>, tensor<2x16x8x8xf16> -> tensor<2x16x8x8xf16>
  %6 = tcp.add %5, %tb : tensor<2x16x8x8xf16>, tensor<2x16x8x8xf16> -> tensor<2x16x8x8xf16>
  %7 = tcp.clamp %6 {min_float = 0.0 : f32} : tensor<2x16x8x8xf16> -> tensor<2x16x8x8xf16>
  // Channel concat, then squeeze-and-excite.
  %8 = tcp.concat %3, %7 attributes {axis = 1 : i64} : tensor<2x16x8x8xf16>, tensor<2x16x8x8xf16> -> tensor<2x32x8x8xf16>
  %9 = tcp.reduce_mean %8 {axes = array<i64: 2, 3>, keep_dims} : tensor<2x32x8x8xf16> -> tensor<2x32x1x1xf16>
  %10 = tcp.conv2d %9, %w2 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : tensor<2x32x1x1xf16>, tensor<32x32x1x1xf16> -> tensor<2x32x1x1xf16>
  %11 = tcp.sigmoid %10 : tensor<2x32x1x1xf16> -> tensor<2x32x1x1xf16>
  %gate = tcp.broadcast %11, %c8, %c8 {axes = [2, 3]} : tensor<2x32x1x1xf16>, index, index -> tensor<2x32x8x8xf16>
  %12 = tcp.mul %8, %gate : tensor<2x32x8x8xf16>, tensor<2x32x8x8xf16> -> tensor<2x32x8x8xf16>
  %13 = tcp.conv2d %12, %w3 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<2x32x8x8xf16>, tensor<16x32x3x3xf16> -> tensor<2x16x8x8xf16>
  return %13 : tensor<2x16x8x8xf16>
}
