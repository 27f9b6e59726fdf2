// COMPILE-OPTIONS: deterministic=true
// (cuDNN's fastest fp32 dgrad engines on the H100 accumulate with atomics:
// two calls differed in the last bit; the deterministic option excludes them.)
// Convolution backward data alone in exact fp32 (no TF32: the default),
// packed NCHW / KCRS: dx = conv_dgrad(dy, w) of a 3x3 stride-2 pad-1 conv
// of a 2x32x16x16 image. The runtime's GpuOpsTest DgradFloatExactNchw graph
// in the cudnn dialect: one graph.
!dy = !cudnn.tensor_desc<2x32x8x8xf32, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<32x32x3x3xf32, alignment = 16, stride = []>
!dx = !cudnn.tensor_desc<2x32x16x16xf32, alignment = 16, stride = []>
func.func @forward(%dy: tensor<2x32x8x8xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<2x32x16x16xf32> {
  %h = cudnn.get_current_handle !cudnn.handle
  %dx = cudnn.build_and_exec_graph %h %dy, %w {
  ^bb0(%a: !dy, %b: !w):
    %0 = cudnn.convolution_backward_data(%a, %b) type = f32 alpha = 1.0 beta = 0.0
        spatial_dim_count = 2 spatial_stride = [2, 2] pre_padding = [1, 1]
        post_padding = [1, 1] dilation = [1, 1]
        : !dy, !w -> !dx
    cudnn.build_graph(%0) : !dx
  } : tensor<2x32x8x8xf32>, tensor<32x32x3x3xf32> -> tensor<2x32x16x16xf32>
  return %dx : tensor<2x32x16x16xf32>
}
