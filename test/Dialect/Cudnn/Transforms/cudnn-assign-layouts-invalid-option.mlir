// RUN: cudnn-opt %s -cudnn-assign-layouts=layout=nhwc -verify-diagnostics

// expected-error @+1 {{cudnn-assign-layouts expects layout = auto, channels-last or packed, but got nhwc}}
func.func @f() {
  return
}
