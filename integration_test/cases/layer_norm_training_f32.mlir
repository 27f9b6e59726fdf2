// Layer norm training in fp32 over the hidden dim of 256 rows of 128: y and
// the saved per-row mean and inverse standard deviation, one graph. Laid
// out as the runtime's GpuOpsTest layer norm graphs (TrainingFloat):
// x [rows, hidden, 1, 1] channels-last (each row contiguous; the same bytes
// as a packed [256, 128, 1, 1]), fp32 scale and bias [1, hidden, 1, 1],
// statistics [rows, 1, 1, 1].
!x = !cudnn.tensor_desc<256x128x1x1xf32, alignment = 16, stride = [128, 1, 128, 128]>
!p = !cudnn.tensor_desc<1x128x1x1xf32, alignment = 16, stride = [128, 1, 128, 128]>
!st = !cudnn.tensor_desc<256x1x1x1xf32, alignment = 16, stride = [1, 1, 1, 1]>
func.func @forward(%x: tensor<256x128x1x1xf32>, %scale: tensor<1x128x1x1xf32>,
                   %bias: tensor<1x128x1x1xf32>)
    -> (tensor<256x128x1x1xf32>, tensor<256x1x1x1xf32>, tensor<256x1x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %y, %mean, %inv = cudnn.build_and_exec_graph %h %x, %scale, %bias {
  ^bb0(%a: !x, %s: !p, %b: !p):
    %0, %1, %2 = cudnn.norm_forward(%a) mode = layer phase = training type = f32
        epsilon = 1.0e-5 scale = %s bias = %b
        : !x, !p, !p -> !x saved_mean !st saved_inv_variance !st
    cudnn.build_graph(%0, %1, %2) : !x, !st, !st
  } : tensor<256x128x1x1xf32>, tensor<1x128x1x1xf32>, tensor<1x128x1x1xf32>
      -> tensor<256x128x1x1xf32>, tensor<256x1x1x1xf32>, tensor<256x1x1x1xf32>
  return %y, %mean, %inv : tensor<256x128x1x1xf32>, tensor<256x1x1x1xf32>, tensor<256x1x1x1xf32>
}
