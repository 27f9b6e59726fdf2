//===- Strategies.h - how one linalg op or group becomes a kernel -*- C++ -*-===//
//
// Each strategy builds its kernel(s) as `gpu.launch` ops before the first op
// it maps and leaves erasing the mapped ops to the caller. They expect
// static loop ranges (checked by the pass).
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CODEGEN_STRATEGIES_H
#define CUDNN_MLIR_LIB_CODEGEN_STRATEGIES_H

#include "KernelBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::cudnn_mlir::codegen {

/// What a strategy made, for `report-kernels`.
struct KernelSummary {
  std::string name;
  std::string strategy; // e.g. "elementwise(vector 4)"
};

/// Lets linalg ops read function inputs and write function outputs
/// directly where bufferization put a layout copy in between
/// (ForwardCopies.cpp).
void forwardLayoutCopies(func::FuncOp func);

/// Elements per thread for 16-byte vector accesses (1: scalar code only).
int64_t elementwiseVectorWidth(linalg::GenericOp op);

/// One thread per (group of) output element(s); reduction loops, if any, run
/// serially in the thread.
KernelSummary emitPointwiseKernel(linalg::GenericOp op, StringRef name);

/// The input that makes `op` a transpose: read through a permutation whose
/// innermost dimension is not the output's. Null if there is none.
OpOperand *findTransposedInput(linalg::GenericOp op);
KernelSummary emitTransposeKernel(linalg::GenericOp op, OpOperand &transposed,
                                  StringRef name);

/// True for a generic whose reduction loops are its trailing loops and
/// whose body has a combiner.
bool isRowReduction(linalg::GenericOp op);

/// A row reduction and the generics after it that join its kernel.
struct RowGroup {
  SmallVector<linalg::GenericOp> members;
  SmallVector<int64_t> rowSizes;   // the leading (row) loops
  SmallVector<int64_t> innerSizes; // the trailing loops
};
/// Builds the group that starts at `reduction` (see RowReductionKernel.cpp).
RowGroup formRowGroup(linalg::GenericOp reduction);
KernelSummary emitRowGroupKernel(RowGroup &group, StringRef name);

/// True for a generic with reduction loops outside the innermost loop, an
/// innermost parallel loop, and a combiner.
bool isColumnReduction(linalg::GenericOp op);
SmallVector<KernelSummary> emitColumnReductionKernels(linalg::GenericOp op,
                                                      StringRef name);

/// The attribute that names how partial results of a generic's reduction
/// may be merged, where the body alone does not say ("welford": the outputs
/// are a (count, mean, M2) state, merged with Chan's formula).
constexpr llvm::StringLiteral kCombinerAttrName = "codegen.combiner";

/// A reduction into several values per output: Welford states (marked
/// with kCombinerAttrName) or several outputs each with a combiner.
bool isMultiValueReduction(linalg::GenericOp op);

/// The all-parallel generic right after multi-value reduction `op` that
/// works element by element on its outputs (batch norm's per-channel
/// finalisation), or null: the same iteration space as op's outputs, every
/// operand indexed by the identity, and no output that op reads. The
/// reduction's kernel then runs it for each output it finishes.
linalg::GenericOp findOutputEpilogue(linalg::GenericOp op);

/// The elementwise generic after `op`'s epilogue that `op`'s kernel can
/// run as well (batch norm's normalisation after its statistics), or null:
/// for columns as one kernel with grid-wide barriers, for planes with
/// enough outputs per output in the block that reduced it. See Follower
/// in MultiValue/MultiValueReduction.h and MultiValueFollowers.cpp for
/// what fits.
linalg::GenericOp findFollower(linalg::GenericOp op,
                               linalg::GenericOp epilogue);
/// The kernels of multi-value reduction `op`, and of `epilogue` (from
/// findOutputEpilogue, or null) and `follower` (from findFollower,
/// or null) with them.
SmallVector<KernelSummary>
emitMultiValueReductionKernels(linalg::GenericOp op, linalg::GenericOp epilogue,
                               linalg::GenericOp follower, StringRef name);

} // namespace mlir::cudnn_mlir::codegen

#endif // CUDNN_MLIR_LIB_CODEGEN_STRATEGIES_H
