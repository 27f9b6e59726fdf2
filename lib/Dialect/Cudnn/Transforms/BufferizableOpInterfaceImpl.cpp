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

/// What every cudnn op that bufferizes shares: a tensor's buffer is laid out
/// as its type says, and no operand is written. `Model` adds the rest.
template <typename Model, typename OpT>
struct DeviceBufferModel
    : public BufferizableOpInterface::ExternalModel<Model, OpT> {
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  FailureOr<BufferLikeType> getBufferType(Operation *, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    return cast<BufferLikeType>(
        getDeviceBufferType(cast<RankedTensorType>(value.getType())));
  }
};

/// The cudnn ops that compute: they read every tensor operand and write each
/// result into a fresh buffer. `Model` adds bufferize().
template <typename Model, typename OpT>
struct FreshResultsModel : public DeviceBufferModel<Model, OpT> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
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
        allocateResults(rewriter, graph.getLoc(), graph.getOuts(), options);
    if (failed(ins) || failed(outs))
      return failure();
    Type ranType = graph.getRan() ? graph.getRan().getType() : Type();
    auto exec = ExecuteGraphOp::create(rewriter, graph.getLoc(), ranType,
                                       graph.getHandle(), *ins, *outs);
    exec.getBody().takeBody(graph.getBody());
    SmallVector<Value> replacements(*outs);
    if (ranType)
      replacements.push_back(exec.getRan());
    replaceOpWithBufferizedValues(rewriter, op, replacements);
    return success();
  }
};

/// A cuBLAS GEMM on tensors becomes cudnn.execute_gemm on buffers, writing a
/// fresh c.
struct GemmOpInterface : public FreshResultsModel<GemmOpInterface, GemmOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto gemm = cast<GemmOp>(op);
    FailureOr<SmallVector<Value>> ins = buffersOf(
        rewriter, op, {gemm.getA(), gemm.getB()}, options, state);
    FailureOr<SmallVector<Value>> outs =
        allocateResults(rewriter, op->getLoc(), gemm.getC(), options);
    if (failed(ins) || failed(outs))
      return failure();
    ExecuteGemmOp::create(rewriter, op->getLoc(), gemm.getHandle(), (*ins)[0],
                          (*ins)[1], (*outs)[0], gemm.getTransposeA(),
                          gemm.getTransposeB());
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

/// A layout view is a memref.reinterpret_cast of the same buffer: it reads
/// and writes nothing, and its result is its operand's buffer.
struct LayoutViewOpInterface
    : public DeviceBufferModel<LayoutViewOpInterface, LayoutViewOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &,
                                      const AnalysisState &) const {
    return {{op->getResult(0), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto view = cast<LayoutViewOp>(op);
    RankedTensorType in = view.getIn().getType();
    FailureOr<Value> buffer =
        bufferInLayout(rewriter, op, view.getIn(), in, 0, options, state);
    if (failed(buffer))
      return failure();
    // The same bytes under the other shape and strides: both sides are
    // static with offset 0 (getDeviceBufferType).
    RankedTensorType out = view.getOut().getType();
    SmallVector<int64_t> strides = isChannelsLast(out)
                                       ? getChannelsLastStrides(out.getShape())
                                       : getPackedStrides(out.getShape());
    Value result = memref::ReinterpretCastOp::create(
        rewriter, op->getLoc(), getDeviceBufferType(out), *buffer,
        /*offset=*/0, out.getShape(), strides);
    replaceOpWithBufferizedValues(rewriter, op, result);
    return success();
  }
};

/// The buffers of one cudnn.rnn_execute (null: absent).
struct RnnBuffers {
  Value x, y, hx, hy, cx, cy, weights, seqLengths, dy, dx, dhy, dhx, dcy, dcx,
      dweights, reserve;
};

void createRnnExecute(RewriterBase &rewriter, Location loc, Value handle,
                      RnnConfigAttr config, RnnCall call, const RnnBuffers &b,
                      ValueRange params = {}) {
  RnnExecuteOp::create(rewriter, loc, handle, config, call, b.x, b.y, b.hx,
                       b.hy, b.cx, b.cy, b.weights, b.seqLengths, b.dy, b.dx,
                       b.dhy, b.dhx, b.dcy, b.dcx, b.dweights, b.reserve,
                       params);
}

/// The results that exist, for replaceOpWithBufferizedValues.
SmallVector<Value> present(ArrayRef<Value> values) {
  SmallVector<Value> out;
  for (Value v : values)
    if (v)
      out.push_back(v);
  return out;
}

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
    RnnBuffers b;
    b.weights = (*weights)[0];
    createRnnExecute(rewriter, op->getLoc(), pack.getHandle(),
                     pack.getConfig(), RnnCall::pack_weights, b, *params);
    replaceOpWithBufferizedValues(rewriter, op, *weights);
    return success();
  }
};

/// A weight space (a gradient) into fresh parameter-shaped buffers.
struct RnnUnpackWeightsOpInterface
    : public FreshResultsModel<RnnUnpackWeightsOpInterface,
                               RnnUnpackWeightsOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto unpack = cast<RnnUnpackWeightsOp>(op);
    FailureOr<SmallVector<Value>> weights =
        buffersOf(rewriter, op, unpack.getWeights(), options, state);
    FailureOr<SmallVector<Value>> params =
        allocateResults(rewriter, op->getLoc(), unpack.getParams(), options);
    if (failed(weights) || failed(params))
      return failure();
    RnnBuffers b;
    b.weights = (*weights)[0];
    createRnnExecute(rewriter, op->getLoc(), unpack.getHandle(),
                     unpack.getConfig(), RnnCall::unpack_weights, b, *params);
    replaceOpWithBufferizedValues(rewriter, op, *params);
    return success();
  }
};

/// A forward pass into fresh y, hy (and cy) buffers, and in training for a
/// backward pass a reserve buffer of the size cuDNN asks for at run time
/// (cudnn.rnn_reserve_size).
struct RnnForwardOpInterface
    : public FreshResultsModel<RnnForwardOpInterface, RnnForwardOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto forward = cast<RnnForwardOp>(op);
    Location loc = op->getLoc();
    FailureOr<SmallVector<Value>> ins = buffersOf(
        rewriter, op,
        {forward.getX(), forward.getHx(), forward.getCx(),
         forward.getWeights(), forward.getSeqLengths()},
        options, state);
    FailureOr<SmallVector<Value>> outs = allocateResults(
        rewriter, loc, {forward.getY(), forward.getHy(), forward.getCy()},
        options);
    if (failed(ins) || failed(outs))
      return failure();
    RnnBuffers b;
    b.x = (*ins)[0];
    b.hx = (*ins)[1];
    b.cx = (*ins)[2];
    b.weights = (*ins)[3];
    b.seqLengths = (*ins)[4];
    b.y = (*outs)[0];
    b.hy = (*outs)[1];
    b.cy = (*outs)[2];
    if (forward.getReserveSpace()) {
      Value bytes = RnnReserveSizeOp::create(
          rewriter, loc, rewriter.getIndexType(), forward.getHandle(),
          forward.getConfig(), b.x, b.seqLengths);
      FailureOr<Value> reserve = options.createAlloc(
          rewriter, loc,
          MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
          ValueRange{bytes});
      if (failed(reserve))
        return failure();
      b.reserve = *reserve;
    }
    createRnnExecute(rewriter, loc, forward.getHandle(), forward.getConfig(),
                     forward.getPhase() == FwdPhase::training
                         ? RnnCall::forward_training
                         : RnnCall::forward_inference,
                     b);
    replaceOpWithBufferizedValues(rewriter, op,
                                  present({b.y, b.hy, b.cy, b.reserve}));
    return success();
  }
};

/// dx, dhx (and dcx) into fresh buffers.
struct RnnBackwardDataOpInterface
    : public FreshResultsModel<RnnBackwardDataOpInterface, RnnBackwardDataOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto backward = cast<RnnBackwardDataOp>(op);
    FailureOr<SmallVector<Value>> ins = buffersOf(
        rewriter, op,
        {backward.getY(), backward.getDy(), backward.getHx(),
         backward.getDhy(), backward.getCx(), backward.getDcy(),
         backward.getWeights(), backward.getReserveSpace(),
         backward.getSeqLengths()},
        options, state);
    FailureOr<SmallVector<Value>> outs = allocateResults(
        rewriter, op->getLoc(),
        {backward.getDx(), backward.getDhx(), backward.getDcx()}, options);
    if (failed(ins) || failed(outs))
      return failure();
    RnnBuffers b;
    b.y = (*ins)[0];
    b.dy = (*ins)[1];
    b.hx = (*ins)[2];
    b.dhy = (*ins)[3];
    b.cx = (*ins)[4];
    b.dcy = (*ins)[5];
    b.weights = (*ins)[6];
    b.reserve = (*ins)[7];
    b.seqLengths = (*ins)[8];
    b.dx = (*outs)[0];
    b.dhx = (*outs)[1];
    b.dcx = (*outs)[2];
    createRnnExecute(rewriter, op->getLoc(), backward.getHandle(),
                     backward.getConfig(), RnnCall::backward_data, b);
    replaceOpWithBufferizedValues(rewriter, op, present({b.dx, b.dhx, b.dcx}));
    return success();
  }
};

/// The weight-space gradient into a fresh buffer.
struct RnnBackwardWeightsOpInterface
    : public FreshResultsModel<RnnBackwardWeightsOpInterface,
                               RnnBackwardWeightsOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto backward = cast<RnnBackwardWeightsOp>(op);
    FailureOr<SmallVector<Value>> ins = buffersOf(
        rewriter, op,
        {backward.getX(), backward.getHx(), backward.getY(),
         backward.getReserveSpace(), backward.getSeqLengths()},
        options, state);
    FailureOr<SmallVector<Value>> outs = allocateResults(
        rewriter, op->getLoc(), backward.getDweights(), options);
    if (failed(ins) || failed(outs))
      return failure();
    RnnBuffers b;
    b.x = (*ins)[0];
    b.hx = (*ins)[1];
    b.y = (*ins)[2];
    b.reserve = (*ins)[3];
    b.seqLengths = (*ins)[4];
    b.dweights = (*outs)[0];
    createRnnExecute(rewriter, op->getLoc(), backward.getHandle(),
                     backward.getConfig(), RnnCall::backward_weights, b);
    replaceOpWithBufferizedValues(rewriter, op, *outs);
    return success();
  }
};

} // namespace

void mlir::cudnn::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, CudnnDialect *) {
    BuildAndExecGraphOp::attachInterface<BuildAndExecGraphOpInterface>(*ctx);
    ConvertLayoutOp::attachInterface<ConvertLayoutOpInterface>(*ctx);
    LayoutViewOp::attachInterface<LayoutViewOpInterface>(*ctx);
    GemmOp::attachInterface<GemmOpInterface>(*ctx);
    RnnPackWeightsOp::attachInterface<RnnPackWeightsOpInterface>(*ctx);
    RnnUnpackWeightsOp::attachInterface<RnnUnpackWeightsOpInterface>(*ctx);
    RnnForwardOp::attachInterface<RnnForwardOpInterface>(*ctx);
    RnnBackwardDataOp::attachInterface<RnnBackwardDataOpInterface>(*ctx);
    RnnBackwardWeightsOp::attachInterface<RnnBackwardWeightsOpInterface>(
        *ctx);
  });
}
