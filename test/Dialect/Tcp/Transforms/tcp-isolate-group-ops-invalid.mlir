// RUN: cudnn-opt %s -tcp-isolate-group-ops=max-inline-constant-elements=-1 -verify-diagnostics

// expected-error @+1 {{tcp-isolate-group-ops expects max-inline-constant-elements >= 0, but got -1}}
func.func @f(%x: tensor<2xf16>) -> tensor<2xf16> {
  return %x : tensor<2xf16>
}
