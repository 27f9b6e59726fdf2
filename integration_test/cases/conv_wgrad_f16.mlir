// Convolution backward filter alone, fp16 channels-last (NHWC x and dy,
// KRSC dw), fp32 compute: dw = conv_wgrad(x, dy) of a 3x3 stride-1 pad-1
// conv, N 2, C = K 32, 16x16. The runtime's GpuOpsTest WgradHalfNhwc graph,
// written in the cudnn dialect as the layout pass would: one graph.
!x = !cudnn.tensor_desc<2x32x16x16xf16, alignment = 16, stride = [8192, 1, 512, 32]>
!dw = !cudnn.tensor_desc<32x32x3x3xf16, alignment = 16, stride = [288, 1, 96, 32]>
func.func @forward(%x: tensor<2x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %dy: tensor<2x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"})
    -> (tensor<32x32x3x3xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"}) {
  %h = cudnn.get_current_handle !cudnn.handle
  %dw = cudnn.build_and_exec_graph %h %x, %dy {
  ^bb0(%a: !x, %b: !x):
    %0 = cudnn.convolution_backward_filter(%a, %b) type = f32 alpha = 1.0 beta = 0.0
        spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1]
        post_padding = [1, 1] dilation = [1, 1]
        : !x, !x -> !dw
    cudnn.build_graph(%0) : !dw
  } : tensor<2x32x16x16xf16, #cudnn.channels_last>, tensor<2x32x16x16xf16, #cudnn.channels_last>
      -> tensor<32x32x3x3xf16, #cudnn.channels_last>
  return %dw : tensor<32x32x3x3xf16, #cudnn.channels_last>
}
