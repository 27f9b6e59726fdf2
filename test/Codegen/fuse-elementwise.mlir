// RUN: cudnn-opt %s --codegen-fuse-elementwise | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#bcast = affine_map<(d0, d1) -> (d0, 0)>

// A chain of elementwise generics, one per op, with a broadcast bias:
// one generic; the broadcast is folded into the bias's indexing map.
// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic {indexing_maps = [#[[ID:.*]], #[[ROW:.*]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:           math.tanh
// CHECK-NOT:     linalg.generic
func.func @chain(%x: tensor<8x16xf32>, %b: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %bb = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sq, %bb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%add : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = math.tanh %a : f32
    linalg.yield %h : f32
  } -> tensor<8x16xf32>
  return %t : tensor<8x16xf32>
}

// exp(x - max) has two readers, the sum and the division. Upstream's pass
// would keep it (it fuses single-use producers only); here it is recomputed
// in both, and the sum reduction absorbs it as its prologue: three generics
// (max, sum, division) whose only intermediates are per-row values.
// CHECK-LABEL: func.func @softmax
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maximumf
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%{{.*}}, %[[MAX]] :
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.*}}, %[[MAX]], %[[SUM]] :
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK-NOT:     linalg.generic
func.func @softmax(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x32xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x32xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<4x32xf32>, tensor<4x1xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x32xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4x32xf32>, tensor<4x1xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %sum: f32, %o: f32):
    %q = arith.divf %a, %sum : f32
    linalg.yield %q : f32
  } -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// A reduction marked with a merge rule (Welford statistics) is not fused
// into: the fused op would lose the mark, and with it the parallel merge.
// CHECK-LABEL: func.func @welford_keeps_its_form
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:           arith.negf
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<4x8xf32>)
// CHECK-SAME:      attrs = {codegen.combiner = "welford"}
func.func @welford_keeps_its_form(%x: tensor<4x8xf32>) -> (tensor<4xi64>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %ci = tensor.empty() : tensor<4xi64>
  %fi = tensor.empty() : tensor<4xf32>
  %s:3 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%n : tensor<4x8xf32>) outs(%ci, %fi, %fi : tensor<4xi64>, tensor<4xf32>, tensor<4xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%v: f32, %c: i64, %mu: f32, %m2: f32):
    %one = arith.constant 1 : i64
    %c1 = arith.addi %c, %one : i64
    %cf = arith.sitofp %c1 : i64 to f32
    %d = arith.subf %v, %mu : f32
    %q = arith.divf %d, %cf : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %m21 = arith.addf %m2, %p : f32
    linalg.yield %c1, %mu1, %m21 : i64, f32, f32
  } -> (tensor<4xi64>, tensor<4xf32>, tensor<4xf32>)
  return %s#0, %s#1, %s#2 : tensor<4xi64>, tensor<4xf32>, tensor<4xf32>
}

// A per-channel producer read through a broadcasting map (batch norm's
// inverse deviation: a division and a square root per channel). With another
// user it runs anyway, so the consumer reads its result rather than
// recomputing it per element; with no other user it fuses (its kernel goes).
#ch = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @broadcast_producer_with_other_user
// CHECK:         %[[INV:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK:           math.rsqrt
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[INV]] : tensor<8x16xf32>, tensor<16xf32>)
// CHECK-NOT:       math.rsqrt
// CHECK:           arith.mulf
// CHECK:         return %[[Y]], %[[INV]]
func.func @broadcast_producer_with_other_user(%x: tensor<8x16xf32>, %v: tensor<16xf32>)
    -> (tensor<8x16xf32>, tensor<16xf32>) {
  %e1 = tensor.empty() : tensor<16xf32>
  %inv = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %inv : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %i: f32, %o: f32):
    %m = arith.mulf %a, %i : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %y, %inv : tensor<8x16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @broadcast_producer_single_user
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK:           math.rsqrt
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
func.func @broadcast_producer_single_user(%x: tensor<8x16xf32>, %w: tensor<32xf32>) -> tensor<8x16xf32> {
  %v = tensor.extract_slice %w[0] [16] [1] : tensor<32xf32> to tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %inv = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %inv : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %i: f32, %o: f32):
    %m = arith.mulf %a, %i : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// A producer on the function's arguments only (a batch norm's factor from
// its parameters) stays a kernel of its own: codegen-hoist-parameter-kernels
// and codegen-merge-launches make it nearly free, while fused it would be
// recomputed for every element.
// CHECK-LABEL: func.func @broadcast_parameter_producer_stays
// CHECK:         %[[INV:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x16xf32>)
// CHECK:           math.rsqrt
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[INV]] : tensor<8x16xf32>, tensor<1x16xf32>)
// CHECK-NOT:       math.rsqrt
// CHECK:           arith.mulf
func.func @broadcast_parameter_producer_stays(%x: tensor<8x16xf32>, %v: tensor<16xf32>) -> tensor<8x16xf32> {
  %v2 = tensor.expand_shape %v [[0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
  %e1 = tensor.empty() : tensor<1x16xf32>
  %inv = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<1x16xf32>) outs(%e1 : tensor<1x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<1x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (0, d1)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %inv : tensor<8x16xf32>, tensor<1x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %i: f32, %o: f32):
    %m = arith.mulf %a, %i : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// Global average pooling after a batch norm whose data comes through
// `tensor.extract` (a generated conv) and whose parameters are broadcasts:
// the batch norm's only full-size operand is its output. Fused into the sum,
// that output would stay as a second result of the reduction, indexed by the
// reduced loops, which no kernel writes (codegen-map-to-gpu rejects it). The
// batch norm stays a kernel, and the sum takes the ReLU and reads it; its
// only output is the accumulator.
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#pooled = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
// CHECK-LABEL: func.func @pool_keeps_producer_that_sizes_its_loops
// CHECK:         %[[BN:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:      outs(%{{.*}} : tensor<2x8x3x3xf32>)
// CHECK:           tensor.extract
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[BN]] : tensor<2x8x3x3xf32>) outs(%{{.*}} : tensor<2x8x1x1xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.addf
// CHECK:           linalg.yield %{{[^,]*}} : f32
// CHECK-NEXT:    } -> tensor<2x8x1x1xf32>
func.func @pool_keeps_producer_that_sizes_its_loops(%x: tensor<2x8x3x3xf32>, %scale: tensor<1x8x1x1xf32>, %shift: tensor<1x8x1x1xf32>) -> tensor<2x8x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x3x3xf32>
  %scaled = linalg.generic {indexing_maps = [#chan, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scale : tensor<1x8x1x1xf32>) outs(%e : tensor<2x8x3x3xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %v = tensor.extract %x[%n, %c, %h, %w] : tensor<2x8x3x3xf32>
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x8x3x3xf32>
  %shifted = linalg.generic {indexing_maps = [#nchw, #chan, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %shift : tensor<2x8x3x3xf32>, tensor<1x8x1x1xf32>) outs(%e : tensor<2x8x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x3xf32>
  %relu = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%shifted : tensor<2x8x3x3xf32>) outs(%e : tensor<2x8x3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x3xf32>
  %e1 = tensor.empty() : tensor<2x8x1x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#nchw, #pooled], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%relu : tensor<2x8x3x3xf32>) outs(%acc : tensor<2x8x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x8x1x1xf32>
  return %sum : tensor<2x8x1x1xf32>
}

// A producer the function also returns is written anyway: the sum reads its
// result instead of taking it in (where its full result would again be an
// output of the reduction).
// CHECK-LABEL: func.func @pool_reads_producer_with_other_user
// CHECK:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x8x3x3xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[RELU]] : tensor<2x8x3x3xf32>) outs(%{{.*}} : tensor<2x8x1x1xf32>)
// CHECK-NOT:       arith.maximumf
// CHECK:         return %[[SUM]], %[[RELU]]
func.func @pool_reads_producer_with_other_user(%x: tensor<2x8x3x3xf32>) -> (tensor<2x8x1x1xf32>, tensor<2x8x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x3x3xf32>
  %relu = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x8x3x3xf32>) outs(%e : tensor<2x8x3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x3xf32>
  %e1 = tensor.empty() : tensor<2x8x1x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#nchw, #pooled], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%relu : tensor<2x8x3x3xf32>) outs(%acc : tensor<2x8x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x8x1x1xf32>
  return %sum, %relu : tensor<2x8x1x1xf32>, tensor<2x8x3x3xf32>
}

// A residual stream: x1 = x0 + a (x0 computed: a matmul) feeds both another reader (a norm, here a
// tanh) and the next residual add. x1 runs anyway for its other reader, and
// it reads two full-size tensors, so the next add reads its result instead
// of recomputing it from x0 and a (which, chained over a transformer's
// blocks, would reread every earlier block's output in each later one).
// CHECK-LABEL: func.func @residual_chain
// CHECK:         %[[X0:.*]] = linalg.matmul
// CHECK:         %[[X1:.*]] = linalg.generic {{.*}} ins(%[[X0]], %arg2 :
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[X1]] :
// CHECK:           math.tanh
// CHECK:         linalg.generic {{.*}} ins(%[[X1]], %arg3 :
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @residual_chain(%m: tensor<8x4xf32>, %w: tensor<4x16xf32>, %a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %x0 = linalg.matmul ins(%m, %w : tensor<8x4xf32>, tensor<4x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x0, %a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x1 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %h = math.tanh %p : f32
    linalg.yield %h : f32
  } -> tensor<8x16xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %t, %x2 : tensor<8x16xf32>, tensor<8x16xf32>
}

// A parameter computation (function arguments only) with two readers and
// two full-size reads is still recomputed in each: a folded batch norm's
// scale = gamma * rsqrt(var), read by the weights and by the shift.
// CHECK-LABEL: func.func @parameter_recomputed
// CHECK:         linalg.generic {{.*}} ins(%arg0, %arg1 :
// CHECK:           arith.mulf
// CHECK:           math.tanh
// CHECK:         linalg.generic {{.*}} ins(%arg0, %arg1, %arg2 :
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @parameter_recomputed(%g: tensor<8x16xf32>, %v: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %scale = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %v : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scale : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %h = math.tanh %p : f32
    linalg.yield %h : f32
  } -> tensor<8x16xf32>
  %shift = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scale, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %t, %shift : tensor<8x16xf32>, tensor<8x16xf32>
}

// A bias add (written as a broadcast and an add, as convert-tcp-to-linalg
// writes it) that a layer norm's two sums and its normalisation read: each
// sum gets a copy of it, so no kernel writes the biased tensor; the norm's
// three generics read the matmul's result and the bias.
#chans = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @norm_sums_take_the_bias_add
// CHECK:         %[[X:.*]] = linalg.matmul
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      ins(%[[X]], %arg2 :
// CHECK:           arith.addf
// CHECK:           arith.addf
// CHECK:         %[[SQ:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      ins(%[[X]], %arg2, %[[SUM]] :
// CHECK:           arith.addf
// CHECK:           arith.subf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[X]], %arg2, %[[SUM]], %[[SQ]] :
// CHECK-NOT:     linalg.generic
func.func @norm_sums_take_the_bias_add(%m: tensor<8x4xf32>, %w: tensor<4x16xf32>, %bias: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %x = linalg.matmul ins(%m, %w : tensor<8x4xf32>, tensor<4x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %bb = linalg.generic {indexing_maps = [#chans, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<1x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x16xf32>) outs(%acc : tensor<8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x1xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y, %sum : tensor<8x16xf32>, tensor<8x1xf32>) outs(%acc : tensor<8x1xf32>) {
  ^bb0(%a: f32, %mean: f32, %o: f32):
    %d = arith.subf %a, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x1xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum, %sq : tensor<8x16xf32>, tensor<8x1xf32>, tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %mean: f32, %v: f32, %o: f32):
    %d = arith.subf %a, %mean : f32
    %r = arith.mulf %d, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %n : tensor<8x16xf32>
}

// The same with a GELU (erf) in the producer: a math function three times
// per element could make the norm's kernel compute-bound, so the producer
// stays a kernel and the sums read its result.
// CHECK-LABEL: func.func @norm_sums_read_an_expensive_producer
// CHECK:         %[[X:.*]] = linalg.matmul
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[X]] :
// CHECK:           math.erf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      ins(%[[G]] :
// CHECK-NOT:       math.erf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      ins(%[[G]], %{{.*}} :
func.func @norm_sums_read_an_expensive_producer(%m: tensor<8x4xf32>, %w: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %x = linalg.matmul ins(%m, %w : tensor<8x4xf32>, tensor<4x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %g = math.erf %a : f32
    linalg.yield %g : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x16xf32>) outs(%acc : tensor<8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x1xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y, %sum : tensor<8x16xf32>, tensor<8x1xf32>) outs(%acc : tensor<8x1xf32>) {
  ^bb0(%a: f32, %mean: f32, %o: f32):
    %d = arith.subf %a, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x1xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum, %sq : tensor<8x16xf32>, tensor<8x1xf32>, tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %mean: f32, %v: f32, %o: f32):
    %d = arith.subf %a, %mean : f32
    %r = arith.mulf %d, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %n : tensor<8x16xf32>
}
