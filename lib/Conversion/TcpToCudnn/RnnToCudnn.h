//===- RnnToCudnn.h - PyTorch RNN custom ops to cudnn RNN ops ---*- C++ -*-===//

#ifndef CUDNN_MLIR_LIB_CONVERSION_TCPTOCUDNN_RNNTOCUDNN_H
#define CUDNN_MLIR_LIB_CONVERSION_TCPTOCUDNN_RNNTOCUDNN_H

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::cudnn_mlir {

/// True for the custom ops convert-tcp-to-cudnn lowers to cuDNN's RNN API:
/// torch.aten.lstm, torch.aten.gru, torch.aten.rnn_tanh, torch.aten.rnn_relu.
bool isRnnCustomOp(tcp::CustomOp op);

/// Rewrites one RNN custom op into cudnn.rnn_pack_weights and
/// cudnn.rnn_forward; on failure has emitted one error naming the torch op
/// and left the IR as it was.
LogicalResult convertRnnCustomOp(RewriterBase &rewriter, tcp::CustomOp op);

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_LIB_CONVERSION_TCPTOCUDNN_RNNTOCUDNN_H
