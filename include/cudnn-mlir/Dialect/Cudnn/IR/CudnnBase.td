//===- CudnnBase.td - cudnn dialect definition -------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_BASE
#define CUDNN_MLIR_CUDNN_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Cudnn_Dialect : Dialect {
  let name = "cudnn";
  let cppNamespace = "::mlir::cudnn";
  let summary = "cuDNN 9's graph API and RNN API as MLIR";
  let description = [{
    The `cudnn` dialect describes what cudnn-mlir asks cuDNN to run. A
    `cudnn.build_and_exec_graph` holds one cuDNN operation graph: its block
    arguments are the graph's input tensors (`!cudnn.tensor_desc`), each op in
    its body is one cuDNN backend operation descriptor, and the values passed
    to the terminating `cudnn.build_graph` are the graph's outputs. Graph ops
    (convolutions, matmul, pointwise, reduction, normalization, resample) are
    only valid directly inside a `cudnn.build_and_exec_graph` body. Every
    other value produced inside is a virtual tensor: whether a tensor is
    virtual is derived from its uses, never stored. RNNs have no graph node,
    so they are separate tensor-level ops over cuDNN's RNN v8 API.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Defined next to the storage classes they need.
    void registerTypes();
    void registerAttributes();
  }];
}

class Cudnn_Op<string mnemonic, list<Trait> traits = []>
    : Op<Cudnn_Dialect, mnemonic, traits>;

/// An op that is one cuDNN backend operation descriptor: it only means
/// something as a node of a graph, so it must sit directly in the body of a
/// `cudnn.build_and_exec_graph` (or of its bufferized form,
/// `cudnn.execute_graph`).
class Cudnn_GraphOp<string mnemonic, list<Trait> traits = []>
    : Cudnn_Op<mnemonic, !listconcat(
        [ParentOneOf<["BuildAndExecGraphOp", "ExecuteGraphOp"]>], traits)>;

#endif // CUDNN_MLIR_CUDNN_BASE
