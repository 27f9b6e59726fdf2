// RUN: cudnn-opt %s -split-input-file -cudnn-bufferize | FileCheck %s

!x = !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = [128, 16, 4, 1]>
!w = !cudnn.tensor_desc<8x8x3x3xf32, alignment = 16, stride = [72, 9, 3, 1]>

// A graph on packed tensors: the arguments become identity-layout memrefs,
// the result a fresh alloc the graph writes; the graph body moves unchanged.
// CHECK-LABEL: func.func @packed_graph
// CHECK-SAME:    (%[[X:.*]]: memref<2x8x4x4xf32>, %[[W:.*]]: memref<8x8x3x3xf32>) -> memref<2x8x4x4xf32>
// CHECK:         %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// CHECK:         %[[OUT:.*]] = memref.alloc() {{.*}}: memref<2x8x4x4xf32>
// CHECK:         cudnn.execute_graph %[[H]] ins(%[[X]], %[[W]] : memref<2x8x4x4xf32>, memref<8x8x3x3xf32>) outs(%[[OUT]] : memref<2x8x4x4xf32>) {
// CHECK:           cudnn.convolution
// CHECK:           cudnn.pointwise_relu
// CHECK:           cudnn.build_graph
// CHECK:         }
// CHECK-NOT:     cudnn.build_and_exec_graph
// CHECK:         return %[[OUT]] : memref<2x8x4x4xf32>
func.func @packed_graph(%x: tensor<2x8x4x4xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<2x8x4x4xf32> {
  %h = cudnn.get_current_handle !cudnn.handle
  %0 = cudnn.build_and_exec_graph %h %x, %w {
  ^bb0(%a: !x, %k: !w):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    %2 = cudnn.pointwise_relu(%1) type = f32 lower_clip = 0.0 : !x -> !x
    cudnn.build_graph(%2) : !x
  } : tensor<2x8x4x4xf32>, tensor<8x8x3x3xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

!xc = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>
!wc = !cudnn.tensor_desc<8x8x3x3xf16, alignment = 16, stride = [72, 1, 24, 8]>

// Channels-last tensors become NHWC-strided memrefs, at the function boundary
// and for the graph's output alike.
// CHECK-LABEL: func.func @channels_last
// CHECK-SAME:    (%[[X:.*]]: memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>, %[[W:.*]]: memref<8x8x3x3xf16, strided<[72, 1, 24, 8]>>) -> memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
// CHECK:         %[[OUT:.*]] = memref.alloc() {{.*}}: memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
// CHECK:         cudnn.execute_graph %{{.*}} ins(%[[X]], %[[W]] : memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>, memref<8x8x3x3xf16, strided<[72, 1, 24, 8]>>) outs(%[[OUT]] : memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>)
// CHECK:           cudnn.convolution
// CHECK:         return %[[OUT]] : memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
func.func @channels_last(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>, %w: tensor<8x8x3x3xf16, #cudnn.channels_last>) -> tensor<2x8x4x4xf16, #cudnn.channels_last> {
  %h = cudnn.get_current_handle !cudnn.handle
  %0 = cudnn.build_and_exec_graph %h %x, %w {
  ^bb0(%a: !xc, %k: !wc):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !xc, !wc -> !xc
    cudnn.build_graph(%1) : !xc
  } : tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<8x8x3x3xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %0 : tensor<2x8x4x4xf16, #cudnn.channels_last>
}

// -----

// Each layout conversion allocates a buffer in the other layout and copies
// into it; the LLVM lowering turns such a copy into a layout transform.
// CHECK-LABEL: func.func @convert_layout
// CHECK-SAME:    (%[[X:.*]]: memref<2x8x4x4xf16>) -> memref<2x8x4x4xf16>
// CHECK:         %[[NHWC:.*]] = memref.alloc() {{.*}}: memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
// CHECK:         memref.copy %[[X]], %[[NHWC]] : memref<2x8x4x4xf16> to memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
// CHECK:         %[[NCHW:.*]] = memref.alloc() {{.*}}: memref<2x8x4x4xf16>
// CHECK:         memref.copy %[[NHWC]], %[[NCHW]] : memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>> to memref<2x8x4x4xf16>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return %[[NCHW]] : memref<2x8x4x4xf16>
func.func @convert_layout(%x: tensor<2x8x4x4xf16>) -> tensor<2x8x4x4xf16> {
  %0 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  %1 = cudnn.convert_layout %0 : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  return %1 : tensor<2x8x4x4xf16>
}

// -----

// A layout view is the same buffer under the other shape and strides: no
// allocation, no copy.
// CHECK-LABEL: func.func @layout_view
// CHECK-SAME:    (%[[X:.*]]: memref<2x8x4x6xf16, strided<[192, 1, 48, 8]>>) -> memref<2x4x6x8xf16>
// CHECK-NEXT:    %[[V:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [2, 4, 6, 8], strides: [192, 48, 8, 1] : memref<2x8x4x6xf16, strided<[192, 1, 48, 8]>> to memref<2x4x6x8xf16>
// CHECK-NEXT:    return %[[V]] : memref<2x4x6x8xf16>
func.func @layout_view(%x: tensor<2x8x4x6xf16, #cudnn.channels_last>) -> tensor<2x4x6x8xf16> {
  %0 = cudnn.layout_view %x : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x4x6x8xf16>
  return %0 : tensor<2x4x6x8xf16>
}

// -----

// CHECK-LABEL: func.func @layout_view_back
// CHECK-SAME:    (%[[X:.*]]: memref<2x4x6x8xf16>) -> memref<2x8x4x6xf16, strided<[192, 1, 48, 8]>>
// CHECK-NEXT:    %[[V:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [2, 8, 4, 6], strides: [192, 1, 48, 8] : memref<2x4x6x8xf16> to memref<2x8x4x6xf16, strided<[192, 1, 48, 8]>>
// CHECK-NEXT:    return %[[V]]
func.func @layout_view_back(%x: tensor<2x4x6x8xf16>) -> tensor<2x8x4x6xf16, #cudnn.channels_last> {
  %0 = cudnn.layout_view %x : tensor<2x4x6x8xf16> -> tensor<2x8x4x6xf16, #cudnn.channels_last>
  return %0 : tensor<2x8x4x6xf16, #cudnn.channels_last>
}

// -----

!v = !cudnn.tensor_desc<2x4xf32, alignment = 16, stride = [4, 1]>

// A tcp.const outside graphs becomes a constant memref.global read with
// get_global; a tensor reshape becomes a view of the argument's buffer.
// CHECK:       memref.global "private" constant @[[$G:.*]] : memref<2x4xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]]>
// CHECK-LABEL: func.func @const_and_reshape
// CHECK-SAME:    (%[[X:.*]]: memref<2x2x2xf32>) -> memref<2x4xf32>
// CHECK-NOT:     tcp.const
// CHECK-DAG:     %[[C:.*]] = memref.get_global @[[$G]] : memref<2x4xf32>
// CHECK-DAG:     %[[R:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0], [1, 2]] : memref<2x2x2xf32> into memref<2x4xf32>
// CHECK:         %[[OUT:.*]] = memref.alloc() {{.*}}: memref<2x4xf32>
// CHECK:         cudnn.execute_graph %{{.*}} ins(%[[R]], %[[C]] : memref<2x4xf32>, memref<2x4xf32>) outs(%[[OUT]] : memref<2x4xf32>)
// CHECK:         return %[[OUT]]
func.func @const_and_reshape(%x: tensor<2x2x2xf32>) -> tensor<2x4xf32> {
  %h = cudnn.get_current_handle !cudnn.handle
  %c = tcp.const {value = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>} : tensor<2x4xf32>
  %r = tensor.collapse_shape %x [[0], [1, 2]] : tensor<2x2x2xf32> into tensor<2x4xf32>
  %0 = cudnn.build_and_exec_graph %h %r, %c {
  ^bb0(%a: !v, %b: !v):
    %1 = cudnn.pointwise_add(%a, %b) type = f32 : !v, !v -> !v
    cudnn.build_graph(%1) : !v
  } : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A function without graphs that returns its argument needs no buffer.
// CHECK-LABEL: func.func @identity
// CHECK-SAME:    (%[[X:.*]]: memref<4x4xf32>) -> memref<4x4xf32>
// CHECK-NEXT:    return %[[X]] : memref<4x4xf32>
func.func @identity(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
