// With `report`, the lowering says which graphs with a split form the
// runtime will run split by cost (its fusion-by-cost rules, judged on the
// same graph description): one remark per reason, with the count. Two
// grouped convs of 8 groups of 8 channels share a remark; the one of 4
// groups of 16 has its own; the plain conv and the depthwise conv are not
// judged.
// RUN: cudnn-opt %s --tcp-to-llvm-pipeline=report --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// CHECK:     report-split-by-cost.mlir:[[@LINE+5]]:{{.*}} remark: 2 graphs (the first here) run their split forms by cost unless a precompiled cuDNN engine takes the fused graph (CUDNN_MLIR_FUSION_BY_COST=0 turns the rule off): op #0 (conv_fprop) is a grouped convolution (8 groups of 8 channels)
// CHECK:     report-split-by-cost.mlir:[[@LINE+8]]:{{.*}} remark: this graph runs its split form by cost unless a precompiled cuDNN engine takes the fused graph (CUDNN_MLIR_FUSION_BY_COST=0 turns the rule off): op #0 (conv_fprop) is a grouped convolution (4 groups of 16 channels)
// CHECK-NOT: remark: {{.*}}by cost
func.func @forward(%x: tensor<2x64x16x16xf16>, %g8: tensor<64x8x3x3xf16>, %g16: tensor<64x16x3x3xf16>, %dw: tensor<64x1x3x3xf16>, %w: tensor<64x64x1x1xf16>) -> tensor<2x64x16x16xf16> {
  %a = tcp.conv2d %x, %g8 {dilation = array<i64: 1, 1>, groups = 8 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x64x16x16xf16>, tensor<64x8x3x3xf16> -> tensor<2x64x16x16xf16>
  %ar = tcp.clamp %a {min_float = 0.0 : f32} : tensor<2x64x16x16xf16> -> tensor<2x64x16x16xf16>
  %b = tcp.conv2d %ar, %g8 {dilation = array<i64: 1, 1>, groups = 8 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x64x16x16xf16>, tensor<64x8x3x3xf16> -> tensor<2x64x16x16xf16>
  %br = tcp.clamp %b {min_float = 0.0 : f32} : tensor<2x64x16x16xf16> -> tensor<2x64x16x16xf16>
  %c = tcp.conv2d %br, %g16 {dilation = array<i64: 1, 1>, groups = 4 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x64x16x16xf16>, tensor<64x16x3x3xf16> -> tensor<2x64x16x16xf16>
  %cr = tcp.clamp %c {min_float = 0.0 : f32} : tensor<2x64x16x16xf16> -> tensor<2x64x16x16xf16>
  %d = tcp.conv2d %cr, %dw {dilation = array<i64: 1, 1>, groups = 64 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x64x16x16xf16>, tensor<64x1x3x3xf16> -> tensor<2x64x16x16xf16>
  %dr = tcp.clamp %d {min_float = 0.0 : f32} : tensor<2x64x16x16xf16> -> tensor<2x64x16x16xf16>
  %e = tcp.conv2d %dr, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<2x64x16x16xf16>, tensor<64x64x1x1xf16> -> tensor<2x64x16x16xf16>
  %er = tcp.clamp %e {min_float = 0.0 : f32} : tensor<2x64x16x16xf16> -> tensor<2x64x16x16xf16>
  return %er : tensor<2x64x16x16xf16>
}
