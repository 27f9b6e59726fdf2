//===- RuntimeFunctions.cpp - the runtime's C ABI in LLVM dialect ---------===//

#include "cudnn-mlir/Conversion/CudnnToLLVM/RuntimeFunctions.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {

struct EntryPoint {
  const char *name;
  const char *returnType;
  const char *parameters; // "(type name, ...)" as written in the list
};

constexpr EntryPoint kEntryPoints[] = {
#define CMRT_ENTRY(ret, name, params) {#name, #ret, #params},
#include "cudnn-mlir-runtime/EntryPoints.def"
};

/// The LLVM type of one C declaration ("const int64_t *words", "int device",
/// "cmrtStatus"): null for `void`, failure for a type the ABI does not use.
FailureOr<Type> llvmTypeOf(MLIRContext *ctx, StringRef decl) {
  decl = decl.trim();
  if (decl.contains('*'))
    return Type(LLVM::LLVMPointerType::get(ctx));
  SmallVector<StringRef> words;
  llvm::SplitString(decl, words, " ");
  llvm::erase(words, "const");
  if (words.empty())
    return failure();
  StringRef type = words.front();
  if (type == "void")
    return Type();
  if (type == "int64_t" || type == "uint64_t" || type == "cmrtGraphOptions")
    return Type(IntegerType::get(ctx, 64));
  if (type == "int" || type == "cmrtStatus")
    return Type(IntegerType::get(ctx, 32));
  if (type == "cmrtGraph" || type == "cmrtKernelModule" || type == "cmrtRnn" ||
      type == "cmrtManifest")
    return Type(LLVM::LLVMPointerType::get(ctx));
  return failure();
}

} // namespace

FailureOr<LLVM::LLVMFunctionType>
mlir::cudnn::getRuntimeFunctionType(MLIRContext *ctx, StringRef name) {
  for (const EntryPoint &entry : kEntryPoints) {
    if (name != entry.name)
      continue;
    FailureOr<Type> result = llvmTypeOf(ctx, entry.returnType);
    if (failed(result))
      return failure();
    SmallVector<Type> params;
    StringRef list = StringRef(entry.parameters).trim();
    list = list.drop_front().drop_back(); // the parentheses
    SmallVector<StringRef> decls;
    list.split(decls, ',');
    for (StringRef decl : decls) {
      FailureOr<Type> type = llvmTypeOf(ctx, decl);
      if (failed(type))
        return failure();
      if (*type)
        params.push_back(*type);
    }
    Type ret = *result ? *result : LLVM::LLVMVoidType::get(ctx);
    return LLVM::LLVMFunctionType::get(ret, params);
  }
  return failure();
}

FailureOr<LLVM::LLVMFuncOp>
mlir::cudnn::getOrDeclareRuntimeFunction(OpBuilder &builder, Operation *module,
                                         StringRef name) {
  FailureOr<LLVM::LLVMFunctionType> type =
      getRuntimeFunctionType(builder.getContext(), name);
  if (failed(type))
    return failure();
  return LLVM::lookupOrCreateFn(builder, module, name, type->getParams(),
                                type->getReturnType());
}
