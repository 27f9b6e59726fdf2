// RUN: cudnn-opt %s --tcp-to-llvm-pipeline="report-kernels" --mlir-print-op-on-diagnostic=false -o %t.mlir 2>&1 | FileCheck %s
// No tcp or linalg op is left (the kernel's fatbin holds the assert's
// message "tcp.gather: ...", which is no op):
// RUN: not grep -E '^ *(%[^=]* = )?"?(tcp|linalg)\.' %t.mlir

// torch.gather whose input is a slice (PyTorch allows an index smaller than
// the input outside the gathered dim) and whose result feeds a reduction:
// the gather fuses into the reduction, which checks the indices itself, and
// the bounds check left over is a kernel that writes nothing. Its thread
// order asked for the first output it does not have (a crash in
// codegen-map-to-gpu, found through torch.gather's lowering).
// The mean's sum reads its 4 columns as vectors, and its division runs in
// the same kernel.
// CHECK:      remark: @gather_then_mean: 3 GPU kernels
// CHECK-NEXT:   gather_then_mean_kernel0: elementwise
// CHECK-NEXT:   gather_then_mean_kernel1: elementwise
// CHECK-NEXT:   gather_then_mean_kernel2_columns: reduction over columns ({{.*}}), with the elementwise op after it
func.func @gather_then_mean(%x: tensor<2x6x5xf32>, %index: tensor<2x3x4xi64>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %0 = tcp.slice %x starts(%c0, %c0, %c0) sizes(%c2, %c6, %c4) strides(%c1, %c1, %c1) : tensor<2x6x5xf32> -> tensor<2x6x4xf32>
  %1 = tcp.gather %0, %index {dim = 1 : index} : tensor<2x6x4xf32>, tensor<2x3x4xi64> -> tensor<2x3x4xf32>
  %2 = tcp.reduce_mean %1 {axes = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}
