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
  auto layout = StridedLayoutAttr::get(
      type.getContext(), /*offset=*/0,
      getChannelsLastStrides(type.getShape()));
  return MemRefType::get(type.getShape(), type.getElementType(), layout);
}

namespace {

/// The buffer a graph operand is read from, in the layout its descriptor
/// promises: a memref.cast when bufferization produced the same bytes under
/// a more general type (e.g. a fully dynamic layout at a function boundary).
FailureOr<Value> bufferInDescriptorLayout(RewriterBase &rewriter,
                                          BuildAndExecGraphOp op,
                                          OpOperand &operand,
                                          const BufferizationOptions &options,
                                          BufferizationState &state) {
  FailureOr<Value> buffer =
      getBuffer(rewriter, operand.get(), options, state);
  if (failed(buffer))
    return failure();
  MemRefType wanted =
      getDeviceBufferType(cast<RankedTensorType>(operand.get().getType()));
  if (buffer->getType() == wanted)
    return buffer;
  if (!memref::CastOp::areCastCompatible(buffer->getType(), wanted))
    return op.emitOpError("expects operand #")
           << operand.getOperandNumber() - 1 << " in a buffer of type "
           << wanted << ", but bufferization gave " << buffer->getType();
  return memref::CastOp::create(rewriter, op.getLoc(), wanted, *buffer)
      .getResult();
}

struct BuildAndExecGraphOpInterface
    : public BufferizableOpInterface::ExternalModel<
          BuildAndExecGraphOpInterface, BuildAndExecGraphOp> {
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

  FailureOr<BufferLikeType>
  getBufferType(Operation *, Value value, const BufferizationOptions &,
                const BufferizationState &,
                SmallVector<Value> &) const {
    return cast<BufferLikeType>(
        getDeviceBufferType(cast<RankedTensorType>(value.getType())));
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto graph = cast<BuildAndExecGraphOp>(op);
    SmallVector<Value> ins;
    for (OpOperand &operand : graph.getInsMutable()) {
      FailureOr<Value> buffer =
          bufferInDescriptorLayout(rewriter, graph, operand, options, state);
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

/// A layout conversion reads its operand and writes a fresh buffer in the
/// other layout: a memref.copy between two strided buffers, which the LLVM
/// lowering runs as one cudnnTransformTensor.
struct ConvertLayoutOpInterface
    : public BufferizableOpInterface::ExternalModel<ConvertLayoutOpInterface,
                                                    ConvertLayoutOp> {
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
  FailureOr<BufferLikeType>
  getBufferType(Operation *, Value value, const BufferizationOptions &,
                const BufferizationState &, SmallVector<Value> &) const {
    return cast<BufferLikeType>(
        getDeviceBufferType(cast<RankedTensorType>(value.getType())));
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto convert = cast<ConvertLayoutOp>(op);
    FailureOr<Value> source =
        getBuffer(rewriter, convert.getIn(), options, state);
    if (failed(source))
      return failure();
    MemRefType inType = getDeviceBufferType(convert.getIn().getType());
    Value in = *source;
    if (in.getType() != inType) {
      if (!memref::CastOp::areCastCompatible(in.getType(), inType))
        return op->emitOpError("expects its operand in a buffer of type ")
               << inType << ", but bufferization gave " << in.getType();
      in = memref::CastOp::create(rewriter, op->getLoc(), inType, in);
    }
    FailureOr<Value> alloc = options.createAlloc(
        rewriter, op->getLoc(), getDeviceBufferType(convert.getOut().getType()),
        /*dynShape=*/{});
    if (failed(alloc))
      return failure();
    memref::CopyOp::create(rewriter, op->getLoc(), in, *alloc);
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
