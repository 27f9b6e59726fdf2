//===- InitAll.h - register every dialect and pass of cudnn-mlir -*- C++ -*-===//

#ifndef CUDNN_MLIR_INITALL_H
#define CUDNN_MLIR_INITALL_H

namespace mlir {
class DialectRegistry;

namespace cudnn_mlir {

/// Adds cudnn-mlir's dialects (tcp, cudnn) and the upstream dialects its
/// pipelines produce or consume to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers every cudnn-mlir pass and pipeline with the global registry.
void registerAllPasses();

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_INITALL_H
