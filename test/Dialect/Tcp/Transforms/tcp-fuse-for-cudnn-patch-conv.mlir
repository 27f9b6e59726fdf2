// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=patch-conv-as-matmul=false | FileCheck %s --check-prefix=OFF

// patch-conv-as-matmul: an f16/bf16 conv whose stride equals its window,
// without padding, over fewer than 8 input channels (ViT's patch
// embedding) becomes the patches gathered in (R, S, C) order by transposes,
// one matmul against the weight read transposed, and the result laid back
// out as N x K x P x Q.

// CHECK-LABEL: func.func @patch_embedding
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x32x32xf16>, %[[W:.*]]: tensor<64x3x16x16xf16>
// CHECK-NOT:     tcp.conv2d
// CHECK:         %[[NHWC:.*]] = tcp.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>} : tensor<2x3x32x32xf16> -> tensor<2x32x32x3xf16>
// CHECK:         %[[CUT:.*]] = tensor.expand_shape %[[NHWC]] {{\[\[}}0], [1, 2], [3, 4], [5]] output_shape [2, 2, 16, 2, 16, 3]
// CHECK:         %[[PATCHES:.*]] = tcp.transpose %[[CUT]] {permutation = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x2x16x2x16x3xf16> -> tensor<2x2x2x16x16x3xf16>
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<2x2x2x16x16x3xf16> into tensor<8x768xf16>
// CHECK:         %[[WRSC:.*]] = tcp.transpose %[[W]] {permutation = array<i64: 0, 2, 3, 1>} : tensor<64x3x16x16xf16> -> tensor<64x16x16x3xf16>
// CHECK:         %[[WFLAT:.*]] = tensor.collapse_shape %[[WRSC]] {{\[\[}}0], [1, 2, 3]] : tensor<64x16x16x3xf16> into tensor<64x768xf16>
// CHECK:         %[[WT:.*]] = tcp.transpose %[[WFLAT]] {permutation = array<i64: 1, 0>} : tensor<64x768xf16> -> tensor<768x64xf16>
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.matmul %[[ROWS]], %[[WT]] : tensor<8x768xf16>, tensor<768x64xf16> -> tensor<8x64xf16>
// CHECK:         %[[PLANES:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 2, 2, 64]
// CHECK:         %[[Y:.*]] = tcp.transpose %[[PLANES]] {permutation = array<i64: 0, 3, 1, 2>} : tensor<2x2x2x64xf16> -> tensor<2x64x2x2xf16>
// CHECK:         tcp.add %[[Y]]
// OFF-LABEL:   func.func @patch_embedding
// OFF:           tcp.conv2d
// OFF-NOT:       tcp.matmul
func.func @patch_embedding(%x: tensor<2x3x32x32xf16>, %w: tensor<64x3x16x16xf16>, %bias: tensor<1x64x1x1xf16>) -> tensor<2x64x2x2xf16> {
  %c2 = arith.constant 2 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 16, 16>} : tensor<2x3x32x32xf16>, tensor<64x3x16x16xf16> -> tensor<2x64x2x2xf16>
  %1 = tcp.broadcast %bias, %c2, %c2, %c2 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<2x64x2x2xf16>
  %2 = tcp.add %0, %1 : tensor<2x64x2x2xf16>, tensor<2x64x2x2xf16> -> tensor<2x64x2x2xf16>
  return %2 : tensor<2x64x2x2xf16>
}

// -----

// An 8x8 window over a 4-channel bf16 input whose sides it divides.
// CHECK-LABEL: func.func @patches_bf16
// CHECK-NOT:     tcp.conv2d
// CHECK:         tcp.matmul {{.*}} : tensor<8x256xbf16>, tensor<256x16xbf16> -> tensor<8x16xbf16>
func.func @patches_bf16(%x: tensor<2x4x16x16xbf16>, %w: tensor<16x4x8x8xbf16>) -> tensor<2x16x2x2xbf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8, 8>} : tensor<2x4x16x16xbf16>, tensor<16x4x8x8xbf16> -> tensor<2x16x2x2xbf16>
  return %0 : tensor<2x16x2x2xbf16>
}

// -----

// Convs it leaves alone: 8 input channels (cuDNN pads nothing), stride
// other than the window, padding, a window the input's side does not
// divide, 1x1, f32 (cuBLAS-exact matmuls; not measured), groups, and a 4x4
// window (Swin's and ConvNeXt's stems: not measured faster as a matmul).
// CHECK-LABEL: func.func @not_patch_convs
// CHECK-COUNT-8: tcp.conv2d
// CHECK-NOT:     tcp.matmul
func.func @not_patch_convs(%x8: tensor<2x8x32x32xf16>, %w8: tensor<16x8x8x8xf16>, %x: tensor<2x3x32x32xf16>, %w: tensor<16x3x8x8xf16>, %x30: tensor<2x3x30x30xf16>, %w1: tensor<16x3x1x1xf16>, %xf: tensor<2x3x32x32xf32>, %wf: tensor<16x3x8x8xf32>, %xg: tensor<2x4x32x32xf16>, %wg: tensor<16x2x8x8xf16>, %w4: tensor<16x3x4x4xf16>) -> (tensor<2x16x4x4xf16>, tensor<2x16x7x7xf16>, tensor<2x16x5x5xf16>, tensor<2x16x3x3xf16>, tensor<2x16x32x32xf16>, tensor<2x16x4x4xf32>, tensor<2x16x4x4xf16>, tensor<2x16x8x8xf16>) {
  %0 = tcp.conv2d %x8, %w8 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8, 8>} : tensor<2x8x32x32xf16>, tensor<16x8x8x8xf16> -> tensor<2x16x4x4xf16>
  %1 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>} : tensor<2x3x32x32xf16>, tensor<16x3x8x8xf16> -> tensor<2x16x7x7xf16>
  %2 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 4, 4, 4, 4>, stride = array<i64: 8, 8>} : tensor<2x3x32x32xf16>, tensor<16x3x8x8xf16> -> tensor<2x16x5x5xf16>
  %3 = tcp.conv2d %x30, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8, 8>} : tensor<2x3x30x30xf16>, tensor<16x3x8x8xf16> -> tensor<2x16x3x3xf16>
  %4 = tcp.conv2d %x, %w1 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<2x3x32x32xf16>, tensor<16x3x1x1xf16> -> tensor<2x16x32x32xf16>
  %5 = tcp.conv2d %xf, %wf {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8, 8>} : tensor<2x3x32x32xf32>, tensor<16x3x8x8xf32> -> tensor<2x16x4x4xf32>
  %6 = tcp.conv2d %xg, %wg {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 8, 8>, groups = 2 : i64} : tensor<2x4x32x32xf16>, tensor<16x2x8x8xf16> -> tensor<2x16x4x4xf16>
  %7 = tcp.conv2d %x, %w4 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>} : tensor<2x3x32x32xf16>, tensor<16x3x4x4xf16> -> tensor<2x16x8x8xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x16x4x4xf16>, tensor<2x16x7x7xf16>, tensor<2x16x5x5xf16>, tensor<2x16x3x3xf16>, tensor<2x16x32x32xf16>, tensor<2x16x4x4xf32>, tensor<2x16x4x4xf16>, tensor<2x16x8x8xf16>
}
