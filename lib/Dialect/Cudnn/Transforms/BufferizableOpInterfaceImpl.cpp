//===- BufferizableOpInterfaceImpl.cpp - cudnn ops in bufferization -------===//

#include "cudnn-mlir/Dialect/Cudnn/Transforms/BufferizableOpInterfaceImpl.h"

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

#include <tuple>

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

/// Each tensor of `values` (null ones stay null) in its buffer.
FailureOr<SmallVector<Value>> buffersOf(RewriterBase &rewriter, Operation *op,
                                        ValueRange values,
                                        const BufferizationOptions &options,
                                        BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value value : values) {
    if (!value) {
      buffers.push_back(Value());
      continue;
    }
    auto operand = llvm::find(op->getOperands(), value);
    FailureOr<Value> buffer = bufferInLayout(
        rewriter, op, value, cast<RankedTensorType>(value.getType()),
        static_cast<unsigned>(operand - op->getOperands().begin()), options,
        state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  return buffers;
}

/// Fresh buffers for `results` (null ones stay null).
FailureOr<SmallVector<Value>> allocateResults(RewriterBase &rewriter,
                                              Location loc, ValueRange results,
                                              const BufferizationOptions &options) {
  SmallVector<Value> buffers;
  for (Value result : results) {
    if (!result) {
      buffers.push_back(Value());
      continue;
    }
    FailureOr<Value> alloc = options.createAlloc(
        rewriter, loc,
        getDeviceBufferType(cast<RankedTensorType>(result.getType())),
        /*dynShape=*/{});
    if (failed(alloc))
      return failure();
    buffers.push_back(*alloc);
  }
  return buffers;
}

/// A graph on tensors becomes cudnn.execute_graph on buffers, its results
/// freshly allocated `outs`.
struct BuildAndExecGraphOpInterface
    : public FreshResultsModel<BuildAndExecGraphOpInterface,
                               BuildAndExecGraphOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto graph = cast<BuildAndExecGraphOp>(op);
    FailureOr<SmallVector<Value>> ins =
        buffersOf(rewriter, op, graph.getIns(), options, state);
    FailureOr<SmallVector<Value>> outs =
        allocateResults(rewriter, graph.getLoc(), graph.getResults(), options);
    if (failed(ins) || failed(outs))
      return failure();
    auto exec = ExecuteGraphOp::create(rewriter, graph.getLoc(),
                                       graph.getHandle(), *ins, *outs);
    exec.getBody().takeBody(graph.getBody());
    replaceOpWithBufferizedValues(rewriter, op, *outs);
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

/// Parameters into a fresh weight space: cudnn.rnn_execute pack_weights.
struct RnnPackWeightsOpInterface
    : public FreshResultsModel<RnnPackWeightsOpInterface, RnnPackWeightsOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto pack = cast<RnnPackWeightsOp>(op);
    FailureOr<SmallVector<Value>> params =
        buffersOf(rewriter, op, pack.getParams(), options, state);
    FailureOr<SmallVector<Value>> weights =
        allocateResults(rewriter, op->getLoc(), pack.getWeights(), options);
    if (failed(params) || failed(weights))
      return failure();
    RnnExecuteOp::create(rewriter, op->getLoc(), pack.getHandle(),
                         pack.getConfig(), RnnCall::pack_weights, Value(),
                         Value(), Value(), Value(), Value(), Value(),
                         (*weights)[0], Value(), *params);
    replaceOpWithBufferizedValues(rewriter, op, *weights);
    return success();
  }
};

/// A forward pass into fresh y, hy (and cy) buffers: cudnn.rnn_execute
/// forward_inference or forward_training. A reserve space would have to
/// outlive the call for the backward ops, which do not lower yet.
struct RnnForwardOpInterface
    : public FreshResultsModel<RnnForwardOpInterface, RnnForwardOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto forward = cast<RnnForwardOp>(op);
    if (forward.getReserveSpace())
      return op->emitOpError(
          "expects no reserve_space result to bufferize (the backward RNN "
          "ops that read it are not lowered yet), but got one");
    FailureOr<SmallVector<Value>> ins = buffersOf(
        rewriter, op,
        {forward.getX(), forward.getHx(), forward.getCx(),
         forward.getWeights(), forward.getSeqLengths()},
        options, state);
    FailureOr<SmallVector<Value>> outs = allocateResults(
        rewriter, op->getLoc(),
        {forward.getY(), forward.getHy(), forward.getCy()}, options);
    if (failed(ins) || failed(outs))
      return failure();
    auto [x, hx, cx, weights, lengths] =
        std::tuple((*ins)[0], (*ins)[1], (*ins)[2], (*ins)[3], (*ins)[4]);
    auto [y, hy, cy] = std::tuple((*outs)[0], (*outs)[1], (*outs)[2]);
    RnnExecuteOp::create(
        rewriter, op->getLoc(), forward.getHandle(), forward.getConfig(),
        forward.getPhase() == FwdPhase::training ? RnnCall::forward_training
                                                 : RnnCall::forward_inference,
        x, y, hx, hy, cx, cy, weights, lengths, ValueRange());
    SmallVector<Value> results = {y, hy};
    if (cy)
      results.push_back(cy);
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};

} // namespace

void mlir::cudnn::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, CudnnDialect *) {
    BuildAndExecGraphOp::attachInterface<BuildAndExecGraphOpInterface>(*ctx);
    ConvertLayoutOp::attachInterface<ConvertLayoutOpInterface>(*ctx);
    RnnPackWeightsOp::attachInterface<RnnPackWeightsOpInterface>(*ctx);
    RnnForwardOp::attachInterface<RnnForwardOpInterface>(*ctx);
  });
}
