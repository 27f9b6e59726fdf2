// Batch norm training with running statistics: fp16 x and y channels-last,
// fp32 [1, C, 1, 1] scale, bias, running mean and var; outputs y, the saved
// mean and inverse standard deviation, and the next running mean and var
// (momentum 0.1; cuDNN updates the running var with the unbiased batch
// variance). One graph: the runtime's GpuOpsTest TrainingHalfNhwc graph
// (NormShape 4x32x16x16) in the cudnn dialect.
!x = !cudnn.tensor_desc<4x32x16x16xf16, alignment = 16, stride = [8192, 1, 512, 32]>
!c = !cudnn.tensor_desc<1x32x1x1xf32, alignment = 16, stride = [32, 1, 32, 32]>
func.func @forward(%x: tensor<4x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
                   %scale: tensor<1x32x1x1xf32>, %bias: tensor<1x32x1x1xf32>,
                   %rmean: tensor<1x32x1x1xf32>, %rvar: tensor<1x32x1x1xf32>)
    -> (tensor<4x32x16x16xf16, #cudnn.channels_last> {cudnn.layout = "channels_last"},
        tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %y, %m, %v, %nm, %nv = cudnn.build_and_exec_graph %h %x, %scale, %bias, %rmean, %rvar {
  ^bb0(%a: !x, %s: !c, %b: !c, %rm: !c, %rv: !c):
    %0, %1, %2, %3, %4 = cudnn.norm_forward(%a) mode = batch phase = training type = f32
        epsilon = 1.0e-5 momentum = 0.1 scale = %s bias = %b running_mean = %rm running_var = %rv
        : !x, !c, !c, !c, !c -> !x saved_mean !c saved_inv_variance !c
        next_running_mean !c next_running_var !c
    cudnn.build_graph(%0, %1, %2, %3, %4) : !x, !c, !c, !c, !c
  } : tensor<4x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
      tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
      -> tensor<4x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>,
         tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
  return %y, %m, %v, %nm, %nv : tensor<4x32x16x16xf16, #cudnn.channels_last>, tensor<1x32x1x1xf32>,
      tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
}
