// cudnn-compile checks the module for LLVM types LLVM IR translation cannot
// take before it translates, with or without a pipeline (which checks them
// too: test/Codegen/check-llvm-types.mlir); it segfaulted in
// llvm::ArrayType::get before.
// RUN: not cudnn-compile %s --pipeline=none --emit=llvm -o - 2>&1 | FileCheck %s
// RUN: not cudnn-compile %s --pipeline=cudnn --emit=llvm -o - 2>&1 | FileCheck %s
// CHECK: cudnn-compile-llvm-types.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'llvm.mlir.global' op expects an LLVM type that can be translated to LLVM IR, but got '!llvm.array<0 x none>' ('none' has no LLVM IR type)
// CHECK-NOT: Stack dump
// CHECK-NOT: error
llvm.mlir.global internal @g() {addr_space = 0 : i32} : !llvm.array<0 x none>
