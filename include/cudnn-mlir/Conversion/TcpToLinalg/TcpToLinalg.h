//===- TcpToLinalg.h - tcp ops to linalg on tensors -------------*- C++ -*-===//

#ifndef CUDNN_MLIR_CONVERSION_TCPTOLINALG_TCPTOLINALG_H
#define CUDNN_MLIR_CONVERSION_TCPTOLINALG_TCPTOLINALG_H

namespace mlir {
class RewritePatternSet;

namespace cudnn_mlir {

/// Adds the patterns that rewrite tcp ops with a generic GPU path into linalg
/// on tensors (see `convert-tcp-to-linalg`).
void populateTcpToLinalgPatterns(RewritePatternSet &patterns);

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_CONVERSION_TCPTOLINALG_TCPTOLINALG_H
