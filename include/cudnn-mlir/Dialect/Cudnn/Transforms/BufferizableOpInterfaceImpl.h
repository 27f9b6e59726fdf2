//===- BufferizableOpInterfaceImpl.h - cudnn ops in bufferization -*- C++
//-*-===//
//
// How one-shot bufferization treats cudnn ops: a cudnn.build_and_exec_graph
// reads its tensor operands and writes fresh buffers, so it becomes a
// cudnn.execute_graph on memrefs whose layouts are its descriptors' strides;
// a cudnn.convert_layout becomes a memref.copy between the two layouts.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class DialectRegistry;

namespace cudnn {

/// Attaches the BufferizableOpInterface models of the cudnn ops.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

/// The buffer type of `type`: a memref with the same shape and element type,
/// laid out as its encoding says (channels-last strides for
/// #cudnn.channels_last, the identity layout for none).
MemRefType getDeviceBufferType(RankedTensorType type);

} // namespace cudnn
} // namespace mlir

#endif // CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
