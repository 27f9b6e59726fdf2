//===- GlobalAveragePool.h - spatial means as pooling -----------*- C++ -*-===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_GLOBALAVERAGEPOOL_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_GLOBALAVERAGEPOOL_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// Rewrites every f16/bf16 `tcp.reduce_mean` over exactly the spatial dims
/// (2, 3) of a static rank-4 NCHW tensor, with keep_dims, into a
/// `tcp.avg_pool2d` whose window is the whole H x W (global average
/// pooling, as torch's adaptive_avg_pool2d(1) computes it). cuDNN 9.14 on
/// Hopper has no engine for a reduction writing fp16 in a conv epilogue, but
/// runs the pooling as a resample graph.
void rewriteGlobalAveragePools(Operation *root);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_GLOBALAVERAGEPOOL_H
