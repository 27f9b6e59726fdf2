// RUN: cudnn-opt %s -split-input-file -codegen-check-llvm-types -verify-diagnostics
// RUN: cudnn-opt %s -split-input-file -tcp-to-llvm-pipeline -verify-diagnostics
//
// LLVM dialect types whose elements LLVM IR has no type for verify (the
// dialect checks only the outer type) but crashed LLVM IR translation:
// gpu-module-to-binary segfaulted in llvm::ArrayType::get on the first case
// (found by test/Robustness/fuzz_cudnn_opt.py). codegen-check-llvm-types,
// the first pass of cudnn-to-llvm-pipeline, rejects them;
// test/Tools/cudnn-compile-llvm-types.mlir checks cudnn-compile's own check.

gpu.module @kernels {
  // expected-error @below {{'llvm.mlir.global' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.array<0 x none>' ('none' has no LLVM IR type)}}
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x none>
}

// -----

// Nested: the outermost LLVM type is named, with the element at fault.
gpu.module @kernels {
  // expected-error @below {{'llvm.mlir.global' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.struct<(ptr, !llvm.array<4 x index>)>' ('index' has no LLVM IR type)}}
  llvm.mlir.global external @g() {addr_space = 1 : i32} : !llvm.struct<(ptr, array<4 x index>)>
}

// -----

// A result type, in a kernel.
gpu.module @kernels {
  llvm.func @k() {
    // expected-error @below {{'llvm.mlir.undef' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.struct<(i32, f8E4M3FN)>' ('f8E4M3FN' has no LLVM IR type)}}
    %0 = llvm.mlir.undef : !llvm.struct<(i32, f8E4M3FN)>
    llvm.return
  }
}

// -----

// A function type, in the attribute llvm.func keeps it in (its custom
// parser would reject it; the generic form does not).
gpu.module @kernels {
  // expected-error @below {{'llvm.func' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.func<void (i32, !llvm.array<2 x none>)>' ('none' has no LLVM IR type)}}
  "llvm.func"() <{function_type = !llvm.func<void (i32, array<2 x none>)>, sym_name = "f"}> ({}) : () -> ()
}

// -----

// An element type attribute (alloca's).
gpu.module @kernels {
  llvm.func @k(%n: i64) {
    // expected-error @below {{'llvm.alloca' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.array<2 x complex<f32>>' ('complex<f32>' has no LLVM IR type)}}
    %0 = llvm.alloca %n x !llvm.array<2 x complex<f32>> : (i64) -> !llvm.ptr
    llvm.return
  }
}

// -----

// The host module too (cudnn-compile translates it).
// expected-error @below {{'llvm.mlir.global' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.array<2 x vector<2x2xf32>>' ('vector<2x2xf32>' has no LLVM IR type)}}
llvm.mlir.global internal @host() {addr_space = 0 : i32} : !llvm.array<2 x vector<2x2xf32>>

// -----

// What translation takes passes: sized and zero-length arrays, structs of
// pointers and vectors, identified structs, functions returning void.
gpu.module @kernels {
  llvm.mlir.global internal @shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<4 x array<8 x f16>>
  llvm.mlir.global internal @s() {addr_space = 1 : i32} : !llvm.struct<"node", (ptr, vector<4xf32>, bf16)>
  llvm.func @f(!llvm.struct<(i64, array<2 x i64>)>)
}
