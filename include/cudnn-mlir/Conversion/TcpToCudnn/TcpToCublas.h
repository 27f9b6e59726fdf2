//===- TcpToCublas.h - fp32 tcp matmuls to cuBLAS GEMMs ---------*- C++ -*-===//

#ifndef CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUBLAS_H
#define CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUBLAS_H

namespace mlir {
class RewritePatternSet;

namespace cudnn_mlir {

/// Adds the patterns that rewrite fp32 `tcp.matmul` / `tcp.batch_matmul`
/// with static shapes, outside cuDNN groups, into `cudnn.gemm` (cuBLAS in
/// exact fp32), folding a last-two-dims `tcp.transpose` operand into the
/// op's transpose flags.
void populateTcpToCublasPatterns(RewritePatternSet &patterns);

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUBLAS_H
