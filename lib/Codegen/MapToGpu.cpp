//===- MapToGpu.cpp - bufferized linalg ops to GPU kernels ----------------===//
//
// Generalizes named linalg ops, then walks each function's generics in
// program order and hands each (or each row-reduction group) to the
// strategy its shape calls for (Strategies.h). Fills that only initialise a
// reduction are folded into that reduction's kernel, and temporaries the
// kernels no longer touch are removed.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"
#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENMAPTOGPUPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;
using namespace mlir::cudnn_mlir::codegen;

namespace {

LogicalResult generalizeNamedOps(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> named;
  func.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op))
      named.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    // Unreachable from textual IR: every structured linalg op has a
    // generic form; kept for ops registered by other projects.
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitError("expects linalg ops that have a linalg.generic "
                           "form, but '")
             << op->getName() << "' has none";
  }
  return success();
}

/// What every strategy assumes: buffers, static loop ranges, and outputs of
/// reductions that do not move with the reduced loops.
LogicalResult checkMappable(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return op.emitError("expects linalg ops on buffers (codegen-map-to-gpu "
                        "runs after bufferization), but this one has tensor "
                        "operands");
  for (int64_t size : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(size))
      return op.emitError("expects static loop ranges for GPU codegen, but "
                          "this op has a dynamic one (dynamic shapes are not "
                          "supported)");
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    for (auto [dim, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::reduction &&
          map.isFunctionOfDim(dim))
        return op.emitError("expects outputs indexed by parallel loops "
                            "only, but output #")
               << init.getOperandNumber() - op.getNumDpsInputs()
               << " moves with reduction loop d" << dim;
  }
  return success();
}

struct CodegenMapToGpuPass
    : public cudnn_mlir::impl::CodegenMapToGpuPassBase<CodegenMapToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(generalizeNamedOps(func)))
      return signalPassFailure();
    forwardLayoutCopies(func);
    SmallVector<linalg::GenericOp> generics;
    func.walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      if (failed(checkMappable(op)))
        return signalPassFailure();

    // Fills whose value a reduction kernel takes over. Each moves to just
    // before its reduction: findFillInit checked that nothing in between
    // touches the buffer. The strategies look for the fill again when they
    // emit the kernel, by then behind the kernels (gpu.launch ops, which may
    // write anything) of the ops in between: a fill left there would be
    // erased and the kernel would start from the buffer's old contents.
    DenseSet<Operation *> folded;
    for (linalg::GenericOp op : generics) {
      unsigned foldable =
          isMultiValueReduction(op)                       ? op.getNumDpsInits()
          : isRowReduction(op) || isColumnReduction(op) ? 1
                                                          : 0;
      for (unsigned i = 0; i < foldable; ++i)
        if (linalg::GenericOp fill = findFillInit(op, i).fill) {
          fill->moveBefore(op);
          folded.insert(fill);
        }
    }

    SmallVector<KernelSummary> kernels;
    DenseSet<Operation *> mapped;
    // One name per mapped op or group (a split reduction's two kernels
    // share it, with suffixes).
    unsigned nextName = 0;
    for (linalg::GenericOp op : generics) {
      if (mapped.contains(op) || folded.contains(op))
        continue;
      std::string name = (func.getSymName() + "_kernel" +
                          std::to_string(nextName++))
                             .str();
      if (isMultiValueReduction(op)) {
        linalg::GenericOp epilogue = findOutputEpilogue(op);
        linalg::GenericOp follower =
            gridSync ? findFollower(op, epilogue) : linalg::GenericOp();
        llvm::append_range(kernels, emitMultiValueReductionKernels(
                                        op, epilogue, follower, name));
        mapped.insert(op);
        if (epilogue)
          mapped.insert(epilogue);
        if (follower)
          mapped.insert(follower);
      } else if (isRowReduction(op)) {
        RowGroup group = formRowGroup(op);
        kernels.push_back(emitRowGroupKernel(group, name));
        for (linalg::GenericOp member : group.members)
          mapped.insert(member);
      } else if (isColumnReduction(op)) {
        llvm::append_range(kernels, emitColumnReductionKernels(op, name));
        mapped.insert(op);
      } else if (OpOperand *transposed = findTransposedInput(op)) {
        kernels.push_back(emitTransposeKernel(op, *transposed, name));
        mapped.insert(op);
      } else {
        kernels.push_back(emitPointwiseKernel(op, name));
        mapped.insert(op);
      }
    }
    for (Operation *op : mapped)
      op->erase();
    for (Operation *op : folded)
      op->erase();
    // Temporaries only the fused kernels used.
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs)
      if (alloc->use_empty())
        alloc->erase();

    numKernels += kernels.size();
    if (reportKernels && !func.isExternal()) {
      // At the function's location rather than on the op: a remark on an
      // op also prints the whole op (--mlir-print-op-on-diagnostic).
      InFlightDiagnostic remark = mlir::emitRemark(func.getLoc())
                                  << "@" << func.getSymName() << ": "
                                  << kernels.size() << " GPU kernel"
                                  << (kernels.size() == 1 ? "" : "s");
      for (const KernelSummary &kernel : kernels)
        remark << "\n  " << kernel.name << ": " << kernel.strategy;
    }
  }
};

} // namespace
