// RUN: cudnn-opt %s --tcp-to-cudnn-pipeline | FileCheck %s

// ViT's patch embedding on a channels-last input and weight, as the model
// zoo compiles it: the patches are gathered straight from the NHWC input (a
// layout view, then one transpose kernel), the weight is read as its KRSC
// storage, and no layout conversion runs (issue 27's one layout).
// CHECK-LABEL: func.func @vit_patch_embedding
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[X:.*]] = cudnn.layout_view %arg0 : tensor<2x3x32x32xf16, #cudnn.channels_last> -> tensor<2x32x32x3xf16>
// CHECK:         %[[W:.*]] = cudnn.layout_view %arg1 : tensor<64x3x16x16xf16, #cudnn.channels_last> -> tensor<64x16x16x3xf16>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         cudnn.matmul
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return
func.func @vit_patch_embedding(%x: tensor<2x3x32x32xf16> {cudnn.layout = "channels_last"}, %w: tensor<64x3x16x16xf16> {cudnn.layout = "channels_last"}, %bias: tensor<64xf16>) -> tensor<2x4x64xf16> {
  %c2 = arith.constant 2 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 16, 16>} : tensor<2x3x32x32xf16>, tensor<64x3x16x16xf16> -> tensor<2x64x2x2xf16>
  %e = tensor.expand_shape %bias [[0, 1, 2, 3]] output_shape [1, 64, 1, 1] : tensor<64xf16> into tensor<1x64x1x1xf16>
  %1 = tcp.broadcast %e, %c2, %c2, %c2 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<2x64x2x2xf16>
  %2 = tcp.add %0, %1 : tensor<2x64x2x2xf16>, tensor<2x64x2x2xf16> -> tensor<2x64x2x2xf16>
  %3 = tensor.collapse_shape %2 [[0], [1], [2, 3]] : tensor<2x64x2x2xf16> into tensor<2x64x4xf16>
  %4 = tcp.transpose %3 {permutation = array<i64: 0, 2, 1>} : tensor<2x64x4xf16> -> tensor<2x4x64xf16>
  return %4 : tensor<2x4x64xf16>
}
