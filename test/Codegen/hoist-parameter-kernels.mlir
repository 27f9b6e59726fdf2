// RUN: cudnn-opt %s -split-input-file -codegen-hoist-parameter-kernels | FileCheck %s

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A batch norm's folded scale (from its parameters only) after other work
// moves to the top with its own init, and the shift that reads it follows
// it. The reduction (not elementwise) and the op that reads its result
// stay where they are.
// CHECK-LABEL: func.func @parameters_first
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[P:.*]]: tensor<8xf32>, %[[Q:.*]]: tensor<8xf32>)
// CHECK-NEXT:    arith.constant 1.0
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[Q]] : tensor<8xf32>, tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>)
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[P]] : tensor<8xf32>, tensor<8xf32>) outs(%[[E2]] : tensor<8xf32>)
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>)
// CHECK:         %[[Z:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4xf32>)
// CHECK:         return %[[Z]], %[[T]]
func.func @parameters_first(%x: tensor<4x8xf32>, %p: tensor<8xf32>, %q: tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %in, %one : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%p, %q : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.divf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%s, %p : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %u = arith.subf %b, %a : f32
    linalg.yield %u : f32
  } -> tensor<8xf32>
  return %z, %t : tensor<4xf32>, tensor<8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A constant defined below the insertion point is cloned above the op; an
// op whose body reads its output (an accumulation) or whose init is not an
// empty tensor stays.
// CHECK-LABEL: func.func @constants_and_inits
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[S:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[C]] : tensor<8xf32>, tensor<8xf32>)
// CHECK:         tensor.empty
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf32>)
// CHECK:         arith.addf %{{.*}}, %out
// CHECK:         linalg.generic {{.*}} outs(%arg1 : tensor<8xf32>)
func.func @constants_and_inits(%p: tensor<8xf32>, %acc: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %u = arith.addf %a, %out : f32
    linalg.yield %u : f32
  } -> tensor<8xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %c = arith.constant dense<2.0> : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%p, %c : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.mulf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  return %r, %w, %s : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A fill and a generic that start a reduction's accumulators stay next to
// the reduction, whose kernel takes them as its starting values.
// CHECK-LABEL: func.func @reduction_inits_stay
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK:         linalg.fill
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
func.func @reduction_inits_stay(%x: tensor<4x8xf32>, %p: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %start = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%start : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %y, %s, %t : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
}
