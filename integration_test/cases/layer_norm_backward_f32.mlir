// Layer norm backward in fp32: dx, dscale, dbias from dy, x, the scale and
// the saved per-row mean and inverse standard deviation of x, one graph.
// Laid out as the runtime's GpuOpsTest BackwardFloat graph: [256, 128, 1, 1]
// channels-last activations (rows contiguous), [1, 128, 1, 1] parameters,
// [256, 1, 1, 1] statistics.
!x = !cudnn.tensor_desc<256x128x1x1xf32, alignment = 16, stride = [128, 1, 128, 128]>
!p = !cudnn.tensor_desc<1x128x1x1xf32, alignment = 16, stride = [128, 1, 128, 128]>
!st = !cudnn.tensor_desc<256x1x1x1xf32, alignment = 16, stride = [1, 1, 1, 1]>
func.func @forward(%dy: tensor<256x128x1x1xf32>, %x: tensor<256x128x1x1xf32>,
                   %scale: tensor<1x128x1x1xf32>, %mean: tensor<256x1x1x1xf32>,
                   %inv: tensor<256x1x1x1xf32>)
    -> (tensor<256x128x1x1xf32>, tensor<1x128x1x1xf32>, tensor<1x128x1x1xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %dx, %ds, %db = cudnn.build_and_exec_graph %h %dy, %x, %scale, %mean, %inv {
  ^bb0(%a: !x, %b: !x, %s: !p, %m: !st, %v: !st):
    %0, %1, %2 = cudnn.norm_backward(%a, %b) mode = layer type = f32
        scale = %s mean = %m inv_variance = %v
        : !x, !x, !p, !st, !st -> !x, !p, !p
    cudnn.build_graph(%0, %1, %2) : !x, !p, !p
  } : tensor<256x128x1x1xf32>, tensor<256x128x1x1xf32>, tensor<1x128x1x1xf32>,
      tensor<256x1x1x1xf32>, tensor<256x1x1x1xf32>
      -> tensor<256x128x1x1xf32>, tensor<1x128x1x1xf32>, tensor<1x128x1x1xf32>
  return %dx, %ds, %db : tensor<256x128x1x1xf32>, tensor<1x128x1x1xf32>, tensor<1x128x1x1xf32>
}
