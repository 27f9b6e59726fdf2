//===- CudnnToLLVM.h - bufferized cudnn modules to LLVM ---------*- C++ -*-===//

#ifndef CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_CUDNNTOLLVM_H
#define CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_CUDNNTOLLVM_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;

namespace cudnn_mlir {

/// What the graph patterns need to know about each cudnn.execute_graph, made
/// before the conversion by prepareGraphCallSites (the description is a
/// module constant by then).
struct GraphCallSite {
  FlatSymbolRefAttr words, uids, slot, where;
  int64_t wordCount = 0;
  /// The cmrtGraphOptions word this graph is built with.
  uint64_t options = 0;
  /// Per ins buffer: whether it is passed as a pointer (false: by value).
  SmallVector<bool> inputPassed;
};

/// What a cudnn.rnn_execute's call needs: its cmrtRnnConfig (an i64 array
/// with the struct's layout), the slot its RNN is built into once per
/// device, its source location.
struct RnnCallSite {
  FlatSymbolRefAttr config, slot, where;
};

struct CudnnToLLVMState {
  llvm::DenseMap<Operation *, GraphCallSite> graphs;
  llvm::DenseMap<Operation *, RnnCallSite> rnns;
  /// cudnn.execute_gemm -> the global string naming it in messages.
  llvm::DenseMap<Operation *, FlatSymbolRefAttr> gemms;
  /// memref.get_global ops only used as by-value graph scalars: no upload.
  llvm::DenseSet<Operation *> scalarOnlyGlobals;
  /// memref.global name -> the slot global of its device copy.
  llvm::DenseMap<StringAttr, FlatSymbolRefAttr> constantSlots;
};

/// A rank-1 byte buffer of a size known only at run time (an RNN's reserve
/// space): the one dynamic buffer compiled code allocates.
bool isDynamicByteBuffer(MemRefType type);

/// Adds the patterns that lower cudnn ops (get_current_handle,
/// execute_graph, rnn_execute, execute_gemm) and device-memory memref ops (alloc, dealloc, get_global,
/// copy) to runtime calls. `state` must outlive the conversion.
void populateCudnnToLLVMPatterns(const LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const CudnnToLLVMState &state);

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_CONVERSION_CUDNNTOLLVM_CUDNNTOLLVM_H
