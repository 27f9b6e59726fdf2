//===- GlobalAveragePool.h - global average pools, either form --*- C++ -*-===//
//
// A global average pool reaches TCP in two forms: `tcp.avg_pool2d` with a
// window of the whole plane (torch's adaptive_avg_pool2d(x, 1)) and
// `tcp.reduce_mean` over dims 2 and 3 with keep_dims (x.mean((2, 3),
// keepdim=True)). tcp-fuse-for-cudnn's `global-pool` option brings every
// f16/bf16 one to the form it wants to run: a cuDNN resample graph, or a
// generated reduction kernel.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_GLOBALAVERAGEPOOL_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_GLOBALAVERAGEPOOL_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// Rewrites every f16/bf16 `tcp.reduce_mean` over exactly the spatial dims
/// (2, 3) of a static rank-4 NCHW tensor, with keep_dims, into a
/// `tcp.avg_pool2d` whose window is the whole H x W (global-pool=cudnn).
/// cuDNN 9.14 on Hopper has no engine for a reduction writing fp16 in a
/// conv epilogue, but runs the pooling as a resample graph.
void rewriteGlobalAveragePools(Operation *root);

/// The inverse (global-pool=codegen): every f16/bf16 `tcp.avg_pool2d` of a
/// static rank-4 tensor whose window is the whole plane (no padding, a 1x1
/// output) becomes a `tcp.reduce_mean` over dims 2 and 3 with keep_dims,
/// which codegen runs as a reduction split over blocks (a pooling kernel
/// has one thread per output element, each looping over the plane).
void rewriteGlobalAveragePoolsAsMeans(Operation *root);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_GLOBALAVERAGEPOOL_H
