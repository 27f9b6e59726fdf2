// RUN: cudnn-opt %s | cudnn-opt | FileCheck %s
// RUN: cudnn-opt %s --mlir-print-op-generic | cudnn-opt | FileCheck %s
//
// Round trip of every form of cudnn-mlir's tcp extension ops.

// CHECK-LABEL: func.func @conv2d
// CHECK:         tcp.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
func.func @conv2d(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %0 = tcp.conv2d %x, %w
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// CHECK-LABEL: func.func @conv3d
// CHECK:         tcp.conv3d %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1, 1>, groups = 2 : i64, pad = array<i64: 1, 1, 0, 0, 1, 1>, stride = array<i64: 1, 2, 2>} : tensor<2x8x4x16x16xf16>, tensor<6x4x3x1x3xf16> -> tensor<2x6x4x8x8xf16>
func.func @conv3d(%x: tensor<2x8x4x16x16xf16>, %w: tensor<6x4x3x1x3xf16>) -> tensor<2x6x4x8x8xf16> {
  %0 = tcp.conv3d %x, %w
      {dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 1, 0, 0, 1, 1>, stride = array<i64: 1, 2, 2>, groups = 2 : i64}
      : tensor<2x8x4x16x16xf16>, tensor<6x4x3x1x3xf16> -> tensor<2x6x4x8x8xf16>
  return %0 : tensor<2x6x4x8x8xf16>
}

// CHECK-LABEL: func.func @conv_transpose2d
// CHECK:         tcp.conv_transpose2d %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, groups = 2 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<2x8x5x6xf16>, tensor<8x3x3x3xf16> -> tensor<2x6x10x12xf16>
func.func @conv_transpose2d(%x: tensor<2x8x5x6xf16>, %w: tensor<8x3x3x3xf16>) -> tensor<2x6x10x12xf16> {
  %0 = tcp.conv_transpose2d %x, %w
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>, groups = 2 : i64}
      : tensor<2x8x5x6xf16>, tensor<8x3x3x3xf16> -> tensor<2x6x10x12xf16>
  return %0 : tensor<2x6x10x12xf16>
}

// CHECK-LABEL: func.func @conv_transpose3d
// CHECK:         tcp.conv_transpose3d %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 2, 2, 2>} : tensor<1x8x3x4x5xf16>, tensor<8x4x2x2x2xf16> -> tensor<1x4x6x8x10xf16>
func.func @conv_transpose3d(%x: tensor<1x8x3x4x5xf16>, %w: tensor<8x4x2x2x2xf16>) -> tensor<1x4x6x8x10xf16> {
  %0 = tcp.conv_transpose3d %x, %w
      {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 2, 2, 2>}
      : tensor<1x8x3x4x5xf16>, tensor<8x4x2x2x2xf16> -> tensor<1x4x6x8x10xf16>
  return %0 : tensor<1x4x6x8x10xf16>
}

// CHECK-LABEL: func.func @conv2d_groups_strided_dynamic
// CHECK:         tcp.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 2, 2>, groups = 4 : i64, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x16x16xf16>, tensor<64x8x3x3xf16> -> tensor<?x64x8x8xf16>
func.func @conv2d_groups_strided_dynamic(%x: tensor<?x32x16x16xf16>, %w: tensor<64x8x3x3xf16>) -> tensor<?x64x8x8xf16> {
  %0 = tcp.conv2d %x, %w
      {dilation = array<i64: 2, 2>, groups = 4 : i64, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 2, 2>}
      : tensor<?x32x16x16xf16>, tensor<64x8x3x3xf16> -> tensor<?x64x8x8xf16>
  return %0 : tensor<?x64x8x8xf16>
}

// CHECK-LABEL: func.func @matmul
// CHECK:         tcp.matmul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = tcp.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @batch_matmul
// CHECK:         tcp.batch_matmul %{{.*}}, %{{.*}} : tensor<2x3x4x8xf16>, tensor<2x?x8x16xf16> -> tensor<2x3x4x16xf16>
func.func @batch_matmul(%a: tensor<2x3x4x8xf16>, %b: tensor<2x?x8x16xf16>) -> tensor<2x3x4x16xf16> {
  %0 = tcp.batch_matmul %a, %b : tensor<2x3x4x8xf16>, tensor<2x?x8x16xf16> -> tensor<2x3x4x16xf16>
  return %0 : tensor<2x3x4x16xf16>
}

// CHECK-LABEL: func.func @batch_norm
// CHECK:         tcp.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-05 : f64} : tensor<1x64x56x56xf16>, tensor<64xf32> -> tensor<1x64x56x56xf16>
func.func @batch_norm(%x: tensor<1x64x56x56xf16>, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                      %mean: tensor<64xf32>, %var: tensor<64xf32>) -> tensor<1x64x56x56xf16> {
  %0 = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64}
      : tensor<1x64x56x56xf16>, tensor<64xf32> -> tensor<1x64x56x56xf16>
  return %0 : tensor<1x64x56x56xf16>
}

// CHECK-LABEL: func.func @batch_norm_rank2
// CHECK:         tcp.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 0.000000e+00 : f64} : tensor<8x?xf32>, tensor<32xf32> -> tensor<8x?xf32>
func.func @batch_norm_rank2(%x: tensor<8x?xf32>, %p: tensor<32xf32>) -> tensor<8x?xf32> {
  %0 = tcp.batch_norm %x, %p, %p, %p, %p {epsilon = 0.0 : f64}
      : tensor<8x?xf32>, tensor<32xf32> -> tensor<8x?xf32>
  return %0 : tensor<8x?xf32>
}

// CHECK-LABEL: func.func @batch_norm_training
// CHECK:         %y, %saved_mean, %saved_invstd, %new_running_mean, %new_running_var = tcp.batch_norm_training %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64} : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
func.func @batch_norm_training(%x: tensor<8x64x28x28xf32>, %scale: tensor<64xf32>, %bias: tensor<64xf32>,
                               %mean: tensor<64xf32>, %var: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %y, %saved_mean, %saved_invstd, %new_mean, %new_var = tcp.batch_norm_training
      %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
      : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
  return %y, %saved_mean, %saved_invstd, %new_mean, %new_var
      : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// CHECK-LABEL: func.func @batch_norm_backward
// CHECK:         %dx, %dscale, %dbias = tcp.batch_norm_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
func.func @batch_norm_backward(%dy: tensor<8x64x28x28xf32>, %x: tensor<8x64x28x28xf32>, %scale: tensor<64xf32>,
                               %saved_mean: tensor<64xf32>, %saved_invstd: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %saved_mean, %saved_invstd
      : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
  return %dx, %dscale, %dbias : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>
}

// The default training = true is not printed; eval mode's training = false is.
// CHECK-LABEL: func.func @batch_norm_backward_eval
// CHECK:         tcp.batch_norm_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {training = false} : tensor<4x8xf16>, tensor<8xf32> -> tensor<4x8xf16>
func.func @batch_norm_backward_eval(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>, %p: tensor<8xf32>)
    -> (tensor<4x8xf16>, tensor<8xf32>, tensor<8xf32>) {
  %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %p, %p, %p {training = false}
      : tensor<4x8xf16>, tensor<8xf32> -> tensor<4x8xf16>
  return %dx, %dscale, %dbias : tensor<4x8xf16>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @layer_norm
// CHECK:         tcp.layer_norm %{{.*}} scale(%{{.*}} : tensor<16xf32>) bias(%{{.*}} : tensor<16xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
func.func @layer_norm(%x: tensor<2x8x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<2x8x16xf32> {
  %0 = tcp.layer_norm %x scale(%g : tensor<16xf32>) bias(%b : tensor<16xf32>)
      {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64}
      : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @layer_norm_no_affine
// CHECK:         tcp.layer_norm %{{.*}} {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64} : tensor<?x8x16xf32> -> tensor<?x8x16xf32>
func.func @layer_norm_no_affine(%x: tensor<?x8x16xf32>) -> tensor<?x8x16xf32> {
  %0 = tcp.layer_norm %x {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
      : tensor<?x8x16xf32> -> tensor<?x8x16xf32>
  return %0 : tensor<?x8x16xf32>
}

// CHECK-LABEL: func.func @layer_norm_bias_only
// CHECK:         tcp.layer_norm %{{.*}} bias(%{{.*}} : tensor<16xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
func.func @layer_norm_bias_only(%x: tensor<2x8x16xf32>, %b: tensor<16xf32>) -> tensor<2x8x16xf32> {
  %0 = tcp.layer_norm %x bias(%b : tensor<16xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64}
      : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @layer_norm_training
// CHECK:         %y, %mean, %rstd = tcp.layer_norm_training %{{.*}} scale(%{{.*}} : tensor<8x16xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>, tensor<2x1x1xf32>
func.func @layer_norm_training(%x: tensor<2x8x16xf32>, %g: tensor<8x16xf32>)
    -> (tensor<2x8x16xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) {
  %y, %mean, %rstd = tcp.layer_norm_training %x scale(%g : tensor<8x16xf32>)
      {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
      : tensor<2x8x16xf32> -> tensor<2x8x16xf32>, tensor<2x1x1xf32>
  return %y, %mean, %rstd : tensor<2x8x16xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>
}

// CHECK-LABEL: func.func @max_pool2d
// CHECK:         tcp.max_pool2d %{{.*}} {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
func.func @max_pool2d(%x: tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32> {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// ceil_mode rounds up: rows ceil((6 - 2*(2-1) - 1) / 2) + 1 = 3, columns
// ceil((7 - 3) / 2) + 1 = 3.
// CHECK-LABEL: func.func @max_pool2d_dilated_ceil
// CHECK:         tcp.max_pool2d %{{.*}} {ceil_mode, dilation = array<i64: 2, 1>, kernel_size = array<i64: 2, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<?x3x6x7xf32> -> tensor<?x3x3x3xf32>
func.func @max_pool2d_dilated_ceil(%x: tensor<?x3x6x7xf32>) -> tensor<?x3x3x3xf32> {
  %0 = tcp.max_pool2d %x {ceil_mode, dilation = array<i64: 2, 1>, kernel_size = array<i64: 2, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : tensor<?x3x6x7xf32> -> tensor<?x3x3x3xf32>
  return %0 : tensor<?x3x3x3xf32>
}

// PyTorch drops a ceil-mode window that would start in the padding:
// 5x5, k=2, s=2, pad 1: ceil((5+2-2)/2)+1 = 4, but (4-1)*2 = 6 >= 5+1, so 3.
// CHECK-LABEL: func.func @max_pool2d_ceil_drops_padding_window
// CHECK:         tcp.max_pool2d %{{.*}} {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
func.func @max_pool2d_ceil_drops_padding_window(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = tcp.max_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// CHECK-LABEL: func.func @avg_pool2d
// CHECK:         tcp.avg_pool2d %{{.*}} {count_include_pad, kernel_size = array<i64: 7, 7>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
func.func @avg_pool2d(%x: tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32> {
  %0 = tcp.avg_pool2d %x {count_include_pad, kernel_size = array<i64: 7, 7>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  return %0 : tensor<1x512x1x1xf32>
}

// CHECK-LABEL: func.func @avg_pool2d_exclude_pad_ceil
// CHECK:         tcp.avg_pool2d %{{.*}} {ceil_mode, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<2x8x10x?xbf16> -> tensor<2x8x6x?xbf16>
func.func @avg_pool2d_exclude_pad_ceil(%x: tensor<2x8x10x?xbf16>) -> tensor<2x8x6x?xbf16> {
  %0 = tcp.avg_pool2d %x {ceil_mode, kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : tensor<2x8x10x?xbf16> -> tensor<2x8x6x?xbf16>
  return %0 : tensor<2x8x6x?xbf16>
}

// CHECK-LABEL: func.func @reduce_sum
// CHECK:         tcp.reduce_sum %{{.*}} {axes = array<i64: 0, 2>} : tensor<4x?x6xi32> -> tensor<?xi32>
func.func @reduce_sum(%x: tensor<4x?x6xi32>) -> tensor<?xi32> {
  %0 = tcp.reduce_sum %x {axes = array<i64: 0, 2>} : tensor<4x?x6xi32> -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// CHECK-LABEL: func.func @reduce_mean
// CHECK:         tcp.reduce_mean %{{.*}} {axes = array<i64: 2, 3>, keep_dims} : tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>
func.func @reduce_mean(%x: tensor<1x64x7x7xf32>) -> tensor<1x64x1x1xf32> {
  %0 = tcp.reduce_mean %x {axes = array<i64: 2, 3>, keep_dims} : tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>
  return %0 : tensor<1x64x1x1xf32>
}

// CHECK-LABEL: func.func @reduce_max
// CHECK:         tcp.reduce_max %{{.*}} {axes = array<i64: 1>} : tensor<4x16xf16> -> tensor<4xf16>
func.func @reduce_max(%x: tensor<4x16xf16>) -> tensor<4xf16> {
  %0 = tcp.reduce_max %x {axes = array<i64: 1>} : tensor<4x16xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @reduce_min
// CHECK:         tcp.reduce_min %{{.*}} {axes = array<i64: 0>, keep_dims} : tensor<16xf32> -> tensor<1xf32>
func.func @reduce_min(%x: tensor<16xf32>) -> tensor<1xf32> {
  %0 = tcp.reduce_min %x {axes = array<i64: 0>, keep_dims} : tensor<16xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// The default form ("none", exact) is printed without the attribute.
// CHECK-LABEL: func.func @gelu
// CHECK:         tcp.gelu %{{.*}} : tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK:         tcp.gelu %{{.*}} : tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK:         tcp.gelu %{{.*}} {approximate = "tanh"} : tensor<8x?xf32> -> tensor<8x?xf32>
func.func @gelu(%x: tensor<8x?xf32>) -> (tensor<8x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %0 = tcp.gelu %x : tensor<8x?xf32> -> tensor<8x?xf32>
  %1 = tcp.gelu %x {approximate = "none"} : tensor<8x?xf32> -> tensor<8x?xf32>
  %2 = tcp.gelu %x {approximate = "tanh"} : tensor<8x?xf32> -> tensor<8x?xf32>
  return %0, %1, %2 : tensor<8x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func.func @gelu_types
// CHECK:         tcp.gelu %{{.*}} {approximate = "tanh"} : tensor<2x3xf16> -> tensor<2x3xf16>
// CHECK:         tcp.gelu %{{.*}} : tensor<4xbf16> -> tensor<4xbf16>
// CHECK:         tcp.gelu %{{.*}} : tensor<f64> -> tensor<f64>
func.func @gelu_types(%h: tensor<2x3xf16>, %b: tensor<4xbf16>, %d: tensor<f64>)
    -> (tensor<2x3xf16>, tensor<4xbf16>, tensor<f64>) {
  %0 = tcp.gelu %h {approximate = "tanh"} : tensor<2x3xf16> -> tensor<2x3xf16>
  %1 = tcp.gelu %b : tensor<4xbf16> -> tensor<4xbf16>
  %2 = tcp.gelu %d : tensor<f64> -> tensor<f64>
  return %0, %1, %2 : tensor<2x3xf16>, tensor<4xbf16>, tensor<f64>
}

// CHECK-LABEL: func.func @transpose
// CHECK:         tcp.transpose %{{.*}} {permutation = array<i64: 0, 2, 3, 1>} : tensor<1x64x?x56xf32> -> tensor<1x?x56x64xf32>
func.func @transpose(%x: tensor<1x64x?x56xf32>) -> tensor<1x?x56x64xf32> {
  %0 = tcp.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : tensor<1x64x?x56xf32> -> tensor<1x?x56x64xf32>
  return %0 : tensor<1x?x56x64xf32>
}

// CHECK-LABEL: func.func @compare_select_bitwise
// CHECK:         %[[LT:.*]] = tcp.compare %{{.*}}, %{{.*}} {predicate = #tcp<predicate lt>} : tensor<2x4xf16>, tensor<2x4xf16> -> tensor<2x4xi1>
// CHECK:         %[[GE:.*]] = tcp.compare %{{.*}}, %{{.*}} {in_int_signedness = #tcp<signedness Unsigned>, predicate = #tcp<predicate ge>} : tensor<2x4xi64>, tensor<2x4xi64> -> tensor<2x4xi1>
// CHECK:         %[[AND:.*]] = tcp.bitwise_and %[[LT]], %[[GE]] : tensor<2x4xi1>, tensor<2x4xi1> -> tensor<2x4xi1>
// CHECK:         %[[OR:.*]] = tcp.bitwise_or %[[AND]], %{{.*}} : tensor<2x4xi1>, tensor<2x4xi1> -> tensor<2x4xi1>
// CHECK:         %[[XOR:.*]] = tcp.bitwise_xor %[[OR]], %{{.*}} : tensor<2x4xi1>, tensor<2x4xi1> -> tensor<2x4xi1>
// CHECK:         tcp.select %[[XOR]], %{{.*}}, %{{.*}} : tensor<2x4xi1>, tensor<2x4xf16>, tensor<2x4xf16> -> tensor<2x4xf16>
func.func @compare_select_bitwise(%a: tensor<2x4xf16>, %b: tensor<2x4xf16>, %i: tensor<2x4xi64>, %m: tensor<2x4xi1>) -> tensor<2x4xf16> {
  %0 = tcp.compare %a, %b {predicate = #tcp<predicate lt>} : tensor<2x4xf16>, tensor<2x4xf16> -> tensor<2x4xi1>
  %1 = tcp.compare %i, %i {predicate = #tcp<predicate ge>, in_int_signedness = #tcp<signedness Unsigned>} : tensor<2x4xi64>, tensor<2x4xi64> -> tensor<2x4xi1>
  %2 = tcp.bitwise_and %0, %1 : tensor<2x4xi1>, tensor<2x4xi1> -> tensor<2x4xi1>
  %3 = tcp.bitwise_or %2, %m : tensor<2x4xi1>, tensor<2x4xi1> -> tensor<2x4xi1>
  %4 = tcp.bitwise_xor %3, %m : tensor<2x4xi1>, tensor<2x4xi1> -> tensor<2x4xi1>
  %5 = tcp.select %4, %a, %b : tensor<2x4xi1>, tensor<2x4xf16>, tensor<2x4xf16> -> tensor<2x4xf16>
  return %5 : tensor<2x4xf16>
}
