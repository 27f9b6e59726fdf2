// NesT and Hiera (timm) write attention over 5-D q, k, v: [B, H, T, N, D].
// With leading unit dims ([1, B, H, S, D]) it is cuDNN's attention, k
// collapsed from its 5-D source (this crashed convert-tcp-to-cudnn in
// f16: a 4-D reassociation on the 5-D k); with a leading dim other than 1
// the chain stays matmuls and a generated softmax, and the report says why
// (here k, whose packed form the match cannot find; a q, k or v with
// leading dims other than 1 is refused by whyCudnnCannotRunAttention).
// RUN: cudnn-opt %s -split-input-file -tcp-to-cudnn-pipeline | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=report 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @sdpa_5d
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3], [4]] : tensor<1x3x16x196x32xf16> into tensor<48x196x32xf16>
// CHECK:         cudnn.sdpa
// CHECK-LABEL: func.func @sdpa_5d_batch
// CHECK-NOT:     cudnn.sdpa
// CHECK:         return

// REPORT: remark: left out of cuDNN graphs, 8 ops (the first here): not fused as attention:

func.func @sdpa_5d(%arg0: tensor<1x3x16x196x32xf16>, %arg1: tensor<1x3x16x196x32xf16>, %arg2: tensor<1x3x16x196x32xf16>) -> (tensor<1x3x16x196x32xf16>) {
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c196 = arith.constant 196 : index
    %0 = tcp.transpose %arg1 {permutation = array<i64: 0, 1, 2, 4, 3>} : tensor<1x3x16x196x32xf16> -> tensor<1x3x16x32x196xf16>
    %1 = tensor.collapse_shape %arg0 [[0, 1, 2], [3], [4]] : tensor<1x3x16x196x32xf16> into tensor<48x196x32xf16>
    %2 = tensor.collapse_shape %0 [[0, 1, 2], [3], [4]] : tensor<1x3x16x32x196xf16> into tensor<48x32x196xf16>
    %3 = tcp.batch_matmul %1, %2 : tensor<48x196x32xf16>, tensor<48x32x196xf16> -> tensor<48x196x196xf16>
    %4 = tensor.expand_shape %3 [[0, 1, 2], [3], [4]] output_shape [1, 3, 16, 196, 196] : tensor<48x196x196xf16> into tensor<1x3x16x196x196xf16>
    %5 = tcp.const {value = dense<0.17677669529663687> : tensor<1x1x1x1x1xf16>} : tensor<1x1x1x1x1xf16>
    %6 = tcp.broadcast %5, %c3, %c16, %c196, %c196 {axes = [1, 2, 3, 4]} : tensor<1x1x1x1x1xf16>, index, index, index, index -> tensor<1x3x16x196x196xf16>
    %7 = tcp.mul %4, %6 : tensor<1x3x16x196x196xf16>, tensor<1x3x16x196x196xf16> -> tensor<1x3x16x196x196xf16>
    %8 = tcp.reduce_max %7 {axes = array<i64: 4>, keep_dims} : tensor<1x3x16x196x196xf16> -> tensor<1x3x16x196x1xf16>
    %9 = tcp.broadcast %8, %c196 {axes = [4]} : tensor<1x3x16x196x1xf16>, index -> tensor<1x3x16x196x196xf16>
    %10 = tcp.sub %7, %9 : tensor<1x3x16x196x196xf16>, tensor<1x3x16x196x196xf16> -> tensor<1x3x16x196x196xf16>
    %11 = tcp.exp %10 : tensor<1x3x16x196x196xf16> -> tensor<1x3x16x196x196xf16>
    %12 = tcp.reduce_sum %11 {axes = array<i64: 4>, keep_dims} : tensor<1x3x16x196x196xf16> -> tensor<1x3x16x196x1xf16>
    %13 = tcp.broadcast %12, %c196 {axes = [4]} : tensor<1x3x16x196x1xf16>, index -> tensor<1x3x16x196x196xf16>
    %14 = tcp.divf %11, %13 : tensor<1x3x16x196x196xf16>, tensor<1x3x16x196x196xf16> -> tensor<1x3x16x196x196xf16>
    %15 = tensor.collapse_shape %14 [[0, 1, 2], [3], [4]] : tensor<1x3x16x196x196xf16> into tensor<48x196x196xf16>
    %16 = tensor.collapse_shape %arg2 [[0, 1, 2], [3], [4]] : tensor<1x3x16x196x32xf16> into tensor<48x196x32xf16>
    %17 = tcp.batch_matmul %15, %16 : tensor<48x196x196xf16>, tensor<48x196x32xf16> -> tensor<48x196x32xf16>
    %18 = tensor.expand_shape %17 [[0, 1, 2], [3], [4]] output_shape [1, 3, 16, 196, 32] : tensor<48x196x32xf16> into tensor<1x3x16x196x32xf16>
    return %18 : tensor<1x3x16x196x32xf16>
  }

// -----

func.func @sdpa_5d_batch(%arg0: tensor<2x3x16x196x32xf16>, %arg1: tensor<2x3x16x196x32xf16>, %arg2: tensor<2x3x16x196x32xf16>) -> (tensor<2x3x16x196x32xf16>) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c196 = arith.constant 196 : index
    %0 = tcp.transpose %arg1 {permutation = array<i64: 0, 1, 2, 4, 3>} : tensor<2x3x16x196x32xf16> -> tensor<2x3x16x32x196xf16>
    %1 = tensor.collapse_shape %arg0 [[0, 1, 2], [3], [4]] : tensor<2x3x16x196x32xf16> into tensor<96x196x32xf16>
    %2 = tensor.collapse_shape %0 [[0, 1, 2], [3], [4]] : tensor<2x3x16x32x196xf16> into tensor<96x32x196xf16>
    %3 = tcp.batch_matmul %1, %2 : tensor<96x196x32xf16>, tensor<96x32x196xf16> -> tensor<96x196x196xf16>
    %4 = tensor.expand_shape %3 [[0, 1, 2], [3], [4]] output_shape [2, 3, 16, 196, 196] : tensor<96x196x196xf16> into tensor<2x3x16x196x196xf16>
    %5 = tcp.const {value = dense<0.17677669529663687> : tensor<1x1x1x1x1xf16>} : tensor<1x1x1x1x1xf16>
    %6 = tcp.broadcast %5, %c2, %c3, %c16, %c196, %c196 {axes = [0, 1, 2, 3, 4]} : tensor<1x1x1x1x1xf16>, index, index, index, index, index -> tensor<2x3x16x196x196xf16>
    %7 = tcp.mul %4, %6 : tensor<2x3x16x196x196xf16>, tensor<2x3x16x196x196xf16> -> tensor<2x3x16x196x196xf16>
    %8 = tcp.reduce_max %7 {axes = array<i64: 4>, keep_dims} : tensor<2x3x16x196x196xf16> -> tensor<2x3x16x196x1xf16>
    %9 = tcp.broadcast %8, %c196 {axes = [4]} : tensor<2x3x16x196x1xf16>, index -> tensor<2x3x16x196x196xf16>
    %10 = tcp.sub %7, %9 : tensor<2x3x16x196x196xf16>, tensor<2x3x16x196x196xf16> -> tensor<2x3x16x196x196xf16>
    %11 = tcp.exp %10 : tensor<2x3x16x196x196xf16> -> tensor<2x3x16x196x196xf16>
    %12 = tcp.reduce_sum %11 {axes = array<i64: 4>, keep_dims} : tensor<2x3x16x196x196xf16> -> tensor<2x3x16x196x1xf16>
    %13 = tcp.broadcast %12, %c196 {axes = [4]} : tensor<2x3x16x196x1xf16>, index -> tensor<2x3x16x196x196xf16>
    %14 = tcp.divf %11, %13 : tensor<2x3x16x196x196xf16>, tensor<2x3x16x196x196xf16> -> tensor<2x3x16x196x196xf16>
    %15 = tensor.collapse_shape %14 [[0, 1, 2], [3], [4]] : tensor<2x3x16x196x196xf16> into tensor<96x196x196xf16>
    %16 = tensor.collapse_shape %arg2 [[0, 1, 2], [3], [4]] : tensor<2x3x16x196x32xf16> into tensor<96x196x32xf16>
    %17 = tcp.batch_matmul %15, %16 : tensor<96x196x196xf16>, tensor<96x196x32xf16> -> tensor<96x196x32xf16>
    %18 = tensor.expand_shape %17 [[0, 1, 2], [3], [4]] output_shape [2, 3, 16, 196, 32] : tensor<96x196x32xf16> into tensor<2x3x16x196x32xf16>
    return %18 : tensor<2x3x16x196x32xf16>
  }
