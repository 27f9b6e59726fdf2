//===- ForwardCopies.cpp - kernels read and write through layout copies ---===//
//
// Bufferization turns a layout conversion at a function boundary (an input
// or output in channels-last order feeding ops that work on the logical
// NCHW tensor) into a copy between a strided buffer and a packed
// temporary. A generated kernel can index the strided buffer itself, so:
//
// - `memref.copy %in, %tmp` whose temporary is only read by linalg ops,
//   with %in a function input (never written): the linalg ops read %in;
// - a linalg op writing a temporary that is then only copied to a function
//   output (`memref.copy %tmp, %out`): the op writes %out.
//
// The copies and temporaries disappear; the kernel strategies then pick a
// thread order and access pattern for the strided buffer.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {

/// A function argument that is an input (not a destination-passing output).
bool isReadOnlyArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && arg.getOwner() == &func.getBody().front() &&
         !func.getArgAttr(arg.getArgNumber(), "bufferize.result");
}

bool isOutputArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && arg.getOwner() == &func.getBody().front() &&
         func.getArgAttr(arg.getArgNumber(), "bufferize.result");
}

/// Same logical shape and element type (layouts may differ).
bool sameShape(Value lhs, Value rhs) {
  auto l = cast<MemRefType>(lhs.getType());
  auto r = cast<MemRefType>(rhs.getType());
  return l.getShape() == r.getShape() &&
         l.getElementType() == r.getElementType();
}

/// Input side: every user of the temporary but the copy reads it as a
/// linalg input.
bool forwardInputCopy(memref::CopyOp copy) {
  Value source = copy.getSource(), temporary = copy.getTarget();
  if (!isReadOnlyArgument(source) ||
      !temporary.getDefiningOp<memref::AllocOp>() ||
      !sameShape(source, temporary))
    return false;
  SmallVector<OpOperand *> reads;
  for (OpOperand &use : temporary.getUses()) {
    if (use.getOwner() == copy)
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!linalgOp || !linalgOp.isDpsInput(&use) ||
        use.getOwner()->getBlock() != copy->getBlock() ||
        !copy->isBeforeInBlock(use.getOwner()))
      return false;
    reads.push_back(&use);
  }
  for (OpOperand *read : reads)
    read->set(source);
  Operation *alloc = temporary.getDefiningOp();
  copy->erase();
  if (alloc->use_empty())
    alloc->erase();
  return true;
}

/// Output side: the temporary is written by one linalg op (which does not
/// read it) and then only copied out.
bool forwardOutputCopy(memref::CopyOp copy) {
  Value temporary = copy.getSource(), target = copy.getTarget();
  if (!isOutputArgument(target) ||
      !temporary.getDefiningOp<memref::AllocOp>() ||
      !sameShape(target, temporary))
    return false;
  OpOperand *write = nullptr;
  for (OpOperand &use : temporary.getUses()) {
    if (use.getOwner() == copy)
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (write || !generic || !generic.isDpsInit(&use) ||
        generic.payloadUsesValueFromOperand(&use) ||
        generic->getBlock() != copy->getBlock() ||
        !generic->isBeforeInBlock(copy))
      return false;
    write = &use;
  }
  if (!write)
    return false;
  // Nothing between the write and the copy may touch the output.
  for (Operation *op = write->getOwner()->getNextNode(); op != copy;
       op = op->getNextNode())
    if (llvm::is_contained(op->getOperands(), target))
      return false;
  write->set(target);
  Operation *alloc = temporary.getDefiningOp();
  copy->erase();
  if (alloc->use_empty())
    alloc->erase();
  return true;
}

} // namespace

void forwardLayoutCopies(func::FuncOp func) {
  SmallVector<memref::CopyOp> copies;
  func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
  for (memref::CopyOp copy : copies)
    if (!forwardInputCopy(copy))
      (void)forwardOutputCopy(copy);
}

} // namespace mlir::cudnn_mlir::codegen
