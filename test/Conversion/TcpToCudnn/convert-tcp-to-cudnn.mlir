// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn=split-fallback=false | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn="alignment=1 split-fallback=false" | FileCheck %s --check-prefix=SEED

func.func @conv_bias_relu(%x: tensor<1x64x56x56xf16>, %w: tensor<64x64x3x3xf16>, %bias: tensor<1x64x1x1xf16>) -> tensor<1x64x56x56xf16> {
  %0 = tcp.isolated_group %x, %w, %bias attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x64x56x56xf16>, %b: tensor<64x64x3x3xf16>, %c: tensor<1x64x1x1xf16>):
    %c56 = arith.constant 56 : index
    %1 = tcp.conv2d %a, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x64x56x56xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x56x56xf16>
    %2 = tcp.broadcast %c, %c56, %c56 {axes = [2, 3]} : tensor<1x64x1x1xf16>, index, index -> tensor<1x64x56x56xf16>
    %3 = tcp.add %1, %2 : tensor<1x64x56x56xf16>, tensor<1x64x56x56xf16> -> tensor<1x64x56x56xf16>
    %4 = tcp.clamp %3 {min_float = 0.000000e+00 : f32} : tensor<1x64x56x56xf16> -> tensor<1x64x56x56xf16>
    tcp.yield %4 : tensor<1x64x56x56xf16>
  } : tensor<1x64x56x56xf16>, tensor<64x64x3x3xf16>, tensor<1x64x1x1xf16> -> tensor<1x64x56x56xf16>
  return %0 : tensor<1x64x56x56xf16>
}

// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64x56x56xf16>, %[[W:.*]]: tensor<64x64x3x3xf16>, %[[B:.*]]: tensor<1x64x1x1xf16>)
// CHECK:         %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph %[[H]] %[[X]], %[[W]], %[[B]] {
// CHECK:         ^bb0(%[[A:.*]]: !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>, %[[F:.*]]: !cudnn.tensor_desc<64x64x3x3xf16, alignment = 16, stride = []>, %[[C:.*]]: !cudnn.tensor_desc<1x64x1x1xf16, alignment = 16, stride = []>):
// CHECK-NOT:       broadcast
// CHECK:           %[[CONV:.*]] = cudnn.convolution(%[[A]], %[[F]]) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<64x64x3x3xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>
// CHECK:           %[[ADD:.*]] = cudnn.pointwise_add(%[[CONV]], %[[C]]) type = f32 : !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<1x64x1x1xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>
// CHECK:           %[[RELU:.*]] = cudnn.pointwise_relu(%[[ADD]]) type = f32 lower_clip = 0.000000e+00 : !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[RELU]]) : !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = []>
// CHECK:         } : tensor<1x64x56x56xf16>, tensor<64x64x3x3xf16>, tensor<1x64x1x1xf16> -> tensor<1x64x56x56xf16>
// CHECK:         return %[[G]]

// -----

func.func @conv_asymmetric_pad(%x: tensor<1x4x8x8xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = tcp.isolated_group %x, %w attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x8x8xf32>, %b: tensor<8x2x3x3xf32>):
    %1 = tcp.conv2d %a, %b {dilation = array<i64: 1, 1>, groups = 2 : i64, pad = array<i64: 0, 1, 1, 0>, stride = array<i64: 2, 2>}
        : tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32> -> tensor<1x8x4x4xf32>
    tcp.yield %1 : tensor<1x8x4x4xf32>
  } : tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32> -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// pad [top, bottom, left, right] = [0, 1, 1, 0]: pre [top, left], post [bottom, right];
// the group count stays implied by the weight shape.
// CHECK-LABEL: func.func @conv_asymmetric_pad
// CHECK:         cudnn.convolution(%{{.*}}, %{{.*}}) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2 spatial_stride = [2, 2] pre_padding = [0, 1] post_padding = [1, 0] dilation = [1, 1] : !cudnn.tensor_desc<1x4x8x8xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<8x2x3x3xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x4x4xf32, alignment = 16, stride = []>

// -----

func.func @clamp_both(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8x16xf32>):
    %1 = tcp.clamp %a {min_float = 0.000000e+00 : f32, max_float = 6.000000e+00 : f32} : tensor<8x16xf32> -> tensor<8x16xf32>
    tcp.yield %1 : tensor<8x16xf32>
  } : tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @clamp_both
// CHECK:         cudnn.pointwise_relu(%{{.*}}) type = f32 lower_clip = 0.000000e+00 upper_clip = 6.000000e+00 : !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>

// -----

func.func @clamp_max_only(%x: tensor<8x16xf64>) -> tensor<8x16xf64> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8x16xf64>):
    %1 = tcp.clamp %a {max_float = 6.000000e+00 : f32} : tensor<8x16xf64> -> tensor<8x16xf64>
    tcp.yield %1 : tensor<8x16xf64>
  } : tensor<8x16xf64> -> tensor<8x16xf64>
  return %0 : tensor<8x16xf64>
}

// CHECK-LABEL: func.func @clamp_max_only
// CHECK:         cudnn.pointwise_relu(%{{.*}}) type = f64 lower_clip = -3.40282347E+38 upper_clip = 6.000000e+00 : !cudnn.tensor_desc<8x16xf64, alignment = 16, stride = []> -> !cudnn.tensor_desc<8x16xf64, alignment = 16, stride = []>

// -----

func.func @pointwise_chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tcp.isolated_group %x, %y attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>):
    %1 = tcp.sub %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
    %2 = tcp.mul %1, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
    %3 = tcp.divf %2, %a : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
    %4 = tcp.sigmoid %3 : tensor<8x16xf32> -> tensor<8x16xf32>
    %5 = tcp.tanh %4 : tensor<8x16xf32> -> tensor<8x16xf32>
    %6 = tcp.neg %5 : tensor<8x16xf32> -> tensor<8x16xf32>
    %7 = tcp.abs %6 : tensor<8x16xf32> -> tensor<8x16xf32>
    %8 = tcp.sqrt %7 : tensor<8x16xf32> -> tensor<8x16xf32>
    %9 = tcp.log %8 : tensor<8x16xf32> -> tensor<8x16xf32>
    %10 = tcp.ceil %9 : tensor<8x16xf32> -> tensor<8x16xf32>
    %11 = tcp.floor %10 : tensor<8x16xf32> -> tensor<8x16xf32>
    %12 = tcp.sin %11 : tensor<8x16xf32> -> tensor<8x16xf32>
    %13 = tcp.cos %12 : tensor<8x16xf32> -> tensor<8x16xf32>
    %14 = tcp.exp %13 : tensor<8x16xf32> -> tensor<8x16xf32>
    tcp.yield %14 : tensor<8x16xf32>
  } : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @pointwise_chain
// CHECK:         ^bb0(%[[A:.*]]: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>, %[[B:.*]]: !cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>):
// CHECK:           %[[V0:.*]] = cudnn.pointwise_sub(%[[A]], %[[B]]) type = f32
// CHECK:           %[[V1:.*]] = cudnn.pointwise_mul(%[[V0]], %[[B]]) type = f32
// CHECK:           %[[V2:.*]] = cudnn.pointwise_div(%[[V1]], %[[A]]) type = f32
// CHECK:           %[[V3:.*]] = cudnn.pointwise_sigmoid(%[[V2]]) type = f32
// CHECK:           %[[V4:.*]] = cudnn.pointwise_tanh(%[[V3]]) type = f32
// CHECK:           %[[V5:.*]] = cudnn.pointwise_neg(%[[V4]]) type = f32
// CHECK:           %[[V6:.*]] = cudnn.pointwise_abs(%[[V5]]) type = f32
// CHECK:           %[[V7:.*]] = cudnn.pointwise_sqrt(%[[V6]]) type = f32
// CHECK:           %[[V8:.*]] = cudnn.pointwise_log(%[[V7]]) type = f32
// CHECK:           %[[V9:.*]] = cudnn.pointwise_ceil(%[[V8]]) type = f32
// CHECK:           %[[V10:.*]] = cudnn.pointwise_floor(%[[V9]]) type = f32
// CHECK:           %[[V11:.*]] = cudnn.pointwise_sin(%[[V10]]) type = f32
// CHECK:           %[[V12:.*]] = cudnn.pointwise_cos(%[[V11]]) type = f32
// CHECK:           %[[V13:.*]] = cudnn.pointwise_exp(%[[V12]]) type = f32
// CHECK:           cudnn.build_graph(%[[V13]])

// -----

func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<2x4x8xbf16>, %d: tensor<2x8x16xbf16>) -> (tensor<4x16xf16>, tensor<2x4x16xbf16>) {
  %0:2 = tcp.isolated_group %a, %b, %c, %d attributes {group_type = "cudnn"} {
  ^bb0(%x: tensor<4x8xf16>, %y: tensor<8x16xf16>, %z: tensor<2x4x8xbf16>, %w: tensor<2x8x16xbf16>):
    %1 = tcp.matmul %x, %y : tensor<4x8xf16>, tensor<8x16xf16> -> tensor<4x16xf16>
    %2 = tcp.batch_matmul %z, %w : tensor<2x4x8xbf16>, tensor<2x8x16xbf16> -> tensor<2x4x16xbf16>
    tcp.yield %1, %2 : tensor<4x16xf16>, tensor<2x4x16xbf16>
  } : tensor<4x8xf16>, tensor<8x16xf16>, tensor<2x4x8xbf16>, tensor<2x8x16xbf16> -> tensor<4x16xf16>, tensor<2x4x16xbf16>
  return %0#0, %0#1 : tensor<4x16xf16>, tensor<2x4x16xbf16>
}

// CHECK-LABEL: func.func @matmul
// CHECK:         %[[G:.*]]:2 = cudnn.build_and_exec_graph
// CHECK:         ^bb0(%[[A:.*]]: !cudnn.tensor_desc<4x8xf16, alignment = 16, stride = []>, %[[B:.*]]: !cudnn.tensor_desc<8x16xf16, alignment = 16, stride = []>, %[[C:.*]]: !cudnn.tensor_desc<2x4x8xbf16, alignment = 16, stride = []>, %[[D:.*]]: !cudnn.tensor_desc<2x8x16xbf16, alignment = 16, stride = []>):
// CHECK:           %[[M:.*]] = cudnn.matmul(%[[A]], %[[B]]) type = f32 : !cudnn.tensor_desc<4x8xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<8x16xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<4x16xf16, alignment = 16, stride = []>
// CHECK:           %[[BM:.*]] = cudnn.matmul(%[[C]], %[[D]]) type = f32 : !cudnn.tensor_desc<2x4x8xbf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16xbf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x4x16xbf16, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[M]], %[[BM]])
// CHECK:         } : tensor<4x8xf16>, tensor<8x16xf16>, tensor<2x4x8xbf16>, tensor<2x8x16xbf16> -> tensor<4x16xf16>, tensor<2x4x16xbf16>
// CHECK:         return %[[G]]#0, %[[G]]#1

// -----

// A linear layer's weight, transposed for the matmul: the graph reads the
// weight itself through transposed strides, and the transpose (a copy of the
// whole weight on every call) is left for dead (the pipelines' canonicalizer
// erases it: test/Pipelines/linear-weight-transposed-view.mlir). Batched matmuls likewise
// (last two dims). A transpose with another user, or of other dims, stays.
func.func @matmul_transposed_weight(%x: tensor<4x8xf16>, %w: tensor<16x8xf16>, %q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>) -> (tensor<4x16xf16>, tensor<2x4x4xf16>) {
  %wt = tcp.transpose %w {permutation = array<i64: 1, 0>} : tensor<16x8xf16> -> tensor<8x16xf16>
  %kt = tcp.transpose %k {permutation = array<i64: 0, 2, 1>} : tensor<2x4x8xf16> -> tensor<2x8x4xf16>
  %0:2 = tcp.isolated_group %x, %wt, %q, %kt attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<2x4x8xf16>, %d: tensor<2x8x4xf16>):
    %1 = tcp.matmul %a, %b : tensor<4x8xf16>, tensor<8x16xf16> -> tensor<4x16xf16>
    %2 = tcp.batch_matmul %c, %d : tensor<2x4x8xf16>, tensor<2x8x4xf16> -> tensor<2x4x4xf16>
    tcp.yield %1, %2 : tensor<4x16xf16>, tensor<2x4x4xf16>
  } : tensor<4x8xf16>, tensor<8x16xf16>, tensor<2x4x8xf16>, tensor<2x8x4xf16> -> tensor<4x16xf16>, tensor<2x4x4xf16>
  return %0#0, %0#1 : tensor<4x16xf16>, tensor<2x4x4xf16>
}

// CHECK-LABEL: func.func @matmul_transposed_weight
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf16>, %[[W:.*]]: tensor<16x8xf16>, %[[Q:.*]]: tensor<2x4x8xf16>, %[[K:.*]]: tensor<2x4x8xf16>)
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[W]], %[[Q]], %[[K]] {
// CHECK:         ^bb0(%{{.*}}: !cudnn.tensor_desc<4x8xf16, alignment = 16, stride = []>, %[[B:.*]]: !cudnn.tensor_desc<8x16xf16, alignment = 16, stride = [1, 8]>, %{{.*}}: !cudnn.tensor_desc<2x4x8xf16, alignment = 16, stride = []>, %[[D:.*]]: !cudnn.tensor_desc<2x8x4xf16, alignment = 16, stride = [32, 1, 8]>):
// CHECK:           cudnn.matmul(%{{.*}}, %[[B]])
// CHECK:           cudnn.matmul(%{{.*}}, %[[D]])
// CHECK:         } : tensor<4x8xf16>, tensor<16x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16> -> tensor<4x16xf16>, tensor<2x4x4xf16>

// -----

func.func @matmul_transpose_kept(%x: tensor<4x8xf16>, %w: tensor<16x8xf16>) -> (tensor<4x16xf16>, tensor<8x16xf16>) {
  %wt = tcp.transpose %w {permutation = array<i64: 1, 0>} : tensor<16x8xf16> -> tensor<8x16xf16>
  %0:2 = tcp.isolated_group %x, %wt attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>):
    %1 = tcp.matmul %a, %b : tensor<4x8xf16>, tensor<8x16xf16> -> tensor<4x16xf16>
    %2 = tcp.abs %b : tensor<8x16xf16> -> tensor<8x16xf16>
    tcp.yield %1, %2 : tensor<4x16xf16>, tensor<8x16xf16>
  } : tensor<4x8xf16>, tensor<8x16xf16> -> tensor<4x16xf16>, tensor<8x16xf16>
  return %0#0, %0#1 : tensor<4x16xf16>, tensor<8x16xf16>
}

// CHECK-LABEL: func.func @matmul_transpose_kept
// CHECK:         %[[T:.*]] = tcp.transpose
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %{{.*}}, %[[T]] {
// CHECK:         ^bb0(%{{.*}}: !cudnn.tensor_desc<4x8xf16, alignment = 16, stride = []>, %{{.*}}: !cudnn.tensor_desc<8x16xf16, alignment = 16, stride = []>):

// -----

// tcp.gelu: the exact form is GELU_FWD, the tanh form GELU_APPROX_TANH_FWD.
func.func @matmul_bias_gelu(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %bias: tensor<1x8xf16>) -> (tensor<16x8xf16>, tensor<16x8xf16>) {
  %0:2 = tcp.isolated_group %a, %b, %bias attributes {group_type = "cudnn"} {
  ^bb0(%x: tensor<16x32xf16>, %y: tensor<32x8xf16>, %z: tensor<1x8xf16>):
    %c16 = arith.constant 16 : index
    %1 = tcp.matmul %x, %y : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
    %2 = tcp.broadcast %z, %c16 {axes = [0]} : tensor<1x8xf16>, index -> tensor<16x8xf16>
    %3 = tcp.add %1, %2 : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
    %4 = tcp.gelu %3 : tensor<16x8xf16> -> tensor<16x8xf16>
    %5 = tcp.gelu %3 {approximate = "tanh"} : tensor<16x8xf16> -> tensor<16x8xf16>
    tcp.yield %4, %5 : tensor<16x8xf16>, tensor<16x8xf16>
  } : tensor<16x32xf16>, tensor<32x8xf16>, tensor<1x8xf16> -> tensor<16x8xf16>, tensor<16x8xf16>
  return %0#0, %0#1 : tensor<16x8xf16>, tensor<16x8xf16>
}

// CHECK-LABEL: func.func @matmul_bias_gelu
// CHECK:         %[[G:.*]]:2 = cudnn.build_and_exec_graph
// CHECK:           %[[M:.*]] = cudnn.matmul
// CHECK:           %[[Z:.*]] = cudnn.pointwise_add(%[[M]], %{{.*}}) type = f32
// CHECK:           %[[E:.*]] = cudnn.pointwise_gelu(%[[Z]]) type = f32 : !cudnn.tensor_desc<16x8xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<16x8xf16, alignment = 16, stride = []>
// CHECK:           %[[T:.*]] = cudnn.pointwise_gelu_approx_tanh(%[[Z]]) type = f32 : !cudnn.tensor_desc<16x8xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<16x8xf16, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[E]], %[[T]])
// CHECK:         return %[[G]]#0, %[[G]]#1

// -----

func.func @reduce(%x: tensor<2x8x16xf32>) -> (tensor<2x1x16xf32>, tensor<2xf32>, tensor<2x8xf32>, tensor<8x16xf32>) {
  %0:4 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x16xf32>):
    %1 = tcp.reduce_sum %a {axes = array<i64: 1>, keep_dims} : tensor<2x8x16xf32> -> tensor<2x1x16xf32>
    %2 = tcp.reduce_mean %a {axes = array<i64: 1, 2>} : tensor<2x8x16xf32> -> tensor<2xf32>
    %3 = tcp.reduce_max %a {axes = array<i64: 2>} : tensor<2x8x16xf32> -> tensor<2x8xf32>
    %4 = tcp.reduce_min %a {axes = array<i64: 0>} : tensor<2x8x16xf32> -> tensor<8x16xf32>
    tcp.yield %1, %2, %3, %4 : tensor<2x1x16xf32>, tensor<2xf32>, tensor<2x8xf32>, tensor<8x16xf32>
  } : tensor<2x8x16xf32> -> tensor<2x1x16xf32>, tensor<2xf32>, tensor<2x8xf32>, tensor<8x16xf32>
  return %0#0, %0#1, %0#2, %0#3 : tensor<2x1x16xf32>, tensor<2xf32>, tensor<2x8xf32>, tensor<8x16xf32>
}

// CHECK-LABEL: func.func @reduce
// CHECK:         %[[G:.*]]:4 = cudnn.build_and_exec_graph
// CHECK:           %[[S:.*]] = cudnn.reduction(%{{.*}}) mode = add type = f32 : !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x1x16xf32, alignment = 16, stride = []>
// CHECK:           %[[M:.*]] = cudnn.reduction(%{{.*}}) mode = avg type = f32 : !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x1x1xf32, alignment = 16, stride = []>
// CHECK:           %[[X:.*]] = cudnn.reduction(%{{.*}}) mode = max type = f32 : !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x1xf32, alignment = 16, stride = []>
// CHECK:           %[[N:.*]] = cudnn.reduction(%{{.*}}) mode = min type = f32 : !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[S]], %[[M]], %[[X]], %[[N]])
// CHECK:         } : tensor<2x8x16xf32> -> tensor<2x1x16xf32>, tensor<2x1x1xf32>, tensor<2x8x1xf32>, tensor<1x8x16xf32>
// CHECK:         %[[C1:.*]] = tensor.collapse_shape %[[G]]#1 {{\[}}[0, 1, 2]] : tensor<2x1x1xf32> into tensor<2xf32>
// CHECK:         %[[C2:.*]] = tensor.collapse_shape %[[G]]#2 {{\[}}[0], [1, 2]] : tensor<2x8x1xf32> into tensor<2x8xf32>
// CHECK:         %[[C3:.*]] = tensor.collapse_shape %[[G]]#3 {{\[}}[0, 1], [2]] : tensor<1x8x16xf32> into tensor<8x16xf32>
// CHECK:         return %[[G]]#0, %[[C1]], %[[C2]], %[[C3]]

// -----

func.func @reduce_all(%x: tensor<2x8xf32>) -> tensor<f32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8xf32>):
    %1 = tcp.reduce_sum %a {axes = array<i64: 0, 1>} : tensor<2x8xf32> -> tensor<f32>
    tcp.yield %1 : tensor<f32>
  } : tensor<2x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reduce_all
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph
// CHECK:           cudnn.reduction(%{{.*}}) mode = add type = f32 : !cudnn.tensor_desc<2x8xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x1xf32, alignment = 16, stride = []>
// CHECK:         } : tensor<2x8xf32> -> tensor<1x1xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[G]] [] : tensor<1x1xf32> into tensor<f32>
// CHECK:         return %[[C]]

// -----

func.func @batch_norm(%x: tensor<2x8x4x4xf16>, %s: tensor<8xf32>, %b: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<2x8x4x4xf16> {
  %0 = tcp.isolated_group %x, %s, %b, %m, %v attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x4x4xf16>, %sc: tensor<8xf32>, %bi: tensor<8xf32>, %me: tensor<8xf32>, %va: tensor<8xf32>):
    %1 = tcp.batch_norm %a, %sc, %bi, %me, %va {epsilon = 1.000000e-05 : f64}
        : tensor<2x8x4x4xf16>, tensor<8xf32> -> tensor<2x8x4x4xf16>
    tcp.yield %1 : tensor<2x8x4x4xf16>
  } : tensor<2x8x4x4xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x8x4x4xf16>
  return %0 : tensor<2x8x4x4xf16>
}

// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x4x4xf16>, %[[S:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[V:.*]]: tensor<8xf32>)
// CHECK:         %[[SE:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
// CHECK:         %[[BE:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[ME:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[VE:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<1x1x1x1xf32>
// CHECK:         %[[H:.*]] = cudnn.get_current_handle
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph %[[H]] %[[X]], %[[SE]], %[[BE]], %[[ME]], %[[VE]], %[[EPS]] {
// CHECK:         ^bb0(%[[XD:.*]]: !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>, %[[SD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[BD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[MD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[VD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[ED:.*]]: !cudnn.tensor_desc<1x1x1x1xf32, alignment = 16, stride = []>):
// CHECK:           %[[VPE:.*]] = cudnn.pointwise_add(%[[VD]], %[[ED]]) type = f32 : !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x1x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
// CHECK:           %[[INV:.*]] = cudnn.pointwise_rsqrt(%[[VPE]]) type = f32
// CHECK:           %[[Y:.*]] = cudnn.norm_forward(%[[XD]]) mode = batch phase = inference type = f32 epsilon = 9.99999974E-6 scale = %[[SD]] bias = %[[BD]] mean = %[[MD]] inv_variance = %[[INV]] : {{.*}} -> !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[Y]])
// CHECK:         } : tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x1x1x1xf32> -> tensor<2x8x4x4xf16>
// CHECK:         return %[[G]]

// -----

// Batch norm training: cuDNN's norm forward in the training phase, with the
// running statistics and momentum; the [C] tensors are [1, C, 1, 1]
// descriptors, expanded on the way in and collapsed on the way out.
func.func @batch_norm_training(%x: tensor<2x8x4x4xf16>, %s: tensor<8xf32>, %b: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>)
    -> (tensor<2x8x4x4xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:5 = tcp.isolated_group %x, %s, %b, %m, %v attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x4x4xf16>, %sc: tensor<8xf32>, %bi: tensor<8xf32>, %me: tensor<8xf32>, %va: tensor<8xf32>):
    %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %a, %sc, %bi, %me, %va {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
        : tensor<2x8x4x4xf16>, tensor<8xf32> -> tensor<2x8x4x4xf16>
    tcp.yield %y, %sm, %si, %nm, %nv : tensor<2x8x4x4xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  } : tensor<2x8x4x4xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
      -> tensor<2x8x4x4xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x8x4x4xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x4x4xf16>, %[[S:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[V:.*]]: tensor<8xf32>)
// CHECK:         %[[SE:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
// CHECK:         %[[BE:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[ME:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[VE:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[G:.*]]:5 = cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[SE]], %[[BE]], %[[ME]], %[[VE]] {
// CHECK:         ^bb0(%[[XD:.*]]: !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []>, %[[SD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[BD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[MD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[VD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
// CHECK:           %[[Y:.*]], %[[SM:.*]], %[[SI:.*]], %[[NM:.*]], %[[NV:.*]] = cudnn.norm_forward(%[[XD]]) mode = batch phase = training type = f32 epsilon = 9.99999974E-6 momentum = 1.000000e-01 scale = %[[SD]] bias = %[[BD]] running_mean = %[[MD]] running_var = %[[VD]] : {{.*}} -> !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = []> saved_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> saved_inv_variance !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> next_running_mean !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> next_running_var !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[Y]], %[[SM]], %[[SI]], %[[NM]], %[[NV]])
// CHECK:         } : tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x4x4xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
// CHECK:         %[[C1:.*]] = tensor.collapse_shape %[[G]]#1 {{\[}}[0, 1, 2, 3]] : tensor<1x8x1x1xf32> into tensor<8xf32>
// CHECK:         %[[C2:.*]] = tensor.collapse_shape %[[G]]#2 {{\[}}[0, 1, 2, 3]]
// CHECK:         %[[C3:.*]] = tensor.collapse_shape %[[G]]#3 {{\[}}[0, 1, 2, 3]]
// CHECK:         %[[C4:.*]] = tensor.collapse_shape %[[G]]#4 {{\[}}[0, 1, 2, 3]]
// CHECK:         return %[[G]]#0, %[[C1]], %[[C2]], %[[C3]], %[[C4]]

// -----

// Batch norm backward of a [N, C] tensor (BatchNorm1d): dy, x and dx are
// [N, C, 1, 1] descriptors (the same batch norm, in cuDNN's 4-D form).
// dbias, which tcp drops, is still a graph output (cuDNN writes every result
// of a norm), written to a buffer of its own that no group result stands for.
func.func @batch_norm_backward(%dy: tensor<16x8xf32>, %x: tensor<16x8xf32>, %s: tensor<8xf32>, %m: tensor<8xf32>, %i: tensor<8xf32>)
    -> (tensor<16x8xf32>, tensor<8xf32>) {
  %0:2 = tcp.isolated_group %dy, %x, %s, %m, %i attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>, %sc: tensor<8xf32>, %me: tensor<8xf32>, %in: tensor<8xf32>):
    %dx, %ds, %db = tcp.batch_norm_backward %a, %b, %sc, %me, %in
        : tensor<16x8xf32>, tensor<8xf32> -> tensor<16x8xf32>
    tcp.yield %dx, %ds : tensor<16x8xf32>, tensor<8xf32>
  } : tensor<16x8xf32>, tensor<16x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<16x8xf32>, tensor<8xf32>
  return %0#0, %0#1 : tensor<16x8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @batch_norm_backward
// CHECK-SAME:    (%[[DY:.*]]: tensor<16x8xf32>, %[[X:.*]]: tensor<16x8xf32>, %[[S:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[I:.*]]: tensor<8xf32>)
// CHECK:         %[[DYE:.*]] = tensor.expand_shape %[[DY]] {{\[}}[0], [1, 2, 3]] output_shape [16, 8, 1, 1] : tensor<16x8xf32> into tensor<16x8x1x1xf32>
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2, 3]] output_shape [16, 8, 1, 1]
// CHECK:         %[[SE:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[ME:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[I]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1]
// CHECK:         %[[G:.*]]:3 = cudnn.build_and_exec_graph %{{.*}} %[[DYE]], %[[XE]], %[[SE]], %[[ME]], %[[IE]] {
// CHECK:         ^bb0(%[[DYD:.*]]: !cudnn.tensor_desc<16x8x1x1xf32, alignment = 16, stride = []>, %[[XD:.*]]: !cudnn.tensor_desc<16x8x1x1xf32, alignment = 16, stride = []>, %[[SD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[MD:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, %[[ID:.*]]: !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>):
// CHECK:           %[[DX:.*]], %[[DS:.*]], %[[DB:.*]] = cudnn.norm_backward(%[[DYD]], %[[XD]]) mode = batch type = f32 scale = %[[SD]] mean = %[[MD]] inv_variance = %[[ID]] : {{.*}} -> !cudnn.tensor_desc<16x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[DX]], %[[DS]], %[[DB]])
// CHECK:         } : {{.*}} -> tensor<16x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>
// CHECK:         %[[CDX:.*]] = tensor.collapse_shape %[[G]]#0 {{\[}}[0], [1, 2, 3]] : tensor<16x8x1x1xf32> into tensor<16x8xf32>
// CHECK:         %[[CDS:.*]] = tensor.collapse_shape %[[G]]#1 {{\[}}[0, 1, 2, 3]] : tensor<1x8x1x1xf32> into tensor<8xf32>
// CHECK-NOT:     collapse_shape
// CHECK:         return %[[CDX]], %[[CDS]]

// -----

func.func @layer_norm(%x: tensor<2x8x16xf32>, %g: tensor<8x16xf32>) -> tensor<2x8x16xf32> {
  %0 = tcp.isolated_group %x, %g attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x16xf32>, %ga: tensor<8x16xf32>):
    %1 = tcp.layer_norm %a scale(%ga : tensor<8x16xf32>) {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
        : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    tcp.yield %1 : tensor<2x8x16xf32>
  } : tensor<2x8x16xf32>, tensor<8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x16xf32>, %[[S:.*]]: tensor<8x16xf32>)
// CHECK:         %[[SE:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<1x8x16xf32>
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[SE]], %[[ZERO]] {
// CHECK:         ^bb0(%[[XD:.*]]: !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []>, %[[SD:.*]]: !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>, %[[BD:.*]]: !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>):
// CHECK:           %[[Y:.*]] = cudnn.norm_forward(%[[XD]]) mode = layer phase = inference type = f32 epsilon = 9.99999974E-6 scale = %[[SD]] bias = %[[BD]] : !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16xf32, alignment = 16, stride = []>
// CHECK:           cudnn.build_graph(%[[Y]])

// -----

func.func @const_input(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x4xf32>):
    %k = tcp.const {value = dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>} : tensor<1x4xf32>
    %c2 = arith.constant 2 : index
    %b = tcp.broadcast %k, %c2 {axes = [0]} : tensor<1x4xf32>, index -> tensor<2x4xf32>
    %1 = tcp.mul %a, %b : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    tcp.yield %1 : tensor<2x4xf32>
  } : tensor<2x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @const_input
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4xf32>)
// CHECK:         %[[K:.*]] = tcp.const {value = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<1x4xf32>} : tensor<1x4xf32>
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[K]] {
// CHECK:         ^bb0(%[[A:.*]]: !cudnn.tensor_desc<2x4xf32, alignment = 16, stride = []>, %[[KD:.*]]: !cudnn.tensor_desc<1x4xf32, alignment = 16, stride = []>):
// CHECK-NOT:       arith.constant
// CHECK:           %[[M:.*]] = cudnn.pointwise_mul(%[[A]], %[[KD]]) type = f32
// CHECK:           cudnn.build_graph(%[[M]])

// -----

func.func @other_group_left_alone(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "codegen"} {
  ^bb0(%a: tensor<8xf32>):
    %1 = tcp.round %a : tensor<8xf32> -> tensor<8xf32>
    tcp.yield %1 : tensor<8xf32>
  } : tensor<8xf32> -> tensor<8xf32>
  %2 = tcp.tanh %0 : tensor<8xf32> -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// CHECK-LABEL: func.func @other_group_left_alone
// CHECK-NOT:     cudnn.
// CHECK:         %[[G:.*]] = tcp.isolated_group %{{.*}} attributes {group_type = "codegen"} {
// CHECK:           tcp.round
// CHECK:           tcp.yield
// CHECK:         %[[T:.*]] = tcp.tanh %[[G]]
// CHECK:         return %[[T]]

// -----

// The seed's stage 2 as the seed writes it: no group_type, so the support
// table decides (it takes a ReLU before a conv).
func.func @seed_stage2(%39: tensor<1x64x56x56xf32>, %15: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %40 = tcp.isolated_group %39, %15 {
  ^bb0(%arg1: tensor<1x64x56x56xf32>, %arg2: tensor<64x64x3x3xf32>):
      %171 = tcp.clamp %arg1 {min_float = 0.000000e+00 : f32}
              : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
      %172 = tcp.conv2d %171, %arg2
              {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
              : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
      tcp.yield %172 : tensor<1x64x56x56xf32>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %40 : tensor<1x64x56x56xf32>
}

// The seed's stage 3 (test/Examples/seed-ir.mlir), line for line.
// SEED-LABEL: func.func @seed_stage2
// SEED-SAME:    (%[[X:.*]]: tensor<1x64x56x56xf32>, %[[W:.*]]: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
// SEED-NEXT:    %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// SEED-NEXT:    %[[G:.*]] = cudnn.build_and_exec_graph %[[H]] %[[X]], %[[W]] {
// SEED-NEXT:    ^bb0(%[[A1:.*]]: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>, %[[A2:.*]]: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []>):
// SEED-NEXT:      %[[R:.*]] = cudnn.pointwise_relu(%[[A1]]) type = f32 lower_clip = 0.000000e+00 : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
// SEED-NEXT:      %[[C:.*]] = cudnn.convolution(%[[R]], %[[A2]]) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>, !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
// SEED-NEXT:      cudnn.build_graph(%[[C]]) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
// SEED-NEXT:    } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
// SEED-NEXT:    return %[[G]] : tensor<1x64x56x56xf32>
// SEED-NEXT:  }

// CHECK-LABEL: func.func @seed_stage2
// CHECK:         cudnn.pointwise_relu
// CHECK-SAME:      alignment = 16

// -----

// A ceil-mode max pool: the extra bottom/right padding makes cuDNN's floor
// formula give the ceil extent (9 -> 5 with window 2, stride 2).
func.func @max_pool_ceil(%x: tensor<1x4x9x9xf16>) -> tensor<1x4x5x5xf16> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x9x9xf16>):
    %1 = tcp.max_pool2d %a {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x4x9x9xf16> -> tensor<1x4x5x5xf16>
    tcp.yield %1 : tensor<1x4x5x5xf16>
  } : tensor<1x4x9x9xf16> -> tensor<1x4x5x5xf16>
  return %0 : tensor<1x4x5x5xf16>
}

// CHECK-LABEL: func.func @max_pool_ceil
// CHECK:         cudnn.resample(%{{.*}}) mode = max type = f32 window = [2, 2] spatial_stride = [2, 2] pre_padding = [0, 0] post_padding = [1, 1] : !cudnn.tensor_desc<1x4x9x9xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x4x5x5xf16, alignment = 16, stride = []>

// -----

// Dynamic spatial sizes (without ceil_mode): the padding is tcp's own
// (found by the fuzz test under UBSan: the ceil-mode formula overflowed on
// the dynamic-size sentinel).
func.func @max_pool_dynamic(%x: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x1x?x?xf32>):
    %1 = tcp.max_pool2d %a {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
    tcp.yield %1 : tensor<1x1x?x?xf32>
  } : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

// CHECK-LABEL: func.func @max_pool_dynamic
// CHECK:         cudnn.resample(%{{.*}}) mode = max type = f32 window = [2, 2] spatial_stride = [2, 2] pre_padding = [0, 0] post_padding = [0, 0] : !cudnn.tensor_desc<1x1x?x?xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x1x?x?xf32, alignment = 16, stride = []>

// -----

func.func @avg_pool(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x8x8xf32>):
    %1 = tcp.avg_pool2d %a {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
    tcp.yield %1 : tensor<1x4x4x4xf32>
  } : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @avg_pool
// CHECK:         cudnn.resample(%{{.*}}) mode = avg_exclude_padding type = f32 window = [3, 3] spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [0, 0]

// -----

// A folded batch norm's scale and shift are computed in f32 and rounded to
// f16 outside the group: the graph reads the f32 tensors instead (cuDNN
// applies them in its f32 compute type, as PyTorch's batch norm does), so
// no channel carries one rounding error on all its elements. The rounded
// copies are left for dead.
func.func @wide_epilogue_params(%x: tensor<1x8x4x4xf16>, %w: tensor<8x8x3x3xf16>, %s: tensor<8xf32>, %t: tensor<8xf32>) -> tensor<1x8x4x4xf16> {
  %s16 = tcp.cast %s : tensor<8xf32> -> tensor<8xf16>
  %se = tensor.expand_shape %s16 [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf16> into tensor<1x8x1x1xf16>
  %te = tensor.expand_shape %t [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
  %t16 = tcp.cast %te : tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf16>
  %0 = tcp.isolated_group %x, %w, %se, %t16 attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x8x4x4xf16>, %b: tensor<8x8x3x3xf16>, %c: tensor<1x8x1x1xf16>, %d: tensor<1x8x1x1xf16>):
    %c4 = arith.constant 4 : index
    %1 = tcp.conv2d %a, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x8x4x4xf16>, tensor<8x8x3x3xf16> -> tensor<1x8x4x4xf16>
    %2 = tcp.broadcast %c, %c4, %c4 {axes = [2, 3]} : tensor<1x8x1x1xf16>, index, index -> tensor<1x8x4x4xf16>
    %3 = tcp.mul %1, %2 : tensor<1x8x4x4xf16>, tensor<1x8x4x4xf16> -> tensor<1x8x4x4xf16>
    %4 = tcp.broadcast %d, %c4, %c4 {axes = [2, 3]} : tensor<1x8x1x1xf16>, index, index -> tensor<1x8x4x4xf16>
    %5 = tcp.add %3, %4 : tensor<1x8x4x4xf16>, tensor<1x8x4x4xf16> -> tensor<1x8x4x4xf16>
    tcp.yield %5 : tensor<1x8x4x4xf16>
  } : tensor<1x8x4x4xf16>, tensor<8x8x3x3xf16>, tensor<1x8x1x1xf16>, tensor<1x8x1x1xf16> -> tensor<1x8x4x4xf16>
  return %0 : tensor<1x8x4x4xf16>
}

// CHECK-LABEL: func.func @wide_epilogue_params
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x4x4xf16>, %[[W:.*]]: tensor<8x8x3x3xf16>, %[[S:.*]]: tensor<8xf32>, %[[T:.*]]: tensor<8xf32>)
// CHECK-DAG:     %[[TE:.*]] = tensor.expand_shape %[[T]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
// CHECK-DAG:     %[[SE:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %[[X]], %[[W]], %[[SE]], %[[TE]] {
// CHECK:           cudnn.pointwise_mul(%{{.*}}, %{{.*}}) type = f32 : !cudnn.tensor_desc<1x8x4x4xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x4x4xf16, alignment = 16, stride = []>
// CHECK:           cudnn.pointwise_add(%{{.*}}, %{{.*}}) type = f32 : !cudnn.tensor_desc<1x8x4x4xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []> -> !cudnn.tensor_desc<1x8x4x4xf16, alignment = 16, stride = []>
// CHECK:         } : tensor<1x8x4x4xf16>, tensor<8x8x3x3xf16>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32> -> tensor<1x8x4x4xf16>

// -----

// A prologue's per-channel scale keeps the anchor's type (cuDNN's
// prologue engines take x and its scale in one type).
func.func @prologue_param_keeps_type(%x: tensor<1x8x4x4xf16>, %w: tensor<8x8x3x3xf16>, %s: tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf16> {
  %s16 = tcp.cast %s : tensor<1x8x1x1xf32> -> tensor<1x8x1x1xf16>
  %0 = tcp.isolated_group %x, %w, %s16 attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x8x4x4xf16>, %b: tensor<8x8x3x3xf16>, %c: tensor<1x8x1x1xf16>):
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %2 = tcp.broadcast %c, %c4, %c4 {axes = [2, 3]} : tensor<1x8x1x1xf16>, index, index -> tensor<1x8x4x4xf16>
    %3 = tcp.mul %a, %2 : tensor<1x8x4x4xf16>, tensor<1x8x4x4xf16> -> tensor<1x8x4x4xf16>
    %1 = tcp.conv2d %3, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x8x4x4xf16>, tensor<8x8x3x3xf16> -> tensor<1x8x4x4xf16>
    tcp.yield %1 : tensor<1x8x4x4xf16>
  } : tensor<1x8x4x4xf16>, tensor<8x8x3x3xf16>, tensor<1x8x1x1xf16> -> tensor<1x8x4x4xf16>
  return %0 : tensor<1x8x4x4xf16>
}

// CHECK-LABEL: func.func @prologue_param_keeps_type
// CHECK:         cudnn.pointwise_mul(%{{.*}}, %{{.*}}) type = f32 : !cudnn.tensor_desc<1x8x4x4xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<1x8x1x1xf16, alignment = 16, stride = []>
