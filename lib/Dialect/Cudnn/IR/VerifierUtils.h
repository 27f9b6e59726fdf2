//===- VerifierUtils.h - checks shared by the cudnn op verifiers -*- C++ -*-===//

#ifndef CUDNN_MLIR_LIB_DIALECT_CUDNN_IR_VERIFIERUTILS_H
#define CUDNN_MLIR_LIB_DIALECT_CUDNN_IR_VERIFIERUTILS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::cudnn {

/// Checks that an optional value (a builtin ranked tensor or a tensor_desc)
/// has a shape compatible with `expected`; absent values pass. `why`, when
/// given, follows the expected shape in the message ("... of shape [1, 64]
/// (per channel), but got ...").
LogicalResult expectShape(Operation *op, StringRef name, Value value,
                          ArrayRef<int64_t> expected, StringRef why = "");

} // namespace mlir::cudnn

#endif // CUDNN_MLIR_LIB_DIALECT_CUDNN_IR_VERIFIERUTILS_H
