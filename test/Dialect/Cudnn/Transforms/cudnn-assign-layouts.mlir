// RUN: cudnn-opt %s -split-input-file -cudnn-assign-layouts -canonicalize | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -cudnn-assign-layouts=layout=packed | FileCheck %s --check-prefix=PACKED
// RUN: cudnn-opt %s -split-input-file -cudnn-assign-layouts=layout=channels-last -canonicalize | FileCheck %s --check-prefix=ALL

!x = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<8x8x3x3xf16, alignment = 16, stride = []>
!b = !cudnn.tensor_desc<1x8x1x1xf16, alignment = 16, stride = []>

// An fp16 conv graph goes channels-last: NHWC activations, KRSC weights; the
// 1xCx1x1 bias is the same bytes either way and is left alone.
// CHECK-LABEL: func.func @fp16_conv
// CHECK-SAME:    (%[[H:.*]]: !cudnn.handle, %[[X:.*]]: tensor<2x8x4x4xf16>, %[[W:.*]]: tensor<8x8x3x3xf16>, %[[B:.*]]: tensor<1x8x1x1xf16>)
// CHECK:         %[[XC:.*]] = cudnn.convert_layout %[[X]] : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK:         %[[WC:.*]] = cudnn.convert_layout %[[W]] : tensor<8x8x3x3xf16> -> tensor<8x8x3x3xf16, #cudnn.channels_last>
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph %[[H]] %[[XC]], %[[WC]], %[[B]] {
// CHECK:         ^bb0(%{{.*}}: !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>, %{{.*}}: !cudnn.tensor_desc<8x8x3x3xf16, alignment = 16, stride = [72, 1, 24, 8]>, %{{.*}}: !cudnn.tensor_desc<1x8x1x1xf16, alignment = 16, stride = [8, 1, 8, 8]>):
// CHECK:           cudnn.convolution{{.*}} -> !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>
// CHECK:           cudnn.pointwise_add{{.*}} -> !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>
// CHECK:         } : tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<8x8x3x3xf16, #cudnn.channels_last>, tensor<1x8x1x1xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK:         %[[R:.*]] = cudnn.convert_layout %[[G]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
// CHECK:         return %[[R]]
// PACKED-LABEL: func.func @fp16_conv
// PACKED-NOT:    convert_layout
// PACKED:        return
func.func @fp16_conv(%h: !cudnn.handle, %x: tensor<2x8x4x4xf16>, %w: tensor<8x8x3x3xf16>, %b: tensor<1x8x1x1xf16>) -> tensor<2x8x4x4xf16> {
  %0 = cudnn.build_and_exec_graph %h %x, %w, %b {
  ^bb0(%a: !x, %k: !w, %c: !b):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    %2 = cudnn.pointwise_add(%1, %c) type = f32 : !x, !b -> !x
    cudnn.build_graph(%2) : !x
  } : tensor<2x8x4x4xf16>, tensor<8x8x3x3xf16>, tensor<1x8x1x1xf16> -> tensor<2x8x4x4xf16>
  return %0 : tensor<2x8x4x4xf16>
}

// -----

!x = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<8x8x1x1xf16, alignment = 16, stride = []>

// Two graphs that agree: no conversion between them; arguments and results
// with cudnn.layout = "channels_last" are passed channels-last, so nothing is
// converted at all.
// CHECK-LABEL: func.func @chain_channels_last_boundary
// The 1x1 filter has the same bytes in both layouts and keeps its type.
// CHECK-SAME:    (%{{.*}}: !cudnn.handle, %[[X:.*]]: tensor<2x8x4x4xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"}, %{{.*}}: tensor<8x8x1x1xf16> {cudnn.layout = "channels_last"})
// CHECK-SAME:    -> (tensor<2x8x4x4xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"})
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[G1:.*]] = cudnn.build_and_exec_graph %{{.*}} %[[X]], %{{.*}} {
// CHECK:         %[[G2:.*]] = cudnn.build_and_exec_graph %{{.*}} %[[G1]], %{{.*}} {
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return %[[G2]]
func.func @chain_channels_last_boundary(%h: !cudnn.handle,
    %x: tensor<2x8x4x4xf16> {cudnn.layout = "channels_last"},
    %w: tensor<8x8x1x1xf16> {cudnn.layout = "channels_last"})
    -> (tensor<2x8x4x4xf16> {cudnn.layout = "channels_last"}) {
  %0 = cudnn.build_and_exec_graph %h %x, %w {
  ^bb0(%a: !x, %k: !w):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [0, 0] post_padding = [0, 0] dilation = [1, 1] : !x, !w -> !x
    cudnn.build_graph(%1) : !x
  } : tensor<2x8x4x4xf16>, tensor<8x8x1x1xf16> -> tensor<2x8x4x4xf16>
  %2 = cudnn.build_and_exec_graph %h %0, %w {
  ^bb0(%a: !x, %k: !w):
    %3 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [0, 0] post_padding = [0, 0] dilation = [1, 1] : !x, !w -> !x
    cudnn.build_graph(%3) : !x
  } : tensor<2x8x4x4xf16>, tensor<8x8x1x1xf16> -> tensor<2x8x4x4xf16>
  return %2 : tensor<2x8x4x4xf16>
}

// -----

!x = !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<8x8x1x1xf32, alignment = 16, stride = []>

// fp32 convs stay packed under auto, go channels-last when asked.
// CHECK-LABEL: func.func @fp32_conv
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return
// ALL-LABEL:   func.func @fp32_conv
// ALL:           cudnn.convert_layout
// ALL:           cudnn.build_and_exec_graph
func.func @fp32_conv(%h: !cudnn.handle, %x: tensor<2x8x4x4xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<2x8x4x4xf32> {
  %0 = cudnn.build_and_exec_graph %h %x, %w {
  ^bb0(%a: !x, %k: !w):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [0, 0] post_padding = [0, 0] dilation = [1, 1] : !x, !w -> !x
    cudnn.build_graph(%1) : !x
  } : tensor<2x8x4x4xf32>, tensor<8x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

!a = !cudnn.tensor_desc<4x16x32xf16, alignment = 16, stride = []>
!b = !cudnn.tensor_desc<4x32x8xf16, alignment = 16, stride = []>
!c = !cudnn.tensor_desc<4x16x8xf16, alignment = 16, stride = []>

// Graphs without a convolution (here a batched matmul) keep their layout.
// CHECK-LABEL: func.func @matmul_untouched
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return
func.func @matmul_untouched(%h: !cudnn.handle, %x: tensor<4x16x32xf16>, %y: tensor<4x32x8xf16>) -> tensor<4x16x8xf16> {
  %0 = cudnn.build_and_exec_graph %h %x, %y {
  ^bb0(%p: !a, %q: !b):
    %1 = cudnn.matmul(%p, %q) type = f32 : !a, !b -> !c
    cudnn.build_graph(%1) : !c
  } : tensor<4x16x32xf16>, tensor<4x32x8xf16> -> tensor<4x16x8xf16>
  return %0 : tensor<4x16x8xf16>
}

// -----

!x = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
!c = !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>

// An fp16 batch-norm backward graph goes channels-last, as a conv would: dy,
// x and dx NHWC; the 1xCx1x1 statistics are the same bytes either way.
// CHECK-LABEL: func.func @fp16_batch_norm_backward
// CHECK:         cudnn.convert_layout %{{.*}} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK:         %[[G:.*]]:3 = cudnn.build_and_exec_graph
// CHECK:           cudnn.norm_backward{{.*}} -> !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = [8, 1, 8, 8]>
// CHECK:         } : tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
// CHECK:         %[[DX:.*]] = cudnn.convert_layout %[[G]]#0 : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
// CHECK:         return %[[DX]], %[[G]]#1, %[[G]]#2
func.func @fp16_batch_norm_backward(%h: !cudnn.handle, %dy: tensor<2x8x4x4xf16>, %x: tensor<2x8x4x4xf16>,
                                    %s: tensor<1x8x1x1xf32>, %m: tensor<1x8x1x1xf32>, %i: tensor<1x8x1x1xf32>)
    -> (tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) {
  %0:3 = cudnn.build_and_exec_graph %h %dy, %x, %s, %m, %i {
  ^bb0(%a: !x, %b: !x, %sc: !c, %me: !c, %in: !c):
    %1, %2, %3 = cudnn.norm_backward(%a, %b) mode = batch type = f32 scale = %sc mean = %me inv_variance = %in
        : !x, !x, !c, !c, !c -> !x, !c, !c
    cudnn.build_graph(%1, %2, %3) : !x, !c, !c
  } : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
      -> tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
  return %0#0, %0#1, %0#2 : tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
}

// -----

!x = !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
!c = !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
!y = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>

// An fp32 batch norm in training stays packed (as an fp32 conv does), and so
// does an fp16 batch norm in inference (a pointwise chain for the runtime).
// CHECK-LABEL: func.func @packed_batch_norms
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return
// ALL-LABEL:   func.func @packed_batch_norms
// ALL:           cudnn.convert_layout
// ALL-SAME:        tensor<2x8x4x4xf32> -> tensor<2x8x4x4xf32, #cudnn.channels_last>
// ALL-NOT:       tensor<2x8x4x4xf16, #cudnn.channels_last>
// ALL:           return
func.func @packed_batch_norms(%h: !cudnn.handle, %x: tensor<2x8x4x4xf32>, %c: tensor<1x8x1x1xf32>, %z: tensor<2x8x4x4xf16>)
    -> (tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<2x8x4x4xf16>) {
  %0:3 = cudnn.build_and_exec_graph %h %x, %c, %c {
  ^bb0(%a: !x, %s: !c, %b: !c):
    %1, %2, %3 = cudnn.norm_forward(%a) mode = batch phase = training type = f32 epsilon = 1.0e-5
        scale = %s bias = %b : !x, !c, !c -> !x saved_mean !c saved_inv_variance !c
    cudnn.build_graph(%1, %2, %3) : !x, !c, !c
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
      -> tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
  %4 = cudnn.build_and_exec_graph %h %z, %c, %c, %c, %c {
  ^bb0(%a: !y, %s: !c, %b: !c, %m: !c, %v: !c):
    %5 = cudnn.norm_forward(%a) mode = batch phase = inference type = f32 epsilon = 1.0e-5
        scale = %s bias = %b mean = %m inv_variance = %v : !y, !c, !c, !c, !c -> !y
    cudnn.build_graph(%5) : !y
  } : tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
      -> tensor<2x8x4x4xf16>
  return %0#0, %0#1, %0#2, %4 : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<2x8x4x4xf16>
}

// -----

!x = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<8x8x3x3xf16, alignment = 16, stride = []>
!b = !cudnn.tensor_desc<1x8x1x1xf16, alignment = 16, stride = []>

// A fused graph with its split form (convert-tcp-to-cudnn): the scf.if
// yields channels-last, so the fused path, the common one, converts nothing;
// only the split form converts its conv's result for the generated kernels
// and back, writing straight into the fused graph's result.
// CHECK-LABEL: func.func @split_form_keeps_channels_last
// CHECK:         %[[G:.*]], %[[RAN:.*]] = cudnn.build_and_exec_graph
// CHECK:         } : {{.*}} -> tensor<2x8x4x4xf16, #cudnn.channels_last> tries i1
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[R:.*]] = scf.if %[[RAN]] -> (tensor<2x8x4x4xf16, #cudnn.channels_last>) {
// CHECK-NEXT:      scf.yield %[[G]] : tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK-NEXT:    } else {
// CHECK:           %[[CONV:.*]] = cudnn.build_and_exec_graph
// CHECK:           %[[P:.*]] = cudnn.convert_layout %[[CONV]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
// CHECK:           %[[ADD:.*]] = tcp.add %[[P]]
// CHECK:           %[[RELU:.*]] = tcp.clamp %[[ADD]]
// CHECK:           %[[CL:.*]] = cudnn.convert_layout %[[RELU]] : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK:           %[[INTO:.*]] = bufferization.materialize_in_destination %[[CL]] in %[[G]]
// CHECK:           scf.yield %[[INTO]]
// CHECK:         }
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return %[[R]]
func.func @split_form_keeps_channels_last(%h: !cudnn.handle, %x: tensor<2x8x4x4xf16> {cudnn.layout = "channels_last"}, %w: tensor<8x8x3x3xf16> {cudnn.layout = "channels_last"}, %bias: tensor<1x8x1x1xf16>)
    -> (tensor<2x8x4x4xf16> {cudnn.layout = "channels_last"}) {
  %outs, %ran = cudnn.build_and_exec_graph %h %x, %w, %bias {
  ^bb0(%a: !x, %k: !w, %c: !b):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    %2 = cudnn.pointwise_add(%1, %c) type = f32 : !x, !b -> !x
    %3 = cudnn.pointwise_relu(%2) type = f32 lower_clip = 0.0 : !x -> !x
    cudnn.build_graph(%3) : !x
  } : tensor<2x8x4x4xf16>, tensor<8x8x3x3xf16>, tensor<1x8x1x1xf16> -> tensor<2x8x4x4xf16> tries i1
  %r = scf.if %ran -> (tensor<2x8x4x4xf16>) {
    scf.yield %outs : tensor<2x8x4x4xf16>
  } else {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %conv = cudnn.build_and_exec_graph %h %x, %w {
    ^bb0(%a: !x, %k: !w):
      %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
          spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
      cudnn.build_graph(%1) : !x
    } : tensor<2x8x4x4xf16>, tensor<8x8x3x3xf16> -> tensor<2x8x4x4xf16>
    %b = tcp.broadcast %bias, %c2, %c4, %c4 {axes = [0, 2, 3]} : tensor<1x8x1x1xf16>, index, index, index -> tensor<2x8x4x4xf16>
    %add = tcp.add %conv, %b : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
    %relu = tcp.clamp %add {min_float = 0.000000e+00 : f32} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
    %into = bufferization.materialize_in_destination %relu in %outs : (tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16>) -> tensor<2x8x4x4xf16>
    scf.yield %into : tensor<2x8x4x4xf16>
  }
  return %r : tensor<2x8x4x4xf16>
}
