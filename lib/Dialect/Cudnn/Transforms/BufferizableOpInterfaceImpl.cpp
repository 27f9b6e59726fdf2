//===- BufferizableOpInterfaceImpl.cpp - cudnn ops in bufferization -------===//

#include "cudnn-mlir/Dialect/Cudnn/Transforms/BufferizableOpInterfaceImpl.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::cudnn;

MemRefType mlir::cudnn::getDeviceBufferType(RankedTensorType type) {
  if (!isChannelsLast(type))
    return MemRefType::get(type.getShape(), type.getElementType());
  auto layout = StridedLayoutAttr::get(type.getContext(), /*offset=*/0,
                                       getChannelsLastStrides(type.getShape()));
  return MemRefType::get(type.getShape(), type.getElementType(), layout);
}

namespace {

/// `value`'s buffer in the layout `type` says, a memref.cast when
/// bufferization produced the same bytes under a more general type (e.g. a
/// fully dynamic layout at a function boundary).
FailureOr<Value> bufferInLayout(RewriterBase &rewriter, Operation *op,
                                Value value, RankedTensorType type,
                                unsigned operandIndex,
                                const BufferizationOptions &options,
                                BufferizationState &state) {
  FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
  if (failed(buffer))
    return failure();
  MemRefType wanted = getDeviceBufferType(type);
  if (buffer->getType() == wanted)
    return buffer;
  if (!memref::CastOp::areCastCompatible(buffer->getType(), wanted))
    return op->emitOpError("expects operand #")
           << operandIndex << " in a buffer of type " << wanted
           << ", but bufferization gave " << buffer->getType();
  return memref::CastOp::create(rewriter, op->getLoc(), wanted, *buffer)
      .getResult();
}

/// What the cudnn ops that bufferize share: they read every tensor operand,
/// write none, and write each result into a fresh buffer in its type's
/// layout. `Model` adds bufferize().
template <typename Model, typename OpT>
struct FreshResultsModel
    : public BufferizableOpInterface::ExternalModel<Model, OpT> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  FailureOr<BufferLikeType> getBufferType(Operation *, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    return cast<BufferLikeType>(
        getDeviceBufferType(cast<RankedTensorType>(value.getType())));
  }
};

/// A graph on tensors becomes cudnn.execute_graph on buffers, its results
/// freshly allocated `outs`.
struct BuildAndExecGraphOpInterface
    : public FreshResultsModel<BuildAndExecGraphOpInterface,
                               BuildAndExecGraphOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto graph = cast<BuildAndExecGraphOp>(op);
    SmallVector<Value> ins;
    for (auto [i, in] : llvm::enumerate(graph.getIns())) {
      FailureOr<Value> buffer =
          bufferInLayout(rewriter, op, in, cast<RankedTensorType>(in.getType()),
                         i, options, state);
      if (failed(buffer))
        return failure();
      ins.push_back(*buffer);
    }
    SmallVector<Value> outs;
    for (Value result : graph.getResults()) {
      FailureOr<Value> alloc = options.createAlloc(
          rewriter, graph.getLoc(),
          getDeviceBufferType(cast<RankedTensorType>(result.getType())),
          /*dynShape=*/{});
      if (failed(alloc))
        return failure();
      outs.push_back(*alloc);
    }
    auto exec = ExecuteGraphOp::create(rewriter, graph.getLoc(),
                                       graph.getHandle(), ins, outs);
    exec.getBody().takeBody(graph.getBody());
    replaceOpWithBufferizedValues(rewriter, op, outs);
    return success();
  }
};

/// A layout conversion is a memref.copy between two strided buffers, which
/// the LLVM lowering runs as one cudnnTransformTensor.
struct ConvertLayoutOpInterface
    : public FreshResultsModel<ConvertLayoutOpInterface, ConvertLayoutOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto convert = cast<ConvertLayoutOp>(op);
    FailureOr<Value> in =
        bufferInLayout(rewriter, op, convert.getIn(), convert.getIn().getType(),
                       0, options, state);
    if (failed(in))
      return failure();
    FailureOr<Value> alloc = options.createAlloc(
        rewriter, op->getLoc(), getDeviceBufferType(convert.getOut().getType()),
        /*dynShape=*/{});
    if (failed(alloc))
      return failure();
    memref::CopyOp::create(rewriter, op->getLoc(), *in, *alloc);
    replaceOpWithBufferizedValues(rewriter, op, *alloc);
    return success();
  }
};

} // namespace

void mlir::cudnn::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, CudnnDialect *) {
    BuildAndExecGraphOp::attachInterface<BuildAndExecGraphOpInterface>(*ctx);
    ConvertLayoutOp::attachInterface<ConvertLayoutOpInterface>(*ctx);
  });
}
