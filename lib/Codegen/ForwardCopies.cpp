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
//   output or to a buffer allocated before it (`memref.copy %tmp, %out`,
//   a split form filling its fused graph's result), directly or through a
//   layout view (cudnn.layout_view's reinterpret_cast): the op writes %out.
//
// The copies and temporaries disappear; the kernel strategies then pick a
// thread order and access pattern for the strided buffer.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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

/// Whether `target` may be written where `write` is: a function output, or
/// a buffer allocated before it (a fused graph's result that a split form
/// fills).
bool writableAt(Value target, Operation *write) {
  if (isOutputArgument(target))
    return true;
  auto alloc = target.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return false;
  Operation *ancestor = alloc->getBlock()->findAncestorOpInBlock(*write);
  return ancestor && alloc->isBeforeInBlock(ancestor);
}

/// The ops that use `buffer`, directly or through views of it.
void collectUsers(Value buffer, SmallVectorImpl<Operation *> &users) {
  for (Operation *user : buffer.getUsers()) {
    users.push_back(user);
    if (isa<ViewLikeOpInterface>(user))
      for (Value view : user->getResults())
        collectUsers(view, users);
  }
}

/// Whether an op strictly between `first` and `last` (same block), or one
/// nested in it, touches `buffer` or a view of it.
bool touchedBetween(Value buffer, Operation *first, Operation *last) {
  SmallVector<Operation *> users;
  collectUsers(buffer, users);
  return llvm::any_of(users, [&](Operation *user) {
    Operation *op = first->getBlock()->findAncestorOpInBlock(*user);
    return op && first->isBeforeInBlock(op) && op->isBeforeInBlock(last);
  });
}

/// Whether `a` runs before `b` whenever both run: a's ancestor comes before
/// b's in the innermost block that holds both.
bool runsBefore(Operation *a, Operation *b) {
  for (Operation *bAncestor = b; bAncestor;
       bAncestor = bAncestor->getParentOp()) {
    if (!bAncestor->getBlock())
      return false;
    if (Operation *aAncestor = bAncestor->getBlock()->findAncestorOpInBlock(*a))
      return aAncestor != bAncestor && aAncestor->isBeforeInBlock(bAncestor);
  }
  return false;
}

/// Output side: the temporary is written by one linalg op (which does not
/// read it) and then only copied out, possibly through a layout view (a
/// kernel on channels-last bytes copied into a channels-last buffer). Uses
/// of the temporary that all run before the write are earlier lives of a
/// reused buffer (bufferization writes a kernel's result in place into a
/// dead tensor's buffer) and do not matter.
bool forwardOutputCopy(memref::CopyOp copy) {
  Value temporary = copy.getSource(), target = copy.getTarget();
  auto view = temporary.getDefiningOp<memref::ReinterpretCastOp>();
  if (view) {
    if (!view->hasOneUse() || view.getType() != target.getType())
      return false;
    temporary = view.getSource();
  } else if (!sameShape(target, temporary)) {
    return false;
  }
  if (!temporary.getDefiningOp<memref::AllocOp>())
    return false;
  // The write: the last linalg op before the copy, in its block, that
  // writes the temporary.
  OpOperand *write = nullptr;
  for (OpOperand &use : temporary.getUses()) {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (generic && generic.isDpsInit(&use) &&
        generic->getBlock() == copy->getBlock() &&
        generic->isBeforeInBlock(copy) &&
        (!write || write->getOwner()->isBeforeInBlock(generic)))
      write = &use;
  }
  if (!write ||
      cast<linalg::GenericOp>(write->getOwner())
          .payloadUsesValueFromOperand(write) ||
      !writableAt(target, write->getOwner()) ||
      touchedBetween(target, write->getOwner(), copy))
    return false;
  SmallVector<Operation *> users;
  collectUsers(temporary, users);
  for (Operation *user : users)
    if (user != copy && user != view && user != write->getOwner() &&
        !runsBefore(user, write->getOwner()))
      return false;
  Value written = target;
  if (view) {
    // The inverse view: the target's bytes under the temporary's type.
    OpBuilder b(write->getOwner());
    auto type = cast<MemRefType>(temporary.getType());
    written = memref::ReinterpretCastOp::create(
        b, copy.getLoc(), type, target, /*offset=*/0, type.getShape(),
        type.getStridesAndOffset().first);
  }
  write->set(written);
  Operation *alloc = temporary.getDefiningOp();
  copy->erase();
  if (view)
    view->erase();
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
