// A tcp.conv3d that no cuDNN graph takes (f64 here) becomes
// convert-tcp-to-linalg's generic, run on the CPU (upstream's loops, LLVM
// and mlir-runner) against upstream's linalg.conv_3d_ncdhw_fcdhw of the
// zero-padded input: padding in D and W, strides in H and W, a dilation
// in W. Input and weight elements are distinct. The first line is the
// summed absolute difference, the second the sum of ours.
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
// CHECK-NEXT: [-293.814]

func.func @ours(%x: tensor<2x3x5x7x8xf64>, %w: tensor<4x3x3x2x3xf64>) -> tensor<2x4x5x3x2xf64> {
  %0 = tcp.conv3d %x, %w {dilation = array<i64: 1, 1, 2>, pad = array<i64: 1, 1, 0, 0, 1, 1>, stride = array<i64: 1, 2, 3>}
      : tensor<2x3x5x7x8xf64>, tensor<4x3x3x2x3xf64> -> tensor<2x4x5x3x2xf64>
  return %0 : tensor<2x4x5x3x2xf64>
}

func.func @reference(%x: tensor<2x3x5x7x8xf64>, %w: tensor<4x3x3x2x3xf64>) -> tensor<2x4x5x3x2xf64> {
  %zero = arith.constant 0.0 : f64
  %padded = tensor.pad %x low[0, 0, 1, 0, 1] high[0, 0, 1, 0, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f64
  } : tensor<2x3x5x7x8xf64> to tensor<2x3x7x7x10xf64>
  %init = tensor.empty() : tensor<2x4x5x3x2xf64>
  %filled = linalg.fill ins(%zero : f64) outs(%init : tensor<2x4x5x3x2xf64>) -> tensor<2x4x5x3x2xf64>
  %0 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<[1, 1, 2]> : tensor<3xi64>, strides = dense<[1, 2, 3]> : tensor<3xi64>}
      ins(%padded, %w : tensor<2x3x7x7x10xf64>, tensor<4x3x3x2x3xf64>) outs(%filled : tensor<2x4x5x3x2xf64>) -> tensor<2x4x5x3x2xf64>
  return %0 : tensor<2x4x5x3x2xf64>
}

func.func private @printMemrefF64(tensor<*xf64>)

func.func @main() {
  // x[n, c, d, h, w] = (linear index + 1) / 256; w[k, c, t, r, s] =
  // (linear index mod 37 - 18) / 64.
  %x = tensor.generate {
  ^bb0(%n: index, %c: index, %d: index, %h: index, %w: index):
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %i0 = arith.muli %n, %c3 : index
    %i1 = arith.addi %i0, %c : index
    %i2 = arith.muli %i1, %c5 : index
    %i3 = arith.addi %i2, %d : index
    %i4 = arith.muli %i3, %c7 : index
    %i5 = arith.addi %i4, %h : index
    %i6 = arith.muli %i5, %c8 : index
    %i7 = arith.addi %i6, %w : index
    %i = arith.index_cast %i7 : index to i64
    %f = arith.sitofp %i : i64 to f64
    %one = arith.constant 1.0 : f64
    %scale = arith.constant 256.0 : f64
    %g = arith.addf %f, %one : f64
    %v = arith.divf %g, %scale : f64
    tensor.yield %v : f64
  } : tensor<2x3x5x7x8xf64>
  %wt = tensor.generate {
  ^bb0(%k: index, %c: index, %t: index, %r: index, %s: index):
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c37 = arith.constant 37 : index
    %i0 = arith.muli %k, %c3 : index
    %i1 = arith.addi %i0, %c : index
    %i2 = arith.muli %i1, %c3 : index
    %i3 = arith.addi %i2, %t : index
    %i4 = arith.muli %i3, %c2 : index
    %i5 = arith.addi %i4, %r : index
    %i6 = arith.muli %i5, %c3 : index
    %i7 = arith.addi %i6, %s : index
    %m = arith.remui %i7, %c37 : index
    %i = arith.index_cast %m : index to i64
    %f = arith.sitofp %i : i64 to f64
    %off = arith.constant 18.0 : f64
    %scale = arith.constant 64.0 : f64
    %g = arith.subf %f, %off : f64
    %v = arith.divf %g, %scale : f64
    tensor.yield %v : f64
  } : tensor<4x3x3x2x3xf64>
  %ours = call @ours(%x, %wt) : (tensor<2x3x5x7x8xf64>, tensor<4x3x3x2x3xf64>) -> tensor<2x4x5x3x2xf64>
  %ref = call @reference(%x, %wt) : (tensor<2x3x5x7x8xf64>, tensor<4x3x3x2x3xf64>) -> tensor<2x4x5x3x2xf64>
  %zero = arith.constant 0.0 : f64
  %init = tensor.from_elements %zero : tensor<f64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>, affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>, affine_map<(a, b, c, d, e) -> ()>, affine_map<(a, b, c, d, e) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction", "reduction"]}
      ins(%ours, %ref : tensor<2x4x5x3x2xf64>, tensor<2x4x5x3x2xf64>) outs(%init, %init : tensor<f64>, tensor<f64>) {
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
