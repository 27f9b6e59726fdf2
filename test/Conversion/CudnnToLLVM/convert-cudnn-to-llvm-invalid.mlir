// RUN: cudnn-opt %s -split-input-file -convert-cudnn-to-llvm -allow-unregistered-dialect -verify-diagnostics

// Host code may not read device memory.
func.func @host_load(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expects host code to touch device buffers only through runtime calls (graphs, allocation, copies, views), but got 'memref.load'}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return
}

// -----

func.func @dynamic_strides(%out: memref<4x4xf32> {bufferize.result}) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{expects device buffers of static shape and strides, but got 'memref<4x4xf32, strided<[?, 1]>>'}}
  %0 = memref.alloc()[%c1] : memref<4x4xf32, strided<[?, 1]>>
  return
}

// -----

func.func @host_store(%x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{but got 'memref.store'}}
  memref.store %v, %x[%c0] : memref<4xf32>
  return
}

// -----

// expected-error @+1 {{expects constant memref globals (device copies are made once), but got a mutable one}}
memref.global "private" @state : memref<4xf32> = dense<0.0>

// -----

// A constant global without a value is a declaration with nothing to upload.
memref.global "private" constant @declared : memref<4xf32>

func.func @get_declared(%out: memref<4xf32> {bufferize.result}) {
  // expected-error @+1 {{expects a constant memref.global with a value, but @declared is not one}}
  %0 = memref.get_global @declared : memref<4xf32>
  memref.copy %0, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func private @dynamic_alloc(%n: index) {
  // expected-error @+1 {{expects device buffers of static shape and strides, but got 'memref<?xf32>'}}
  %0 = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %0 : memref<?xf32>
  return
}

// -----

// A copy out of a strided view is not one memcpy nor one transform.
func.func private @copy_not_dense(%x: memref<4xf32, strided<[2]>>, %y: memref<4xf32>) {
  // expected-error @+1 {{expects copies between dense buffers of one shape and element type, but got 'memref<4xf32, strided<[2]>>' to 'memref<4xf32>'}}
  memref.copy %x, %y : memref<4xf32, strided<[2]>> to memref<4xf32>
  return
}

// -----

func.func private @copy_dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-error @+1 {{expects copies between dense buffers of one shape and element type, but got 'memref<?xf32>' to 'memref<?xf32>'}}
  memref.copy %x, %y : memref<?xf32> to memref<?xf32>
  return
}

// -----

// cudnnTransformTensor takes rank 3 to 8.
func.func private @transpose_rank2(%x: memref<4x8xf32>, %y: memref<4x8xf32, strided<[1, 4]>>) {
  // expected-error @+1 {{expects a layout conversion of rank 3 to 8 in f16, bf16, f32, f64 or i8 (cudnnTransformTensor), but got 'memref<4x8xf32>' to 'memref<4x8xf32, strided<[1, 4]>>'}}
  memref.copy %x, %y : memref<4x8xf32> to memref<4x8xf32, strided<[1, 4]>>
  return
}

// -----

func.func private @transform_i32(%x: memref<1x2x2x2xi32>, %y: memref<1x2x2x2xi32, strided<[8, 1, 4, 2]>>) {
  // expected-error @+1 {{expects a layout conversion of rank 3 to 8 in f16, bf16, f32, f64 or i8 (cudnnTransformTensor), but got 'memref<1x2x2x2xi32>' to 'memref<1x2x2x2xi32, strided<[8, 1, 4, 2]>>'}}
  memref.copy %x, %y : memref<1x2x2x2xi32> to memref<1x2x2x2xi32, strided<[8, 1, 4, 2]>>
  return
}

// -----

// Exported functions become C symbols cmrt_entry_<name>.
// expected-error @+1 {{expects exported function names to be C identifiers, but got 'a.b'}}
func.func @"a.b"(%x: memref<4xf32>) {
  return
}

// -----

// expected-error @+1 {{expects exported function names to be C identifiers, but got '1model'}}
func.func @"1model"(%x: memref<4xf32>) {
  return
}

// -----

// expected-error @+1 {{expects exported functions to return through out-parameters (buffer-results-to-out-params), but got 1 results}}
func.func @returns(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}

// -----

// expected-error @+1 {{expects exported arguments to be static buffers of f16, bf16, f32, f64, i1, i8, i32 or i64 with static strides, but argument #1 is 'memref<4xi16>'}}
func.func @arg_i16(%x: memref<4xf32>, %y: memref<4xi16>) {
  return
}

// -----

// expected-error @+1 {{but argument #0 is 'memref<4xf32, strided<[1], offset: 2>>'}}
func.func @arg_offset(%x: memref<4xf32, strided<[1], offset: 2>>) {
  return
}

// -----

// expected-error @+1 {{but argument #0 is 'memref<4xf32, strided<[?]>>'}}
func.func @arg_dynamic_stride(%x: memref<4xf32, strided<[?]>>) {
  return
}

// -----

// expected-error @+1 {{but argument #0 is 'index'}}
func.func @arg_index(%n: index) {
  return
}

// -----

!v = !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = [4, 1]>

func.func @output_is_input(%x: memref<4x4xf32>, %o: memref<4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.execute_graph' op expects every graph output to be computed by an op of the graph, but output #0 is an input}}
  cudnn.execute_graph %h ins(%x : memref<4x4xf32>) outs(%o : memref<4x4xf32>) {
  ^bb0(%a: !v):
    cudnn.build_graph(%a) : !v
  }
  return
}

// -----

!v = !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = [4, 1]>

func.func @output_twice(%x: memref<4x4xf32>, %o: memref<4x4xf32> {bufferize.result}, %p: memref<4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.execute_graph' op expects each graph output once, but got a tensor named twice by cudnn.build_graph}}
  cudnn.execute_graph %h ins(%x : memref<4x4xf32>) outs(%o, %p : memref<4x4xf32>, memref<4x4xf32>) {
  ^bb0(%a: !v):
    %1 = cudnn.pointwise_relu(%a) type = f32 : !v -> !v
    cudnn.build_graph(%1, %1) : !v, !v
  }
  return
}

// -----

!v = !cudnn.tensor_desc<?x4xf32, alignment = 16, stride = [4, 1]>

func.func private @dynamic_descriptor(%x: memref<?x4xf32>, %o: memref<?x4xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.execute_graph' op expects graph tensors of static shape, but got '!cudnn.tensor_desc<?x4xf32, alignment = 16, stride = [4, 1]>'}}
  cudnn.execute_graph %h ins(%x : memref<?x4xf32>) outs(%o : memref<?x4xf32>) {
  ^bb0(%a: !v):
    %1 = cudnn.pointwise_relu(%a) type = f32 : !v -> !v
    cudnn.build_graph(%1) : !v
  }
  return
}

// -----

!v = !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = [4, 1]>

func.func @integer_compute_type(%x: memref<4x4xf32>, %o: memref<4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_graph %h ins(%x : memref<4x4xf32>) outs(%o : memref<4x4xf32>) {
  ^bb0(%a: !v):
    // expected-error @+1 {{'cudnn.pointwise_relu' op expects a cuDNN compute type, but got 'i16'}}
    %1 = cudnn.pointwise_relu(%a) type = i16 : !v -> !v
    cudnn.build_graph(%1) : !v
  }
  return
}

// -----

!v = !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = [4, 1]>

// An intermediate is kept in its producer's compute type, which must be a
// cuDNN data type too.
func.func @virtual_tensor_f80(%x: memref<4x4xf32>, %o: memref<4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{'cudnn.execute_graph' op expects graph tensors of a cuDNN data type (f16, bf16, f32, f64, i1, i8, ui8, i32, i64, f8), but got}}
  cudnn.execute_graph %h ins(%x : memref<4x4xf32>) outs(%o : memref<4x4xf32>) {
  ^bb0(%a: !v):
    %1 = cudnn.pointwise_relu(%a) type = f80 : !v -> !v
    %2 = cudnn.pointwise_relu(%1) type = f32 : !v -> !v
    cudnn.build_graph(%2) : !v
  }
  return
}

// -----

// A function may not take the name of a runtime entry (or of the
// lowering's globals): the lowering declares those itself.
module {
  // expected-error @+1 {{expects no symbol named like the runtime's entries or the lowering's globals (cmrt*, __cmrt_*, mgpu*), but got @cmrtInvocationBegin}}
  func.func @cmrtInvocationBegin(%x: memref<4xf32>) {
    return
  }
}

// -----

// expected-error @+1 {{expects no symbol named like the runtime's entries or the lowering's globals (cmrt*, __cmrt_*, mgpu*), but got @mgpuLaunchKernel}}
func.func private @mgpuLaunchKernel(%x: memref<4xf32>)

// -----

// The dialect's verifiers accept a graph input no op uses; the runtime's
// validator (which the lowering runs on every graph it serializes) refuses
// it, so the compiler does too instead of emitting a module that would fail
// at its first call.
!x = !cudnn.tensor_desc<1x4x4x4xf32, alignment = 16, stride = [64, 16, 4, 1]>
!c = !cudnn.tensor_desc<1x1x1x1xf32, alignment = 16, stride = [1, 1, 1, 1]>
func.func @unused_graph_input(%x: memref<1x4x4x4xf32>, %s: memref<1x1x1x1xf32>, %out: memref<1x4x4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  // expected-error @+1 {{expects a graph the runtime's validator accepts, but it refuses this one: tensor UID 2 expects to be used by an op, but no op reads or writes it}}
  cudnn.execute_graph %h ins(%x, %s : memref<1x4x4x4xf32>, memref<1x1x1x1xf32>) outs(%out : memref<1x4x4x4xf32>) {
  ^bb0(%a: !x, %sc: !c):
    %1 = cudnn.pointwise_relu(%a) type = f32 : !x -> !x
    cudnn.build_graph(%1) : !x
  }
  return
}
