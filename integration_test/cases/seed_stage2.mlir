// COMPILE-OPTIONS: layout=channels-last allow-tf32-conv=true
// The seed's stage 2 (shared/examples/seed-ir.mlir) as the seed writes it:
// the relu -> conv group without group_type, which convert-tcp-to-cudnn
// lowers because the support table accepts both ops. Compiled as
// seed_stage1 is (cuDNN runs the fused relu prologue only NHWC on TF32).
// ---- Stage 2: after fusion grouping + isolation
func.func @forward(%39: tensor<1x64x56x56xf32>, %15: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
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
