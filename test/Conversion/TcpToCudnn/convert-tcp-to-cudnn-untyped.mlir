// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn=allow-tf32-matmul=true | FileCheck %s --check-prefixes=CHECK,INEXACT
// RUN: cudnn-opt %s -split-input-file -tcp-to-cudnn-pipeline=allow-tf32-matmul=true | FileCheck %s --check-prefix=INEXACT
//
// A tcp.isolated_group without group_type (the seed's stage 2 form) becomes
// a graph when the fusion support table accepts every op in it, under the
// policy of the same options as tcp-fuse-for-cudnn (which the pipelines
// forward to both passes). The rejections are in
// convert-tcp-to-cudnn-invalid.mlir.

// An f16 conv with a bias and ReLU epilogue: the table takes all of it.
func.func @conv_bias_relu(%x: tensor<1x8x6x6xf16>, %w: tensor<8x8x3x3xf16>, %b: tensor<1x8x1x1xf16>) -> tensor<1x8x6x6xf16> {
  %0 = tcp.isolated_group %x, %w, %b {
  ^bb0(%a: tensor<1x8x6x6xf16>, %k: tensor<8x8x3x3xf16>, %c: tensor<1x8x1x1xf16>):
    %c6 = arith.constant 6 : index
    %1 = tcp.conv2d %a, %k {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x8x6x6xf16>, tensor<8x8x3x3xf16> -> tensor<1x8x6x6xf16>
    %2 = tcp.broadcast %c, %c6, %c6 {axes = [2, 3]} : tensor<1x8x1x1xf16>, index, index -> tensor<1x8x6x6xf16>
    %3 = tcp.add %1, %2 : tensor<1x8x6x6xf16>, tensor<1x8x6x6xf16> -> tensor<1x8x6x6xf16>
    %4 = tcp.clamp %3 {min_float = 0.000000e+00 : f32} : tensor<1x8x6x6xf16> -> tensor<1x8x6x6xf16>
    tcp.yield %4 : tensor<1x8x6x6xf16>
  } : tensor<1x8x6x6xf16>, tensor<8x8x3x3xf16>, tensor<1x8x1x1xf16> -> tensor<1x8x6x6xf16>
  return %0 : tensor<1x8x6x6xf16>
}

// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-NOT:     tcp.isolated_group
// CHECK:         cudnn.build_and_exec_graph
// CHECK:           cudnn.convolution
// CHECK:           cudnn.pointwise_add
// CHECK:           cudnn.pointwise_relu
// CHECK:           cudnn.build_graph

// -----

// A pool alone is a graph of its own.
func.func @max_pool(%x: tensor<1x4x8x8xf16>) -> tensor<1x4x4x4xf16> {
  %0 = tcp.isolated_group %x {
  ^bb0(%a: tensor<1x4x8x8xf16>):
    %1 = tcp.max_pool2d %a {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf16> -> tensor<1x4x4x4xf16>
    tcp.yield %1 : tensor<1x4x4x4xf16>
  } : tensor<1x4x8x8xf16> -> tensor<1x4x4x4xf16>
  return %0 : tensor<1x4x4x4xf16>
}

// CHECK-LABEL: func.func @max_pool
// CHECK:         cudnn.build_and_exec_graph
// CHECK:           cudnn.resample

// -----

// An fp32 matmul is a graph only when fp32 need not stay exact, as here:
// allow-tf32-matmul=true (the pass's option, or the pipeline's forwarded to it).
// The default's error is in convert-tcp-to-cudnn-invalid.mlir.
func.func @matmul_f32(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = tcp.isolated_group %x, %y {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>):
    %1 = tcp.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
    tcp.yield %1 : tensor<4x8xf32>
  } : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// INEXACT-LABEL: func.func @matmul_f32
// INEXACT-NOT:     tcp.isolated_group
// INEXACT:         cudnn.build_and_exec_graph
// INEXACT:           cudnn.matmul
