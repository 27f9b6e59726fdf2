//===- EntryPoints.cpp - exported entries of a compiled module ------------===//

#include "EntryPoints.h"

#include "cudnn-mlir/Conversion/CudnnToLLVM/RuntimeFunctions.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::cudnn_mlir;

namespace {

constexpr StringLiteral kEntryPrefix = "cmrt_entry_";
constexpr StringLiteral kManifestSymbol = "cmrt_module_manifest";
constexpr int kManifestVersion = 1;

bool isCIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The manifest's name of an element type, or "" for one it has none for.
StringRef dtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isInteger(1))
    return "i1";
  if (type.isSignlessInteger(8))
    return "i8";
  if (type.isSignlessInteger(32))
    return "i32";
  if (type.isSignlessInteger(64))
    return "i64";
  return "";
}

void printList(llvm::raw_ostream &os, ArrayRef<int64_t> values) {
  os << '[';
  llvm::interleave(values, os, ",");
  os << ']';
}

} // namespace

FailureOr<SmallVector<EntrySignature>>
mlir::cudnn_mlir::collectEntrySignatures(ModuleOp module) {
  SmallVector<EntrySignature> entries;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    if (!isCIdentifier(func.getSymName()))
      return func.emitError("expects exported function names to be C "
                            "identifiers, but got '")
             << func.getSymName() << "'";
    if (func.getNumResults() != 0)
      return func.emitError("expects exported functions to return through "
                            "out-parameters (buffer-results-to-out-params), "
                            "but got ")
             << func.getNumResults() << " results";
    EntrySignature entry;
    entry.name = func.getSymName().str();
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto memref = dyn_cast<MemRefType>(type);
      std::optional<StaticLayout> layout =
          memref ? getStaticLayout(memref) : std::nullopt;
      if (!layout || layout->offset != 0 ||
          dtypeName(memref.getElementType()).empty())
        return func.emitError("expects exported arguments to be static "
                              "buffers of f16, bf16, f32, f64, i1, i8, i32 "
                              "or i64 with static strides, but argument #")
               << i << " is " << type;
      entry.buffers.push_back(memref);
      entry.isOutput.push_back(func.getArgAttr(i, "bufferize.result") !=
                               nullptr);
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string mlir::cudnn_mlir::formatManifest(ArrayRef<EntrySignature> entries) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "cudnn-mlir-module " << kManifestVersion << "\n";
  for (const EntrySignature &entry : entries) {
    os << "entry " << entry.name << "\n";
    for (auto [i, type] : llvm::enumerate(entry.buffers)) {
      os << "arg " << i << (entry.isOutput[i] ? " out " : " in ")
         << dtypeName(type.getElementType()) << ' ';
      printList(os, type.getShape());
      os << ' ';
      printList(os, getStaticLayout(type)->strides);
      os << "\n";
    }
    os << "end\n";
  }
  return text;
}

LogicalResult
mlir::cudnn_mlir::emitEntryPoints(ModuleOp module,
                                  ArrayRef<EntrySignature> entries) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };

  for (const EntrySignature &entry : entries) {
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(entry.name);
    if (!callee) // Unreachable from textual IR: the conversion made it.
      return module.emitError("expects the converted function @")
             << entry.name << ", but found none";
    FailureOr<LLVM::LLVMFuncOp> begin =
        cudnn::getOrDeclareRuntimeFunction(b, module, "cmrtInvocationBegin");
    FailureOr<LLVM::LLVMFuncOp> end =
        cudnn::getOrDeclareRuntimeFunction(b, module, "cmrtInvocationEnd");
    if (failed(begin) || failed(end)) // Unreachable from textual IR, as
                                      // for the patterns' runtime calls.
      return module.emitError("expects cmrtInvocationBegin/End in "
                              "EntryPoints.def, but found none");
    b.setInsertionPointToEnd(module.getBody());
    auto wrapper = LLVM::LLVMFuncOp::create(
        b, loc, (kEntryPrefix + entry.name).str(),
        LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr, ptr}));
    Block *body = wrapper.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    Value stream = body->getArgument(0), buffers = body->getArgument(1);
    Value invocation =
        LLVM::CallOp::create(b, loc, *begin, ValueRange{stream}).getResult();
    // The standard calling convention passes each memref as (allocated,
    // aligned, offset, sizes..., strides...).
    SmallVector<Value> args;
    for (auto [i, type] : llvm::enumerate(entry.buffers)) {
      Value address =
          LLVM::GEPOp::create(b, loc, ptr, ptr, buffers,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value pointer = LLVM::LoadOp::create(b, loc, ptr, address);
      StaticLayout layout = *getStaticLayout(type);
      args.append({pointer, pointer, constant(layout.offset)});
      for (int64_t size : type.getShape())
        args.push_back(constant(size));
      for (int64_t stride : layout.strides)
        args.push_back(constant(stride));
    }
    LLVM::CallOp::create(b, loc, callee, args);
    Value status =
        LLVM::CallOp::create(b, loc, *end, ValueRange{invocation}).getResult();
    LLVM::ReturnOp::create(b, loc, status);
    b.setInsertionPointToEnd(module.getBody());
  }

  std::string manifest = formatManifest(entries);
  manifest.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), manifest.size());
  LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                         LLVM::Linkage::External, kManifestSymbol,
                         b.getStringAttr(manifest));
  return success();
}
