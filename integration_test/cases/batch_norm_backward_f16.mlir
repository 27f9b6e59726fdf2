// Batch norm backward: fp16 dy and x channels-last, fp32 [1, C, 1, 1]
// scale and saved mean / inverse standard deviation of x -> fp16 dx, fp32
// dscale and dbias. One graph: the runtime's GpuOpsTest BackwardHalfNhwc
// graph (NormShape 4x32x16x16) in the cudnn dialect.
!x = !cudnn.tensor_desc<4x32x16x16xf16, alignment = 16, stride = [8192, 1, 512, 32]>
!c = !cudnn.tensor_desc<1x32x1x1xf32, alignment = 16, stride = [32, 1, 32, 32]>
func.func @forward(%dy: tensor<4x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %x: tensor<4x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %scale: tensor<1x32x1x1xf32>, %mean: tensor<1x32x1x1xf32>,
                   %inv: tensor<1x32x1x1xf32>)
    -> (tensor<4x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %dx, %ds, %db = cudnn.build_and_exec_graph %h %dy, %x, %scale, %mean, %inv {
  ^bb0(%a: !x, %b: !x, %s: !c, %m: !c, %v: !c):
    %0, %1, %2 = cudnn.norm_backward(%a, %b) mode = batch type = f32
        scale = %s mean = %m inv_variance = %v
        : !x, !x, !c, !c, !c -> !x, !c, !c
    cudnn.build_graph(%0, %1, %2) : !x, !c, !c
  } : tensor<4x32x16x16xf16, #cudnn.channels_last>, tensor<4x32x16x16xf16, #cudnn.channels_last>,
      tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
      -> tensor<4x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
  return %dx, %ds, %db : tensor<4x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>,
      tensor<1x32x1x1xf32>
}
