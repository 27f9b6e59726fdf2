// RUN: cudnn-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of cudnn-mlir's tcp extension ops.

func.func @conv2d_rank(%x: tensor<1x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects a rank-4 input (NCHW / KCRS), but got 'tensor<1x8x8xf32>'}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_stride_count(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects 2 stride values [h, w], but got 1}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1>} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_dilation_count(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects 2 dilation values [h, w], but got 3}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_pad_count(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects 4 pad values [top, bottom, left, right], but got 2}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_zero(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects groups >= 1, but got 0}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, groups = 0 : i64} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_input(%x: tensor<1x8x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{expects input channels divisible by groups 3, but got 8}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, groups = 3 : i64} : tensor<1x8x8x8xf32>, tensor<6x2x3x3xf32> -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv2d_groups_output(%x: tensor<1x8x8x8xf32>, %w: tensor<5x4x3x3xf32>) -> tensor<1x5x6x6xf32> {
  // expected-error @+1 {{expects output channels (weight dim 0) divisible by groups 2, but got 5}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, groups = 2 : i64} : tensor<1x8x8x8xf32>, tensor<5x4x3x3xf32> -> tensor<1x5x6x6xf32>
  return %0 : tensor<1x5x6x6xf32>
}

// -----

func.func @conv2d_weight_channels(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects weight dim 1 to be input channels / groups = 4, but got 8}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, groups = 2 : i64} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_window(%x: tensor<1x8x2x2xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x1x1xf32> {
  // expected-error @+1 {{expects stride/dilation >= 1, pad >= 0 and a window that fits the padded input, but got input [1, 8, 2, 2], weight [4, 8, 3, 3], stride [1, 1], pad [0, 0, 0, 0], dilation [1, 1]}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x2x2xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x1x1xf32>
  return %0 : tensor<1x4x1x1xf32>
}

// -----

func.func @conv2d_result(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{expects result shape [1, 4, 6, 6], but got [1, 4, 8, 8]}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @conv3d_rank(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{expects a rank-5 input (NCDHW / KCTRS), but got 'tensor<1x8x8x8xf32>'}}
  %0 = tcp.conv3d %x, %w {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv3d_pad_count(%x: tensor<1x8x4x8x8xf32>, %w: tensor<4x8x3x3x3xf32>) -> tensor<1x4x2x6x6xf32> {
  // expected-error @+1 {{expects 6 pad values [front, back, top, bottom, left, right], but got 4}}
  %0 = tcp.conv3d %x, %w {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : tensor<1x8x4x8x8xf32>, tensor<4x8x3x3x3xf32> -> tensor<1x4x2x6x6xf32>
  return %0 : tensor<1x4x2x6x6xf32>
}

// -----

func.func @conv3d_stride_count(%x: tensor<1x8x4x8x8xf32>, %w: tensor<4x8x3x3x3xf32>) -> tensor<1x4x2x6x6xf32> {
  // expected-error @+1 {{expects 3 stride values [d, h, w], but got 2}}
  %0 = tcp.conv3d %x, %w {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x4x8x8xf32>, tensor<4x8x3x3x3xf32> -> tensor<1x4x2x6x6xf32>
  return %0 : tensor<1x4x2x6x6xf32>
}

// -----

func.func @conv3d_result(%x: tensor<1x8x4x8x8xf32>, %w: tensor<4x8x3x3x3xf32>) -> tensor<1x4x4x6x6xf32> {
  // expected-error @+1 {{expects result shape [1, 4, 2, 6, 6], but got [1, 4, 4, 6, 6]}}
  %0 = tcp.conv3d %x, %w {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : tensor<1x8x4x8x8xf32>, tensor<4x8x3x3x3xf32> -> tensor<1x4x4x6x6xf32>
  return %0 : tensor<1x4x4x6x6xf32>
}

// -----

func.func @convt_weight_channels(%x: tensor<1x8x4x4xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x4x9x9xf32> {
  // expected-error @+1 {{expects weight dim 0 to be the input channels 8, but got 6}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x8x4x4xf32>, tensor<6x4x3x3xf32> -> tensor<1x4x9x9xf32>
  return %0 : tensor<1x4x9x9xf32>
}

// -----

func.func @convt_groups(%x: tensor<1x9x4x4xf32>, %w: tensor<9x4x3x3xf32>) -> tensor<1x8x9x9xf32> {
  // expected-error @+1 {{expects input channels (weight dim 0) divisible by groups 2, but got 9}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, groups = 2 : i64} : tensor<1x9x4x4xf32>, tensor<9x4x3x3xf32> -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

func.func @convt_result_channels(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x6x9x9xf32> {
  // expected-error @+1 {{expects result channels weight dim 1 * groups = 8, but got 6}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, groups = 2 : i64} : tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32> -> tensor<1x6x9x9xf32>
  return %0 : tensor<1x6x9x9xf32>
}

// -----

func.func @convt_batch(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<2x4x9x9xf32> {
  // expected-error @+1 {{expects the result's batch 1, but got 2}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32> -> tensor<2x4x9x9xf32>
  return %0 : tensor<2x4x9x9xf32>
}

// -----

func.func @convt_spatial(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x4x11x9xf32> {
  // expected-error @+1 {{expects result spatial dim 0 in [9, 10] ((in - 1) * stride - pads + dilation * (k - 1) + 1, plus an output padding below the stride), but got 11}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32> -> tensor<1x4x11x9xf32>
  return %0 : tensor<1x4x11x9xf32>
}

// -----

func.func @convt_stride_zero(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x4x9x9xf32> {
  // expected-error @+1 {{expects stride/dilation >= 1 and pad >= 0, but got stride [0, 2], pad [0, 0, 0, 0], dilation [1, 1]}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 0, 2>} : tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32> -> tensor<1x4x9x9xf32>
  return %0 : tensor<1x4x9x9xf32>
}

// -----

func.func @convt3d_spatial(%x: tensor<1x8x3x4x4xf32>, %w: tensor<8x4x2x2x2xf32>) -> tensor<1x4x6x8x10xf32> {
  // expected-error @+1 {{expects result spatial dim 2 in [8, 9] ((in - 1) * stride - pads + dilation * (k - 1) + 1, plus an output padding below the stride), but got 10}}
  %0 = tcp.conv_transpose3d %x, %w {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 2, 2, 2>} : tensor<1x8x3x4x4xf32>, tensor<8x4x2x2x2xf32> -> tensor<1x4x6x8x10xf32>
  return %0 : tensor<1x4x6x8x10xf32>
}

// -----

func.func @convt_rank(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3xf32>) -> tensor<1x4x9x9xf32> {
  // expected-error @+1 {{expects a rank-4 weight (NCHW / CKRS), but got 'tensor<8x4x3xf32>'}}
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x8x4x4xf32>, tensor<8x4x3xf32> -> tensor<1x4x9x9xf32>
  return %0 : tensor<1x4x9x9xf32>
}

// -----

func.func @conv2d_element_type(%x: tensor<1x8x8x8xf32>, %w: tensor<4x8x3x3xf16>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{failed to verify that all of {input, weight, out} have same element type}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x8x8xf32>, tensor<4x8x3x3xf16> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @matmul_rank(%x: tensor<2x4x8xf32>, %y: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expects lhs, rhs and result of rank 2, but got 'tensor<2x4x8xf32>', 'tensor<8x16xf32>' and 'tensor<4x16xf32>'}}
  %0 = tcp.matmul %x, %y : tensor<2x4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_k(%x: tensor<4x8xf32>, %y: tensor<7x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expects the contraction dimension K of lhs [4, 8] and rhs [7, 16] to match, but got 8 and 7}}
  %0 = tcp.matmul %x, %y : tensor<4x8xf32>, tensor<7x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_result(%x: tensor<4x8xf32>, %y: tensor<8x16xf32>) -> tensor<16x4xf32> {
  // expected-error @+1 {{expects result shape [4, 16], but got [16, 4]}}
  %0 = tcp.matmul %x, %y : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

func.func @matmul_element_type(%x: tensor<4x8xf16>, %y: tensor<8x16xf16>) -> tensor<4x16xf32> {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs, out} have same element type}}
  %0 = tcp.matmul %x, %y : tensor<4x8xf16>, tensor<8x16xf16> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch_matmul_rank(%x: tensor<4x8xf32>, %y: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expects lhs, rhs and result of one rank >= 3, but got 'tensor<4x8xf32>', 'tensor<8x16xf32>' and 'tensor<4x16xf32>'}}
  %0 = tcp.batch_matmul %x, %y : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch_matmul_batch(%x: tensor<2x4x8xf32>, %y: tensor<3x8x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{expects equal batch dimensions, but got lhs [2, 4, 8] and rhs [3, 8, 16]}}
  %0 = tcp.batch_matmul %x, %y : tensor<2x4x8xf32>, tensor<3x8x16xf32> -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_k(%x: tensor<?x4x8xf32>, %y: tensor<2x7x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{expects the contraction dimension K of lhs [?, 4, 8] and rhs [2, 7, 16] to match, but got 8 and 7}}
  %0 = tcp.batch_matmul %x, %y : tensor<?x4x8xf32>, tensor<2x7x16xf32> -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_result(%x: tensor<?x4x8xf32>, %y: tensor<2x8x16xf32>) -> tensor<3x4x16xf32> {
  // expected-error @+1 {{expects result shape [2, 4, 16], but got [3, 4, 16]}}
  %0 = tcp.batch_matmul %x, %y : tensor<?x4x8xf32>, tensor<2x8x16xf32> -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

func.func @batch_norm_x_rank(%x: tensor<8xf32>, %p: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects x of rank >= 2 (N x C x ...), but got 'tensor<8xf32>'}}
  %0 = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64} : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @batch_norm_param_rank(%x: tensor<2x8x4x4xf32>, %p: tensor<1x8xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects rank-1 per-channel tensors, but got 'tensor<1x8xf32>'}}
  %0 = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64} : tensor<2x8x4x4xf32>, tensor<1x8xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

func.func @batch_norm_channels(%x: tensor<2x8x4x4xf32>, %p: tensor<16xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects per-channel tensors of x's channel count 8 (x dim 1), but got 16}}
  %0 = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64} : tensor<2x8x4x4xf32>, tensor<16xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

func.func @batch_norm_epsilon(%x: tensor<2x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects epsilon >= 0, but got -1.000000e-05}}
  %0 = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = -1.000000e-05 : f64} : tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

func.func @batch_norm_param_types(%x: tensor<2x8xf32>, %p: tensor<8xf32>, %q: tensor<8xf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{failed to verify that all of {scale, bias, running_mean, running_var} have same type}}
  %0 = "tcp.batch_norm"(%x, %p, %q, %p, %p) {epsilon = 1.0e-05 : f64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf16>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @batch_norm_training_momentum(%x: tensor<2x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects momentum in [0, 1], but got 1.5}}
  %y, %m, %s, %rm, %rv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64, momentum = 1.500000e+00 : f64} : tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

func.func @batch_norm_training_channels(%x: tensor<2x8x4x4xf32>, %p: tensor<4xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects per-channel tensors of x's channel count 8 (x dim 1), but got 4}}
  %y, %m, %s, %rm, %rv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64} : tensor<2x8x4x4xf32>, tensor<4xf32> -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

func.func @batch_norm_training_epsilon(%x: tensor<2x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects epsilon >= 0, but got -1}}
  %y, %m, %s, %rm, %rv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = -1.0 : f64, momentum = 1.000000e-01 : f64} : tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

func.func @batch_norm_backward_channels(%x: tensor<2x8x4x4xf32>, %p: tensor<3xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{expects per-channel tensors of x's channel count 8 (x dim 1), but got 3}}
  %dx, %ds, %db = tcp.batch_norm_backward %x, %x, %p, %p, %p : tensor<2x8x4x4xf32>, tensor<3xf32> -> tensor<2x8x4x4xf32>
  return %dx : tensor<2x8x4x4xf32>
}

// -----

func.func @layer_norm_rank(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{expects normalized_rank in [1, 3] (the rank of x), but got 4}}
  %0 = tcp.layer_norm %x  {epsilon = 1.000000e-05 : f64, normalized_rank = 4 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @layer_norm_rank_zero(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{expects normalized_rank in [1, 3] (the rank of x), but got 0}}
  %0 = tcp.layer_norm %x  {epsilon = 1.000000e-05 : f64, normalized_rank = 0 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @layer_norm_scale(%x: tensor<2x8x16xf32>, %g: tensor<16xf32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{expects scale of the normalized shape [8, 16], but got [16]}}
  %0 = tcp.layer_norm %x scale(%g : tensor<16xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @layer_norm_bias(%x: tensor<2x8x16xf32>, %g: tensor<8xf32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{expects bias of the normalized shape [16], but got [8]}}
  %0 = tcp.layer_norm %x bias(%g : tensor<8xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{expects epsilon >= 0, but got -1}}
  %0 = tcp.layer_norm %x  {epsilon = -1.0 : f64, normalized_rank = 1 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @layer_norm_training_stats(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{expects mean and rstd of shape [2, 8, 1], but got [2, 1, 1]}}
  %y, %m, %r = tcp.layer_norm_training %x {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>, tensor<2x1x1xf32>
  return %y : tensor<2x8x16xf32>
}

// -----

func.func @max_pool2d_rank(%x: tensor<8x8xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects a rank-4 (NCHW) input, but got 'tensor<8x8xf32>'}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @max_pool2d_result_rank(%x: tensor<1x1x8x8xf32>) -> tensor<1x4x4xf32> {
  // expected-error @+1 {{expects a rank-4 (NCHW) result, but got 'tensor<1x4x4xf32>'}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// -----

func.func @max_pool2d_kernel_count(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects 2 kernel_size values [h, w], but got 1}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @max_pool2d_stride_count(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects 2 stride values [h, w], but got 3}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @max_pool2d_dilation_count(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects 2 dilation values [h, w], but got 0}}
  %0 = tcp.max_pool2d %x {dilation = array<i64>, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @avg_pool2d_pad_count(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects 4 pad values [top, bottom, left, right], but got 2}}
  %0 = tcp.avg_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @max_pool2d_window(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects kernel_size/stride/dilation >= 1, pad >= 0 and a window that fits the padded input, but got input [1, 1, 8, 8], kernel_size [2, 2], stride [0, 2], pad [0, 0, 0, 0], dilation [1, 1]}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 0, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @avg_pool2d_window(%x: tensor<1x1x2x8xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error @+1 {{expects kernel_size/stride/dilation >= 1, pad >= 0 and a window that fits the padded input, but got input [1, 1, 2, 8], kernel_size [3, 3], stride [1, 1], pad [0, 0, -1, 0], dilation [1, 1]}}
  %0 = tcp.avg_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, -1, 0>, stride = array<i64: 1, 1>} : tensor<1x1x2x8xf32> -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @max_pool2d_result(%x: tensor<1x1x9x9xf32>) -> tensor<1x1x5x5xf32> {
  // expected-error @+1 {{expects result shape [1, 1, 4, 4], but got [1, 1, 5, 5]}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x9x9xf32> -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// -----

func.func @max_pool2d_ceil_result(%x: tensor<1x1x9x9xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{expects result shape [1, 1, 5, 5], but got [1, 1, 4, 4]}}
  %0 = tcp.max_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x9x9xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @avg_pool2d_element_type(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf16> {
  // expected-error @+1 {{failed to verify that all of {in, out} have same element type}}
  %0 = tcp.avg_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x4x4xf16>
  return %0 : tensor<1x1x4x4xf16>
}

// -----

func.func @reduce_sum_no_axes(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expects at least one axis, but got none}}
  %0 = tcp.reduce_sum %x {axes = array<i64>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reduce_mean_axis_range(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects axes in [0, 2), but got 2}}
  %0 = tcp.reduce_mean %x {axes = array<i64: 2>} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_max_axis_negative(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects axes in [0, 2), but got -1}}
  %0 = tcp.reduce_max %x {axes = array<i64: -1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_min_unsorted(%x: tensor<4x8xf32>) -> tensor<f32> {
  // expected-error @+1 {{expects strictly increasing axes, but got [1, 0]}}
  %0 = tcp.reduce_min %x {axes = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_sum_duplicate(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects strictly increasing axes, but got [1, 1]}}
  %0 = tcp.reduce_sum %x {axes = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_sum_result(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{expects result shape [4], but got [4, 1]}}
  %0 = tcp.reduce_sum %x {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @reduce_mean_keep_dims_result(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects result shape [4, 1], but got [4]}}
  %0 = tcp.reduce_mean %x {axes = array<i64: 1>, keep_dims} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_mean_int(%x: tensor<4x8xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor of floating-point values}}
  %0 = tcp.reduce_mean %x {axes = array<i64: 1>} : tensor<4x8xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @gelu_approximate(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects approximate to be "none" or "tanh", but got "foo"}}
  %0 = tcp.gelu %x {approximate = "foo"} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @gelu_approximate_case(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects approximate to be "none" or "tanh", but got "Tanh"}}
  %0 = tcp.gelu %x {approximate = "Tanh"} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @gelu_approximate_not_string(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'approximate' failed to satisfy constraint: string attribute}}
  %0 = tcp.gelu %x {approximate = 1 : i64} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @gelu_int(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<8xi32>'}}
  %0 = tcp.gelu %x : tensor<8xi32> -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @gelu_f8(%x: tensor<8xf8E4M3FN>) -> tensor<8xf8E4M3FN> {
  // expected-error @+1 {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<8xf8E4M3FN>'}}
  %0 = tcp.gelu %x : tensor<8xf8E4M3FN> -> tensor<8xf8E4M3FN>
  return %0 : tensor<8xf8E4M3FN>
}

// -----

// One type in and out: a different element type or shape is refused.
func.func @gelu_result_type(%x: tensor<8xf32>) -> tensor<8xf16> {
  // expected-error @+1 {{failed to verify that all of {in, out} have same type}}
  %0 = tcp.gelu %x : tensor<8xf32> -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

func.func @transpose_count(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @+1 {{expects a permutation of 3 values (the input rank), but got 2}}
  %0 = tcp.transpose %x {permutation = array<i64: 1, 0>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3x4xf32>) -> tensor<2x2x3xf32> {
  // expected-error @+1 {{expects a permutation of [0, 3), but got [0, 0, 1]}}
  %0 = tcp.transpose %x {permutation = array<i64: 0, 0, 1>} : tensor<2x3x4xf32> -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{expects a permutation of [0, 3), but got [0, 3, 1]}}
  %0 = tcp.transpose %x {permutation = array<i64: 0, 3, 1>} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @transpose_result(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{expects result shape [4, 2, 3], but got [2, 4, 3]}}
  %0 = tcp.transpose %x {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @compare_float_signedness(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{expects in_int_signedness only for integer operands wider than i1, but got 'f32'}}
  %0 = tcp.compare %a, %a {predicate = #tcp<predicate eq>, in_int_signedness = #tcp<signedness Signed>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_signless(%a: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{expects in_int_signedness Signed or Unsigned (an order to compare by), but got Signless}}
  %0 = tcp.compare %a, %a {predicate = #tcp<predicate lt>, in_int_signedness = #tcp<signedness Signless>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_mixed_types(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xi1> {
  // expected-error @+1 {{all of {in1, in2} have same type}}
  %0 = "tcp.compare"(%a, %b) {predicate = #tcp<predicate lt>} : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result_type(%a: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+1 {{result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = "tcp.compare"(%a, %a) {predicate = #tcp<predicate lt>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @select_types(%m: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{all of {on_true, on_false, out} have same type}}
  %0 = "tcp.select"(%m, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitwise_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 must be ranked tensor of signless integer values}}
  %0 = "tcp.bitwise_and"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
