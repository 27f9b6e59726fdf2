// Layer norms over the last 2 dims of a rank-4 f16 tensor (normalized_rank
// = 2: cuDNN's layer norm covers all dims but the first, so no graph takes
// them): 4x6 rows of 8x64 with f16 scale and bias, and the training form
// without them, returning f32 mean and rstd (as PyTorch's CUDA
// native_layer_norm does for f16). Statistics in f32, two passes; each is
// one row-reduction kernel.
func.func @forward(%x: tensor<4x6x8x64xf16>, %g: tensor<8x64xf16>, %b: tensor<8x64xf16>)
    -> (tensor<4x6x8x64xf16>, tensor<4x6x8x64xf16>, tensor<4x6x1x1xf32>, tensor<4x6x1x1xf32>) {
  %0 = tcp.layer_norm %x scale(%g : tensor<8x64xf16>) bias(%b : tensor<8x64xf16>) {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
      : tensor<4x6x8x64xf16> -> tensor<4x6x8x64xf16>
  %y, %mean, %rstd = tcp.layer_norm_training %x {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
      : tensor<4x6x8x64xf16> -> tensor<4x6x8x64xf16>, tensor<4x6x1x1xf32>
  return %0, %y, %mean, %rstd : tensor<4x6x8x64xf16>, tensor<4x6x8x64xf16>, tensor<4x6x1x1xf32>, tensor<4x6x1x1xf32>
}
