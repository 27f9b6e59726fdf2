// RUN: cudnn-opt %s -tcp-fuse-for-cudnn=target-sm=75 -verify-diagnostics
//
// The support table describes sm_80 and sm_90 engines only.

// expected-error @+1 {{tcp-fuse-for-cudnn expects target-sm >= 80 (the support table describes sm_80 and sm_90 engines), but got 75}}
func.func @f(%x: tensor<2xf16>) -> tensor<2xf16> {
  return %x : tensor<2xf16>
}
