//===- Tcp.td - The tcp dialect, all of it -----------------*- tablegen -*-===//
//
// The single tablegen entry point of the tcp dialect. The ops that upstream
// mlir-tcp has live in TcpOps.td (same mnemonics, names and formats); the ops
// cudnn-mlir adds for its workloads live in TcpExtensionOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_TCP
#define CUDNN_MLIR_TCP

include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.td"
include "cudnn-mlir/Dialect/Tcp/IR/TcpExtensionOps.td"

#endif // CUDNN_MLIR_TCP
