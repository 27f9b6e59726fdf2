//===- TcpToCudnn.h - tcp groups to cuDNN graphs ----------------*- C++ -*-===//

#ifndef CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUDNN_H
#define CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUDNN_H

#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"

#include <cstdint>

namespace mlir {
class RewritePatternSet;

namespace cudnn_mlir {

/// Adds the patterns that rewrite `tcp.isolated_group {group_type = "cudnn"}`
/// (and one without group_type that the support table accepts under
/// `policy`, or an error saying why not) into `cudnn.build_and_exec_graph`,
/// promising `alignment` bytes of alignment for every graph tensor, and
/// PyTorch RNN custom ops (`torch.aten.lstm`, `gru`, `rnn_tanh`,
/// `rnn_relu`) into `cudnn.rnn_pack_weights` and `cudnn.rnn_forward`. With
/// `splitForms`, a group that has a split form gets it beside the fused
/// graph (SplitForm.h).
void populateTcpToCudnnPatterns(RewritePatternSet &patterns,
                                int64_t alignment = 16,
                                const tcp::CudnnFusionPolicy &policy = {},
                                bool splitForms = true);

} // namespace cudnn_mlir
} // namespace mlir

#endif // CUDNN_MLIR_CONVERSION_TCPTOCUDNN_TCPTOCUDNN_H
