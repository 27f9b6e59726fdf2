// RUN: cudnn-opt %s --cudnn-bufferize | FileCheck %s

// linalg ops outside graphs bufferize with upstream's models (they become
// generated kernels). A fill that CSE shared between two reductions' inits
// is cloned per user first, right before it, so each output gets its own
// buffer and fill (which codegen-map-to-gpu folds into the reduction), not
// a copy of one.
// CHECK-LABEL: func.func @shared_fill
// CHECK:         %[[A:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK:         %[[B:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : memref<4xf32>)
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[B]] : memref<4xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[A]] : memref<4xf32>)
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

// A fill with one user moves next to it: left where it was (CSE puts one a
// block earlier) it would be a kernel of its own, and between a softmax's
// max and its sum it split their kernel in two.
// CHECK-LABEL: func.func @fill_moves_to_its_user
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:         linalg.fill
// CHECK-NEXT:    linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
func.func @fill_moves_to_its_user(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%twice : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %twice, %sum : tensor<4x8xf32>, tensor<4xf32>
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

// -----

// The pieces of codegen-split-concat-reads: each generic fills an empty
// tensor inserted into the result. Empty-tensor elimination makes each
// empty a slice of the result, so each kernel writes its part of one
// buffer in place, and no copy is left.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @pieces_in_place
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<4x64xf32>, %[[B:[a-z0-9]+]]: memref<4x32xf32>
// CHECK:         %[[OUT:.*]] = memref.alloc() {{.*}} : memref<4x96xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         %[[LOW:.*]] = memref.subview %[[OUT]][0, 0] [4, 64] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : memref<4x64xf32>) outs(%[[LOW]] : memref<4x64xf32, strided<[96, 1]>>)
// CHECK:         %[[HIGH:.*]] = memref.subview %[[OUT]][0, 64] [4, 32] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[B]] : memref<4x32xf32>) outs(%[[HIGH]] : memref<4x32xf32, strided<[96, 1], offset: 64>>)
// CHECK-NOT:     memref.copy
// CHECK:         return %[[OUT]]
func.func @pieces_in_place(%a: tensor<4x64xf32>, %b: tensor<4x32xf32>) -> tensor<4x96xf32> {
  %e = tensor.empty() : tensor<4x96xf32>
  %ea = tensor.empty() : tensor<4x64xf32>
  %ra = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf32>) outs(%ea : tensor<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %i0 = tensor.insert_slice %ra into %e[0, 0] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<4x96xf32>
  %eb = tensor.empty() : tensor<4x32xf32>
  %rb = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4x32xf32>) outs(%eb : tensor<4x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %i1 = tensor.insert_slice %rb into %i0[0, 64] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x96xf32>
  return %i1 : tensor<4x96xf32>
}

// -----

// The same in a branch (a split form) whose result tensor is an empty
// defined before the branch: the empty dominates the piece, so the piece
// still writes its slice in place. (The constant condition folds the
// branch away after bufferization.)
// CHECK-LABEL: func.func @piece_in_branch
// CHECK:         %[[LOW:.*]] = memref.subview %{{.*}}[0, 0] [4, 64] [1, 1]
// CHECK:         linalg.generic {{.*}} outs(%[[LOW]] : memref<4x64xf32, strided<[96, 1]>>)
// CHECK-NOT:     memref.copy {{.*}}strided
func.func @piece_in_branch(%a: tensor<4x64xf32>, %full: tensor<4x96xf32>) -> tensor<4x96xf32> {
  %c = arith.constant false
  %e = tensor.empty() : tensor<4x96xf32>
  %r = scf.if %c -> tensor<4x96xf32> {
    scf.yield %full : tensor<4x96xf32>
  } else {
    %ea = tensor.empty() : tensor<4x64xf32>
    %ra = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x64xf32>) outs(%ea : tensor<4x64xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<4x64xf32>
    %i0 = tensor.insert_slice %ra into %e[0, 0] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<4x96xf32>
    scf.yield %i0 : tensor<4x96xf32>
  }
  return %r : tensor<4x96xf32>
}
