//===- HoistParameterKernels.cpp - parameter-only kernels first -----------===//
//
// The elementwise linalg ops of a function's entry block that read only its
// arguments and constants (a batch norm's folded scale and shift, computed
// from its parameters before the conv graph that reads them) move to the
// start of the block, in order, each with its own init. They then
// bufferize and map to adjacent launches, which codegen-merge-launches
// joins into one kernel.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENHOISTPARAMETERKERNELSPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

/// An all-parallel linalg.generic on tensors (one elementwise kernel) whose
/// results no op takes as its init: a fill or a generic that starts a
/// reduction's accumulator becomes part of that reduction's kernel and
/// stays next to it.
bool isElementwiseOnTensors(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return false;
  for (Value result : generic->getResults())
    for (OpOperand &use : result.getUses())
      if (auto user = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
          user && user.isDpsInit(&use))
        return false;
  return true;
}

/// The values `op` reads that are defined outside it: its operands and
/// what its body captures.
SmallVector<Value> valuesRead(Operation *op) {
  llvm::SetVector<Value> read(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), read);
  return read.takeVector();
}

struct CodegenHoistParameterKernelsPass
    : cudnn_mlir::impl::CodegenHoistParameterKernelsPassBase<
          CodegenHoistParameterKernelsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    // Values known before any work runs: arguments, constants, and the
    // results of ops already chosen.
    llvm::DenseSet<Value> early(entry.args_begin(), entry.args_end());
    auto isEarlyValue = [&](Value v) {
      return early.contains(v) || matchPattern(v, m_Constant());
    };
    // A reshape of an early value is early too (a C-element parameter seen
    // as 1x1x1xC); it is cloned up with the op that reads it.
    auto isEarly = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return isEarlyValue(v) ||
             (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
                  def) &&
              isEarlyValue(def->getOperand(0)));
    };
    SmallVector<Operation *> hoisted;
    for (Operation &op : entry) {
      if (!isElementwiseOnTensors(&op))
        continue;
      auto linalgOp = cast<linalg::LinalgOp>(&op);
      // Inits must be only shapes: a static tensor.empty the body ignores.
      bool initsAreShapes =
          llvm::all_of(linalgOp.getDpsInitsMutable(), [&](OpOperand &init) {
            auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
            return empty && empty.getDynamicSizes().empty() &&
                   !linalgOp.payloadUsesValueFromOperand(&init);
          });
      bool readsEarly = llvm::all_of(valuesRead(&op), [&](Value v) {
        return isEarly(v) || llvm::is_contained(linalgOp.getDpsInits(), v);
      });
      if (!initsAreShapes || !readsEarly)
        continue;
      hoisted.push_back(&op);
      for (Value result : op.getResults())
        early.insert(result);
    }
    // In order, after the constants at the top of the block. Each init
    // becomes its own tensor.empty there (the original may have other
    // users), and a constant defined further down is cloned there.
    Operation *insertAfter = nullptr;
    llvm::DenseSet<Operation *> placed;
    for (Operation &op : entry) {
      if (!matchPattern(&op, m_Constant()))
        break;
      insertAfter = &op;
      placed.insert(&op);
    }
    OpBuilder b(func.getContext());
    auto placeNext = [&](Operation *op) {
      if (insertAfter)
        op->moveAfter(insertAfter);
      else
        op->moveBefore(&entry, entry.begin());
      insertAfter = op;
      placed.insert(op);
    };
    for (Operation *op : hoisted) {
      auto linalgOp = cast<linalg::LinalgOp>(op);
      for (Value value : valuesRead(op)) {
        Operation *def = value.getDefiningOp();
        if (!def || placed.contains(def) ||
            llvm::is_contained(linalgOp.getDpsInits(), value))
          continue;
        // A constant or a reshape of an early value further down the
        // block.
        b.setInsertionPoint(def);
        Operation *copy = b.clone(*def);
        placeNext(copy);
        op->walk([&](Operation *user) {
          user->replaceUsesOfWith(value, copy->getResult(0));
        });
      }
      for (OpOperand &init : cast<linalg::LinalgOp>(op).getDpsInitsMutable()) {
        Operation *original = init.get().getDefiningOp();
        b.setInsertionPoint(op);
        Operation *empty = b.clone(*original);
        placeNext(empty);
        init.set(empty->getResult(0));
        if (original->use_empty())
          original->erase();
      }
      placeNext(op);
      ++numHoisted;
    }
  }
};

} // namespace
