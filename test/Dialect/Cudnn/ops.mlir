// RUN: cudnn-opt %s | cudnn-opt | FileCheck %s
// RUN: cudnn-opt %s --mlir-print-op-generic | cudnn-opt | FileCheck %s

!v = !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
!row = !cudnn.tensor_desc<1x16xf32, alignment = 16, stride = []>
!mask = !cudnn.tensor_desc<8x16xi1, alignment = 16, stride = []>
!img = !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
!filt = !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>
!nhwc = !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = [200704, 1, 3584, 64]>
!x4 = !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
!c4 = !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>

// CHECK-LABEL: func.func @handle
// CHECK: cudnn.get_current_handle !cudnn.handle
func.func @handle() -> !cudnn.handle {
  %h = cudnn.get_current_handle !cudnn.handle
  return %h : !cudnn.handle
}

// CHECK-LABEL: func.func @execute_graph
// CHECK: cudnn.execute_graph %{{.*}} ins(%{{.*}} : memref<8x16xf32>) outs(%{{.*}} : memref<8x16xf32>) {
// CHECK: cudnn.pointwise_relu
// CHECK: cudnn.build_graph(%{{.*}}) : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
// CHECK-NEXT: }
// CHECK: cudnn.execute_graph %{{.*}} ins(%{{.*}} : memref<1x64x56x56xf16, strided<[200704, 1, 3584, 64]>>) outs(%{{.*}} : memref<1x64x56x56xf16, strided<[200704, 1, 3584, 64]>>) {
func.func @execute_graph(%h: !cudnn.handle, %t: memref<8x16xf32>, %o: memref<8x16xf32>,
                         %n: memref<1x64x56x56xf16, strided<[200704, 1, 3584, 64]>>,
                         %no: memref<1x64x56x56xf16, strided<[200704, 1, 3584, 64]>>) {
  cudnn.execute_graph %h ins(%t : memref<8x16xf32>) outs(%o : memref<8x16xf32>) {
  ^bb0(%a: !v):
    %y = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.0 : !v -> !v
    cudnn.build_graph(%y) : !v
  }
  cudnn.execute_graph %h ins(%n : memref<1x64x56x56xf16, strided<[200704, 1, 3584, 64]>>) outs(%no : memref<1x64x56x56xf16, strided<[200704, 1, 3584, 64]>>) {
  ^bb0(%a: !nhwc):
    %y = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.0 : !nhwc -> !nhwc
    cudnn.build_graph(%y) : !nhwc
  }
  return
}

// CHECK-LABEL: func.func @graph
// CHECK: cudnn.build_and_exec_graph %{{.*}} %{{.*}} {
// CHECK: cudnn.pointwise_relu(%{{.*}}) type = f32 lower_clip = 0.000000e+00 upper_clip = 6.000000e+00 lower_clip_slope = 0.00999999977 :
// CHECK: cudnn.build_graph(%{{.*}}) : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
// CHECK: } : tensor<8x16xf32> -> tensor<8x16xf32>
func.func @graph(%h: !cudnn.handle, %t: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = cudnn.build_and_exec_graph %h %t {
  ^bb0(%a: !v):
    %y = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.0 upper_clip = 6.0 lower_clip_slope = 0.01 : !v -> !v
    cudnn.build_graph(%y) : !v
  } : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @convolution
// CHECK: cudnn.convolution(%{{.*}}, %{{.*}}) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = [200704, 1, 3584, 64]>
// CHECK: cudnn.convolution(%{{.*}}, %{{.*}}) type = f32 {{.*}} dilation = [1, 1] mode = convolution :
// CHECK: cudnn.convolution(%{{.*}}, %{{.*}}) type = f32 {{.*}} mode = cross_correlation :
// CHECK: cudnn.convolution(%{{.*}}, %{{.*}}) type = f32 {{.*}} spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : {{.*}}, !cudnn.tensor_desc<64x16x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
func.func @convolution(%t0: tensor<1x64x56x56xf16, #cudnn.channels_last>, %t1: tensor<1x64x56x56xf32>, %t2: tensor<64x64x3x3xf32>, %t3: tensor<64x16x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2, %t3 {
  ^bb0(%x: !nhwc, %x32: !img, %w: !filt, %wg: !cudnn.tensor_desc<64x16x3x3xf32, alignment = 16, stride = []>):
    %0 = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
        : !nhwc, !filt -> !img
    %1 = cudnn.convolution(%x32, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
        mode = convolution : !img, !filt -> !img
    %2 = cudnn.convolution(%x32, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
        mode = cross_correlation : !img, !filt -> !img
    // 4 groups of 16 channels, stride 2.
    %3 = cudnn.convolution(%x32, %wg) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
        : !img, !cudnn.tensor_desc<64x16x3x3xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
    cudnn.build_graph(%3) : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf16, #cudnn.channels_last>, tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64x16x3x3xf32> -> tensor<1x64x28x28xf32>
  return
}

// CHECK-LABEL: func.func @convolution_backward
// CHECK: cudnn.convolution_backward_data(%{{.*}}, %{{.*}}) type = f32 {{.*}} spatial_stride = [2, 2] {{.*}} mode = convolution : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x32x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x32x56x56xf32, alignment = 16, stride = []>
// CHECK: cudnn.convolution_backward_filter(%{{.*}}, %{{.*}}) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 {{.*}} -> !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>
func.func @convolution_backward(%t0: tensor<1x64x28x28xf32>, %t1: tensor<64x32x3x3xf32>, %t2: tensor<1x64x56x56xf32>, %t3: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2, %t3 {
  ^bb0(%dy: !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x32x3x3xf32, alignment = 16, stride = []>, %x: !img, %dy2: !img):
    %dx = cudnn.convolution_backward_data(%dy, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] mode = convolution
        : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<64x32x3x3xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<1x32x56x56xf32, alignment = 16, stride = []>
    %dw = cudnn.convolution_backward_filter(%x, %dy2) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
        : !img, !img -> !filt
    cudnn.build_graph(%dw) : !filt
  } : tensor<1x64x28x28xf32>, tensor<64x32x3x3xf32>, tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32> -> tensor<64x64x3x3xf32>
  return
}

// CHECK-LABEL: func.func @matmul
// CHECK: cudnn.matmul(%{{.*}}, %{{.*}}) type = f32 : !cudnn.tensor_desc<4x16x32xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<1x32x8xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<4x16x8xf16, alignment = 16, stride = []>
func.func @matmul(%t0: tensor<4x16x32xf16>, %t1: tensor<1x32x8xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%a: !cudnn.tensor_desc<4x16x32xf16, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<1x32x8xf16, alignment = 16, stride = []>):
    %c = cudnn.matmul(%a, %b) type = f32
        : !cudnn.tensor_desc<4x16x32xf16, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x32x8xf16, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<4x16x8xf16, alignment = 16, stride = []>
    cudnn.build_graph(%c) : !cudnn.tensor_desc<4x16x8xf16, alignment = 16, stride = []>
  } : tensor<4x16x32xf16>, tensor<1x32x8xf16> -> tensor<4x16x8xf16>
  return
}

// CHECK-LABEL: func.func @pointwise_unary
// CHECK: cudnn.pointwise_abs(%{{.*}}) type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
// CHECK: cudnn.pointwise_neg
// CHECK: cudnn.pointwise_exp
// CHECK: cudnn.pointwise_log
// CHECK: cudnn.pointwise_sqrt
// CHECK: cudnn.pointwise_rsqrt
// CHECK: cudnn.pointwise_reciprocal
// CHECK: cudnn.pointwise_ceil
// CHECK: cudnn.pointwise_floor
// CHECK: cudnn.pointwise_sin
// CHECK: cudnn.pointwise_cos
// CHECK: cudnn.pointwise_tan
// CHECK: cudnn.pointwise_erf
// CHECK: cudnn.pointwise_identity
// CHECK: cudnn.pointwise_logical_not
// CHECK: cudnn.pointwise_tanh
// CHECK: cudnn.pointwise_sigmoid
// CHECK: cudnn.pointwise_gelu(
// CHECK: cudnn.pointwise_gelu_approx_tanh(
// CHECK: cudnn.pointwise_swish(%{{.*}}) type = f32 :
// CHECK: cudnn.pointwise_swish(%{{.*}}) type = f32 swish_beta = 1.500000e+00 :
// CHECK: cudnn.pointwise_elu(%{{.*}}) type = f32 elu_alpha = 1.000000e+00 :
// CHECK: cudnn.pointwise_softplus(%{{.*}}) type = f32 softplus_beta = 2.000000e+00 :
// CHECK: cudnn.pointwise_gen_index(%{{.*}}) type = f32 axis = 1 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xi32, alignment = 16, stride = []>
// CHECK: cudnn.pointwise_relu(%{{.*}}) type = f32 : !cudnn.tensor_desc<1x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
func.func @pointwise_unary(%t0: tensor<8x16xf32>, %t1: tensor<1x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !v, %r: !row):
    %0 = cudnn.pointwise_abs(%x) type = f32 : !v -> !v
    %1 = cudnn.pointwise_neg(%x) type = f32 : !v -> !v
    %2 = cudnn.pointwise_exp(%x) type = f32 : !v -> !v
    %3 = cudnn.pointwise_log(%x) type = f32 : !v -> !v
    %4 = cudnn.pointwise_sqrt(%x) type = f32 : !v -> !v
    %5 = cudnn.pointwise_rsqrt(%x) type = f32 : !v -> !v
    %6 = cudnn.pointwise_reciprocal(%x) type = f32 : !v -> !v
    %7 = cudnn.pointwise_ceil(%x) type = f32 : !v -> !v
    %8 = cudnn.pointwise_floor(%x) type = f32 : !v -> !v
    %9 = cudnn.pointwise_sin(%x) type = f32 : !v -> !v
    %10 = cudnn.pointwise_cos(%x) type = f32 : !v -> !v
    %11 = cudnn.pointwise_tan(%x) type = f32 : !v -> !v
    %12 = cudnn.pointwise_erf(%x) type = f32 : !v -> !v
    %13 = cudnn.pointwise_identity(%x) type = f32 : !v -> !v
    %14 = cudnn.pointwise_logical_not(%x) type = f32 : !v -> !v
    %15 = cudnn.pointwise_tanh(%x) type = f32 : !v -> !v
    %16 = cudnn.pointwise_sigmoid(%x) type = f32 : !v -> !v
    %17 = cudnn.pointwise_gelu(%x) type = f32 : !v -> !v
    %18 = cudnn.pointwise_gelu_approx_tanh(%x) type = f32 : !v -> !v
    %19 = cudnn.pointwise_swish(%x) type = f32 : !v -> !v
    %20 = cudnn.pointwise_swish(%x) type = f32 swish_beta = 1.5 : !v -> !v
    %21 = cudnn.pointwise_elu(%x) type = f32 elu_alpha = 1.0 : !v -> !v
    %22 = cudnn.pointwise_softplus(%x) type = f32 softplus_beta = 2.0 : !v -> !v
    %23 = cudnn.pointwise_gen_index(%x) type = f32 axis = 1
        : !v -> !cudnn.tensor_desc<8x16xi32, alignment = 16, stride = []>
    // Broadcast of a row to the result.
    %24 = cudnn.pointwise_relu(%r) type = f32 : !row -> !v
    cudnn.build_graph(%24) : !v
  } : tensor<8x16xf32>, tensor<1x16xf32> -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func.func @pointwise_binary
// CHECK: cudnn.pointwise_add(%{{.*}}, %{{.*}}) type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
// CHECK: cudnn.pointwise_sub
// CHECK: cudnn.pointwise_mul
// CHECK: cudnn.pointwise_div
// CHECK: cudnn.pointwise_max
// CHECK: cudnn.pointwise_min
// CHECK: cudnn.pointwise_pow
// CHECK: cudnn.pointwise_mod
// CHECK: cudnn.pointwise_add_square
// CHECK: cudnn.pointwise_cmp_eq({{.*}} -> !cudnn.tensor_desc<8x16xi1, alignment = 16, stride = []>
// CHECK: cudnn.pointwise_cmp_neq
// CHECK: cudnn.pointwise_cmp_gt
// CHECK: cudnn.pointwise_cmp_ge
// CHECK: cudnn.pointwise_cmp_lt
// CHECK: cudnn.pointwise_cmp_le
// CHECK: cudnn.pointwise_logical_and
// CHECK: cudnn.pointwise_logical_or
// CHECK: cudnn.pointwise_binary_select(%{{.*}}, %{{.*}}, %{{.*}}) type = f32 : {{.*}}, !cudnn.tensor_desc<8x16xi1, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
func.func @pointwise_binary(%t0: tensor<8x16xf32>, %t1: tensor<1x16xf32>, %t2: tensor<8x16xi1>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%x: !v, %b: !row, %m: !mask):
    %0 = cudnn.pointwise_add(%x, %b) type = f32 : !v, !row -> !v
    %1 = cudnn.pointwise_sub(%x, %b) type = f32 : !v, !row -> !v
    %2 = cudnn.pointwise_mul(%x, %b) type = f32 : !v, !row -> !v
    %3 = cudnn.pointwise_div(%x, %b) type = f32 : !v, !row -> !v
    %4 = cudnn.pointwise_max(%x, %b) type = f32 : !v, !row -> !v
    %5 = cudnn.pointwise_min(%x, %b) type = f32 : !v, !row -> !v
    %6 = cudnn.pointwise_pow(%x, %b) type = f32 : !v, !row -> !v
    %7 = cudnn.pointwise_mod(%x, %b) type = f32 : !v, !row -> !v
    %8 = cudnn.pointwise_add_square(%x, %b) type = f32 : !v, !row -> !v
    %9 = cudnn.pointwise_cmp_eq(%x, %b) type = f32 : !v, !row -> !mask
    %10 = cudnn.pointwise_cmp_neq(%x, %b) type = f32 : !v, !row -> !mask
    %11 = cudnn.pointwise_cmp_gt(%x, %b) type = f32 : !v, !row -> !mask
    %12 = cudnn.pointwise_cmp_ge(%x, %b) type = f32 : !v, !row -> !mask
    %13 = cudnn.pointwise_cmp_lt(%x, %b) type = f32 : !v, !row -> !mask
    %14 = cudnn.pointwise_cmp_le(%x, %b) type = f32 : !v, !row -> !mask
    %15 = cudnn.pointwise_logical_and(%m, %m) type = f32 : !mask, !mask -> !mask
    %16 = cudnn.pointwise_logical_or(%m, %m) type = f32 : !mask, !mask -> !mask
    %17 = cudnn.pointwise_binary_select(%x, %b, %m) type = f32 : !v, !row, !mask -> !v
    cudnn.build_graph(%17) : !v
  } : tensor<8x16xf32>, tensor<1x16xf32>, tensor<8x16xi1> -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func.func @pointwise_backward
// CHECK: cudnn.pointwise_relu_bwd(%{{.*}}, %{{.*}}) type = f32 lower_clip = 0.000000e+00 upper_clip = 6.000000e+00 lower_clip_slope = 1.000000e-01 :
// CHECK: cudnn.pointwise_relu_bwd(%{{.*}}, %{{.*}}) type = f32 :
// CHECK: cudnn.pointwise_tanh_bwd
// CHECK: cudnn.pointwise_sigmoid_bwd
// CHECK: cudnn.pointwise_elu_bwd(%{{.*}}, %{{.*}}) type = f32 elu_alpha = 1.000000e+00 :
// CHECK: cudnn.pointwise_gelu_bwd
// CHECK: cudnn.pointwise_gelu_approx_tanh_bwd
// CHECK: cudnn.pointwise_softplus_bwd(%{{.*}}, %{{.*}}) type = f32 softplus_beta = 1.000000e+00 :
// CHECK: cudnn.pointwise_swish_bwd(%{{.*}}, %{{.*}}) type = f32 swish_beta = 1.000000e+00 :
func.func @pointwise_backward(%t0: tensor<8x16xf32>, %t1: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%dy: !v, %x: !v):
    %0 = cudnn.pointwise_relu_bwd(%dy, %x) type = f32 lower_clip = 0.0 upper_clip = 6.0 lower_clip_slope = 0.1 : !v, !v -> !v
    %1 = cudnn.pointwise_relu_bwd(%dy, %x) type = f32 : !v, !v -> !v
    %2 = cudnn.pointwise_tanh_bwd(%dy, %x) type = f32 : !v, !v -> !v
    %3 = cudnn.pointwise_sigmoid_bwd(%dy, %x) type = f32 : !v, !v -> !v
    %4 = cudnn.pointwise_elu_bwd(%dy, %x) type = f32 elu_alpha = 1.0 : !v, !v -> !v
    %5 = cudnn.pointwise_gelu_bwd(%dy, %x) type = f32 : !v, !v -> !v
    %6 = cudnn.pointwise_gelu_approx_tanh_bwd(%dy, %x) type = f32 : !v, !v -> !v
    %7 = cudnn.pointwise_softplus_bwd(%dy, %x) type = f32 softplus_beta = 1.0 : !v, !v -> !v
    %8 = cudnn.pointwise_swish_bwd(%dy, %x) type = f32 swish_beta = 1.0 : !v, !v -> !v
    cudnn.build_graph(%8) : !v
  } : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func.func @reduction
// CHECK: cudnn.reduction(%{{.*}}) mode = amax type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x1xf32, alignment = 16, stride = []>
// CHECK: cudnn.reduction(%{{.*}}) mode = add type = f32
// CHECK: cudnn.reduction(%{{.*}}) mode = norm2 type = f32
func.func @reduction(%t0: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !v):
    %0 = cudnn.reduction(%x) mode = amax type = f32
        : !v -> !cudnn.tensor_desc<8x1xf32, alignment = 16, stride = []>
    %1 = cudnn.reduction(%x) mode = add type = f32 : !v -> !row
    %2 = cudnn.reduction(%x) mode = norm2 type = f32
        : !v -> !cudnn.tensor_desc<1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%2) : !cudnn.tensor_desc<1x1xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<1x1xf32>
  return
}

// CHECK-LABEL: func.func @resample
// CHECK: cudnn.resample(%{{.*}}) mode = max type = f32 window = [3, 3] spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1] : !cudnn.tensor_desc<1x64x112x112xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
// CHECK: cudnn.resample(%{{.*}}) mode = avg_exclude_padding type = f32 window = [2, 2]
// CHECK: cudnn.resample(%{{.*}}) mode = avg_include_padding type = f32 window = [56, 56]
func.func @resample(%t0: tensor<1x64x112x112xf32>, %t1: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x112x112xf32, alignment = 16, stride = []>, %y: !img):
    %0 = cudnn.resample(%x) mode = max type = f32 window = [3, 3] spatial_stride = [2, 2]
        pre_padding = [1, 1] post_padding = [1, 1]
        : !cudnn.tensor_desc<1x64x112x112xf32, alignment = 16, stride = []> -> !img
    %1 = cudnn.resample(%x) mode = avg_exclude_padding type = f32 window = [2, 2] spatial_stride = [2, 2]
        pre_padding = [0, 0] post_padding = [0, 0]
        : !cudnn.tensor_desc<1x64x112x112xf32, alignment = 16, stride = []> -> !img
    %2 = cudnn.resample(%y) mode = avg_include_padding type = f32 window = [56, 56] spatial_stride = [1, 1]
        pre_padding = [0, 0] post_padding = [0, 0]
        : !img -> !cudnn.tensor_desc<1x64x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%2) : !cudnn.tensor_desc<1x64x1x1xf32, alignment = 16, stride = []>
  } : tensor<1x64x112x112xf32>, tensor<1x64x56x56xf32> -> tensor<1x64x1x1xf32>
  return
}

!aq = !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
!ak = !cudnn.tensor_desc<2x2x24x64xf16, alignment = 16, stride = []>
!ab = !cudnn.tensor_desc<1x8x16x24xf16, alignment = 16, stride = []>

// CHECK-LABEL: func.func @sdpa
// CHECK: cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) scale = 1.250000e-01 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x2x24x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x2x24x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
// CHECK: cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) bias(%{{.*}} : !cudnn.tensor_desc<1x8x16x24xf16, alignment = 16, stride = []>) scale = 1.000000e+00 type = f32
func.func @sdpa(%tq: tensor<2x8x16x64xf16>, %tk: tensor<2x2x24x64xf16>,
                %tv: tensor<2x2x24x64xf16>, %tb: tensor<1x8x16x24xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g:2 = cudnn.build_and_exec_graph %h %tq, %tk, %tv, %tb {
  ^bb0(%q: !aq, %k: !ak, %v: !ak, %b: !ab):
    %0 = cudnn.sdpa(%q, %k, %v) scale = 0.125 type = f32
        : !aq, !ak, !ak -> !aq
    %1 = cudnn.sdpa(%q, %k, %v) bias(%b : !ab) scale = 1.0 type = f32
        : !aq, !ak, !ak -> !aq
    cudnn.build_graph(%0, %1) : !aq, !aq
  } : tensor<2x8x16x64xf16>, tensor<2x2x24x64xf16>, tensor<2x2x24x64xf16>,
      tensor<1x8x16x24xf16> -> tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16>
  return
}

// A packed operand read through a view that rearranges it: q, k and v
// [B, H, S, D] over [B, S, H*D] projections.
!vq = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [2560, 64, 256, 1]>
!vo = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = []>

// CHECK-LABEL: func.func @sdpa_views
// CHECK: cudnn.build_and_exec_graph %{{.*}} %arg0, %arg0, %arg0 {
// CHECK: } : tensor<2x10x256xf16>, tensor<2x10x256xf16>, tensor<2x10x256xf16> -> tensor<2x4x10x64xf16>
func.func @sdpa_views(%p: tensor<2x10x256xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %p, %p, %p {
  ^bb0(%q: !vq, %k: !vq, %v: !vq):
    %0 = cudnn.sdpa(%q, %k, %v) scale = 0.125 type = f32 : !vq, !vq, !vq -> !vo
    cudnn.build_graph(%0) : !vo
  } : tensor<2x10x256xf16>, tensor<2x10x256xf16>, tensor<2x10x256xf16>
      -> tensor<2x4x10x64xf16>
  return
}

// A window of a packed qkv projection: q, k and v at their offsets.
// CHECK-LABEL: func.func @sdpa_windows
// CHECK: ^bb0(%{{.*}}: !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1]>, %{{.*}}: !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1], offset = 256>, %{{.*}}: !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1], offset = 512>):
!vw = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1]>
!vk = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1], offset = 256>
!vv = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1], offset = 512>
func.func @sdpa_windows(%p: tensor<2x10x768xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %p, %p, %p {
  ^bb0(%q: !vw, %k: !vk, %v: !vv):
    %0 = cudnn.sdpa(%q, %k, %v) scale = 0.125 type = f32 : !vw, !vk, !vv -> !vo
    cudnn.build_graph(%0) : !vo
  } : tensor<2x10x768xf16>, tensor<2x10x768xf16>, tensor<2x10x768xf16>
      -> tensor<2x4x10x64xf16>
  return
}

// A single query (CaiT's class token) viewed as [1, H, 1, D] over [1, H*D]:
// its strides are the packed ones (the unit dim's does not matter), still a
// view of another shape.
// CHECK-LABEL: func.func @sdpa_single_query_view
// CHECK: } : tensor<1x192xf16>, tensor<1x4x8x48xf16>, tensor<1x4x8x48xf16> -> tensor<1x4x1x48xf16>
!q1 = !cudnn.tensor_desc<1x4x1x48xf16, alignment = 16, stride = [192, 48, 192, 1]>
!kv8 = !cudnn.tensor_desc<1x4x8x48xf16, alignment = 16, stride = []>
!o1 = !cudnn.tensor_desc<1x4x1x48xf16, alignment = 16, stride = []>
func.func @sdpa_single_query_view(%q: tensor<1x192xf16>, %k: tensor<1x4x8x48xf16>, %v: tensor<1x4x8x48xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %q, %k, %v {
  ^bb0(%a: !q1, %b: !kv8, %c: !kv8):
    %0 = cudnn.sdpa(%a, %b, %c) scale = 0.125 type = f32 : !q1, !kv8, !kv8 -> !o1
    cudnn.build_graph(%0) : !o1
  } : tensor<1x192xf16>, tensor<1x4x8x48xf16>, tensor<1x4x8x48xf16>
      -> tensor<1x4x1x48xf16>
  return
}

// CHECK-LABEL: func.func @norm_forward
// CHECK: cudnn.norm_forward(%{{.*}}) mode = layer phase = training type = f32 epsilon = 9.99999974E-6 scale = %{{.*}} bias = %{{.*}} : !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []> saved_inv_variance !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
// CHECK: cudnn.norm_forward(%{{.*}}) mode = batch phase = inference type = f32 epsilon = {{.*}} scale = %{{.*}} bias = %{{.*}} mean = %{{.*}} inv_variance = %{{.*}} : {{.*}} -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>{{$}}
// CHECK: cudnn.norm_forward(%{{.*}}) mode = batch phase = training type = f32 epsilon = {{.*}} momentum = 1.000000e-01 scale = %{{.*}} bias = %{{.*}} running_mean = %{{.*}} running_var = %{{.*}} : {{.*}} saved_mean {{.*}} saved_inv_variance {{.*}} next_running_mean {{.*}} next_running_var
// CHECK: cudnn.norm_forward(%{{.*}}) mode = rms phase = training type = f32 epsilon = {{.*}} scale = %{{.*}} : {{.*}} -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []> saved_inv_variance
// CHECK: cudnn.norm_forward(%{{.*}}) mode = instance phase = training
func.func @norm_forward(%t0: tensor<4x8x16xf32>, %t1: tensor<1x8x16xf32>, %t2: tensor<2x8x4x4xf32>, %t3: tensor<1x8x1x1xf32>, %t4: tensor<2x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2, %t3, %t4 {
  ^bb0(%x: !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>, %s: !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>, %x4: !x4, %c: !c4, %nc: !cudnn.tensor_desc<2x8x1x1xf32, alignment = 16, stride = []>):
    %y, %m, %v = cudnn.norm_forward(%x) mode = layer phase = training type = f32
        epsilon = 1.0e-5 scale = %s bias = %s
        : !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>
        saved_mean !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
        saved_inv_variance !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
    %y2 = cudnn.norm_forward(%x4) mode = batch phase = inference type = f32 epsilon = 1.0e-5
        scale = %c bias = %c mean = %c inv_variance = %c
        : !x4, !c4, !c4, !c4, !c4 -> !x4
    %y3, %m3, %v3, %rm, %rv = cudnn.norm_forward(%x4) mode = batch phase = training type = f32
        epsilon = 1.0e-5 momentum = 0.1 scale = %c bias = %c running_mean = %c running_var = %c
        : !x4, !c4, !c4, !c4, !c4 -> !x4 saved_mean !c4 saved_inv_variance !c4
        next_running_mean !c4 next_running_var !c4
    %y4, %v4 = cudnn.norm_forward(%x) mode = rms phase = training type = f32 epsilon = 1.0e-5 scale = %s
        : !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>
        saved_inv_variance !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
    %y5, %m5, %v5 = cudnn.norm_forward(%x4) mode = instance phase = training type = f32
        epsilon = 1.0e-5 scale = %c bias = %c
        : !x4, !c4, !c4 -> !x4
        saved_mean !cudnn.tensor_desc<2x8x1x1xf32, alignment = 16, stride = []>
        saved_inv_variance !cudnn.tensor_desc<2x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y5) : !x4
  } : tensor<4x8x16xf32>, tensor<1x8x16xf32>, tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<2x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// CHECK-LABEL: func.func @norm_backward
// CHECK: cudnn.norm_backward(%{{.*}}, %{{.*}}) mode = batch type = f32 scale = %{{.*}} mean = %{{.*}} inv_variance = %{{.*}} : {{.*}} -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
// CHECK: cudnn.norm_backward(%{{.*}}, %{{.*}}) mode = rms type = f32 scale = %{{.*}} inv_variance = %{{.*}} : {{.*}} -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>{{$}}
func.func @norm_backward(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>, %t2: tensor<4x8x16xf32>, %t3: tensor<1x8x16xf32>, %t4: tensor<4x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2, %t3, %t4 {
  ^bb0(%x4: !x4, %c: !c4, %x: !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>, %s: !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>, %st: !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>):
    %dx, %ds, %db = cudnn.norm_backward(%x4, %x4) mode = batch type = f32
        scale = %c mean = %c inv_variance = %c
        : !x4, !x4, !c4, !c4, !c4 -> !x4, !c4, !c4
    %dx2, %ds2 = cudnn.norm_backward(%x, %x) mode = rms type = f32 scale = %s inv_variance = %st
        : !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>,
           !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
    cudnn.build_graph(%dx2) : !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32>, tensor<4x8x16xf32>, tensor<1x8x16xf32>, tensor<4x1x1xf32> -> tensor<4x8x16xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm_stats
// CHECK: cudnn.genstats(%{{.*}}) type = f32 : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
// CHECK: cudnn.bn_finalize(%{{.*}}, %{{.*}}) type = f32 epsilon = 9.99999974E-6 momentum = 1.000000e-01 accumulation_count = 32 scale = %{{.*}} bias = %{{.*}} running_mean = %{{.*}} running_var = %{{.*}} :
func.func @batch_norm_stats(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x4: !x4, %c: !c4):
    %sum, %sq = cudnn.genstats(%x4) type = f32 : !x4 -> !c4, !c4
    %es, %eb, %m, %is, %rm, %rv = cudnn.bn_finalize(%sum, %sq) type = f32
        epsilon = 1.0e-5 momentum = 0.1 accumulation_count = 32
        scale = %c bias = %c running_mean = %c running_var = %c
        : !c4, !c4, !c4, !c4, !c4, !c4 -> !c4, !c4, !c4, !c4, !c4, !c4
    cudnn.build_graph(%es) : !c4
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf32>
  return
}

// CHECK-LABEL: func.func @rnn_lstm
// CHECK: cudnn.rnn_forward %{{.*}} config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.000000e+00 : f32> phase = inference x = %{{.*}} hx = %{{.*}} cx = %{{.*}} weights = %{{.*}} : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<8448xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>{{$}}
// CHECK: cudnn.rnn_forward %{{.*}} config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 2, direction = bidirectional, bias = single_inp, layout = batch_major_unpacked, math = tensor_op, dropout = 5.000000e-01 : f32> phase = training x = %{{.*}} hx = %{{.*}} cx = %{{.*}} weights = %{{.*}} seq_lengths = %{{.*}} : {{.*}} -> tensor<4x10x16xf32>, tensor<4x4x8xf32> cy tensor<4x4x32xf32> reserve_space tensor<?xi8>
func.func @rnn_lstm(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>,
                    %w: tensor<8448xf32>, %xb: tensor<4x10x16xf32>, %hx2: tensor<4x4x8xf32>,
                    %cx2: tensor<4x4x32xf32>, %w2: tensor<?xf32>, %len: tensor<4xi32>) {
  %y, %hy, %cy = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_unpacked,
      math = default, dropout = 0.000000e+00 : f32> phase = inference
      x = %x hx = %hx cx = %hx weights = %w
      : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<8448xf32>
      -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  %y2, %hy2, %cy2, %r2 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm,
      input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 2,
      direction = bidirectional, bias = single_inp, layout = batch_major_unpacked,
      math = tensor_op, dropout = 0.5 : f32> phase = training
      x = %xb hx = %hx2 cx = %cx2 weights = %w2 seq_lengths = %len
      : !cudnn.handle, tensor<4x10x16xf32>, tensor<4x4x8xf32>, tensor<4x4x32xf32>, tensor<?xf32>, tensor<4xi32>
      -> tensor<4x10x16xf32>, tensor<4x4x8xf32> cy tensor<4x4x32xf32> reserve_space tensor<?xi8>
  return
}

// CHECK-LABEL: func.func @rnn_gru_training
// CHECK: cudnn.rnn_forward %{{.*}} config = #cudnn.rnn_config<cell = gru, {{.*}}> phase = training x = %{{.*}} hx = %{{.*}} weights = %{{.*}} : {{.*}} -> tensor<10x4x32xf32>, tensor<1x4x32xf32> reserve_space tensor<1024xi8>
// CHECK: cudnn.rnn_backward_data %{{.*}} config = #cudnn.rnn_config<cell = gru, {{.*}}> y = %{{.*}} dy = %{{.*}} hx = %{{.*}} dhy = %{{.*}} weights = %{{.*}} reserve_space = %{{.*}} : {{.*}} -> tensor<10x4x16xf32>, tensor<1x4x32xf32>{{$}}
// CHECK: cudnn.rnn_backward_weights %{{.*}} config = #cudnn.rnn_config<cell = gru, {{.*}}> x = %{{.*}} hx = %{{.*}} y = %{{.*}} reserve_space = %{{.*}} seq_lengths = %{{.*}} : {{.*}} -> tensor<4608xf32>
func.func @rnn_gru_training(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>,
                            %w: tensor<4608xf32>, %len: tensor<4xi32>) {
  %y, %hy, %r = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = gru,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_packed,
      math = fma, dropout = 0.0 : f32> phase = training x = %x hx = %hx weights = %w
      : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<4608xf32>
      -> tensor<10x4x32xf32>, tensor<1x4x32xf32> reserve_space tensor<1024xi8>
  %dx, %dhx = cudnn.rnn_backward_data %h config = #cudnn.rnn_config<cell = gru,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_packed,
      math = fma, dropout = 0.0 : f32>
      y = %y dy = %y hx = %hx dhy = %hy weights = %w reserve_space = %r
      : !cudnn.handle, tensor<10x4x32xf32>, tensor<10x4x32xf32>, tensor<1x4x32xf32>,
        tensor<1x4x32xf32>, tensor<4608xf32>, tensor<1024xi8>
      -> tensor<10x4x16xf32>, tensor<1x4x32xf32>
  %dw = cudnn.rnn_backward_weights %h config = #cudnn.rnn_config<cell = gru,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_packed,
      math = fma, dropout = 0.0 : f32>
      x = %x hx = %hx y = %y reserve_space = %r seq_lengths = %len
      : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<10x4x32xf32>,
        tensor<1024xi8>, tensor<4xi32>
      -> tensor<4608xf32>
  return
}

// CHECK-LABEL: func.func @rnn_lstm_backward
// CHECK: cudnn.rnn_backward_data %{{.*}} config = #cudnn.rnn_config<cell = lstm, {{.*}}> y = %{{.*}} dy = %{{.*}} hx = %{{.*}} dhy = %{{.*}} cx = %{{.*}} dcy = %{{.*}} weights = %{{.*}} reserve_space = %{{.*}} : {{.*}} -> tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
func.func @rnn_lstm_backward(%h: !cudnn.handle, %y: tensor<10x4x32xf32>, %s: tensor<1x4x32xf32>,
                             %w: tensor<8448xf32>, %r: tensor<?xi8>) {
  %dx, %dhx, %dcx = cudnn.rnn_backward_data %h config = #cudnn.rnn_config<cell = lstm,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_unpacked,
      math = default, dropout = 0.0 : f32>
      y = %y dy = %y hx = %s dhy = %s cx = %s dcy = %s weights = %w reserve_space = %r
      : !cudnn.handle, tensor<10x4x32xf32>, tensor<10x4x32xf32>, tensor<1x4x32xf32>,
        tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<8448xf32>, tensor<?xi8>
      -> tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
  return
}

// The weight space of a 1-layer GRU with biases: 96x16 + 96x32 + 2 * 96
// elements; with proj_size the LSTM adds weight_hr [proj, hidden] per layer
// and direction, and weight_hh has proj_size columns.
// CHECK-LABEL: func.func @rnn_pack_unpack
// CHECK:         %[[W:.*]] = cudnn.rnn_pack_weights %[[H:.*]] config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.000000e+00 : f32> params(%[[A:.*]], %[[B:.*]], %[[C:.*]], %[[D:.*]]) : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32> -> tensor<4800xf32>
// CHECK:         cudnn.rnn_unpack_weights %[[H]] config = #cudnn.rnn_config<cell = gru, {{.*}}> weights = %[[W]] : !cudnn.handle, tensor<4800xf32> -> tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>
// CHECK:         cudnn.rnn_pack_weights %{{.*}} config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 8, {{.*}} bias = no_bias, {{.*}}> params(%{{.*}}, %{{.*}}, %{{.*}}) : !cudnn.handle, tensor<128x16xf16>, tensor<128x8xf16>, tensor<8x32xf16> -> tensor<3328xf16>
// CHECK:         cudnn.rnn_unpack_weights %{{.*}} config = #cudnn.rnn_config<cell = rnn_relu, {{.*}} direction = bidirectional, {{.*}}> weights = %{{.*}} : !cudnn.handle, tensor<?xf64> -> tensor<32x16xf64>, tensor<32x32xf64>, tensor<32x16xf64>, tensor<32x32xf64>
func.func @rnn_pack_unpack(%h: !cudnn.handle, %w_ih: tensor<96x16xf32>, %w_hh: tensor<96x32xf32>,
                           %b_ih: tensor<96xf32>, %b_hh: tensor<96xf32>, %p_ih: tensor<128x16xf16>,
                           %p_hh: tensor<128x8xf16>, %p_hr: tensor<8x32xf16>, %dw: tensor<?xf64>) {
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_unpacked,
      math = default, dropout = 0.0 : f32>
      params(%w_ih, %w_hh, %b_ih, %b_hh)
      : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>
      -> tensor<4800xf32>
  %p:4 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = gru,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = unidirectional, bias = double, layout = seq_major_unpacked,
      math = default, dropout = 0.0 : f32>
      weights = %w : !cudnn.handle, tensor<4800xf32>
      -> tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>
  %wp = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = lstm,
      input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 1,
      direction = unidirectional, bias = no_bias, layout = batch_major_unpacked,
      math = default, dropout = 0.0 : f32>
      params(%p_ih, %p_hh, %p_hr)
      : !cudnn.handle, tensor<128x16xf16>, tensor<128x8xf16>, tensor<8x32xf16> -> tensor<3328xf16>
  %q:4 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = rnn_relu,
      input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
      direction = bidirectional, bias = no_bias, layout = seq_major_unpacked,
      math = default, dropout = 0.0 : f32>
      weights = %dw : !cudnn.handle, tensor<?xf64>
      -> tensor<32x16xf64>, tensor<32x32xf64>, tensor<32x16xf64>, tensor<32x32xf64>
  return
}

// CHECK-LABEL: func.func @convert_layout
// CHECK: %[[A:.*]] = cudnn.convert_layout %{{.*}} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK: cudnn.convert_layout %[[A]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
func.func @convert_layout(%x: tensor<2x8x4x4xf16>) -> tensor<2x8x4x4xf16> {
  %0 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  %1 = cudnn.convert_layout %0 : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  return %1 : tensor<2x8x4x4xf16>
}

// CHECK-LABEL: func.func @rnn_execute
// CHECK: cudnn.rnn_execute %{{.*}} pack_weights #cudnn.rnn_config<cell = gru, {{.*}}> weights(%{{.*}} : memref<4800xf32>) params(%{{.*}}, %{{.*}} : memref<96x16xf32>, memref<96x32xf32>)
// CHECK: cudnn.rnn_execute %{{.*}} forward_inference #cudnn.rnn_config<cell = gru, {{.*}}> x(%{{.*}} : memref<10x4x16xf32>) y(%{{.*}} : memref<10x4x32xf32>) hx(%{{.*}} : memref<1x4x32xf32>) hy(%{{.*}} : memref<1x4x32xf32>) weights(%{{.*}} : memref<4800xf32>) seq_lengths(%{{.*}} : memref<4xi32>)
func.func @rnn_execute(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %hx: memref<1x4x32xf32>, %hy: memref<1x4x32xf32>, %w: memref<4800xf32>, %l: memref<4xi32>, %p0: memref<96x16xf32>, %p1: memref<96x32xf32>) {
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4800xf32>) params(%p0, %p1 : memref<96x16xf32>, memref<96x32xf32>)
  cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%x : memref<10x4x16xf32>) y(%y : memref<10x4x32xf32>) hx(%hx : memref<1x4x32xf32>) hy(%hy : memref<1x4x32xf32>) weights(%w : memref<4800xf32>) seq_lengths(%l : memref<4xi32>)
  return
}

// CHECK-LABEL: func.func @rnn_weight_space
// CHECK: %{{.*}} = cudnn.rnn_weight_space %{{.*}} config = #cudnn.rnn_config<cell = gru, {{.*}}> params(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<96x16xf32>, memref<96x32xf32>, memref<96xf32>, memref<96xf32>) : memref<4800xf32>
func.func @rnn_weight_space(%h: !cudnn.handle, %a: memref<96x16xf32>, %b: memref<96x32xf32>, %c: memref<96xf32>, %d: memref<96xf32>) -> memref<4800xf32> {
  %w = cudnn.rnn_weight_space %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %d : memref<96x16xf32>, memref<96x32xf32>, memref<96xf32>, memref<96xf32>) : memref<4800xf32>
  return %w : memref<4800xf32>
}

// A graph with a split form says whether it ran: `tries i1` on tensors,
// `-> i1` on buffers.
// CHECK-LABEL: func.func @graph_that_tries
// CHECK: %{{.*}}, %{{.*}} = cudnn.build_and_exec_graph %{{.*}} %{{.*}} {
// CHECK: } : tensor<8x16xf32> -> tensor<8x16xf32> tries i1
// CHECK: %{{.*}} = cudnn.execute_graph %{{.*}} ins(%{{.*}} : memref<8x16xf32>) outs(%{{.*}} : memref<8x16xf32>) {
// CHECK: } -> i1
func.func @graph_that_tries(%h: !cudnn.handle, %t: tensor<8x16xf32>, %m: memref<8x16xf32>, %o: memref<8x16xf32>) -> (tensor<8x16xf32>, i1, i1) {
  %r:2 = cudnn.build_and_exec_graph %h %t {
  ^bb0(%a: !v):
    %0 = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.0 : !v -> !v
    cudnn.build_graph(%0) : !v
  } : tensor<8x16xf32> -> tensor<8x16xf32> tries i1
  %ran = cudnn.execute_graph %h ins(%m : memref<8x16xf32>) outs(%o : memref<8x16xf32>) {
  ^bb0(%a: !v):
    %0 = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.0 : !v -> !v
    cudnn.build_graph(%0) : !v
  } -> i1
  return %r#0, %r#1, %ran : tensor<8x16xf32>, i1, i1
}

// CHECK-LABEL: func.func @gemm
// CHECK: %[[H:.*]] = cudnn.get_current_handle
// CHECK: cudnn.gemm %[[H]](%{{.*}}, %{{.*}}) {transpose_b} : tensor<2x16x32xf32>, tensor<2x8x32xf32> -> tensor<2x16x8xf32>
// CHECK: cudnn.execute_gemm %[[H]](%{{.*}}, %{{.*}}) outs(%{{.*}}) {transpose_a} : memref<32x16xf32>, memref<32x8xf32>, memref<16x8xf32>
func.func @gemm(%a: tensor<2x16x32xf32>, %b: tensor<2x8x32xf32>, %x: memref<32x16xf32>, %y: memref<32x8xf32>, %z: memref<16x8xf32>) -> tensor<2x16x8xf32> {
  %h = cudnn.get_current_handle !cudnn.handle
  %c = cudnn.gemm %h(%a, %b) {transpose_b} : tensor<2x16x32xf32>, tensor<2x8x32xf32> -> tensor<2x16x8xf32>
  cudnn.execute_gemm %h(%x, %y) outs(%z) {transpose_a} : memref<32x16xf32>, memref<32x8xf32>, memref<16x8xf32>
  return %c : tensor<2x16x8xf32>
}

// CHECK-LABEL: func.func @layout_view
// CHECK: %[[V:.*]] = cudnn.layout_view %{{.*}} : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x4x6x8xf16>
// CHECK: cudnn.layout_view %[[V]] : tensor<2x4x6x8xf16> -> tensor<2x8x4x6xf16, #cudnn.channels_last>
// CHECK: cudnn.layout_view %{{.*}} : tensor<2x8x3x4x6xf32, #cudnn.channels_last> -> tensor<2x3x4x6x8xf32>
func.func @layout_view(%x: tensor<2x8x4x6xf16, #cudnn.channels_last>, %y: tensor<2x8x3x4x6xf32, #cudnn.channels_last>) -> (tensor<2x8x4x6xf16, #cudnn.channels_last>, tensor<2x3x4x6x8xf32>) {
  %0 = cudnn.layout_view %x : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x4x6x8xf16>
  %1 = cudnn.layout_view %0 : tensor<2x4x6x8xf16> -> tensor<2x8x4x6xf16, #cudnn.channels_last>
  %2 = cudnn.layout_view %y : tensor<2x8x3x4x6xf32, #cudnn.channels_last> -> tensor<2x3x4x6x8xf32>
  return %1, %2 : tensor<2x8x4x6xf16, #cudnn.channels_last>, tensor<2x3x4x6x8xf32>
}
