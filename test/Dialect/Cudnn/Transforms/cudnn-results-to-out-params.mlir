// RUN: cudnn-opt %s -split-input-file -cudnn-results-to-out-params | FileCheck %s

!v = !cudnn.tensor_desc<4x4xf32, alignment = 16, stride = [4, 1]>

// A buffer the function allocated and returns is replaced by the caller's
// out-parameter: the graph writes straight into it, no alloc, no copy.
// CHECK-LABEL: func.func @returned_alloc
// CHECK-SAME:    (%[[X:.*]]: memref<4x4xf32>, %[[OUT:.*]]: memref<4x4xf32> {bufferize.result}) {
// CHECK-NOT:     memref.alloc
// CHECK:         cudnn.execute_graph %{{.*}} ins(%[[X]] : memref<4x4xf32>) outs(%[[OUT]] : memref<4x4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return{{$}}
func.func @returned_alloc(%x: memref<4x4xf32>) -> memref<4x4xf32> {
  %h = cudnn.get_current_handle !cudnn.handle
  %0 = memref.alloc() : memref<4x4xf32>
  cudnn.execute_graph %h ins(%x : memref<4x4xf32>) outs(%0 : memref<4x4xf32>) {
  ^bb0(%a: !v):
    %1 = cudnn.pointwise_relu(%a) type = f32 : !v -> !v
    cudnn.build_graph(%1) : !v
  }
  return %0 : memref<4x4xf32>
}

// -----

// A returned argument is not the function's to hand out: it is copied.
// CHECK-LABEL: func.func @returned_argument
// CHECK-SAME:    (%[[X:.*]]: memref<4x4xf32>, %[[OUT:.*]]: memref<4x4xf32> {bufferize.result}) {
// CHECK-NEXT:    memref.copy %[[X]], %[[OUT]] : memref<4x4xf32> to memref<4x4xf32>
// CHECK-NEXT:    return{{$}}
func.func @returned_argument(%x: memref<4x4xf32>) -> memref<4x4xf32> {
  return %x : memref<4x4xf32>
}

// -----

// A channels-last result keeps its static strided layout as an output.
// CHECK-LABEL: func.func @channels_last
// CHECK-SAME:    (%[[X:.*]]: memref<2x8x4x4xf16>, %[[OUT:.*]]: memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>> {bufferize.result}) {
// CHECK-NOT:     memref.alloc
// CHECK:         memref.copy %[[X]], %[[OUT]] : memref<2x8x4x4xf16> to memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
// CHECK-NEXT:    return{{$}}
func.func @channels_last(%x: memref<2x8x4x4xf16>) -> memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>> {
  %0 = memref.alloc() : memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
  memref.copy %x, %0 : memref<2x8x4x4xf16> to memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
  return %0 : memref<2x8x4x4xf16, strided<[128, 1, 32, 8]>>
}

// -----

// One alloc returned twice cannot become both outputs: it stays and is
// copied into each.
// CHECK-LABEL: func.func @same_alloc_twice
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %[[O0:.*]]: memref<4xf32> {bufferize.result}, %[[O1:.*]]: memref<4xf32> {bufferize.result}) {
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy %[[X]], %[[A]]
// CHECK:         memref.copy %[[A]], %[[O0]]
// CHECK:         memref.copy %[[A]], %[[O1]]
// CHECK-NEXT:    return{{$}}
func.func @same_alloc_twice(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %0 = memref.alloc() : memref<4xf32>
  memref.copy %x, %0 : memref<4xf32> to memref<4xf32>
  return %0, %0 : memref<4xf32>, memref<4xf32>
}

// -----

// Private callees and external declarations change signature too, and each
// call site allocates the out-parameters it passes.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32> {bufferize.result}) {
// CHECK-NOT:     memref.alloc
// CHECK:         memref.copy %[[X]], %[[OUT]]
// CHECK-NEXT:    return{{$}}
// CHECK-LABEL: func.func private @external
// CHECK-SAME:    (memref<4xf32>, memref<4xf32> {bufferize.result}){{$}}
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32> {bufferize.result}) {
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         call @callee(%[[X]], %[[A]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK:         %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         call @external(%[[A]], %[[B]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK:         memref.copy %[[B]], %[[OUT]]
// CHECK-NEXT:    return{{$}}
func.func private @callee(%x: memref<4xf32>) -> memref<4xf32> {
  %0 = memref.alloc() : memref<4xf32>
  memref.copy %x, %0 : memref<4xf32> to memref<4xf32>
  return %0 : memref<4xf32>
}

func.func private @external(memref<4xf32>) -> memref<4xf32>

func.func @caller(%x: memref<4xf32>) -> memref<4xf32> {
  %0 = call @callee(%x) : (memref<4xf32>) -> memref<4xf32>
  %1 = call @external(%0) : (memref<4xf32>) -> memref<4xf32>
  return %1 : memref<4xf32>
}

// -----

// Functions without results are left alone.
// CHECK-LABEL: func.func @no_results
// CHECK-SAME:    (%{{.*}}: memref<4xf32>) {
// CHECK-NEXT:    return{{$}}
func.func @no_results(%x: memref<4xf32>) {
  return
}
