// A video block on channels-last (NDHWC) clips: a 3x3x3 conv whose batch
// norm (the model's parameters, so computed by tcp ops) and ReLU fold into
// its cuDNN graph, and a (3, 1, 1) temporal conv with its bias, a residual
// add and a ReLU. Both graphs are cuDNN convolutions with three spatial
// dimensions on NDHWC strides, each with its split form (the conv alone,
// the epilogue a generated kernel on the graph's bytes); no layout
// conversion anywhere.
//
// RUN: cudnn-opt %s -tcp-to-cudnn-pipeline | FileCheck %s
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @video_block
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         cudnn.build_and_exec_graph
// CHECK:           cudnn.convolution(%{{.*}}, %{{.*}}) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 3 spatial_stride = [1, 1, 1] pre_padding = [1, 1, 1] post_padding = [1, 1, 1] dilation = [1, 1, 1] : !cudnn.tensor_desc<2x16x4x8x8xf16, alignment = 16, stride = [4096, 1, 1024, 128, 16]>, !cudnn.tensor_desc<16x16x3x3x3xf16, alignment = 16, stride = [432, 1, 144, 48, 16]> -> !cudnn.tensor_desc<2x16x4x8x8xf16, alignment = 16, stride = [4096, 1, 1024, 128, 16]>
// CHECK-NEXT:      cudnn.pointwise_mul
// CHECK-NEXT:      cudnn.pointwise_add
// CHECK-NEXT:      cudnn.pointwise_relu
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           cudnn.layout_view %{{.*}} : tensor<2x16x4x8x8xf16, #cudnn.channels_last> -> tensor<2x4x8x8x16xf16>
// CHECK:         cudnn.build_and_exec_graph
// CHECK:           cudnn.convolution(%{{.*}}, %{{.*}}) {{.*}} spatial_dim_count = 3 spatial_stride = [1, 1, 1] pre_padding = [1, 0, 0] post_padding = [1, 0, 0] dilation = [1, 1, 1]
// CHECK-NEXT:      cudnn.pointwise_add
// CHECK-NEXT:      cudnn.pointwise_add
// CHECK-NEXT:      cudnn.pointwise_relu
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return

// The kernels read and write the graphs' buffers: no copy runs.
// LLVM-LABEL: llvm.func @video_block
// LLVM-NOT:     cmrtInvocationCopy
// LLVM:         llvm.return
func.func @video_block(%x: tensor<2x16x4x8x8xf16> {cudnn.layout = "channels_last"},
                       %w0: tensor<16x16x3x3x3xf16> {cudnn.layout = "channels_last"},
                       %scale: tensor<16xf16>, %shift: tensor<16xf16>,
                       %mean: tensor<16xf16>, %var: tensor<16xf16>,
                       %w1: tensor<16x16x3x1x1xf16> {cudnn.layout = "channels_last"},
                       %b1: tensor<1x16x1x1x1xf16>)
    -> (tensor<2x16x4x8x8xf16> {cudnn.layout = "channels_last"}) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.conv3d %x, %w0 {dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>}
      : tensor<2x16x4x8x8xf16>, tensor<16x16x3x3x3xf16> -> tensor<2x16x4x8x8xf16>
  %1 = tcp.batch_norm %0, %scale, %shift, %mean, %var {epsilon = 1.0e-05 : f64} : tensor<2x16x4x8x8xf16>, tensor<16xf16> -> tensor<2x16x4x8x8xf16>
  %2 = tcp.clamp %1 {min_float = 0.0 : f32} : tensor<2x16x4x8x8xf16> -> tensor<2x16x4x8x8xf16>
  %3 = tcp.conv3d %2, %w1 {dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 1, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>}
      : tensor<2x16x4x8x8xf16>, tensor<16x16x3x1x1xf16> -> tensor<2x16x4x8x8xf16>
  %bb = tcp.broadcast %b1, %c2, %c4, %c8, %c8 {axes = [0, 2, 3, 4]} : tensor<1x16x1x1x1xf16>, index, index, index, index -> tensor<2x16x4x8x8xf16>
  %4 = tcp.add %3, %bb : tensor<2x16x4x8x8xf16>, tensor<2x16x4x8x8xf16> -> tensor<2x16x4x8x8xf16>
  %5 = tcp.add %4, %x : tensor<2x16x4x8x8xf16>, tensor<2x16x4x8x8xf16> -> tensor<2x16x4x8x8xf16>
  %6 = tcp.clamp %5 {min_float = 0.0 : f32} : tensor<2x16x4x8x8xf16> -> tensor<2x16x4x8x8xf16>
  return %6 : tensor<2x16x4x8x8xf16>
}
