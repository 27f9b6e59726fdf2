//===- Bufferize.cpp - cudnn-bufferize: tensors to device buffers ---------===//
//
// Checks that every op of a module has a way to run (a cuDNN graph, a
// constant, a reshape), then runs one-shot bufferization over the whole
// module with function boundaries: tensors become memrefs in device memory,
// laid out as their encoding says, and cuDNN graphs become
// cudnn.execute_graph on buffers.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/BufferizableOpInterfaceImpl.h"
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::cudnn {
#define GEN_PASS_DEF_CUDNNBUFFERIZEPASS
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"
} // namespace mlir::cudnn

using namespace mlir;
using namespace mlir::cudnn;

namespace {

/// Ops outside cuDNN graphs that bufferize into something the LLVM lowering
/// runs: views (layout views and slices too; an insert_slice that is not in
/// place is a copy), constants, layout conversions, the RNN ops,
/// the cuBLAS GEMMs, the graphs themselves, linalg ops (generated kernels,
/// codegen-map-to-gpu), launches of generated kernels (on buffers already), and
/// the scf.if that picks a fused graph or its split form
/// (convert-tcp-to-cudnn).
bool hasDeviceLowering(Operation *op) {
  return isa<func::FuncOp, func::ReturnOp, func::CallOp, arith::ConstantOp,
             tcp::ConstOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::EmptyOp, tensor::CastOp, tensor::ExtractSliceOp,
             tensor::InsertSliceOp, GetCurrentHandleOp, BuildAndExecGraphOp,
             ExecuteGraphOp, ConvertLayoutOp, LayoutViewOp, RnnPackWeightsOp,
             RnnUnpackWeightsOp, RnnForwardOp, RnnBackwardDataOp,
             RnnBackwardWeightsOp, RnnExecuteOp, RnnReserveSizeOp, GemmOp,
             ExecuteGemmOp, gpu::LaunchFuncOp, linalg::LinalgOp, scf::IfOp,
             scf::YieldOp>(op) ||
         isa<memref::MemRefDialect, bufferization::BufferizationDialect>(
             op->getDialect());
}

LogicalResult checkLowerable(func::FuncOp func) {
  if (func.isExternal())
    return success();
  // Buffers (memrefs) are allowed too: code that launches generated kernels
  // is already bufferized.
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && isa<RankedTensorType, MemRefType>(type) &&
           shaped.hasStaticShape();
  };
  for (auto [i, type] : llvm::enumerate(func.getFunctionType().getInputs()))
    if (!isStatic(type))
      return func.emitError("expects function arguments to be tensors of "
                            "static shape, but argument #")
             << i << " is " << type;
  for (auto [i, type] : llvm::enumerate(func.getFunctionType().getResults()))
    if (!isStatic(type))
      return func.emitError("expects function results to be tensors of "
                            "static shape, but result #")
             << i << " is " << type;
  WalkResult result = func.walk([&](Operation *op) {
    // Graph bodies are checked by the graph verifier; linalg bodies run
    // inside generated kernels.
    if (op->getParentOfType<BuildAndExecGraphOp>() ||
        op->getParentOfType<ExecuteGraphOp>() ||
        op->getParentOfType<linalg::LinalgOp>())
      return WalkResult::skip();
    if (!hasDeviceLowering(op)) {
      op->emitError("expects only cuDNN graphs, linalg ops (generated "
                    "kernels), constants and reshapes outside graphs, but "
                    "got '")
          << op->getName() << "'";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// An empty tensor that a linalg op fills and whose result is inserted
/// into a larger tensor (the pieces of codegen-split-concat-reads) becomes
/// that slice of the larger tensor, so the op writes the larger buffer in
/// place. Upstream's empty-tensor elimination does this with a one-shot
/// analysis of the whole module (about a second more for DenseNet-121
/// here); here the
/// larger tensor must have no other user and dominate the op, so nothing
/// can read the slice between.
void fillInsertedSliceInPlace(tensor::InsertSliceOp insert) {
  auto producer = insert.getSource().getDefiningOp<linalg::LinalgOp>();
  if (!producer || producer->getNumResults() != 1 ||
      !insert.getSource().hasOneUse() || !insert.getDest().hasOneUse())
    return;
  OpOperand &init = producer.getDpsInitsMutable()[0];
  auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
  if (!empty || !empty->hasOneUse() ||
      producer.payloadUsesValueFromOperand(&init))
    return;
  Value dest = insert.getDest();
  Operation *destDef = dest.getDefiningOp();
  // A static empty destination (cloned next to its user above) moves up.
  if (auto destEmpty = dyn_cast_or_null<tensor::EmptyOp>(destDef);
      destEmpty && destEmpty->getNumOperands() == 0 &&
      destEmpty->getBlock() == producer->getBlock())
    destEmpty->moveBefore(producer);
  // The destination must dominate the op: defined before it in its block
  // or in a block around it (a split form's branch fills a tensor of the
  // function's body).
  Block *destBlock =
      destDef ? destDef->getBlock() : cast<BlockArgument>(dest).getOwner();
  Operation *ancestor = destBlock->findAncestorOpInBlock(*producer);
  if (!ancestor || (destDef && !destDef->isBeforeInBlock(ancestor)))
    return;
  OpBuilder b(producer);
  auto slice = tensor::ExtractSliceOp::create(
      b, insert.getLoc(), insert.getSourceType(), dest,
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  init.set(slice);
  empty->erase();
}

struct CudnnBufferizePass
    : public cudnn::impl::CudnnBufferizePassBase<CudnnBufferizePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(checkLowerable(func)))
        return signalPassFailure();

    // A tcp.const outside graphs is a plain constant.
    module.walk([](tcp::ConstOp op) {
      OpBuilder b(op);
      auto constant = arith::ConstantOp::create(b, op.getLoc(),
                                                cast<TypedAttr>(op.getValue()));
      op.replaceAllUsesWith(constant.getResult());
      op.erase();
    });

    // A fill or an empty tensor that initialises several outputs (CSE
    // merges identical ones across the function) would bufferize into one
    // buffer: copies of a fill, and for an empty tensor one buffer that
    // kernels far apart reuse in place (a split form's kernel then writes
    // it and copies it out). One per user, placed just before it, lets each
    // output start from its own fill, which the generated reductions take
    // as their starting value, and gives each kernel its own buffer, which
    // codegen-map-to-gpu replaces by the one its result is copied into. A
    // fill moves next to its user even where it has one: a fill left where
    // CSE put it (a block earlier) would run as a kernel of its own there,
    // and between a reduction and the next it splits their kernel in two
    // (Swin's softmax: its max, the fill, its sum).
    SmallVector<Operation *> initialValues;
    module.walk([&](Operation *op) {
      if (isa<linalg::FillOp, tensor::EmptyOp>(op) && op->getNumResults() == 1)
        initialValues.push_back(op); // on tensors: an initial value
    });
    for (Operation *op : initialValues) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : op->getResult(0).getUses())
        uses.push_back(&use);
      bool isFill = isa<linalg::FillOp>(op);
      if (uses.empty() || (uses.size() == 1 && !isFill))
        continue;
      for (OpOperand *use : uses) {
        OpBuilder b(use->getOwner());
        use->set(b.clone(*op)->getResult(0));
      }
      op->erase();
    }

    module.walk(fillInsertedSliceInPlace);

    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.allowUnknownOps = false;
    // Device buffers are laid out as the tensor's encoding says; a static
    // layout at the boundary is what the exported entry points promise.
    options.functionArgTypeConverterFn =
        [](bufferization::TensorLikeType type, Attribute, func::FuncOp,
           const bufferization::BufferizationOptions &)
        -> bufferization::BufferLikeType {
      return cast<bufferization::BufferLikeType>(
          getDeviceBufferType(cast<RankedTensorType>(type)));
    };
    options.unknownTypeConverterFn =
        [](TensorType type, Attribute,
           const bufferization::BufferizationOptions &) -> BaseMemRefType {
      return getDeviceBufferType(cast<RankedTensorType>(type));
    };
    bufferization::BufferizationState state;
    if (failed(
            bufferization::runOneShotModuleBufferize(module, options, state)))
      return signalPassFailure();

    // A split form writes into its fused graph's buffers, so both branches
    // of its scf.if yield the same buffers: the if's results fold away, and
    // deallocation sees one owner per buffer (no run-time ownership).
    RewritePatternSet patterns(&getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    // An insert_slice done in place bufferizes to a copy of a view onto
    // the same view, made twice (fillInsertedSliceInPlace): nothing to
    // move.
    SmallVector<memref::CopyOp> selfCopies;
    module.walk([&](memref::CopyOp copy) {
      Operation *source = copy.getSource().getDefiningOp();
      Operation *target = copy.getTarget().getDefiningOp();
      if (copy.getSource() == copy.getTarget() ||
          (source && target && isa<memref::SubViewOp>(source) &&
           OperationEquivalence::isEquivalentTo(
               source, target, OperationEquivalence::IgnoreLocations)))
        selfCopies.push_back(copy);
    });
    for (memref::CopyOp copy : selfCopies)
      copy.erase();
  }
};

} // namespace
