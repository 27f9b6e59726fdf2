// RUN: cudnn-opt %s -tcp-fuse-for-cudnn=max-ops=0 -verify-diagnostics

// expected-error @+1 {{tcp-fuse-for-cudnn expects max-ops >= 1, but got 0}}
func.func @f(%x: tensor<2xf16>) -> tensor<2xf16> {
  return %x : tensor<2xf16>
}
