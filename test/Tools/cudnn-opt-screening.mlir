// RUN: not cudnn-opt %s 2>&1 | FileCheck %s
// RUN: cudnn-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: not cudnn-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
//
// MLIR 22's parser segfaults on dense arrays of `index`; cudnn-opt rejects
// them with a located error before parsing. The same text in a comment is
// fine: array<index: 1>

// CHECK: cudnn-opt-screening.mlir:[[@LINE+2]]:{{[0-9]+}}: error: expects a dense array of integer or float elements (e.g. array<i64: ...>), but got array<index ...>
// CHECK-NOT: error
func.func @f() attributes {a = array<index: 1>} { return }

// VERSION: built against cuDNN 9.{{[0-9]+}}.{{[0-9]+}}
// MISSING: cannot open input file
