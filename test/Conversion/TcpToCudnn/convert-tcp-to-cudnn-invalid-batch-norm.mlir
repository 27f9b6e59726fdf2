// RUN: cudnn-opt %s --convert-tcp-to-cudnn=batch-norm=native --verify-diagnostics
//
// The fusion policy options (which judge groups without group_type) are
// checked as tcp-fuse-for-cudnn checks them.

// expected-error @+1 {{convert-tcp-to-cudnn expects batch-norm=auto|cudnn|codegen, but got 'native'}}
func.func @f(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  return %x : tensor<2x3x4x5xf32>
}
