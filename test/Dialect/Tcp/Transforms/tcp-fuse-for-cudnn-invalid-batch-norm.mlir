// RUN: cudnn-opt %s --tcp-fuse-for-cudnn=batch-norm=native --verify-diagnostics

// expected-error @+1 {{tcp-fuse-for-cudnn expects batch-norm=auto|cudnn|codegen, but got 'native'}}
func.func @f(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  return %x : tensor<2x3x4x5xf32>
}
