// Convolution backward data alone, fp16 channels-last (NHWC dy and dx, KRSC
// filter), fp32 compute: dx = conv_dgrad(dy, w) of a 3x3 stride-2 pad-1
// conv of a 2x32x16x16 image. The runtime's GpuOpsTest DgradHalfNhwc graph
// (ConvShape dgrad: N 2, C = K 32, 16x16, stride 2), written in the cudnn
// dialect as the layout pass would: no layout conversions, one graph.
!dy = !cudnn.tensor_desc<2x32x8x8xf16, alignment = 16, stride = [2048, 1, 256, 32]>
!w = !cudnn.tensor_desc<32x32x3x3xf16, alignment = 16, stride = [288, 1, 96, 32]>
!dx = !cudnn.tensor_desc<2x32x16x16xf16, alignment = 16, stride = [8192, 1, 512, 32]>
func.func @forward(%dy: tensor<2x32x8x8xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %w: tensor<32x32x3x3xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"})
    -> (tensor<2x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"}) {
  %h = cudnn.get_current_handle !cudnn.handle
  %dx = cudnn.build_and_exec_graph %h %dy, %w {
  ^bb0(%a: !dy, %b: !w):
    %0 = cudnn.convolution_backward_data(%a, %b) type = f32 alpha = 1.0 beta = 0.0
        spatial_dim_count = 2 spatial_stride = [2, 2] pre_padding = [1, 1]
        post_padding = [1, 1] dilation = [1, 1]
        : !dy, !w -> !dx
    cudnn.build_graph(%0) : !dx
  } : tensor<2x32x8x8xf16, #cudnn.channels_last>, tensor<32x32x3x3xf16, #cudnn.channels_last>
      -> tensor<2x32x16x16xf16, #cudnn.channels_last>
  return %dx : tensor<2x32x16x16xf16, #cudnn.channels_last>
}
