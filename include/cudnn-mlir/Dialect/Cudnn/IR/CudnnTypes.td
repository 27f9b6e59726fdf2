//===- CudnnTypes.td - cudnn dialect types -----------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_TYPES
#define CUDNN_MLIR_CUDNN_TYPES

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Cudnn_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Cudnn_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Cudnn_HandleType : Cudnn_Type<"Handle", "handle"> {
  let summary = "A cuDNN handle (cudnnHandle_t)";
  let description = [{
    The cuDNN context a graph is built and executed with. At run time it is
    the runtime's handle for the current device and thread, bound to the
    caller's stream.
  }];
}

def Cudnn_TensorDescType : Cudnn_Type<"TensorDesc", "tensor_desc"> {
  let summary = "A cuDNN tensor descriptor (CUDNN_BACKEND_TENSOR_DESCRIPTOR)";
  let description = [{
    Logical dimensions and element type of a tensor in a cuDNN graph, the
    byte alignment its data pointer is promised to have, and its strides.
    An empty stride list means packed in the logical order (row-major over the
    dimensions as written); otherwise there is one stride per dimension, in
    elements, giving the physical layout (e.g. NHWC for an NCHW-ordered
    shape: `stride = [H*W*C, 1, W*C, C]`).

    Dimensions are in the logical order cuDNN expects for the op (N, C,
    spatial... for convolutions). Rank is 1 to 8. The alignment is a power of
    two. Whether a tensor is virtual is not part of the type: it follows from
    whether the value leaves its graph.

    An optional `offset` (elements, printed only when non-zero) says where in
    its operand's buffer a graph input starts: the graph reads a window of a
    larger packed tensor (attention's q, k and v sliced out of one packed
    qkv projection) at the data pointer plus the offset. cuDNN's descriptor
    has no offset; the alignment must hold for the offset pointer.

    Example:

    ```mlir
    !cudnn.tensor_desc<1x64x56x56xf16, alignment = 16, stride = [200704, 1, 3584, 64]>
    !cudnn.tensor_desc<2x4x96x32xf16, alignment = 16, stride = [384, 32, 768, 1], offset = 128>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    "int64_t":$alignment,
    ArrayRefParameter<"int64_t">:$stride,
    DefaultValuedParameter<"int64_t", "0">:$offset);
  let builders = [
    TypeBuilder<(ins "ArrayRef<int64_t>":$shape, "Type":$elementType,
                     "int64_t":$alignment, "ArrayRef<int64_t>":$stride), [{
      return $_get($_ctxt, shape, elementType, alignment, stride, 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// The strides in elements: the explicit ones, or packed row-major ones.
    SmallVector<int64_t> getEffectiveStrides() const;
    /// The same tensor with other strides (empty: packed), offset kept.
    TensorDescType withStrides(ArrayRef<int64_t> strides) const;
    /// The same tensor starting `offset` elements into its buffer, with the
    /// alignment that pointer keeps.
    TensorDescType withOffset(int64_t offset) const;
    /// Whether the strides address the bytes the channels-last layout does
    /// (strides of size-1 dimensions do not matter). A tensor such as
    /// 1xCx1x1 is both channels-last and packed.
    bool isChannelsLast() const;
    /// Whether the strides address the bytes the packed logical layout does.
    bool isPacked() const;
  }];
}

#endif // CUDNN_MLIR_CUDNN_TYPES
