// RUN: cudnn-opt %s --cudnn-bufferize | FileCheck %s

// linalg ops outside graphs bufferize with upstream's models (they become
// generated kernels). A fill that CSE shared between two reductions' inits
// is cloned per user first, so each output gets its own buffer and fill
// (which codegen-map-to-gpu folds into the reduction), not a copy of one.
// CHECK-LABEL: func.func @shared_fill
// CHECK-DAG:     %[[A:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK-DAG:     %[[B:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : memref<4xf32>)
// CHECK:         linalg.generic {{.*}} outs(%[[A]] : memref<4xf32>)
// CHECK:         linalg.generic {{.*}} outs(%[[B]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
func.func @shared_fill(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %sum, %sq : tensor<4xf32>, tensor<4xf32>
}

// An empty tensor nothing uses (codegen-hoist-parameter-kernels leaves none,
// but input IR may have one) bufferizes to nothing; the per-user copies of
// empty tensors skipped it instead of reading past its empty use list.
// CHECK-LABEL: func.func @unused_empty
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @unused_empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  return %x : tensor<4xf32>
}
