// COMPILE-PIPELINE: tcp
// COMPILE-OPTIONS: layout=channels-last allow-tf32-conv=true
// The seed's stage 3 as written: an fp32 graph with a relu prologue, at the
// cudnn level, compiled with PyTorch's default conv precision (TF32 allowed)
// and channels-last (tcp-to-llvm-pipeline, whose cudnn-assign-layouts takes
// graphs from any source), the form cuDNN 9.14 has an engine for on Hopper (as
// seed_stage1). Exact fp32 NCHW it has none, and a graph written at the
// cudnn level has no compiled split form (that comes from TCP groups): the
// runtime's per-op split cannot run the ReLU alone on Hopper either.
// ---- Stage 3: the group lowered to the cudnn dialect
func.func @forward(%39: tensor<1x64x56x56xf32>, %15: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %40 = cudnn.get_current_handle !cudnn.handle
  %41 = cudnn.build_and_exec_graph %40 %39, %15 {
  ^bb0(%arg1: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>,
       %arg2: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []>):
      %179 = cudnn.pointwise_relu(%arg1) type = f32 lower_clip = 0.000000e+00
              : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
              -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
      %180 = cudnn.convolution(%179, %arg2)
              type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2
              spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1]
              dilation = [1, 1]
              : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>,
                !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []>
              -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
      cudnn.build_graph(%180) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %41 : tensor<1x64x56x56xf32>
}
