// RUN: cudnn-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expects a tensor_desc rank between 1 and 8, but got 9}}
func.func @f(%x: !cudnn.tensor_desc<1x1x1x1x1x1x1x1x1xf32, alignment = 1, stride = []>) {
  return
}

// -----

// expected-error @+1 {{expects tensor_desc dimensions >= 1, but got [0, 4]}}
func.func @f(%x: !cudnn.tensor_desc<0x4xf32, alignment = 1, stride = []>) {
  return
}

// -----

// expected-error @+1 {{expects a cuDNN element type (f16, bf16, f32, f64, f8E4M3FN, f8E5M2, i1, i8, ui8, i32, i64), but got 'i16'}}
func.func @f(%x: !cudnn.tensor_desc<4xi16, alignment = 1, stride = []>) {
  return
}

// -----

// expected-error @+1 {{expects a power-of-two alignment, but got 12}}
func.func @f(%x: !cudnn.tensor_desc<4xf32, alignment = 12, stride = []>) {
  return
}

// -----

// expected-error @+1 {{expects an empty stride list or one stride per dimension (2), but got [1]}}
func.func @f(%x: !cudnn.tensor_desc<4x4xf32, alignment = 1, stride = [1]>) {
  return
}

// -----

// expected-error @+1 {{expects strides >= 1, but got [4, 0]}}
func.func @f(%x: !cudnn.tensor_desc<4x4xf32, alignment = 1, stride = [4, 0]>) {
  return
}

// -----

func.func @f(%h: !cudnn.handle, %t: tensor<8x16xf32>) {
  // expected-error @+1 {{expects result #0 to have the shape and element type of its tensor_desc}}
  %r = cudnn.build_and_exec_graph %h %t {
  ^bb0(%a: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    cudnn.build_graph(%a) : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %t: tensor<8x16xf32>) {
  // expected-error @+1 {{expects cudnn.build_graph to name 2 outputs (one per result), but got 1}}
  %r:2 = cudnn.build_and_exec_graph %h %t {
  ^bb0(%a: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    cudnn.build_graph(%a) : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<8x16xf32>, tensor<8x16xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x64x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects spatial_dim_count 1, 2 or 3, but got 4}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 4 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x64x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects x of rank spatial_dim_count + 2 = 5, but got 4}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 3 spatial_stride = [1, 1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x64x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects spatial_stride to have spatial_dim_count = 2 values, but got [1]}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x64x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects dilation to have spatial_dim_count = 2 values, but got [1, 1, 1]}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x48x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x48x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects x channels to be a multiple of w dim 1 (channels per group) 48, but got 64}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x48x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x48x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<66x16x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<66x16x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects w dim 0 (output channels) divisible by the 4 groups, but got 66}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<66x16x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x66x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x66x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<66x16x3x3xf32> -> tensor<1x66x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x64x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects spatial_stride/dilation >= 1, paddings >= 0 and a filter that fits the padded input, but got x [1, 64, 56, 56] and w [64, 64, 3, 3]}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [0, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<64x64x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects y of shape [1, 64, 54, 54], but got [1, 64, 56, 56]}}
    %y = cudnn.convolution(%x, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [0, 0] post_padding = [0, 0] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x28x28xf32>, %t1: tensor<64x32x3x3xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%dy: !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>, %w: !cudnn.tensor_desc<64x32x3x3xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects dy of shape [1, 64, 56, 56], but got [1, 64, 28, 28]}}
    %y = cudnn.convolution_backward_data(%dy, %w) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<64x32x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x32x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x32x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x28x28xf32>, tensor<64x32x3x3xf32> -> tensor<1x32x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>, %t1: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, %dy: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects x channels to be a multiple of dw dim 1 (channels per group) 48, but got 64}}
    %y = cudnn.convolution_backward_filter(%x, %dy) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<64x48x3x3xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<64x48x3x3xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32> -> tensor<64x48x3x3xf32>
  return
}

// -----

func.func @f(%t0: tensor<16x32xf32>, %t1: tensor<4x32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%a: !cudnn.tensor_desc<16x32xf32, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<4x32x8xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects a, b and c of one rank >= 2, but got ranks 2, 3 and 2}}
    %c = cudnn.matmul(%a, %b) type = f32 : !cudnn.tensor_desc<16x32xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<4x32x8xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<16x8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%c) : !cudnn.tensor_desc<16x8xf32, alignment = 16, stride = []>
  } : tensor<16x32xf32>, tensor<4x32x8xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%t0: tensor<16x32xf32>, %t1: tensor<16x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%a: !cudnn.tensor_desc<16x32xf32, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<16x8xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects a's dim -1 (K) to equal b's dim -2, but got a [16, 32] and b [16, 8]}}
    %c = cudnn.matmul(%a, %b) type = f32 : !cudnn.tensor_desc<16x32xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<16x8xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<16x8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%c) : !cudnn.tensor_desc<16x8xf32, alignment = 16, stride = []>
  } : tensor<16x32xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%t0: tensor<4x16x32xf32>, %t1: tensor<3x32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%a: !cudnn.tensor_desc<4x16x32xf32, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<3x32x8xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects each batch dim of a and b to be equal or 1, but got a [4, 16, 32] and b [3, 32, 8]}}
    %c = cudnn.matmul(%a, %b) type = f32 : !cudnn.tensor_desc<4x16x32xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<3x32x8xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<4x16x8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%c) : !cudnn.tensor_desc<4x16x8xf32, alignment = 16, stride = []>
  } : tensor<4x16x32xf32>, tensor<3x32x8xf32> -> tensor<4x16x8xf32>
  return
}

// -----

func.func @f(%t0: tensor<4x16x32xf32>, %t1: tensor<1x32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%a: !cudnn.tensor_desc<4x16x32xf32, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<1x32x8xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects c of shape [4, 16, 8], but got [1, 16, 8]}}
    %c = cudnn.matmul(%a, %b) type = f32 : !cudnn.tensor_desc<4x16x32xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x32x8xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x16x8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%c) : !cudnn.tensor_desc<1x16x8xf32, alignment = 16, stride = []>
  } : tensor<4x16x32xf32>, tensor<1x32x8xf32> -> tensor<1x16x8xf32>
  return
}

// -----

func.func @f(%t0: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects operand #0 of the result's rank 3, but got 2}}
    %y = cudnn.pointwise_exp(%x) type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<1x8x16xf32>
  return
}

// -----

func.func @f(%t0: tensor<8x16xf32>, %t1: tensor<2x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<2x16xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects each dim of operand #1 to equal the result's [8, 16] or be 1, but got [2, 16]}}
    %y = cudnn.pointwise_add(%x, %b) type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32>, tensor<2x16xf32> -> tensor<8x16xf32>
  return
}

// -----

func.func @f(%t0: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects each dim of operand #0 to equal the result's [8, 8] or be 1, but got [8, 16]}}
    %y = cudnn.pointwise_relu(%x) type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8x8xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%t0: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects an axis in [0, 2), but got 2}}
    %y = cudnn.pointwise_gen_index(%x) type = f32 axis = 2 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xi32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8x16xi32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<8x16xi32>
  return
}

// -----

func.func @f(%t0: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects y of x's rank 2, but got 1}}
    %y = cudnn.reduction(%x) mode = add type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<8xf32>
  return
}

// -----

func.func @f(%t0: tensor<8x16xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects each dim of y to equal x's [8, 16] or be 1, but got [8, 2]}}
    %y = cudnn.reduction(%x) mode = max type = f32 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x2xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8x2xf32, alignment = 16, stride = []>
  } : tensor<8x16xf32> -> tensor<8x2xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects a window of 1 to 3 spatial dims, but got []}}
    %y = cudnn.resample(%x) mode = max type = f32 window = [] spatial_stride = [] pre_padding = [] post_padding = [] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32> -> tensor<1x64x28x28xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects pre_padding to have one value per window dim (2), but got [0]}}
    %y = cudnn.resample(%x) mode = max type = f32 window = [2, 2] spatial_stride = [2, 2] pre_padding = [0] post_padding = [0, 0] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32> -> tensor<1x64x28x28xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects x of rank window size + 2 = 5, but got 4}}
    %y = cudnn.resample(%x) mode = max type = f32 window = [2, 2, 2] spatial_stride = [2, 2, 2] pre_padding = [0, 0, 0] post_padding = [0, 0, 0] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32> -> tensor<1x64x28x28xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects spatial_stride >= 1, paddings >= 0 and a window that fits the padded input, but got x [1, 64, 56, 56] and window [80, 2]}}
    %y = cudnn.resample(%x) mode = max type = f32 window = [80, 2] spatial_stride = [2, 2] pre_padding = [0, 0] post_padding = [0, 0] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32> -> tensor<1x64x28x28xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x64x56x56xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects y of shape [1, 64, 28, 28], but got [1, 64, 56, 56]}}
    %y = cudnn.resample(%x) mode = max type = f32 window = [2, 2] spatial_stride = [2, 2] pre_padding = [0, 0] post_padding = [0, 0] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
  } : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
  return
}

// -----

func.func @f(%t0: tensor<8xf32>, %t1: tensor<1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects x of rank >= 2 (N, C, ...), but got 1}}
    %y = cudnn.norm_forward(%x) mode = layer phase = inference type = f32 epsilon = 1.0 scale = %c bias = %c : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  } : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects epsilon >= 0, but got -1}}
    %y = cudnn.norm_forward(%x) mode = layer phase = inference type = f32 epsilon = -1.0 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects momentum only for batch norm training, but got it for layer norm inference}}
    %y = cudnn.norm_forward(%x) mode = layer phase = inference type = f32 epsilon = 1.0 momentum = 0.1 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects momentum in [0, 1], but got 2}}
    %y:5 = cudnn.norm_forward(%x) mode = batch phase = training type = f32 epsilon = 1.0 momentum = 2.0 scale = %c bias = %c running_mean = %c running_var = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> saved_inv_variance !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> next_running_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> next_running_var !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects operand mean for batch norm inference, but got none}}
    %y = cudnn.norm_forward(%x) mode = batch phase = inference type = f32 epsilon = 1.0 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects operand bias for batch norm inference, but got none}}
    %y = cudnn.norm_forward(%x) mode = batch phase = inference type = f32 epsilon = 1.0 scale = %c mean = %c inv_variance = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects result saved_mean for batch norm training, but got none}}
    %y = cudnn.norm_forward(%x) mode = batch phase = training type = f32 epsilon = 1.0 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects result saved_inv_variance for batch norm training, but got none}}
    %y:2 = cudnn.norm_forward(%x) mode = batch phase = training type = f32 epsilon = 1.0 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects operand running_mean with momentum, but got none}}
    %y:3 = cudnn.norm_forward(%x) mode = batch phase = training type = f32 epsilon = 1.0 momentum = 0.1 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> saved_inv_variance !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects no operand running_mean without momentum, but got one}}
    %y:3 = cudnn.norm_forward(%x) mode = batch phase = training type = f32 epsilon = 1.0 scale = %c bias = %c running_mean = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> saved_inv_variance !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects y of shape [2, 8, 4, 4] (x's shape), but got [1, 8, 1, 1]}}
    %y = cudnn.norm_forward(%x) mode = batch phase = inference type = f32 epsilon = 1.0 scale = %c bias = %c mean = %c inv_variance = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects scale of shape [1, 8, 4, 4] for layer norm, but got [1, 8, 1, 1]}}
    %y = cudnn.norm_forward(%x) mode = layer phase = inference type = f32 epsilon = 1.0 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects saved_mean of shape [2, 8, 1, 1] for instance norm, but got [1, 8, 1, 1]}}
    %y:3 = cudnn.norm_forward(%x) mode = instance phase = training type = f32 epsilon = 1.0 scale = %c bias = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> saved_inv_variance !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%y#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects operand mean for batch norm, but got none}}
    %r:3 = cudnn.norm_backward(%x, %x) mode = batch type = f32 scale = %c inv_variance = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects result dbias for batch norm, but got none}}
    %r:2 = cudnn.norm_backward(%x, %x) mode = batch type = f32 scale = %c mean = %c inv_variance = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects dscale of shape [1, 8, 1, 1] for batch norm, but got [1, 8, 4, 4]}}
    %r:3 = cudnn.norm_backward(%x, %x) mode = batch type = f32 scale = %c mean = %c inv_variance = %c : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x4x4xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x4x4xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0 {
  ^bb0(%x: !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects sum of shape [1, 8, 1, 1] (per channel), but got [8]}}
    %s:2 = cudnn.genstats(%x) type = f32 : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%s#0) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x1x1xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%s: !cudnn.tensor_desc<2x8x1x1xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects sum of shape [1, C, 1...], but got [2, 8, 1, 1]}}
    %r:6 = cudnn.bn_finalize(%s, %s) type = f32 epsilon = 1.0 momentum = 0.1 accumulation_count = 32 scale = %c bias = %c running_mean = %c running_var = %c : !cudnn.tensor_desc<2x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
  } : tensor<2x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x8x1x1xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%s: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects accumulation_count >= 1, but got 0}}
    %r:6 = cudnn.bn_finalize(%s, %s) type = f32 epsilon = 1.0 momentum = 0.1 accumulation_count = 0 scale = %c bias = %c running_mean = %c running_var = %c : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
  } : tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x8x1x1xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%s: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects epsilon >= 0, but got -1}}
    %r:6 = cudnn.bn_finalize(%s, %s) type = f32 epsilon = -1.0 momentum = 0.1 accumulation_count = 32 scale = %c bias = %c running_mean = %c running_var = %c : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
  } : tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @f(%t0: tensor<1x8x1x1xf32>, %t1: tensor<1x8x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1 {
  ^bb0(%s: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %c: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects eq_scale of shape [1, 8, 1, 1] (sum's shape), but got [1, 8, 2, 1]}}
    %r:6 = cudnn.bn_finalize(%s, %s) type = f32 epsilon = 1.0 momentum = 0.1 accumulation_count = 32 scale = %c bias = %c running_mean = %c running_var = %c : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>
    cudnn.build_graph(%r#0) : !cudnn.tensor_desc<1x8x2x1xf32, alignment = 16, stride = []>
  } : tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x2x1xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  %y, %hy, %cy = cudnn.rnn_forward %h
      // expected-error @+1 {{expects input_size >= 1, but got 0}}
      config = #cudnn.rnn_config<cell = lstm, input_size = 0, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32>
      phase = inference x = %x hx = %s cx = %s weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  %y, %hy, %cy = cudnn.rnn_forward %h
      // expected-error @+1 {{expects proj_size >= 0 (0: no projection), but got -1}}
      config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = -1, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32>
      phase = inference x = %x hx = %s cx = %s weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  %y, %hy, %cy = cudnn.rnn_forward %h
      // expected-error @+1 {{expects proj_size = 0 for a non-lstm cell, but got 8 for gru}}
      config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32>
      phase = inference x = %x hx = %s cx = %s weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  %y, %hy, %cy = cudnn.rnn_forward %h
      // expected-error @+1 {{expects proj_size < hidden_size = 32, but got 32}}
      config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 32, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32>
      phase = inference x = %x hx = %s cx = %s weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  %y, %hy, %cy = cudnn.rnn_forward %h
      // expected-error @+1 {{expects dropout in [0, 1), but got 1}}
      config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 1.0 : f32>
      phase = inference x = %x hx = %s cx = %s weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects x of rank 3 ([seq, batch, vector] or [batch, seq, vector]), but got 2}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x8xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects x's last dim to be input_size = 16, but got 8}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x8xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<2x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<2x4x32xf32>) {
  // expected-error @+1 {{expects y of shape [10, 4, 64], but got [10, 4, 32]}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = bidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<2x4x32xf32>, tensor<2x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<2x4x32xf32> cy tensor<2x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects hx of shape [2, 4, 8], but got [1, 4, 32]}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 2, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x8xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x10x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects cx of shape [1, 10, 32], but got [1, 4, 32]}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = batch_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x10x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x10x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  // expected-error @+1 {{expects cx for a lstm cell, but got none}}
  %r:2 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects no cx for a gru cell, but got one}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<10x10xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects weights of rank 1 (a flat buffer), but got 'tensor<10x10xf32>'}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<10x10xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{expects seq_lengths of type tensor<4xi32>, but got 'tensor<4xi64>'}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w seq_lengths = %l : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32>, tensor<4xi64> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf16>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects hx with element type 'f32', but got 'f16'}}
  %r:3 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf16>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %w: tensor<100xf32>, %cx: tensor<1x4x32xf32>) {
  // expected-error @+1 {{expects no reserve_space result in inference, but got one}}
  %r:4 = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = inference x = %x hx = %hx cx = %cx weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32> reserve_space tensor<?xi8>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %y: tensor<10x4x32xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>, %r: tensor<?xi8>) {
  // expected-error @+1 {{expects dx of shape [10, 4, 16], but got [10, 4, 32]}}
  %dx, %dhx = cudnn.rnn_backward_data %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> y = %y dy = %y hx = %s dhy = %s weights = %w reserve_space = %r : !cudnn.handle, tensor<10x4x32xf32>, tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32>, tensor<?xi8> -> tensor<10x4x32xf32>, tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %y: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>, %r: tensor<?xi8>) {
  // expected-error @+1 {{expects y's last dim to be dirs * (proj_size or hidden_size) = 32, but got 16}}
  %dx, %dhx = cudnn.rnn_backward_data %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> y = %y dy = %y hx = %s dhy = %s weights = %w reserve_space = %r : !cudnn.handle, tensor<10x4x16xf32>, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<100xf32>, tensor<?xi8> -> tensor<10x4x16xf32>, tensor<1x4x32xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %y: tensor<10x4x32xf32>, %s: tensor<1x4x32xf32>, %r: tensor<?xi8>) {
  // expected-error @+1 {{expects dweights of rank 1 (a flat buffer), but got 'tensor<2x50xf32>'}}
  %dw = cudnn.rnn_backward_weights %h config = #cudnn.rnn_config<cell = rnn_tanh, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x = %x hx = %s y = %y reserve_space = %r : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<10x4x32xf32>, tensor<?xi8> -> tensor<2x50xf32>
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: tensor<10x4x16xf32>, %s: tensor<1x4x32xf32>, %w: tensor<100xf32>) {
  %y, %hy = cudnn.rnn_forward %h
      // expected-error @+1 {{expects hidden_size <= 2147483647 (cuDNN's int32), but got 4294967296}}
      config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 4294967296, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32>
      phase = inference x = %x hx = %s weights = %w : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<100xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32>
  return
}

// -----

// The count is checked before the parameters are listed: listing every layer
// of 2^31 - 1 would not end.
func.func @rnn_unpack_many_layers(%h: !cudnn.handle, %w: tensor<4800xf32>) {
  // expected-error @+1 {{expects 8589934588 results (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, weight_ih_l1, ...), but got 2}}
  %p:2 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 2147483647, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights = %w : !cudnn.handle, tensor<4800xf32> -> tensor<96x16xf32>, tensor<96x32xf32>
  return
}

// -----

func.func @rnn_pack_too_many_elements(%h: !cudnn.handle, %a: tensor<?x?xf32>) {
  // expected-error @+1 {{expects parameters of at most 9223372036854775807 elements in all, but got more}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 2147483647, hidden_size = 2147483647, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %a) : !cudnn.handle, tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @rnn_pack_single_bias(%h: !cudnn.handle, %a: tensor<96x16xf32>, %b: tensor<96x32xf32>, %c: tensor<96xf32>) {
  // expected-error @+1 {{expects bias = double or no_bias (PyTorch's RNNs have both biases or none), but got single_inp}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = single_inp, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c) : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32> -> tensor<4704xf32>
  return
}

// -----

func.func @rnn_pack_count(%h: !cudnn.handle, %a: tensor<128x16xf32>, %b: tensor<128x32xf32>, %c: tensor<128xf32>) {
  // expected-error @+1 {{expects 8 parameters (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, weight_ih_l0_reverse, ...), but got 7}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = bidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %c, %a, %b, %c) : !cudnn.handle, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32> -> tensor<12800xf32>
  return
}

// -----

func.func @rnn_pack_shape(%h: !cudnn.handle, %a: tensor<32x16xf32>, %b: tensor<32x32xf32>, %c: tensor<32x64xf32>) {
  // expected-error @+1 {{expects parameter #7 (weight_hh_l1_reverse) of shape [32, 32], but got [32, 16]}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = rnn_tanh, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 2, direction = bidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %a, %b, %c, %b, %c, %a) : !cudnn.handle, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x64xf32>, tensor<32x32xf32>, tensor<32x64xf32>, tensor<32x16xf32> -> tensor<10240xf32>
  return
}

// -----

func.func @rnn_pack_integer(%h: !cudnn.handle, %a: tensor<32x16xi32>, %b: tensor<32x32xi32>) {
  // expected-error @+1 {{expects parameters of a float type, but got 'i32'}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = rnn_relu, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b) : !cudnn.handle, tensor<32x16xi32>, tensor<32x32xi32> -> tensor<1536xi32>
  return
}

// -----

func.func @rnn_pack_mixed_types(%h: !cudnn.handle, %a: tensor<96x16xf32>, %b: tensor<96x32xf32>, %c: tensor<96xf32>, %d: tensor<96xf16>) {
  // expected-error @+1 {{expects parameter #3 (bias_hh_l0) with element type 'f32' (that of weight_ih_l0), but got 'f16'}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %d) : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf16> -> tensor<4800xf32>
  return
}

// -----

func.func @rnn_pack_length(%h: !cudnn.handle, %a: tensor<96x16xf32>, %b: tensor<96x32xf32>, %c: tensor<96xf32>) {
  // expected-error @+1 {{expects weights of type 'tensor<4800xf32>' (one element per parameter element), but got 'tensor<4608xf32>'}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %c) : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32> -> tensor<4608xf32>
  return
}

// -----

func.func @rnn_pack_weights_type(%h: !cudnn.handle, %a: tensor<96x16xf32>, %b: tensor<96x32xf32>, %c: tensor<96xf32>) {
  // expected-error @+1 {{expects weights of type 'tensor<4800xf32>' (one element per parameter element), but got 'tensor<4800xf16>'}}
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %c) : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32> -> tensor<4800xf16>
  return
}

// -----

func.func @rnn_unpack_count(%h: !cudnn.handle, %w: tensor<4800xf32>) {
  // expected-error @+1 {{expects 4 results (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0), but got 2}}
  %p:2 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights = %w : !cudnn.handle, tensor<4800xf32> -> tensor<96x16xf32>, tensor<96x32xf32>
  return
}

// -----

func.func @rnn_unpack_projection(%h: !cudnn.handle, %w: tensor<3328xf32>) {
  // expected-error @+1 {{expects result #2 (weight_hr_l0) of shape [8, 32], but got [32, 8]}}
  %p:3 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 1, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights = %w : !cudnn.handle, tensor<3328xf32> -> tensor<128x16xf32>, tensor<128x8xf32>, tensor<32x8xf32>
  return
}

// -----

func.func @rnn_unpack_weights_rank(%h: !cudnn.handle, %w: tensor<2x2400xf32>) {
  // expected-error @+1 {{expects weights of type 'tensor<4800xf32>' (one element per parameter element), but got 'tensor<2x2400xf32>'}}
  %p:4 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights = %w : !cudnn.handle, tensor<2x2400xf32> -> tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>
  return
}

// -----

func.func @graph_block_argument_count(%h: !cudnn.handle, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects one block argument per tensor operand (1), but got 0}}
  %0 = "cudnn.build_and_exec_graph"(%h, %x) <{resultSegmentSizes = array<i32: 1, 0>}> ({
    "cudnn.build_graph"() : () -> ()
  }) : (!cudnn.handle, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @graph_without_build_graph(%h: !cudnn.handle, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects the body to end in cudnn.build_graph, but it does not}}
  %0 = "cudnn.build_and_exec_graph"(%h, %x) <{resultSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%a: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>):
    %r = cudnn.pointwise_relu(%a) type = f32
        : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  }) : (!cudnn.handle, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Graph ops are nodes of a cuDNN graph: they only live in a graph's body.
func.func @graph_op_outside_graph(%x: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>) {
  // expected-error @+1 {{expects parent op to be one of 'cudnn.build_and_exec_graph, cudnn.execute_graph'}}
  %y = cudnn.pointwise_relu(%x) type = f32
      : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
      -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  return
}

// -----

func.func @graph_operand_layout(%h: !cudnn.handle, %x: tensor<2x8x4x4xf16>) -> tensor<2x8x4x4xf16> {
  // expected-error @+1 {{expects operand #0 to be stored as its tensor_desc's strides say, but got a packed tensor 'tensor<2x8x4x4xf16>' for '!cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>'}}
  %0 = cudnn.build_and_exec_graph %h %x {
  ^bb0(%a: !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>):
    %r = cudnn.pointwise_relu(%a) type = f32
        : !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 1, 32, 8]>
        -> !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
    cudnn.build_graph(%r) : !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
  } : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  return %0 : tensor<2x8x4x4xf16>
}

// -----

// A graph may read a packed operand through a view that rearranges its
// elements (a linear layer's weight through its transpose in the last two
// dims, attention's q, k, v through the transposes before them), but not a
// channels-last one, nor a strided buffer, nor through strides that read
// an element twice.
func.func @graph_operand_transposed_channels_last(%h: !cudnn.handle, %x: tensor<2x8x4xf16>, %w: tensor<2x6x4xf16, #cudnn.channels_last>) -> tensor<2x8x6xf16> {
  // expected-error @+1 {{expects operand #1, read through a view, to be a packed tensor, but got 'tensor<2x6x4xf16, #cudnn.channels_last>'}}
  %0 = cudnn.build_and_exec_graph %h %x, %w {
  ^bb0(%a: !cudnn.tensor_desc<2x8x4xf16, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<2x4x6xf16, alignment = 16, stride = [24, 1, 4]>):
    %m = cudnn.matmul(%a, %b) type = f32
        : !cudnn.tensor_desc<2x8x4xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x4x6xf16, alignment = 16, stride = [24, 1, 4]>
        -> !cudnn.tensor_desc<2x8x6xf16, alignment = 16, stride = []>
    cudnn.build_graph(%m) : !cudnn.tensor_desc<2x8x6xf16, alignment = 16, stride = []>
  } : tensor<2x8x4xf16>, tensor<2x6x4xf16, #cudnn.channels_last> -> tensor<2x8x6xf16>
  return %0 : tensor<2x8x6xf16>
}

// -----

func.func @graph_operand_transposed_strided_buffer(%h: !cudnn.handle, %x: memref<8x4xf16>, %w: memref<6x4xf16, strided<[8, 1]>>, %y: memref<8x6xf16>) {
  // expected-error @+1 {{expects operand #1, read through a view, to be a packed buffer, but got 'memref<6x4xf16, strided<[8, 1]>>'}}
  cudnn.execute_graph %h ins(%x, %w : memref<8x4xf16>, memref<6x4xf16, strided<[8, 1]>>) outs(%y : memref<8x6xf16>) {
  ^bb0(%a: !cudnn.tensor_desc<8x4xf16, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<4x6xf16, alignment = 16, stride = [1, 4]>):
    %m = cudnn.matmul(%a, %b) type = f32
        : !cudnn.tensor_desc<8x4xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<4x6xf16, alignment = 16, stride = [1, 4]>
        -> !cudnn.tensor_desc<8x6xf16, alignment = 16, stride = []>
    cudnn.build_graph(%m) : !cudnn.tensor_desc<8x6xf16, alignment = 16, stride = []>
  }
  return
}

// -----

func.func @graph_operand_overlapping_view(%h: !cudnn.handle, %x: tensor<2x8x4xf16>, %w: tensor<4x2x6xf16>) -> tensor<2x8x6xf16> {
  // expected-error @+1 {{expects operand #1 to have the shape and element type of its tensor_desc '!cudnn.tensor_desc<2x4x6xf16, alignment = 16, stride = [6, 6, 1]>', but got 'tensor<4x2x6xf16>'}}
  %0 = cudnn.build_and_exec_graph %h %x, %w {
  ^bb0(%a: !cudnn.tensor_desc<2x8x4xf16, alignment = 16, stride = []>, %b: !cudnn.tensor_desc<2x4x6xf16, alignment = 16, stride = [6, 6, 1]>):
    %m = cudnn.matmul(%a, %b) type = f32
        : !cudnn.tensor_desc<2x8x4xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x4x6xf16, alignment = 16, stride = [6, 6, 1]>
        -> !cudnn.tensor_desc<2x8x6xf16, alignment = 16, stride = []>
    cudnn.build_graph(%m) : !cudnn.tensor_desc<2x8x6xf16, alignment = 16, stride = []>
  } : tensor<2x8x4xf16>, tensor<4x2x6xf16> -> tensor<2x8x6xf16>
  return %0 : tensor<2x8x6xf16>
}

// -----

!win = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1], offset = 520>
!out = !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = []>
func.func @graph_window_past_the_end(%h: !cudnn.handle, %p: tensor<2x10x768xf16>) -> tensor<2x4x10x64xf16> {
  // expected-error @+1 {{expects operand #0, read as a window from offset 520 with strides [7680, 64, 768, 1], to hold every element its tensor_desc '!cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [7680, 64, 768, 1], offset = 520>' addresses, but got 'tensor<2x10x768xf16>'}}
  %0 = cudnn.build_and_exec_graph %h %p, %p, %p {
  ^bb0(%q: !win, %k: !win, %v: !win):
    %o = cudnn.sdpa(%q, %k, %v) scale = 0.125 type = f32 : !win, !win, !win -> !out
    cudnn.build_graph(%o) : !out
  } : tensor<2x10x768xf16>, tensor<2x10x768xf16>, tensor<2x10x768xf16> -> tensor<2x4x10x64xf16>
  return %0 : tensor<2x4x10x64xf16>
}

// -----

!d = !cudnn.tensor_desc<2x8xf16, alignment = 16, stride = []>
!o = !cudnn.tensor_desc<2x8xf16, alignment = 16, stride = [], offset = 16>
func.func @graph_result_with_offset(%h: !cudnn.handle, %x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{expects result #0 to start at its buffer's start, but its tensor_desc has offset 16}}
  %0 = cudnn.build_and_exec_graph %h %x {
  ^bb0(%a: !d):
    %r = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.0 : !d -> !o
    cudnn.build_graph(%r) : !o
  } : tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

// expected-error @+1 {{expects an offset >= 0, but got -4}}
func.func @f(%x: !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = [], offset = -4>) {
  return
}

// -----

func.func @convert_layout_shape(%x: tensor<2x8x4x4xf16>) {
  // expected-error @+1 {{expects the same shape and element type on both sides, but got 'tensor<2x8x4x4xf16>' and 'tensor<2x8x4x2xf16, #cudnn.channels_last>'}}
  %0 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x2xf16, #cudnn.channels_last>
  return
}

// -----

func.func @convert_layout_encoding(%x: tensor<2x8x4x4xf16>) {
  // expected-error @+1 {{expects no encoding or #cudnn.channels_last, but got "nhwc"}}
  %0 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, "nhwc">
  return
}

// -----

func.func @convert_layout_rank(%x: tensor<8x4xf16>) {
  // expected-error @+1 {{expects rank >= 3 for #cudnn.channels_last (N, C, spatial...), but got 'tensor<8x4xf16, #cudnn.channels_last>'}}
  %0 = cudnn.convert_layout %x : tensor<8x4xf16> -> tensor<8x4xf16, #cudnn.channels_last>
  return
}

// -----

func.func @layout_view_both_encoded(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) {
  // expected-error @+1 {{expects #cudnn.channels_last on exactly one side and no encoding on the other, but got 'tensor<2x8x4x4xf16, #cudnn.channels_last>' and 'tensor<2x4x4x8xf16, #cudnn.channels_last>'}}
  %0 = cudnn.layout_view %x : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16, #cudnn.channels_last>
  return
}

// -----

func.func @layout_view_rank(%x: tensor<8x4xf16, #cudnn.channels_last>) {
  // expected-error @+1 {{expects a static shape of rank >= 3 on the channels-last side, but got 'tensor<8x4xf16, #cudnn.channels_last>'}}
  %0 = cudnn.layout_view %x : tensor<8x4xf16, #cudnn.channels_last> -> tensor<8x4xf16>
  return
}

// -----

func.func @layout_view_order(%x: tensor<2x8x4x6xf16, #cudnn.channels_last>) {
  // expected-error @+1 {{expects the packed side to be 'tensor<2x4x6x8xf16>' (the channels-last side's storage order), but got 'tensor<2x8x4x6xf16>'}}
  %0 = cudnn.layout_view %x : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x8x4x6xf16>
  return
}

// -----

func.func @execute_graph_block_arguments(%h: !cudnn.handle, %x: memref<8xf32>, %y: memref<8xf32>) {
  // expected-error @+1 {{expects one block argument per ins buffer (1), but got 0}}
  "cudnn.execute_graph"(%h, %x, %y) ({
    "cudnn.build_graph"() : () -> ()
  }) {operandSegmentSizes = array<i32: 1, 1, 1>} : (!cudnn.handle, memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

func.func @execute_graph_outputs(%h: !cudnn.handle, %x: memref<8xf32>, %y: memref<8xf32>, %z: memref<8xf32>) {
  // expected-error @+1 {{expects cudnn.build_graph to name 2 outputs (one per outs buffer), but got 1}}
  cudnn.execute_graph %h ins(%x : memref<8xf32>) outs(%y, %z : memref<8xf32>, memref<8xf32>) {
  ^bb0(%a: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>):
    cudnn.build_graph(%a) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  }
  return
}

// -----

func.func @execute_graph_shape(%h: !cudnn.handle, %x: memref<8xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{expects outs buffer #0 to have the shape and element type of its tensor_desc}}
  cudnn.execute_graph %h ins(%x : memref<8xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>):
    cudnn.build_graph(%a) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
  }
  return
}

// -----

func.func @execute_graph_strides(%h: !cudnn.handle, %x: memref<1x4x2x2xf16>, %y: memref<1x4x2x2xf16>) {
  // expected-error @+1 {{expects operand #0 to have the strides of its tensor_desc [16, 1, 8, 4], but got 'memref<1x4x2x2xf16>'}}
  cudnn.execute_graph %h ins(%x : memref<1x4x2x2xf16>) outs(%y : memref<1x4x2x2xf16>) {
  ^bb0(%a: !cudnn.tensor_desc<1x4x2x2xf16, alignment = 16, stride = [16, 1, 8, 4]>):
    cudnn.build_graph(%a) : !cudnn.tensor_desc<1x4x2x2xf16, alignment = 16, stride = [16, 1, 8, 4]>
  }
  return
}

// -----

func.func @graph_body_with_a_foreign_op(%h: !cudnn.handle, %x: memref<4x4xf32>, %o: memref<4x4xf32>) {
  // expected-error @+1 {{expects only cudnn graph ops in the body, but got 'arith.constant'}}
  cudnn.execute_graph %h ins(%x : memref<4x4xf32>) outs(%o : memref<4x4xf32>) {
  ^bb0(%a: !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = []>):
    %c = arith.constant 1.0 : f32
    %1 = cudnn.pointwise_relu(%a) type = f32 : !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = []>
    cudnn.build_graph(%1) : !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = []>
  }
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects no params for forward_inference, but got 1}}
  cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%x : memref<10x4x16xf32>) y(%y : memref<10x4x32xf32>) hx(%s : memref<1x4x32xf32>) hy(%s : memref<1x4x32xf32>) weights(%w : memref<4800xf32>) params(%p : memref<96x16xf32>)
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects no cx for forward_inference of a non-lstm cell, but got one}}
  cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%x : memref<10x4x16xf32>) y(%y : memref<10x4x32xf32>) hx(%s : memref<1x4x32xf32>) hy(%s : memref<1x4x32xf32>) cx(%s : memref<1x4x32xf32>) cy(%s : memref<1x4x32xf32>) weights(%w : memref<4800xf32>)
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects x and dx of static rank-3 shape, but got 'memref<?x4x16xf32>'}}
  cudnn.rnn_execute %h forward_training #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%d : memref<?x4x16xf32>) y(%y : memref<10x4x32xf32>) hx(%s : memref<1x4x32xf32>) hy(%s : memref<1x4x32xf32>) weights(%w : memref<4800xf32>)
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects x for forward_inference, but got none}}
  cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> y(%y : memref<10x4x32xf32>) hx(%s : memref<1x4x32xf32>) hy(%s : memref<1x4x32xf32>) weights(%w : memref<4800xf32>)
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects params for pack_weights, but got 0}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4800xf32>)
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects no x for pack_weights, but got one}}
  cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x(%x : memref<10x4x16xf32>) weights(%w : memref<4800xf32>) params(%p : memref<96x16xf32>)
  return
}

// -----

func.func @f(%h: !cudnn.handle, %x: memref<10x4x16xf32>, %y: memref<10x4x32xf32>, %s: memref<1x4x32xf32>, %w: memref<4800xf32>, %p: memref<96x16xf32>, %d: memref<?x4x16xf32>) {
  // expected-error @+1 {{expects y for backward_data, but got none}}
  cudnn.rnn_execute %h backward_data #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights(%w : memref<4800xf32>)
  return
}

// -----

func.func @rnn_weight_space_strided_param(%h: !cudnn.handle, %a: memref<96x16xf32, strided<[32, 1]>>, %b: memref<96x32xf32>, %c: memref<96xf32>) {
  // expected-error @+1 {{expects parameters with the identity layout, but got 'memref<96x16xf32, strided<[32, 1]>>'}}
  %w = cudnn.rnn_weight_space %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %c : memref<96x16xf32, strided<[32, 1]>>, memref<96x32xf32>, memref<96xf32>, memref<96xf32>) : memref<4800xf32>
  return
}

// -----

func.func @rnn_weight_space_length(%h: !cudnn.handle, %a: memref<96x16xf32>, %b: memref<96x32xf32>, %c: memref<96xf32>) {
  // expected-error @+1 {{expects weights of type 'memref<4800xf32>' (one element per parameter element, static), but got 'memref<4608xf32>'}}
  %w = cudnn.rnn_weight_space %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b, %c, %c : memref<96x16xf32>, memref<96x32xf32>, memref<96xf32>, memref<96xf32>) : memref<4608xf32>
  return
}

// -----

func.func @rnn_weight_space_count(%h: !cudnn.handle, %a: memref<96x16xf32>, %b: memref<96x32xf32>) {
  // expected-error @+1 {{expects 4 parameters (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0), but got 2}}
  %w = cudnn.rnn_weight_space %h config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%a, %b : memref<96x16xf32>, memref<96x32xf32>) : memref<4800xf32>
  return
}

// -----

// cudnn.gemm / cudnn.execute_gemm (CudnnBlasOps.cpp), C1: f32 only.
func.func @gemm_f16(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.gemm' op expects f32 a, b and c, but got 'f16', 'f16' and 'f16'}}
  %c = cudnn.gemm %h(%a, %b) : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
  return
}

// -----

// C2: one rank, at least 2.
func.func @gemm_ranks(%a: tensor<2x16x32xf32>, %b: tensor<32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.gemm' op expects a, b and c of one rank >= 2, but got 3, 2 and 3}}
  %c = cudnn.gemm %h(%a, %b) : tensor<2x16x32xf32>, tensor<32x8xf32> -> tensor<2x16x8xf32>
  return
}

// -----

// C2: static shapes.
func.func @gemm_dynamic(%a: tensor<?x32xf32>, %b: tensor<32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.gemm' op expects static shapes, but got a of shape [?, 32]}}
  %c = cudnn.gemm %h(%a, %b) : tensor<?x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
  return
}

// -----

// C3: packed tensors.
func.func @gemm_encoded(%a: tensor<1x2x16x32xf32, #cudnn.channels_last>, %b: tensor<1x2x32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.gemm' op expects a without a layout encoding (packed), but got 'tensor<1x2x16x32xf32, #cudnn.channels_last>'}}
  %c = cudnn.gemm %h(%a, %b) : tensor<1x2x16x32xf32, #cudnn.channels_last>, tensor<1x2x32x8xf32> -> tensor<1x2x16x8xf32>
  return
}

// -----

// C3: row-major buffers.
func.func @execute_gemm_strided(%a: memref<16x32xf32, strided<[64, 1]>>, %b: memref<32x8xf32>, %c: memref<16x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.execute_gemm' op expects a with the identity layout (row-major), but got 'memref<16x32xf32, strided<[64, 1]>>'}}
  cudnn.execute_gemm %h(%a, %b) outs(%c) : memref<16x32xf32, strided<[64, 1]>>, memref<32x8xf32>, memref<16x8xf32>
  return
}

// -----

// C4: equal batch dims.
func.func @gemm_batch(%a: tensor<2x16x32xf32>, %b: tensor<3x32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.gemm' op expects b's batch dims to be c's [2], but got [3]}}
  %c = cudnn.gemm %h(%a, %b) : tensor<2x16x32xf32>, tensor<3x32x8xf32> -> tensor<2x16x8xf32>
  return
}

// -----

// C5: one k; transpose_b reads b's last dim as k.
func.func @gemm_k(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.gemm' op expects a's k (its last dim) to equal b's k (its last dim), but got 32 and 8}}
  %c = cudnn.gemm %h(%a, %b) {transpose_b} : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x32xf32>
  return
}

// -----

// C6: c is m x n.
func.func @execute_gemm_c(%a: memref<32x16xf32>, %b: memref<32x8xf32>, %c: memref<32x8xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.execute_gemm' op expects c's matrix to be m x n = [16, 8], but got [32, 8]}}
  cudnn.execute_gemm %h(%a, %b) outs(%c) {transpose_a} : memref<32x16xf32>, memref<32x8xf32>, memref<32x8xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16xf16>, %t1: tensor<2x8x16x64xf16>, %t2: tensor<2x8x16x64xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects q of rank 4 ([batch, heads, sequence, head dim]), but got [2, 8, 16]}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
  } : tensor<2x8x16xf16>, tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16> -> tensor<2x8x16x64xf16>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf32>, %t1: tensor<2x8x16x64xf32>, %t2: tensor<2x8x16x64xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>):
    // expected-error @+1 {{expects q of f16 or bf16 (cuDNN's attention inputs), but got 'f32'}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf32, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf16>, %t1: tensor<2x8x16x64xbf16>, %t2: tensor<2x8x16x64xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x16x64xbf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects q, k, v and o of one element type, 'f16', but got 'bf16'}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xbf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf16>, tensor<2x8x16x64xbf16>, tensor<2x8x16x64xf16> -> tensor<2x8x16x64xf16>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf16>, %t1: tensor<2x8x16x32xf16>, %t2: tensor<2x8x16x64xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x16x32xf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects k [B, Hk, Skv, D] and v [B, Hk, Skv, Dv] for q [B, H, S, D], but got q [2, 8, 16, 64], k [2, 8, 16, 32] and v [2, 8, 16, 64]}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x32xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf16>, tensor<2x8x16x32xf16>, tensor<2x8x16x64xf16> -> tensor<2x8x16x64xf16>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf16>, %t1: tensor<2x8x16x64xf16>, %t2: tensor<2x8x16x64xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects o of shape [2, 8, 16, 64], but got [2, 8, 16, 32]}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x32xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x32xf16, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16> -> tensor<2x8x16x32xf16>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf16>, %t1: tensor<2x3x16x64xf16>, %t2: tensor<2x3x16x64xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x3x16x64xf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x3x16x64xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects q's heads to be a multiple of k's, but got 8 and 3}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x3x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x3x16x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf16>, tensor<2x3x16x64xf16>, tensor<2x3x16x64xf16> -> tensor<2x8x16x64xf16>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf16>, %t1: tensor<2x8x24x64xf16>, %t2: tensor<2x8x24x64xf16>, %t3: tensor<1x8x16x16xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2, %t3 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x24x64xf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x24x64xf16, alignment = 16, stride = []>, %a3: !cudnn.tensor_desc<1x8x16x16xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects a bias that broadcasts to the scores [2, 8, 16, 24], but got [1, 8, 16, 16]}}
    %o = cudnn.sdpa(%a0, %a1, %a2) bias(%a3 : !cudnn.tensor_desc<1x8x16x16xf16, alignment = 16, stride = []>) scale = 0.125 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x24x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x24x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf16>, tensor<2x8x24x64xf16>, tensor<2x8x24x64xf16>, tensor<1x8x16x16xf16> -> tensor<2x8x16x64xf16>
  return
}

// -----

func.func @f(%t0: tensor<2x8x16x64xf16>, %t1: tensor<2x8x16x64xf16>, %t2: tensor<2x8x16x64xf16>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %g = cudnn.build_and_exec_graph %h %t0, %t1, %t2 {
  ^bb0(%a0: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a1: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, %a2: !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>):
    // expected-error @+1 {{expects a finite scale, but got INF}}
    %o = cudnn.sdpa(%a0, %a1, %a2) scale = 0x7FF0000000000000 type = f32 : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
    cudnn.build_graph(%o) : !cudnn.tensor_desc<2x8x16x64xf16, alignment = 16, stride = []>
  } : tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16> -> tensor<2x8x16x64xf16>
  return
}
