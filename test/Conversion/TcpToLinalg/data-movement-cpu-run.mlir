// The data movement convert-tcp-to-linalg writes, run on the CPU (upstream's
// loops, LLVM and mlir-runner) against references built with
// tensor.generate: attention's unbind of a permuted packed projection
// (slices moved before the transpose, unit dims dropped first, the slice and
// its squeeze one generic), torch.roll (a concat reading its slices'
// sources) and a squeeze of a transpose. Every element is distinct; each
// line is the summed absolute difference, then a checksum of ours.
// RUN: cudnn-opt %s --convert-tcp-to-linalg \
// RUN: | mlir-opt --one-shot-bufferize=bufferize-function-boundaries \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata \
// RUN:   --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// q: |ours - reference|, then the sum of ours (the elements with c = 0).
// CHECK: [0]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [22464]
// k transposed, v, the roll, the squeezed transpose:
// CHECK-COUNT-4: [0]
// CHECK-NOT: [{{[1-9]}}

func.func @qkv_parts(%qkv: tensor<2x4x3x2x8xf32>) -> (tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32>, tensor<2x2x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = tcp.transpose %qkv {permutation = array<i64: 2, 0, 3, 1, 4>} : tensor<2x4x3x2x8xf32> -> tensor<3x2x2x4x8xf32>
  %q1 = tcp.slice %t starts(%c0, %c0, %c0, %c0, %c0) sizes(%c1, %c2, %c2, %c4, %c8) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x2x2x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %q = tensor.collapse_shape %q1 [[0, 1], [2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<2x2x4x8xf32>
  %k1 = tcp.slice %t starts(%c1, %c0, %c0, %c0, %c0) sizes(%c1, %c2, %c2, %c4, %c8) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x2x2x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %k = tensor.collapse_shape %k1 [[0, 1], [2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<2x2x4x8xf32>
  %v1 = tcp.slice %t starts(%c2, %c0, %c0, %c0, %c0) sizes(%c1, %c2, %c2, %c4, %c8) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x2x2x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %v = tensor.collapse_shape %v1 [[0, 1], [2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<2x2x4x8xf32>
  %kt = tcp.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x2x4x8xf32> -> tensor<2x2x8x4xf32>
  return %q, %kt, %v : tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32>, tensor<2x2x4x8xf32>
}

// torch.roll(x, (3, 2), (1, 2)) as the importer writes it.
func.func @roll(%x: tensor<2x7x5xf32>) -> tensor<2x7x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %a = tcp.slice %x starts(%c0, %c4, %c0) sizes(%c2, %c3, %c5) strides(%c1, %c1, %c1) : tensor<2x7x5xf32> -> tensor<2x3x5xf32>
  %b = tcp.slice %x starts(%c0, %c0, %c0) sizes(%c2, %c4, %c5) strides(%c1, %c1, %c1) : tensor<2x7x5xf32> -> tensor<2x4x5xf32>
  %r1 = tcp.concat %a, %b attributes {axis = 1 : i64} : tensor<2x3x5xf32>, tensor<2x4x5xf32> -> tensor<2x7x5xf32>
  %d = tcp.slice %r1 starts(%c0, %c0, %c3) sizes(%c2, %c7, %c2) strides(%c1, %c1, %c1) : tensor<2x7x5xf32> -> tensor<2x7x2xf32>
  %e = tcp.slice %r1 starts(%c0, %c0, %c0) sizes(%c2, %c7, %c3) strides(%c1, %c1, %c1) : tensor<2x7x5xf32> -> tensor<2x7x3xf32>
  %r2 = tcp.concat %d, %e attributes {axis = 2 : i64} : tensor<2x7x2xf32>, tensor<2x7x3xf32> -> tensor<2x7x5xf32>
  return %r2 : tensor<2x7x5xf32>
}

// [1, 3, 1, 5] -> [1, 5, 3, 1], squeezed to [5, 3].
func.func @squeezed_transpose(%x: tensor<1x3x1x5xf32>) -> tensor<5x3xf32> {
  %t = tcp.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : tensor<1x3x1x5xf32> -> tensor<1x5x3x1xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<1x5x3x1xf32> into tensor<5x3xf32>
  return %c : tensor<5x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print_abs_diff_sum(%a: tensor<*xf32>, %b: tensor<*xf32>) {
  %x = tensor.cast %a : tensor<*xf32> to tensor<?xf32>
  %y = tensor.cast %b : tensor<*xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.from_elements %zero : tensor<f32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %d = arith.subf %p, %q : f32
    %m = math.absf %d : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %u = tensor.cast %sum : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  // x[a, b, c, d, e] = its linear index.
  %qkv = tensor.generate {
  ^bb0(%a: index, %b: index, %c: index, %d: index, %e: index):
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %l0 = arith.muli %a, %c4 : index
    %l1 = arith.addi %l0, %b : index
    %l2 = arith.muli %l1, %c3 : index
    %l3 = arith.addi %l2, %c : index
    %l4 = arith.muli %l3, %c2 : index
    %l5 = arith.addi %l4, %d : index
    %l6 = arith.muli %l5, %c8 : index
    %l7 = arith.addi %l6, %e : index
    %i = arith.index_cast %l7 : index to i32
    %f = arith.sitofp %i : i32 to f32
    tensor.yield %f : f32
  } : tensor<2x4x3x2x8xf32>
  %q, %k, %v = call @qkv_parts(%qkv) : (tensor<2x4x3x2x8xf32>) -> (tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32>, tensor<2x2x4x8xf32>)
  // References: q[b, h, n, d] = x[b, n, 0, h, d], k^T[b, h, d, n] =
  // x[b, n, 1, h, d], v[b, h, n, d] = x[b, n, 2, h, d].
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %qr = tensor.generate {
  ^bb0(%b: index, %h: index, %n: index, %d: index):
    %e = tensor.extract %qkv[%b, %n, %c0, %h, %d] : tensor<2x4x3x2x8xf32>
    tensor.yield %e : f32
  } : tensor<2x2x4x8xf32>
  %kr = tensor.generate {
  ^bb0(%b: index, %h: index, %d: index, %n: index):
    %e = tensor.extract %qkv[%b, %n, %c1, %h, %d] : tensor<2x4x3x2x8xf32>
    tensor.yield %e : f32
  } : tensor<2x2x8x4xf32>
  %vr = tensor.generate {
  ^bb0(%b: index, %h: index, %n: index, %d: index):
    %e = tensor.extract %qkv[%b, %n, %c2, %h, %d] : tensor<2x4x3x2x8xf32>
    tensor.yield %e : f32
  } : tensor<2x2x4x8xf32>
  %qf = tensor.collapse_shape %q [[0, 1, 2, 3]] : tensor<2x2x4x8xf32> into tensor<128xf32>
  %qrf = tensor.collapse_shape %qr [[0, 1, 2, 3]] : tensor<2x2x4x8xf32> into tensor<128xf32>
  %kf = tensor.collapse_shape %k [[0, 1, 2, 3]] : tensor<2x2x8x4xf32> into tensor<128xf32>
  %krf = tensor.collapse_shape %kr [[0, 1, 2, 3]] : tensor<2x2x8x4xf32> into tensor<128xf32>
  %vf = tensor.collapse_shape %v [[0, 1, 2, 3]] : tensor<2x2x4x8xf32> into tensor<128xf32>
  %vrf = tensor.collapse_shape %vr [[0, 1, 2, 3]] : tensor<2x2x4x8xf32> into tensor<128xf32>
  %zeros = arith.constant dense<0.0> : tensor<128xf32>
  %qu = tensor.cast %qf : tensor<128xf32> to tensor<*xf32>
  %qru = tensor.cast %qrf : tensor<128xf32> to tensor<*xf32>
  %zu = tensor.cast %zeros : tensor<128xf32> to tensor<*xf32>
  call @print_abs_diff_sum(%qu, %qru) : (tensor<*xf32>, tensor<*xf32>) -> ()
  call @print_abs_diff_sum(%qu, %zu) : (tensor<*xf32>, tensor<*xf32>) -> ()
  %ku = tensor.cast %kf : tensor<128xf32> to tensor<*xf32>
  %kru = tensor.cast %krf : tensor<128xf32> to tensor<*xf32>
  call @print_abs_diff_sum(%ku, %kru) : (tensor<*xf32>, tensor<*xf32>) -> ()
  %vu = tensor.cast %vf : tensor<128xf32> to tensor<*xf32>
  %vru = tensor.cast %vrf : tensor<128xf32> to tensor<*xf32>
  call @print_abs_diff_sum(%vu, %vru) : (tensor<*xf32>, tensor<*xf32>) -> ()

  // roll: y[a, b, c] = x[a, (b - 3) mod 7, (c - 2) mod 5].
  %x3 = tensor.generate {
  ^bb0(%a: index, %b: index, %c: index):
    %c35 = arith.constant 35 : index
    %c5 = arith.constant 5 : index
    %l0 = arith.muli %a, %c35 : index
    %l1 = arith.muli %b, %c5 : index
    %l2 = arith.addi %l0, %l1 : index
    %l3 = arith.addi %l2, %c : index
    %i = arith.index_cast %l3 : index to i32
    %f = arith.sitofp %i : i32 to f32
    tensor.yield %f : f32
  } : tensor<2x7x5xf32>
  %y = call @roll(%x3) : (tensor<2x7x5xf32>) -> tensor<2x7x5xf32>
  %yr = tensor.generate {
  ^bb0(%a: index, %b: index, %c: index):
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %bb = arith.addi %b, %c4 : index
    %bs = arith.remui %bb, %c7 : index
    %cc = arith.addi %c, %c3 : index
    %cs = arith.remui %cc, %c5 : index
    %e = tensor.extract %x3[%a, %bs, %cs] : tensor<2x7x5xf32>
    tensor.yield %e : f32
  } : tensor<2x7x5xf32>
  %yf = tensor.collapse_shape %y [[0, 1, 2]] : tensor<2x7x5xf32> into tensor<70xf32>
  %yrf = tensor.collapse_shape %yr [[0, 1, 2]] : tensor<2x7x5xf32> into tensor<70xf32>
  %yu = tensor.cast %yf : tensor<70xf32> to tensor<*xf32>
  %yru = tensor.cast %yrf : tensor<70xf32> to tensor<*xf32>
  call @print_abs_diff_sum(%yu, %yru) : (tensor<*xf32>, tensor<*xf32>) -> ()

  // The squeezed transpose: s[i, j] = x[0, j, 0, i].
  %x4 = tensor.generate {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    %c5 = arith.constant 5 : index
    %l0 = arith.muli %b, %c5 : index
    %l1 = arith.addi %l0, %d : index
    %i = arith.index_cast %l1 : index to i32
    %f = arith.sitofp %i : i32 to f32
    tensor.yield %f : f32
  } : tensor<1x3x1x5xf32>
  %s = call @squeezed_transpose(%x4) : (tensor<1x3x1x5xf32>) -> tensor<5x3xf32>
  %sr = tensor.generate {
  ^bb0(%i: index, %j: index):
    %e = tensor.extract %x4[%c0, %j, %c0, %i] : tensor<1x3x1x5xf32>
    tensor.yield %e : f32
  } : tensor<5x3xf32>
  %sf = tensor.collapse_shape %s [[0, 1]] : tensor<5x3xf32> into tensor<15xf32>
  %srf = tensor.collapse_shape %sr [[0, 1]] : tensor<5x3xf32> into tensor<15xf32>
  %su = tensor.cast %sf : tensor<15xf32> to tensor<*xf32>
  %sru = tensor.cast %srf : tensor<15xf32> to tensor<*xf32>
  call @print_abs_diff_sum(%su, %sru) : (tensor<*xf32>, tensor<*xf32>) -> ()
  return
}
