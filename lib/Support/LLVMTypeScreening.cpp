//===- LLVMTypeScreening.cpp - reject LLVM types translation has no IR for ===//

#include "cudnn-mlir/Support/LLVMTypeScreening.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

/// The first type nested in `type` (or `type` itself) that LLVM IR
/// translation has no type for, or null. Mirrors LLVM::isCompatibleType's
/// recursion, which only answers yes or no; `seen` ends the recursion of
/// identified structs.
static Type untranslatableLeaf(Type type, llvm::DenseSet<Type> &seen) {
  if (!seen.insert(type).second)
    return {};
  auto first = [&](ArrayRef<Type> types) -> Type {
    for (Type nested : types)
      if (Type leaf = untranslatableLeaf(nested, seen))
        return leaf;
    return {};
  };
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return untranslatableLeaf(array.getElementType(), seen);
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return first(structType.getBody());
  if (auto function = dyn_cast<LLVM::LLVMFunctionType>(type)) {
    if (Type leaf = untranslatableLeaf(function.getReturnType(), seen))
      return leaf;
    return first(function.getParams());
  }
  if (auto ext = dyn_cast<LLVM::LLVMTargetExtType>(type))
    return first(ext.getTypeParams());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getRank() == 1
               ? untranslatableLeaf(vector.getElementType(), seen)
               : type;
  return LLVM::isCompatibleType(type) ? Type() : type;
}

namespace {
/// An LLVM dialect type that translation cannot take, and the type in it
/// that has no LLVM IR counterpart.
struct Untranslatable {
  Type llvmType, leaf;
};
} // namespace

/// The outermost LLVM dialect type in `type` (itself or nested in a builtin
/// type, such as a function type's inputs) that translation cannot take.
static std::optional<Untranslatable> findUntranslatable(Type type) {
  std::optional<Untranslatable> found;
  type.walk<WalkOrder::PreOrder>([&](Type nested) {
    if (nested.getDialect().getNamespace() !=
        LLVM::LLVMDialect::getDialectNamespace())
      return WalkResult::advance();
    llvm::DenseSet<Type> seen;
    if (Type leaf = untranslatableLeaf(nested, seen)) {
      found = Untranslatable{nested, leaf};
      return WalkResult::interrupt();
    }
    return WalkResult::skip();
  });
  return found;
}

/// Every type `op` introduces: its results, its regions' block arguments and
/// the types its attributes hold.
static SmallVector<Type> typesOf(Operation *op) {
  SmallVector<Type> types(op->getResultTypes());
  for (Region &region : op->getRegions())
    for (Block &block : region)
      llvm::append_range(types, block.getArgumentTypes());
  op->getAttrDictionary().walk(
      [&](TypeAttr attr) { types.push_back(attr.getValue()); });
  return types;
}

LogicalResult mlir::cudnn_mlir::screenUntranslatableLLVMTypes(Operation *root) {
  bool failedAny = false;
  root->walk([&](Operation *op) {
    for (Type type : typesOf(op)) {
      std::optional<Untranslatable> bad = findUntranslatable(type);
      if (!bad)
        continue;
      // Diagnostics quote the types they print.
      op->emitOpError("expects an LLVM type that can be translated to LLVM "
                      "IR, but got ")
          << bad->llvmType << " (" << bad->leaf << " has no LLVM IR type)";
      failedAny = true;
      break;
    }
  });
  return failure(failedAny);
}
