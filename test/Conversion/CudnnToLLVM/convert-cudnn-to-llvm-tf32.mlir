// Which graphs convert-cudnn-to-llvm builds with CMRT_GRAPH_EXACT_FP32 (1):
// one with an fp32 convolution (fprop, dgrad or wgrad) unless
// allow-tf32-conv, one with an fp32 matmul unless allow-tf32-matmul, never an
// fp16 one. The options word is the constant right after the word count.
// RUN: cudnn-opt %s -convert-cudnn-to-llvm | FileCheck %s --check-prefixes=CHECK,CONV1,DGRAD1,MM1
// RUN: cudnn-opt %s -convert-cudnn-to-llvm=allow-tf32-conv=true | FileCheck %s --check-prefixes=CHECK,CONV0,DGRAD0,MM1
// RUN: cudnn-opt %s -convert-cudnn-to-llvm=allow-tf32-matmul=true | FileCheck %s --check-prefixes=CHECK,CONV1,DGRAD1,MM0
// RUN: cudnn-opt %s -convert-cudnn-to-llvm="allow-tf32-conv=true allow-tf32-matmul=true" | FileCheck %s --check-prefixes=CHECK,CONV0,DGRAD0,MM0

!x = !cudnn.tensor_desc<1x4x4x4xf32, alignment = 16, stride = [64, 16, 4, 1]>
!w = !cudnn.tensor_desc<4x4x3x3xf32, alignment = 16, stride = [36, 9, 3, 1]>
!a = !cudnn.tensor_desc<1x16x32xf32, alignment = 16, stride = [512, 32, 1]>
!b = !cudnn.tensor_desc<1x32x8xf32, alignment = 16, stride = [256, 8, 1]>
!c = !cudnn.tensor_desc<1x16x8xf32, alignment = 16, stride = [128, 8, 1]>
!ah = !cudnn.tensor_desc<1x16x32xf16, alignment = 16, stride = [512, 32, 1]>
!bh = !cudnn.tensor_desc<1x32x8xf16, alignment = 16, stride = [256, 8, 1]>
!ch = !cudnn.tensor_desc<1x16x8xf16, alignment = 16, stride = [128, 8, 1]>

// CHECK-LABEL: llvm.func @conv(
// CHECK:         llvm.mlir.addressof @__cmrt_graph0_words
// CHECK-NEXT:    llvm.mlir.constant({{[0-9]+}} : i64)
// CONV1-NEXT:    llvm.mlir.constant(1 : i64)
// CONV0-NEXT:    llvm.mlir.constant(0 : i64)
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph0_uids
func.func @conv(%x: memref<1x4x4x4xf32>, %w: memref<4x4x3x3xf32>, %out: memref<1x4x4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_graph %h ins(%x, %w : memref<1x4x4x4xf32>, memref<4x4x3x3xf32>) outs(%out : memref<1x4x4x4xf32>) {
  ^bb0(%a: !x, %k: !w):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    cudnn.build_graph(%1) : !x
  }
  return
}

// A backward-data convolution is a convolution too.
// CHECK-LABEL: llvm.func @dgrad(
// CHECK:         llvm.mlir.addressof @__cmrt_graph1_words
// CHECK-NEXT:    llvm.mlir.constant({{[0-9]+}} : i64)
// DGRAD1-NEXT:   llvm.mlir.constant(1 : i64)
// DGRAD0-NEXT:   llvm.mlir.constant(0 : i64)
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph1_uids
func.func @dgrad(%dy: memref<1x4x4x4xf32>, %w: memref<4x4x3x3xf32>, %out: memref<1x4x4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_graph %h ins(%dy, %w : memref<1x4x4x4xf32>, memref<4x4x3x3xf32>) outs(%out : memref<1x4x4x4xf32>) {
  ^bb0(%g: !x, %k: !w):
    %1 = cudnn.convolution_backward_data(%g, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] mode = convolution : !x, !w -> !x
    cudnn.build_graph(%1) : !x
  }
  return
}

// CHECK-LABEL: llvm.func @matmul(
// CHECK:         llvm.mlir.addressof @__cmrt_graph2_words
// CHECK-NEXT:    llvm.mlir.constant({{[0-9]+}} : i64)
// MM1-NEXT:      llvm.mlir.constant(1 : i64)
// MM0-NEXT:      llvm.mlir.constant(0 : i64)
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph2_uids
func.func @matmul(%a: memref<1x16x32xf32>, %b: memref<1x32x8xf32>, %out: memref<1x16x8xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_graph %h ins(%a, %b : memref<1x16x32xf32>, memref<1x32x8xf32>) outs(%out : memref<1x16x8xf32>) {
  ^bb0(%l: !a, %r: !b):
    %1 = cudnn.matmul(%l, %r) type = f32 : !a, !b -> !c
    cudnn.build_graph(%1) : !c
  }
  return
}

// An fp16 matmul is meant for tensor cores: never the exact bit.
// CHECK-LABEL: llvm.func @half_matmul(
// CHECK:         llvm.mlir.addressof @__cmrt_graph3_words
// CHECK-NEXT:    llvm.mlir.constant({{[0-9]+}} : i64)
// CHECK-NEXT:    llvm.mlir.constant(0 : i64)
// CHECK-NEXT:    llvm.mlir.addressof @__cmrt_graph3_uids
func.func @half_matmul(%a: memref<1x16x32xf16>, %b: memref<1x32x8xf16>, %out: memref<1x16x8xf16> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_graph %h ins(%a, %b : memref<1x16x32xf16>, memref<1x32x8xf16>) outs(%out : memref<1x16x8xf16>) {
  ^bb0(%l: !ah, %r: !bh):
    %1 = cudnn.matmul(%l, %r) type = f32 : !ah, !bh -> !ch
    cudnn.build_graph(%1) : !ch
  }
  return
}
