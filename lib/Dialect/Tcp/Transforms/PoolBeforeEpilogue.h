//===- PoolBeforeEpilogue.h - max pools before a lone conv's epilogue -*- C++ -*-===//
//
// max_pool(f(x)) is f(max_pool(x)) for an f that is non-decreasing and the
// same function for every element of a channel (a per-channel bias add, a
// clamp such as ReLU). A conv that runs alone (whyAnchorRunsAlone: a stem
// conv with 3 input channels and a large output) leaves its bias and ReLU
// to a generated kernel over its whole output, which the pool then reads
// again; pooled first, that kernel runs over the pooled tensor.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_POOLBEFOREEPILOGUE_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_POOLBEFOREEPILOGUE_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// Moves every `tcp.max_pool2d` in `root` that reads a chain of per-channel
/// bias adds and float clamps after a conv that runs alone to right after
/// the conv, the chain after it (each op of the chain used once).
void movePoolsBeforeLoneConvEpilogues(Operation *root);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_POOLBEFOREEPILOGUE_H
