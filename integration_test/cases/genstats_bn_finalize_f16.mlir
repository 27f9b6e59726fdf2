// Batch norm training split across graphs, as cuDNN's ConvBNfprop pattern
// runs it (the runtime's GpuOpsTest ScaleBiasReluConvGenStatsHalfNhwc and
// BnFinalizeFloat graphs, chained): graph 1, fp16 channels-last,
//   y = conv3x3(relu(x * scale + bias), w), sum and sq_sum of y per channel
// (genstats in the conv's epilogue; fp32 statistics); graph 2, bn_finalize
// of those sums over N*H*W = 512 elements with the batch norm's scale, bias
// and running statistics (fp32 [1, C, 1, 1], momentum 0.1): the equivalent
// scale and bias, saved mean and inverse std, next running mean and var.
// Two graphs; sum and sq_sum are also returned.
!x = !cudnn.tensor_desc<2x32x16x16xf16, alignment = 16, stride = [8192, 1, 512, 32]>
!w = !cudnn.tensor_desc<32x32x3x3xf16, alignment = 16, stride = [288, 1, 96, 32]>
!c16 = !cudnn.tensor_desc<1x32x1x1xf16, alignment = 16, stride = [32, 1, 32, 32]>
!c = !cudnn.tensor_desc<1x32x1x1xf32, alignment = 16, stride = [32, 1, 32, 32]>
func.func @forward(%x: tensor<2x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %scale: tensor<1x32x1x1xf16>, %bias: tensor<1x32x1x1xf16>,
                   %w: tensor<32x32x3x3xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %bn_scale: tensor<1x32x1x1xf32>, %bn_bias: tensor<1x32x1x1xf32>,
                   %rmean: tensor<1x32x1x1xf32>, %rvar: tensor<1x32x1x1xf32>)
    -> (tensor<2x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %y, %sum, %sq = cudnn.build_and_exec_graph %h %x, %scale, %bias, %w {
  ^bb0(%a: !x, %s: !c16, %b: !c16, %f: !w):
    %0 = cudnn.pointwise_mul(%a, %s) type = f32 : !x, !c16 -> !x
    %1 = cudnn.pointwise_add(%0, %b) type = f32 : !x, !c16 -> !x
    %2 = cudnn.pointwise_relu(%1) type = f32 : !x -> !x
    %3 = cudnn.convolution(%2, %f) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
        : !x, !w -> !x
    %4, %5 = cudnn.genstats(%3) type = f32 : !x -> !c, !c
    cudnn.build_graph(%3, %4, %5) : !x, !c, !c
  } : tensor<2x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf16>, tensor<1x32x1x1xf16>,
      tensor<32x32x3x3xf16, #cudnn.channels_last>
      -> tensor<2x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
  %es, %eb, %m, %is, %nm, %nv = cudnn.build_and_exec_graph %h %sum, %sq, %bn_scale, %bn_bias, %rmean, %rvar {
  ^bb0(%s0: !c, %s1: !c, %s2: !c, %s3: !c, %s4: !c, %s5: !c):
    %0, %1, %2, %3, %4, %5 = cudnn.bn_finalize(%s0, %s1) type = f32
        epsilon = 1.0e-5 momentum = 0.1 accumulation_count = 512
        scale = %s2 bias = %s3 running_mean = %s4 running_var = %s5
        : !c, !c, !c, !c, !c, !c -> !c, !c, !c, !c, !c, !c
    cudnn.build_graph(%0, %1, %2, %3, %4, %5) : !c, !c, !c, !c, !c, !c
  } : tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
      tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
      -> tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
         tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
  return %y, %sum, %sq, %es, %eb, %m, %is, %nm, %nv
      : tensor<2x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
}
