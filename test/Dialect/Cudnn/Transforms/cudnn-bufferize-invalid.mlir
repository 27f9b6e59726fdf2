// RUN: cudnn-opt %s -split-input-file -cudnn-bufferize -verify-diagnostics

// expected-error @+1 {{expects function arguments to be tensors of static shape, but argument #1 is 'tensor<?x4xf32>'}}
func.func @dynamic_argument(%x: tensor<4x4xf32>, %y: tensor<?x4xf32>) {
  return
}

// -----

// expected-error @+1 {{expects function arguments to be tensors of static shape, but argument #0 is 'f32'}}
func.func @scalar_argument(%x: f32) {
  return
}

// -----

// expected-error @+1 {{expects function results to be tensors of static shape, but result #0 is 'tensor<?xf32>'}}
func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// expected-error @+1 {{expects function results to be tensors of static shape, but result #1 is 'index'}}
func.func @non_tensor_result(%x: tensor<4xf32>) -> (tensor<4xf32>, index) {
  %c = arith.constant 0 : index
  return %x, %c : tensor<4xf32>, index
}

// -----

func.func @max_pool_outside_graph(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+1 {{expects only cuDNN graphs, linalg ops (generated kernels), constants and reshapes outside graphs, but got 'tcp.max_pool2d'}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

func.func @tanh_outside_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{but got 'tcp.tanh'}}
  %0 = tcp.tanh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The dynamic argument is reported before any unsupported op.
// expected-error @+1 {{argument #0 is 'tensor<?xf32>'}}
func.func @first_error_wins(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tcp.tanh %x : tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// tensor.cast may drop the encoding, but the bytes stay channels-last: a
// layout conversion that expects packed input cannot read them.
func.func @cast_then_convert(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> tensor<2x8x4x4xf16, #cudnn.channels_last> {
  %0 = tensor.cast %x : tensor<2x8x4x4xf16, #cudnn.channels_last> to tensor<2x8x4x4xf16>
  // expected-error @+2 {{'cudnn.convert_layout' op expects operand #0 in a buffer of type 'memref<2x8x4x4xf16>', but bufferization gave 'memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>'}}
  // expected-error @+1 {{failed to bufferize op}}
  %1 = cudnn.convert_layout %0 : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %1 : tensor<2x8x4x4xf16, #cudnn.channels_last>
}

// -----

!v = !cudnn.tensor_desc<2x8x4x4xf16, alignment = 16, stride = [128, 16, 4, 1]>

// Likewise for a graph whose descriptor promises packed strides.
func.func @cast_then_graph(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> tensor<2x8x4x4xf16> {
  %h = cudnn.get_current_handle !cudnn.handle
  %0 = tensor.cast %x : tensor<2x8x4x4xf16, #cudnn.channels_last> to tensor<2x8x4x4xf16>
  // expected-error @+2 {{'cudnn.build_and_exec_graph' op expects operand #1 in a buffer of type 'memref<2x8x4x4xf16>', but bufferization gave 'memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>'}}
  // expected-error @+1 {{failed to bufferize op}}
  %1 = cudnn.build_and_exec_graph %h %0 {
  ^bb0(%a: !v):
    %2 = cudnn.pointwise_relu(%a) type = f32 : !v -> !v
    cudnn.build_graph(%2) : !v
  } : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  return %1 : tensor<2x8x4x4xf16>
}
