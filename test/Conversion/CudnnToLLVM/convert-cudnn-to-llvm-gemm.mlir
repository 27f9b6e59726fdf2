// RUN: cudnn-opt %s -convert-cudnn-to-llvm | FileCheck %s

// A cuBLAS GEMM is one cmrtInvocationGemm call: transA, transB, m, n, k,
// batch (the batch dims flattened), then per buffer its pointer, row length
// (leading dimension) and matrix size (batch stride), then where it is.
// CHECK:       llvm.mlir.global internal constant @__cmrt_gemm0_where("{{.*}}gemm.mlir:{{[0-9]+}}:{{[0-9]+}}\00")
// CHECK-LABEL: llvm.func @linear(
// CHECK:         %[[H:.*]] = llvm.call @cmrtInvocationCurrent()
// CHECK:         %[[W:.*]] = llvm.mlir.addressof @__cmrt_gemm0_where
// CHECK-NEXT:    %[[TA:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[TB:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK:         %[[PA:.*]] = llvm.getelementptr
// CHECK-NEXT:    %[[LDA:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:    %[[SA:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK:         %[[PB:.*]] = llvm.getelementptr
// CHECK-NEXT:    %[[LDB:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:    %[[SB:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK:         %[[PC:.*]] = llvm.getelementptr
// CHECK-NEXT:    %[[LDC:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[SC:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-NEXT:    llvm.call @cmrtInvocationGemm(%[[H]], %[[TA]], %[[TB]], %[[M]], %[[N]], %[[K]], %[[B]], %[[PA]], %[[LDA]], %[[SA]], %[[PB]], %[[LDB]], %[[SB]], %[[PC]], %[[LDC]], %[[SC]], %[[W]]) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr) -> i32
// CHECK-NOT:     cudnn.
// CHECK:         llvm.return
func.func @linear(%x: memref<2x3x16x32xf32>, %w: memref<2x3x8x32xf32>, %out: memref<2x3x16x8xf32> {bufferize.result}) {
  %h = cudnn.get_current_handle !cudnn.handle
  cudnn.execute_gemm %h(%x, %w) outs(%out) {transpose_b} : memref<2x3x16x32xf32>, memref<2x3x8x32xf32>, memref<2x3x16x8xf32>
  return
}
