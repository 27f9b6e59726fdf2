// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cublas | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cublas=report -verify-diagnostics -o /dev/null
// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cublas=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// An fp32 matmul outside graphs runs on cuBLAS.
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// CHECK:         %[[C:.*]] = cudnn.gemm %[[H]](%arg0, %arg1) : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
// CHECK-NOT:     tcp.matmul
// CHECK:         return %[[C]]
func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %0 = tcp.matmul %a, %b : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// A transpose of the last two dims is cuBLAS's transpose flag, for either
// operand (nn.Linear's x @ w.T); the transposes go unused.
// CHECK-LABEL: func.func @transposed
// CHECK:         cudnn.gemm %{{.*}}(%arg0, %arg1) {transpose_a, transpose_b} : tensor<2x32x16xf32>, tensor<2x8x32xf32> -> tensor<2x16x8xf32>
func.func @transposed(%a: tensor<2x32x16xf32>, %b: tensor<2x8x32xf32>) -> tensor<2x16x8xf32> {
  %ta = tcp.transpose %a {permutation = array<i64: 0, 2, 1>} : tensor<2x32x16xf32> -> tensor<2x16x32xf32>
  %tb = tcp.transpose %b {permutation = array<i64: 0, 2, 1>} : tensor<2x8x32xf32> -> tensor<2x32x8xf32>
  %0 = tcp.batch_matmul %ta, %tb : tensor<2x16x32xf32>, tensor<2x32x8xf32> -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}

// -----

// A transpose that moves a batch dim is a copy (a generated transpose
// kernel); the GEMM reads its result.
// CHECK-LABEL: func.func @batch_transpose
// CHECK:         %[[T:.*]] = tcp.transpose
// CHECK:         cudnn.gemm %{{.*}}(%[[T]], %arg1) : tensor<2x16x32xf32>, tensor<2x32x8xf32> -> tensor<2x16x8xf32>
func.func @batch_transpose(%a: tensor<16x2x32xf32>, %b: tensor<2x32x8xf32>) -> tensor<2x16x8xf32> {
  %ta = tcp.transpose %a {permutation = array<i64: 1, 0, 2>} : tensor<16x2x32xf32> -> tensor<2x16x32xf32>
  %0 = tcp.batch_matmul %ta, %b : tensor<2x16x32xf32>, tensor<2x32x8xf32> -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}

// -----

// f64 stays for the generated road, and the report says so, one line per op
// kind and reason with its count; matmuls inside cuDNN groups are the
// graph's.
// CHECK-LABEL: func.func @left
// CHECK:         tcp.matmul {{.*}} : tensor<16x32xf64>
// CHECK:         tcp.group
// CHECK:           tcp.matmul {{.*}} : tensor<16x32xf16>
// CHECK-NOT:     cudnn.gemm
// REPORT:      warning: convolutions and matmuls left for naive generated kernels (a slow last resort):
// REPORT-NEXT:   2 x tcp.matmul: element type 'f64' (cuBLAS GEMMs here take f32; cuDNN graphs f16, bf16, f32)
// REPORT-NEXT:   1 x tcp.conv2d: element type 'f64' (cuDNN graphs take f16, bf16, f32)
// REPORT-NEXT: func.func @left
// expected-warning @+1 {{convolutions and matmuls left for naive generated kernels (a slow last resort):}}
func.func @left(%a: tensor<16x32xf64>, %b: tensor<32x8xf64>, %c: tensor<16x32xf16>, %d: tensor<32x8xf16>, %x: tensor<1x4x8x8xf64>, %w: tensor<4x4x3x3xf64>) -> (tensor<16x8xf64>, tensor<16x8xf64>, tensor<16x8xf16>, tensor<1x4x8x8xf64>) {
  %0 = tcp.matmul %a, %b : tensor<16x32xf64>, tensor<32x8xf64> -> tensor<16x8xf64>
  %1 = tcp.matmul %a, %b : tensor<16x32xf64>, tensor<32x8xf64> -> tensor<16x8xf64>
  %2 = tcp.group attributes {group_type = "cudnn"} {
    %3 = tcp.matmul %c, %d : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
    tcp.yield %3 : tensor<16x8xf16>
  } : tensor<16x8xf16>
  %4 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf64>, tensor<4x4x3x3xf64> -> tensor<1x4x8x8xf64>
  return %0, %1, %2, %4 : tensor<16x8xf64>, tensor<16x8xf64>, tensor<16x8xf16>, tensor<1x4x8x8xf64>
}

// -----

// An fp32 conv left out of graphs (fuse-fp32=false) is warned about too.
// CHECK-LABEL: func.func @fp32_conv
// REPORT:      warning: convolutions and matmuls left for naive generated kernels (a slow last resort):
// REPORT-NEXT:   1 x tcp.conv2d: fp32 convolution left out of cuDNN graphs (fuse-fp32=false, or tcp-fuse-for-cudnn's report says why)
// REPORT-NEXT: func.func @fp32_conv
// expected-warning @+1 {{convolutions and matmuls left for naive generated kernels (a slow last resort):}}
func.func @fp32_conv(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Nothing left: no warning.
// REPORT-NOT:  warning: convolutions
func.func @nothing_left(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %0 = tcp.matmul %a, %b : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
