// The seed's stage 1 (shared/examples/seed-ir.mlir) with the pipelines'
// defaults: exact fp32, packed NCHW. cuDNN 9.14 has no engine for the fused
// relu -> conv graph on Hopper, so the module runs its compiled split form:
// the ReLU as a generated kernel, the conv alone in cuDNN.
// ---- Stage 1: TCP, as produced from torch.aten.relu + torch.aten.convolution
func.func @forward(%138: tensor<1x64x56x56xf32>, %110: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %139 = tcp.clamp %138 {min_float = 0.000000e+00 : f32}
          : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
  %140 = tcp.conv2d %139, %110
          {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
          : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %140 : tensor<1x64x56x56xf32>
}
