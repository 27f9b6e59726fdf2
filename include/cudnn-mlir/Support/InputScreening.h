//===- InputScreening.h - reject text that crashes upstream parsers -*- C++ -*-===//
//
// Our tools promise never to crash on malformed input. A few inputs crash
// MLIR 22's own parser before any of our code runs; the tools screen the text
// for them first and reject them with a diagnostic instead.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_SUPPORT_INPUTSCREENING_H
#define CUDNN_MLIR_SUPPORT_INPUTSCREENING_H

#include "mlir/Support/LogicalResult.h"

namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace mlir::cudnn_mlir {

/// Reports every construct in `buffer` known to crash MLIR 22's parser as an
/// error with its line and column on `os`, and fails if there was any.
///
/// Known crashes:
///  - `array<index ...>`: parseDenseArrayAttr asks `index` for a bit width
///    and dereferences null (segfault).
LogicalResult screenForUpstreamParserCrashes(const llvm::MemoryBuffer &buffer,
                                             llvm::raw_ostream &os);

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_SUPPORT_INPUTSCREENING_H
