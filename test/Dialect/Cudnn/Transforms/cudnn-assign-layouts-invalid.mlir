// RUN: cudnn-opt %s -split-input-file -cudnn-assign-layouts -verify-diagnostics

// expected-error @+1 {{expects cudnn.layout = "channels_last" on argument #0, but got "nhwc"}}
func.func @bad_name(%x: tensor<2x8x4x4xf16> {cudnn.layout = "nhwc"}) {
  return
}

// -----

// expected-error @+1 {{expects a rank >= 3 tensor without encoding for cudnn.layout on result #0, but got 'tensor<8xf16>'}}
func.func @bad_rank(%x: tensor<8xf16>) -> (tensor<8xf16> {cudnn.layout = "channels_last"}) {
  return %x : tensor<8xf16>
}
