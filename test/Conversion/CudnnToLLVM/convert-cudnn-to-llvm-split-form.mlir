// RUN: cudnn-opt %s -convert-cudnn-to-llvm | FileCheck %s

// A graph with a split form (`-> i1`) only tries: cmrtInvocationGraphTry,
// with CMRT_GRAPH_NO_SPLIT (16) in its options beside the exact-fp32 bit
// (1) of its fp32 conv, says whether it ran, and the branch after it runs
// the split form when it did not.

!x = !cudnn.tensor_desc<1x4x4x4xf32, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<4x4x3x3xf32, alignment = 16, stride = []>

// CHECK-DAG:   llvm.func @cmrtInvocationGraphTry(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @model(
// CHECK:         %[[OPTIONS:.*]] = llvm.mlir.constant(17 : i64) : i64
// CHECK:         %[[STATUS:.*]] = llvm.call @cmrtInvocationGraphTry(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[OPTIONS]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         %[[RAN:.*]] = llvm.icmp "ne" %[[STATUS]], %[[ZERO]] : i32
// CHECK:         llvm.cond_br %[[RAN]], ^[[DONE:.*]], ^[[SPLIT:.*]]
// CHECK:       ^[[SPLIT]]:
// CHECK:         llvm.call @cmrtInvocationGraph(
// CHECK:         llvm.br ^[[DONE]]
func.func @model(%x: memref<1x4x4x4xf32>, %w: memref<4x4x3x3xf32>, %out: memref<1x4x4x4xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  %ran = cudnn.execute_graph %h ins(%x, %w : memref<1x4x4x4xf32>, memref<4x4x3x3xf32>) outs(%out : memref<1x4x4x4xf32>) {
  ^bb0(%a: !x, %k: !w):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    %2 = cudnn.pointwise_relu(%1) type = f32 lower_clip = 0.0 : !x -> !x
    cudnn.build_graph(%2) : !x
  } -> i1
  cf.cond_br %ran, ^done, ^split
^split:
  cudnn.execute_graph %h ins(%x, %w : memref<1x4x4x4xf32>, memref<4x4x3x3xf32>) outs(%out : memref<1x4x4x4xf32>) {
  ^bb0(%a: !x, %k: !w):
    %1 = cudnn.convolution(%a, %k) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1] : !x, !w -> !x
    cudnn.build_graph(%1) : !x
  }
  cf.br ^done
^done:
  return
}
