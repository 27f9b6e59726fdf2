//===- TcpToCudnn.h - tcp groups to cuDNN graphs ----------------*- C++ -*-===//

#ifndef CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUDNN_H
#define CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUDNN_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;

namespace cudnn_mlir {

/// Adds the pattern that rewrites `tcp.isolated_group {group_type = "cudnn"}`
/// into `cudnn.build_and_exec_graph`, promising `alignment` bytes of
/// alignment for every graph tensor.
void populateTcpToCudnnPatterns(RewritePatternSet &patterns,
                                int64_t alignment = 16);

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUDNN_H
