//===- EntryPoints.h - exported entries of a compiled module ----*- C++ -*-===//
//
// Each public function of a compiled module is exported as
//   int32_t cmrt_entry_<name>(void *stream, void *const *buffers)
// and described in the text global `cmrt_module_manifest` (docs/abi.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CONVERSION_CUDNNTOLLVM_ENTRYPOINTS_H
#define CUDNN_MLIR_LIB_CONVERSION_CUDNNTOLLVM_ENTRYPOINTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace mlir::cudnn_mlir {

/// A public function's buffers in call order, read before the conversion to
/// LLVM (which drops the memref types).
struct EntrySignature {
  std::string name;
  /// Each has a static layout with offset 0 (getStaticLayout).
  SmallVector<MemRefType> buffers;
  /// Per buffer: an output (a `bufferize.result` argument) or an input.
  SmallVector<bool> isOutput;
};

/// The signatures of the module's public functions with bodies. Fails with
/// an error on a function that cannot be exported (a name that is not a C
/// identifier, an argument that is not a static dense buffer, a result).
FailureOr<SmallVector<EntrySignature>> collectEntrySignatures(ModuleOp module);

/// The manifest text (docs/abi.md, "Calling a compiled module").
std::string formatManifest(ArrayRef<EntrySignature> entries);

/// After the conversion to LLVM: adds each entry's cmrt_entry_ wrapper and
/// the manifest global.
LogicalResult emitEntryPoints(ModuleOp module,
                              ArrayRef<EntrySignature> entries);

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_LIB_CONVERSION_CUDNNTOLLVM_ENTRYPOINTS_H
