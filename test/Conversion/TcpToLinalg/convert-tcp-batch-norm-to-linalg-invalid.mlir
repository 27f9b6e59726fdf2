// RUN: cudnn-opt %s --convert-tcp-batch-norm-to-linalg --split-input-file --verify-diagnostics

func.func @one_value_per_channel(%x: tensor<1x8x1x1xf32>, %p: tensor<8xf32>)
    -> (tensor<1x8x1x1xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  // expected-error @+1 {{expects more than one value per channel in training (the unbiased variance of one value is undefined), but 'tensor<1x8x1x1xf32>' has N x spatial size 1}}
  %y, %sm, %si, %nm, %nv = tcp.batch_norm_training %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64}
      : tensor<1x8x1x1xf32>, tensor<8xf32> -> tensor<1x8x1x1xf32>
  return %y, %sm, %si, %nm, %nv : tensor<1x8x1x1xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
