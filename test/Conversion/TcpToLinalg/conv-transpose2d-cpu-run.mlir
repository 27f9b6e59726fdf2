// A tcp.conv_transpose2d that no cuDNN graph takes (f64 here) becomes
// convert-tcp-to-linalg's gathering generic, run on the CPU (upstream's
// loops, LLVM and mlir-runner) against the textbook form: the input
// spread out by the stride (zeros between), padded by dilation * (k - 1)
// - pad (plus the output padding after), convolved by upstream's
// linalg.conv_2d_nchw_fchw with the weight's in/out channels swapped and
// its taps reversed. Strides 2 and 3, a pad, a dilation and an output
// padding of 1 on both dims. The first line is the summed absolute
// difference, the second the sum of ours.
// RUN: cudnn-opt %s --convert-tcp-to-linalg \
// RUN: | mlir-opt --one-shot-bufferize=bufferize-function-boundaries \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata \
// RUN:   --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// CHECK: [0]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [-94.082]

func.func @ours(%x: tensor<2x3x4x5xf64>, %w: tensor<3x4x3x2xf64>) -> tensor<2x4x8x16xf64> {
  %0 = tcp.conv_transpose2d %x, %w {dilation = array<i64: 1, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 2, 3>}
      : tensor<2x3x4x5xf64>, tensor<3x4x3x2xf64> -> tensor<2x4x8x16xf64>
  return %0 : tensor<2x4x8x16xf64>
}

func.func @reference(%x: tensor<2x3x4x5xf64>, %w: tensor<3x4x3x2xf64>) -> tensor<2x4x8x16xf64> {
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<2x3x7x13xf64>
  %zeros = linalg.fill ins(%zero : f64) outs(%empty : tensor<2x3x7x13xf64>) -> tensor<2x3x7x13xf64>
  %spread = tensor.insert_slice %x into %zeros[0, 0, 0, 0] [2, 3, 4, 5] [1, 1, 2, 3] : tensor<2x3x4x5xf64> into tensor<2x3x7x13xf64>
  %padded = tensor.pad %spread low[0, 0, 1, 2] high[0, 0, 2, 3] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f64
  } : tensor<2x3x7x13xf64> to tensor<2x3x10x18xf64>
  %flipped = tensor.generate {
  ^bb0(%k: index, %c: index, %r: index, %s: index):
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %rr = arith.subi %c2, %r : index
    %ss = arith.subi %c1, %s : index
    %v = tensor.extract %w[%c, %k, %rr, %ss] : tensor<3x4x3x2xf64>
    tensor.yield %v : f64
  } : tensor<4x3x3x2xf64>
  %init = tensor.empty() : tensor<2x4x8x16xf64>
  %filled = linalg.fill ins(%zero : f64) outs(%init : tensor<2x4x8x16xf64>) -> tensor<2x4x8x16xf64>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %flipped : tensor<2x3x10x18xf64>, tensor<4x3x3x2xf64>) outs(%filled : tensor<2x4x8x16xf64>) -> tensor<2x4x8x16xf64>
  return %0 : tensor<2x4x8x16xf64>
}

func.func private @printMemrefF64(tensor<*xf64>)

func.func @main() {
  // x[n, c, h, w] = (linear index + 1) / 64; w[c, k, r, s] = (linear index
  // mod 29 - 14) / 32.
  %x = tensor.generate {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %i0 = arith.muli %n, %c3 : index
    %i1 = arith.addi %i0, %c : index
    %i2 = arith.muli %i1, %c4 : index
    %i3 = arith.addi %i2, %h : index
    %i4 = arith.muli %i3, %c5 : index
    %i5 = arith.addi %i4, %w : index
    %i = arith.index_cast %i5 : index to i64
    %f = arith.sitofp %i : i64 to f64
    %one = arith.constant 1.0 : f64
    %scale = arith.constant 64.0 : f64
    %g = arith.addf %f, %one : f64
    %v = arith.divf %g, %scale : f64
    tensor.yield %v : f64
  } : tensor<2x3x4x5xf64>
  %wt = tensor.generate {
  ^bb0(%c: index, %k: index, %r: index, %s: index):
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c29 = arith.constant 29 : index
    %i0 = arith.muli %c, %c4 : index
    %i1 = arith.addi %i0, %k : index
    %i2 = arith.muli %i1, %c3 : index
    %i3 = arith.addi %i2, %r : index
    %i4 = arith.muli %i3, %c2 : index
    %i5 = arith.addi %i4, %s : index
    %m = arith.remui %i5, %c29 : index
    %i = arith.index_cast %m : index to i64
    %f = arith.sitofp %i : i64 to f64
    %off = arith.constant 14.0 : f64
    %scale = arith.constant 32.0 : f64
    %g = arith.subf %f, %off : f64
    %v = arith.divf %g, %scale : f64
    tensor.yield %v : f64
  } : tensor<3x4x3x2xf64>
  %ours = call @ours(%x, %wt) : (tensor<2x3x4x5xf64>, tensor<3x4x3x2xf64>) -> tensor<2x4x8x16xf64>
  %ref = call @reference(%x, %wt) : (tensor<2x3x4x5xf64>, tensor<3x4x3x2xf64>) -> tensor<2x4x8x16xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.from_elements %zero : tensor<f64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%ours, %ref : tensor<2x4x8x16xf64>, tensor<2x4x8x16xf64>) outs(%init, %init : tensor<f64>, tensor<f64>) {
  ^bb0(%p: f64, %q: f64, %diff: f64, %sum: f64):
    %d = arith.subf %p, %q : f64
    %a = math.absf %d : f64
    %nd = arith.addf %diff, %a : f64
    %ns = arith.addf %sum, %p : f64
    linalg.yield %nd, %ns : f64, f64
  } -> (tensor<f64>, tensor<f64>)
  %u0 = tensor.cast %sums#0 : tensor<f64> to tensor<*xf64>
  %u1 = tensor.cast %sums#1 : tensor<f64> to tensor<*xf64>
  call @printMemrefF64(%u0) : (tensor<*xf64>) -> ()
  call @printMemrefF64(%u1) : (tensor<*xf64>) -> ()
  return
}
