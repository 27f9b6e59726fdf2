//===- TcpDialect.h - the tcp dialect ---------------------------*- C++ -*-===//

#ifndef CUDNN_MLIR_DIALECT_TCP_IR_TCPDIALECT_H
#define CUDNN_MLIR_DIALECT_TCP_IR_TCPDIALECT_H

#include "mlir/IR/Dialect.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpDialect.h.inc"

#endif // CUDNN_MLIR_DIALECT_TCP_IR_TCPDIALECT_H
