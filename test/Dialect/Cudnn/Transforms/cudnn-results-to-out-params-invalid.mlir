// RUN: cudnn-opt %s -split-input-file -cudnn-results-to-out-params -verify-diagnostics

// expected-error @+1 {{expects results to be memrefs of static shape and strides, but result #0 is 'memref<?xf32>'}}
func.func @dynamic_result(%x: memref<?xf32>) -> memref<?xf32> {
  return %x : memref<?xf32>
}

// -----

// expected-error @+1 {{expects results to be memrefs of static shape and strides, but result #1 is 'memref<4xf32, strided<[?]>>'}}
func.func @dynamic_strides(%x: memref<4xf32>, %y: memref<4xf32, strided<[?]>>) -> (memref<4xf32>, memref<4xf32, strided<[?]>>) {
  return %x, %y : memref<4xf32>, memref<4xf32, strided<[?]>>
}

// -----

// expected-error @+1 {{expects results to be memrefs of static shape and strides, but result #0 is 'index'}}
func.func @index_result() -> index {
  %c = arith.constant 0 : index
  return %c : index
}

// -----

// expected-error @+1 {{expects one return, but got 2}}
func.func @two_returns(%c: i1, %x: memref<4xf32>, %y: memref<4xf32>) -> memref<4xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  return %x : memref<4xf32>
^b:
  return %y : memref<4xf32>
}
