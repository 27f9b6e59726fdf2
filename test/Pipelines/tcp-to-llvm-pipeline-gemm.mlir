// An fp32 matmul + bias + GELU with the default options (exact fp32, as
// PyTorch's default matmul precision): the matmul is one cuBLAS GEMM
// (cmrtInvocationGemm), bias + GELU one generated kernel, no cuDNN graph
// and no generated matmul. With report, nothing is warned about.
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline | FileCheck %s
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline="report report-kernels" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: llvm.func @forward(
// CHECK-NOT:     cmrtInvocationGraph
// CHECK:         llvm.call @cmrtInvocationGemm(
// CHECK-NOT:     cmrtInvocationGraph
// CHECK:         gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return

// REPORT-NOT:  warning: convolutions and matmuls
// REPORT:      remark: @forward: 1 GPU kernel
// REPORT-NOT:  warning: convolutions and matmuls
func.func @forward(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>, %bias: tensor<1x128xf32>) -> tensor<256x128xf32> {
  %c256 = arith.constant 256 : index
  %0 = tcp.matmul %a, %b : tensor<256x512xf32>, tensor<512x128xf32> -> tensor<256x128xf32>
  %1 = tcp.broadcast %bias, %c256 {axes = [0]} : tensor<1x128xf32>, index -> tensor<256x128xf32>
  %2 = tcp.add %0, %1 : tensor<256x128xf32>, tensor<256x128xf32> -> tensor<256x128xf32>
  %3 = tcp.gelu %2 : tensor<256x128xf32> -> tensor<256x128xf32>
  return %3 : tensor<256x128xf32>
}
