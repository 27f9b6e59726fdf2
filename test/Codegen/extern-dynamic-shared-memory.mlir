// RUN: cudnn-opt %s --pass-pipeline="builtin.module(gpu.module(codegen-extern-dynamic-shared-memory))" | FileCheck %s

// convert-gpu-to-nvvm's dynamic shared memory (a zero-length array in
// address space 3) becomes external, as CUDA's `extern __shared__`; sized
// shared arrays, globals of other address spaces and the rest stay.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<256 x f32>
// CHECK: llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<256 x f32>
  llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}
