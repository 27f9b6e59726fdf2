// RUN: cudnn-opt %s -split-input-file -convert-cudnn-to-llvm | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: cudnn-opt %s -split-input-file -convert-cudnn-to-llvm="allow-tf32-conv=true" | FileCheck %s --check-prefixes=CHECK,INEXACT
// RUN: cudnn-opt %s -split-input-file -convert-cudnn-to-llvm="deterministic=true autotune=true" | FileCheck %s --check-prefixes=CHECK,TUNED

// Input as cudnn-bufferize and cudnn-results-to-out-params leave it (plus
// deallocation): graphs on device buffers, layout copies, constants.

!x = !cudnn.tensor_desc<1x4x4x4xf32, alignment = 16, stride = [64, 16, 4, 1]>
!w = !cudnn.tensor_desc<4x4x3x3xf32, alignment = 16, stride = [36, 9, 3, 1]>
!s = !cudnn.tensor_desc<1x4x1x1xf32, alignment = 16, stride = [4, 1, 1, 1]>
!c = !cudnn.tensor_desc<1x1x1x1xf32, alignment = 16, stride = [1, 1, 1, 1]>
!xh = !cudnn.tensor_desc<1x4x4x4xf16, alignment = 16, stride = [64, 1, 16, 4]>
!wh = !cudnn.tensor_desc<4x4x3x3xf16, alignment = 16, stride = [36, 1, 12, 4]>

// Each graph becomes four module constants: its serialized description
// ("CMRTGRPH" magic, version 1, word count, tensor count, ...), the UIDs its pointers bind to, a
// null plan slot and where it came from. The 1x1x1x1 splat @scale is passed
// by value (UID 3 is not bound to a pointer, no device copy), @bias is
// uploaded once per device into its slot.
// CHECK-DAG:   llvm.func @cmrtInvocationGraph(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-DAG:   llvm.mlir.global internal constant @__cmrt_graph0_words(dense<"0x434D525447525048010000000000000094000000000000000700000000000000{{[0-9A-F]+}}"> : tensor<148xi64>) {{.*}} : !llvm.array<148 x i64>
// CHECK-DAG:   llvm.mlir.global internal constant @__cmrt_graph0_uids(dense<[1, 2, 4, 7]> : tensor<4xi64>) {{.*}} : !llvm.array<4 x i64>
// CHECK-DAG:   llvm.mlir.global internal @__cmrt_graph0_plan() {{.*}} : !llvm.ptr {
// CHECK-DAG:   llvm.mlir.global internal constant @__cmrt_graph0_where("{{.*}}convert-cudnn-to-llvm.mlir:{{[0-9]+}}:3\00")
// CHECK-DAG:   llvm.mlir.global internal constant @__cmrt_graph1_words(dense<[5210755235178499395, 1, 71, 3, {{.*}}]> : tensor<71xi64>)
// CHECK-DAG:   llvm.mlir.global internal constant @__cmrt_graph1_uids(dense<[1, 2, 3]> : tensor<3xi64>)
// CHECK-DAG:   llvm.mlir.global internal @__cmrt_graph1_plan()
// CHECK-DAG:   llvm.mlir.global internal @bias__cmrt_device() {{.*}} : !llvm.ptr {
// CHECK-NOT:   @scale__cmrt_device
// CHECK-LABEL: llvm.func @model(
// CHECK:         %[[H:.*]] = llvm.call @cmrtInvocationCurrent() : () -> !llvm.ptr
// CHECK-NOT:     addressof @scale
// CHECK:         %[[I0:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK-NEXT:    %[[HOST:.*]] = llvm.mlir.addressof @bias : !llvm.ptr
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.mlir.addressof @bias__cmrt_device : !llvm.ptr
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT:    llvm.call @cmrtInvocationConstant(%[[I0]], %[[SLOT]], %[[HOST]], %[[BYTES]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK-NOT:     addressof @scale
// CHECK:         %[[I1:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-NEXT:    llvm.call @cmrtInvocationAlloc(%[[I1]], %[[SIZE]]) : (!llvm.ptr, i64) -> !llvm.ptr
// Four pointers (x, w, bias, output), not five: the scalar is in the words.
// CHECK:         %[[N:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    %[[PTRS:.*]] = llvm.alloca %[[N]] x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK-COUNT-4: llvm.store
// CHECK:         %[[PLAN:.*]] = llvm.mlir.addressof @__cmrt_graph0_plan : !llvm.ptr
// CHECK-NEXT:    %[[WORDS:.*]] = llvm.mlir.addressof @__cmrt_graph0_words : !llvm.ptr
// CHECK-NEXT:    %[[COUNT:.*]] = llvm.mlir.constant(148 : i64) : i64
// The fp32 convolution gets CMRT_GRAPH_EXACT_FP32 (1) unless allow-tf32-conv
// (convert-cudnn-to-llvm-tf32.mlir has every case).
// EXACT-NEXT:    %[[OPTS:.*]] = llvm.mlir.constant(1 : i64) : i64
// INEXACT-NEXT:  %[[OPTS:.*]] = llvm.mlir.constant(0 : i64) : i64
// TUNED-NEXT:    %[[OPTS:.*]] = llvm.mlir.constant(7 : i64) : i64
// CHECK-NEXT:    %[[UIDS:.*]] = llvm.mlir.addressof @__cmrt_graph0_uids : !llvm.ptr
// CHECK-NEXT:    %[[WHERE:.*]] = llvm.mlir.addressof @__cmrt_graph0_where : !llvm.ptr
// CHECK-NEXT:    llvm.call @cmrtInvocationGraph(%[[H]], %[[PLAN]], %[[WORDS]], %[[COUNT]], %[[OPTS]], %[[UIDS]], %[[PTRS]], %[[N]], %[[WHERE]])
// A copy between buffers of one layout is a memcpy of the buffer's bytes.
// CHECK:         %[[I2:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK:         %[[CBYTES:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-NEXT:    llvm.call @cmrtInvocationCopy(%[[I2]], %{{.*}}, %{{.*}}, %[[CBYTES]])
// CHECK:         %[[I3:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK:         llvm.call @cmrtInvocationFree(%[[I3]], %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT:     cmrtInvocationTransform
// CHECK:         llvm.return
func.func @model(%x: memref<1x4x4x4xf32>, %w: memref<4x4x3x3xf32>, %out: memref<1x4x4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  %scale = memref.get_global @scale : memref<1x1x1x1xf32>
  %bias = memref.get_global @bias : memref<1x4x1x1xf32>
  %tmp = memref.alloc() : memref<1x4x4x4xf32>
  cudnn.execute_graph %h ins(%x, %w, %scale, %bias : memref<1x4x4x4xf32>, memref<4x4x3x3xf32>, memref<1x1x1x1xf32>, memref<1x4x1x1xf32>) outs(%tmp : memref<1x4x4x4xf32>) {
  ^bb0(%a: !x, %k: !w, %sc: !c, %b: !s):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    %2 = cudnn.pointwise_mul(%1, %sc) type = f32 : !x, !c -> !x
    %3 = cudnn.pointwise_add(%2, %b) type = f32 : !x, !s -> !x
    cudnn.build_graph(%3) : !x
  }
  memref.copy %tmp, %out : memref<1x4x4x4xf32> to memref<1x4x4x4xf32>
  memref.dealloc %tmp : memref<1x4x4x4xf32>
  return
}

// A copy that changes the layout is one cudnnTransformTensor: data type
// (CUDNN_DATA_HALF = 2), rank, dims, then destination and source with their
// strides. An fp16 convolution never gets
// CMRT_GRAPH_EXACT_FP32.
// CHECK-LABEL: llvm.func @half(
// CHECK:         %[[H:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK:         %[[I0:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-NEXT:    llvm.call @cmrtInvocationAlloc(%[[I0]], %[[SIZE]])
// CHECK:         %[[I1:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK:         %[[DST:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f16
// CHECK:         %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f16
// CHECK-NEXT:    %[[DTYPE:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[RANK:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK:         %[[DIMS:.*]] = llvm.alloca
// CHECK:         %[[DSTRIDES:.*]] = llvm.alloca
// CHECK-NEXT:    llvm.getelementptr %[[DSTRIDES]][0]
// CHECK-NEXT:    llvm.mlir.constant(64 : i64)
// CHECK:         llvm.getelementptr %[[DSTRIDES]][1]
// CHECK-NEXT:    llvm.mlir.constant(1 : i64)
// CHECK:         %[[SSTRIDES:.*]] = llvm.alloca
// CHECK-NEXT:    llvm.getelementptr %[[SSTRIDES]][0]
// CHECK-NEXT:    llvm.mlir.constant(64 : i64)
// CHECK:         llvm.getelementptr %[[SSTRIDES]][1]
// CHECK-NEXT:    llvm.mlir.constant(16 : i64)
// CHECK:         llvm.call @cmrtInvocationTransform(%[[I1]], %[[DTYPE]], %[[RANK]], %[[DIMS]], %[[DST]], %[[DSTRIDES]], %[[SRC]], %[[SSTRIDES]])
// CHECK:         llvm.mlir.addressof @__cmrt_graph1_words
// CHECK-NEXT:    llvm.mlir.constant(71 : i64)
// EXACT-NEXT:    %[[OPTS:.*]] = llvm.mlir.constant(0 : i64) : i64
// INEXACT-NEXT:  %[[OPTS:.*]] = llvm.mlir.constant(0 : i64) : i64
// TUNED-NEXT:    %[[OPTS:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph1_uids
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph1_where
// CHECK-NEXT:    llvm.call @cmrtInvocationGraph(%[[H]], %{{.*}}, %{{.*}}, %{{.*}}, %[[OPTS]],
// CHECK:         llvm.call @cmrtInvocationTransform(
// CHECK:         llvm.call @cmrtInvocationFree(
// CHECK:         llvm.call @cmrtInvocationFree(
// CHECK-NOT:     cmrtInvocationCopy
// CHECK:         llvm.return
func.func @half(%x: memref<1x4x4x4xf16>, %w: memref<4x4x3x3xf16, strided<[36, 1, 12, 4]>>, %out: memref<1x4x4x4xf16> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  %xc = memref.alloc() : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>
  memref.copy %x, %xc : memref<1x4x4x4xf16> to memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>
  %y = memref.alloc() : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>
  cudnn.execute_graph %h ins(%xc, %w : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>, memref<4x4x3x3xf16, strided<[36, 1, 12, 4]>>) outs(%y : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>) {
  ^bb0(%a: !xh, %k: !wh):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !xh, !wh -> !xh
    cudnn.build_graph(%1) : !xh
  }
  memref.copy %y, %out : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>> to memref<1x4x4x4xf16>
  memref.dealloc %xc : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>
  memref.dealloc %y : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>
  return
}

// Each public function gets a C entry: (stream, buffer pointers) -> status,
// bracketed by cmrtInvocationBegin/End, passing each buffer with its static
// sizes and strides.
// CHECK-LABEL: llvm.func @cmrt_entry_model(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32 {
// CHECK:         %[[INV:.*]] = llvm.call @cmrtInvocationBegin(%{{.*}}) : (!llvm.ptr) -> !llvm.ptr
// CHECK:         %[[P0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call @model(%[[P0]], %[[P0]],
// CHECK-NEXT:    %[[ST:.*]] = llvm.call @cmrtInvocationEnd(%[[INV]]) : (!llvm.ptr) -> i32
// CHECK-NEXT:    llvm.return %[[ST]] : i32
// CHECK-LABEL: llvm.func @cmrt_entry_half(
// CHECK:         llvm.call @cmrtInvocationBegin
// CHECK:         llvm.call @half(
// CHECK:         llvm.call @cmrtInvocationEnd

// The manifest: one line per argument (direction, dtype, sizes, strides).
// CHECK:       llvm.mlir.global external constant @cmrt_module_manifest("cudnn-mlir-module 1\0Aentry model\0Aarg 0 in f32 [1,4,4,4] [64,16,4,1]\0Aarg 1 in f32 [4,4,3,3] [36,9,3,1]\0Aarg 2 out f32 [1,4,4,4] [64,16,4,1]\0Aend\0Aentry half\0Aarg 0 in f16 [1,4,4,4] [64,16,4,1]\0Aarg 1 in f16 [4,4,3,3] [36,1,12,4]\0Aarg 2 out f16 [1,4,4,4] [64,16,4,1]\0Aend\0A\00")

memref.global "private" constant @scale : memref<1x1x1x1xf32> = dense<2.0>
memref.global "private" constant @bias : memref<1x4x1x1xf32> = dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]>

// -----

!v = !cudnn.tensor_desc<1x4x1x1xf32, alignment = 16, stride = [4, 1, 1, 1]>
!c = !cudnn.tensor_desc<1x1x1x1xf32, alignment = 16, stride = [1, 1, 1, 1]>

// A scalar constant the host also reads (here: copies out) is uploaded,
// though the graph still takes it by value (one UID less than tensors).
// CHECK-DAG:   llvm.mlir.global internal constant @__cmrt_graph0_uids(dense<[1, 3]> : tensor<2xi64>)
// CHECK-DAG:   llvm.mlir.global internal @scale__cmrt_device()
// CHECK-LABEL: llvm.func @shared(
// CHECK:         llvm.mlir.addressof @scale__cmrt_device
// CHECK-NEXT:    llvm.mlir.constant(4 : i64)
// CHECK-NEXT:    llvm.call @cmrtInvocationConstant(
// CHECK:         %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    llvm.alloca %[[N]] x !llvm.ptr
// INEXACT:       llvm.call @cmrtInvocationGraph(
// CHECK:         llvm.call @cmrtInvocationCopy(
func.func @shared(%x: memref<1x4x1x1xf32>, %out: memref<1x4x1x1xf32> {bufferize.result}, %s: memref<1x1x1x1xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  %scale = memref.get_global @scale : memref<1x1x1x1xf32>
  cudnn.execute_graph %h ins(%x, %scale : memref<1x4x1x1xf32>, memref<1x1x1x1xf32>) outs(%out : memref<1x4x1x1xf32>) {
  ^bb0(%a: !v, %b: !c):
    %1 = cudnn.pointwise_mul(%a, %b) type = f32 : !v, !c -> !v
    cudnn.build_graph(%1) : !v
  }
  memref.copy %scale, %s : memref<1x1x1x1xf32> to memref<1x1x1x1xf32>
  return
}

// Private functions are called, not exported.
// CHECK-LABEL: llvm.func @helper(
// CHECK-LABEL: llvm.func @calls_helper(
// CHECK:         llvm.call @helper(
// CHECK-NOT:   @cmrt_entry_helper
// CHECK:       llvm.func @cmrt_entry_shared(
// CHECK-NOT:   @cmrt_entry_helper
// CHECK:       llvm.func @cmrt_entry_calls_helper(
// CHECK-NOT:   @cmrt_entry_helper
// CHECK:       @cmrt_module_manifest("cudnn-mlir-module 1\0Aentry shared\0Aarg 0 in f32 [1,4,1,1] [4,1,1,1]\0Aarg 1 out f32 [1,4,1,1] [4,1,1,1]\0Aarg 2 out f32 [1,1,1,1] [1,1,1,1]\0Aend\0Aentry calls_helper\0Aarg 0 in f32 [4] [1]\0Aend\0A\00")
func.func private @helper(%x: memref<4xf32>) {
  return
}

func.func @calls_helper(%x: memref<4xf32>) {
  call @helper(%x) : (memref<4xf32>) -> ()
  return
}

memref.global "private" constant @scale : memref<1x1x1x1xf32> = dense<2.0>

// -----

// Resample (pooling) graphs are always autotuned (CMRT_GRAPH_AUTOTUNE, 4):
// the heuristics' engine for ResNet-50's max pool is 2.5x slower than the
// fastest on the H100.
!p = !cudnn.tensor_desc<1x4x4x4xf16, alignment = 16, stride = [64, 1, 16, 4]>
!q = !cudnn.tensor_desc<1x4x2x2xf16, alignment = 16, stride = [16, 1, 8, 4]>
// CHECK-LABEL: llvm.func @pool(
// CHECK:         llvm.mlir.addressof @__cmrt_graph0_words
// CHECK-NEXT:    llvm.mlir.constant({{[0-9]+}} : i64)
// EXACT-NEXT:    llvm.mlir.constant(4 : i64) : i64
// INEXACT-NEXT:  llvm.mlir.constant(4 : i64) : i64
// TUNED-NEXT:    llvm.mlir.constant(6 : i64) : i64
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph0_uids
func.func @pool(%x: memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>, %out: memref<1x4x2x2xf16, strided<[16, 1, 8, 4]>> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_graph %h ins(%x : memref<1x4x4x4xf16, strided<[64, 1, 16, 4]>>) outs(%out : memref<1x4x2x2xf16, strided<[16, 1, 8, 4]>>) {
  ^bb0(%a: !p):
    %1 = cudnn.resample(%a) mode = max type = f32 window = [2, 2] spatial_stride = [2, 2] pre_padding = [0, 0] post_padding = [0, 0] : !p -> !q
    cudnn.build_graph(%1) : !q
  }
  return
}
