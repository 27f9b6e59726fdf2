// RUN: cudnn-opt %s --tcp-to-llvm-pipeline="fuse-fp32=false report-kernels" --mlir-print-op-on-diagnostic=false -o %t.mlir 2>&1 | FileCheck %s
// RUN: not grep -E '^ *(%[^=]* = )?"?(tcp|linalg)\.' %t.mlir

// The global average pooling that ends torchvision's ResNets and MobileNets
// (a mean over H and W with keep_dims) after fp32 convs and inference batch
// norms that no cuDNN graph takes (fuse-fp32=false): the convs are generated
// kernels that read their input through tensor.extract, so a conv + batch
// norm + ReLU chain has no full-size input of its own. Fused whole into the
// mean, its output was kept as a second result of the reduction, indexed by
// the reduced loops, and codegen-map-to-gpu failed ("expects outputs indexed
// by parallel loops only"). codegen-fuse-elementwise now leaves such a
// producer as a kernel of its own (test/Codegen/fuse-elementwise.mlir).

// ResNet's last block: the residual r is written for the second conv, so
// the mean reads it, and takes the conv, batch norm, add and ReLU. The
// mean's division ([2, 8, 1, 1]: the keep_dims shape, its unit loops run
// once) joins the reduction's kernel.
// CHECK:      remark: @residual_block_mean: 4 GPU kernels
// CHECK-NEXT:   residual_block_mean_kernel0: elementwise
// CHECK-NEXT:   residual_block_mean_kernel1: elementwise
// CHECK-NEXT:   residual_block_mean_kernel2: elementwise
// CHECK-NEXT:   residual_block_mean_kernel3: row reduction ({{.*}}, 2 ops fused)
func.func @residual_block_mean(%x: tensor<2x8x3x3xf32>, %w1: tensor<8x8x1x1xf32>, %w2: tensor<8x8x1x1xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>, %mu: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<2x8x1x1xf32> {
  %c1 = tcp.conv2d %x, %w1 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<2x8x3x3xf32>, tensor<8x8x1x1xf32> -> tensor<2x8x3x3xf32>
  %r = tcp.clamp %c1 {min_float = 0.0 : f32} : tensor<2x8x3x3xf32> -> tensor<2x8x3x3xf32>
  %c2 = tcp.conv2d %r, %w2 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<2x8x3x3xf32>, tensor<8x8x1x1xf32> -> tensor<2x8x3x3xf32>
  %n = tcp.batch_norm %c2, %s, %b, %mu, %v {epsilon = 1.0e-05 : f64} : tensor<2x8x3x3xf32>, tensor<8xf32> -> tensor<2x8x3x3xf32>
  %a = tcp.add %n, %r : tensor<2x8x3x3xf32>, tensor<2x8x3x3xf32> -> tensor<2x8x3x3xf32>
  %y = tcp.clamp %a {min_float = 0.0 : f32} : tensor<2x8x3x3xf32> -> tensor<2x8x3x3xf32>
  %m = tcp.reduce_mean %y {axes = array<i64: 2, 3>, keep_dims} : tensor<2x8x3x3xf32> -> tensor<2x8x1x1xf32>
  return %m : tensor<2x8x1x1xf32>
}

// MobileNetV2's last conv + batch norm + ReLU6: one full-size operand (here
// the batch norm's broadcast shift) stays outside the mean to size its
// loops; the mean takes the rest.
// CHECK:      remark: @conv_bn_relu6_mean: 4 GPU kernels
// CHECK-NEXT:   conv_bn_relu6_mean_kernel0: elementwise
// CHECK-NEXT:   conv_bn_relu6_mean_kernel1: elementwise
// CHECK-NEXT:   conv_bn_relu6_mean_kernel2: elementwise
// CHECK-NEXT:   conv_bn_relu6_mean_kernel3: row reduction ({{.*}}, 2 ops fused)
func.func @conv_bn_relu6_mean(%x: tensor<2x4x5x5xf32>, %w: tensor<8x4x3x3xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>, %mu: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<2x8xf32> {
  %c = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<2x4x5x5xf32>, tensor<8x4x3x3xf32> -> tensor<2x8x3x3xf32>
  %n = tcp.batch_norm %c, %s, %b, %mu, %v {epsilon = 1.0e-05 : f64} : tensor<2x8x3x3xf32>, tensor<8xf32> -> tensor<2x8x3x3xf32>
  %r = tcp.clamp %n {min_float = 0.0 : f32, max_float = 6.0 : f32} : tensor<2x8x3x3xf32> -> tensor<2x8x3x3xf32>
  %m = tcp.reduce_mean %r {axes = array<i64: 2, 3>, keep_dims} : tensor<2x8x3x3xf32> -> tensor<2x8x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<2x8x1x1xf32> into tensor<2x8xf32>
  return %f : tensor<2x8xf32>
}
