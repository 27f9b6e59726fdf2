//===- SplitByCostReport.h - graphs run split by cost -----------*- C++ -*-===//
//
// With `report`, convert-cudnn-to-llvm says which graphs with a compiled
// split form the runtime will run split because of the fusion-by-cost rules
// (cudnn-mlir-runtime/FusionCost.h, the same function the runtime calls on
// the same description), one remark per reason with the count of graphs.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CONVERSION_CUDNNTOLLVM_SPLITBYCOSTREPORT_H
#define CUDNN_MLIR_LIB_CONVERSION_CUDNNTOLLVM_SPLITBYCOSTREPORT_H

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"

#include "cudnn-mlir/Support/OpsByReason.h"

#include <cstdint>
#include <vector>

namespace mlir::cudnn {

class SplitByCostReport {
public:
  /// Judges `op`, serialized as `words`, if it has a split form.
  void note(ExecuteGraphOp op, const std::vector<int64_t> &words);
  /// One remark per reason, on its first graph, with the count.
  void emit() const;

private:
  cudnn_mlir::OpsByReason byReason;
};

} // namespace mlir::cudnn

#endif // CUDNN_MLIR_LIB_CONVERSION_CUDNNTOLLVM_SPLITBYCOSTREPORT_H
