//===- RuntimeFunctions.h - the runtime's C ABI in LLVM dialect -*- C++ -*-===//
//
// Declares runtime entry points in a module from the one list of them,
// runtime/include/cudnn-mlir-runtime/EntryPoints.def, so that the calls the
// lowering emits always match the functions the runtime exports.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_RUNTIMEFUNCTIONS_H
#define CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_RUNTIMEFUNCTIONS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::cudnn {

/// The LLVM function type of runtime entry `name` as EntryPoints.def
/// declares it (pointers and handles as !llvm.ptr, cmrtStatus and int as
/// i32, int64_t and option words as i64), or failure for a name the list
/// does not have.
FailureOr<LLVM::LLVMFunctionType> getRuntimeFunctionType(MLIRContext *ctx,
                                                         StringRef name);

/// Declares runtime entry `name` in `module` (once) and returns it.
FailureOr<LLVM::LLVMFuncOp> getOrDeclareRuntimeFunction(OpBuilder &builder,
                                                        Operation *module,
                                                        StringRef name);

} // namespace mlir::cudnn

#endif // CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_RUNTIMEFUNCTIONS_H
