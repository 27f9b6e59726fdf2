//===- LLVMTypeScreening.h - reject LLVM types translation has no IR for -===//
//
// MLIR 22's LLVM dialect verifies only the outer type of its ops and
// globals: it accepts `!llvm.array<0 x none>` or `!llvm.struct<(i32,
// index)>`, but LLVM IR translation has no LLVM IR type for `none` or
// `index` and crashes (a null element type reaches llvm::ArrayType::get).
// gpu-module-to-binary translates the generated kernels and cudnn-compile
// the host module, so both screen the IR for such types first.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_SUPPORT_LLVMTYPESCREENING_H
#define CUDNN_MLIR_SUPPORT_LLVMTYPESCREENING_H

#include "mlir/IR/Operation.h"

namespace mlir::cudnn_mlir {

/// Emits an error on every op under `root` (itself included) one of whose
/// results, block arguments or type attributes (a global's or a function's
/// type, an alloca's or GEP's element type) is or holds an LLVM dialect type
/// that nests a type LLVM IR translation cannot take (anything
/// LLVM::isCompatibleType rejects); fails if there was any.
LogicalResult screenUntranslatableLLVMTypes(Operation *root);

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_SUPPORT_LLVMTYPESCREENING_H
