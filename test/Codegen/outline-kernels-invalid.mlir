// RUN: cudnn-opt %s -split-input-file --codegen-outline-kernels -verify-diagnostics

// Kernels take their buffers as bare pointers, rebuilt inside from the
// type: a buffer of dynamic offset, strides or shape is an error at the
// launch that uses it.

module attributes {gpu.container_module} {
func.func @dynamic_offset(%m: memref<64xf32, strided<[1], offset: ?>>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{expects the buffers a kernel uses to have a static shape, strides and offset (kernels take them as bare pointers), but it uses 'memref<64xf32, strided<[1], offset: ?>>'}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %c = %c1) {
    %v = memref.load %m[%tx] : memref<64xf32, strided<[1], offset: ?>>
    memref.store %v, %m[%tx] : memref<64xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  return
}
}

// -----

module attributes {gpu.container_module} {
func.func @dynamic_shape(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{but it uses 'memref<?xf32>'}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %c = %c1) {
    %v = memref.load %m[%tx] : memref<?xf32>
    memref.store %v, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
}

// -----

// A static view (offset and strides in the type) is fine.
module attributes {gpu.container_module} {
func.func @static_view(%m: memref<8x8xf32, strided<[16, 1], offset: 4>>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c8, %b = %c1, %c = %c1) {
    %v = memref.load %m[%tx, %tx] : memref<8x8xf32, strided<[16, 1], offset: 4>>
    memref.store %v, %m[%tx, %tx] : memref<8x8xf32, strided<[16, 1], offset: 4>>
    gpu.terminator
  }
  return
}
}
