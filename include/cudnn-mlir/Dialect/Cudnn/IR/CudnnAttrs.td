//===- CudnnAttrs.td - cudnn dialect enums and attributes --*- tablegen -*-===//
//
// Each enum's integer values follow the order of the cuDNN enum it stands for,
// so that the runtime ABI can pass them through unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_CUDNN_ATTRS
#define CUDNN_MLIR_CUDNN_ATTRS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnBase.td"
include "mlir/IR/EnumAttr.td"

/// Integer-backed, so that op syntax shows the bare keyword
/// (`mode = convolution`) and the generic form the cuDNN value.
class Cudnn_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::cudnn";
}

//===----------------------------------------------------------------------===//
// Graph enums
//===----------------------------------------------------------------------===//

def Cudnn_ConvModeAttr : Cudnn_I32Enum<"ConvMode",
    "convolution mode (cudnnConvolutionMode_t)", [
      I32EnumAttrCase<"convolution", 0>,
      I32EnumAttrCase<"cross_correlation", 1>]>;

def Cudnn_ReductionModeAttr : Cudnn_I32Enum<"ReductionMode",
    "reduction mode (cudnnReduceTensorOp_t)", [
      I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
      I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"max", 3>,
      I32EnumAttrCase<"amax", 4>, I32EnumAttrCase<"avg", 5>,
      I32EnumAttrCase<"norm1", 6>, I32EnumAttrCase<"norm2", 7>]>;

def Cudnn_NormModeAttr : Cudnn_I32Enum<"NormMode",
    "normalization mode (cudnnBackendNormMode_t)", [
      I32EnumAttrCase<"layer", 0>, I32EnumAttrCase<"instance", 1>,
      I32EnumAttrCase<"batch", 2>, I32EnumAttrCase<"rms", 4>]>;

def Cudnn_FwdPhaseAttr : Cudnn_I32Enum<"FwdPhase",
    "forward phase (cudnnBackendNormFwdPhase_t, cudnnForwardMode_t)", [
      I32EnumAttrCase<"inference", 0>, I32EnumAttrCase<"training", 1>]>;

def Cudnn_RnnCallAttr : Cudnn_I32Enum<"RnnCall",
    "what a cudnn.rnn_execute runs (cmrtInvocationRnn's op, then the weight "
    "copies)", [
      I32EnumAttrCase<"forward_inference", 0>,
      I32EnumAttrCase<"forward_training", 1>,
      I32EnumAttrCase<"backward_data", 2>,
      I32EnumAttrCase<"backward_weights", 3>,
      I32EnumAttrCase<"pack_weights", 4>,
      I32EnumAttrCase<"unpack_weights", 5>]>;

def Cudnn_ResampleModeAttr : Cudnn_I32Enum<"ResampleMode",
    "resample mode (cudnnResampleMode_t)", [
      I32EnumAttrCase<"avg_include_padding", 2>,
      I32EnumAttrCase<"avg_exclude_padding", 4>, I32EnumAttrCase<"max", 3>]>;

//===----------------------------------------------------------------------===//
// RNN enums and configuration
//===----------------------------------------------------------------------===//

def Cudnn_RnnCellMode : Cudnn_I32Enum<"RnnCellMode",
    "RNN cell (cudnnRNNMode_t)", [
      I32EnumAttrCase<"rnn_relu", 0>, I32EnumAttrCase<"rnn_tanh", 1>,
      I32EnumAttrCase<"lstm", 2>, I32EnumAttrCase<"gru", 3>]>;

def Cudnn_RnnBiasMode : Cudnn_I32Enum<"RnnBiasMode",
    "RNN bias vectors (cudnnRNNBiasMode_t)", [
      I32EnumAttrCase<"no_bias", 0>, I32EnumAttrCase<"single_inp", 1>,
      // `double` is a C++ keyword.
      I32EnumAttrCase<"double_bias", 2, "double">,
      I32EnumAttrCase<"single_rec", 3>]>;

def Cudnn_RnnDirection : Cudnn_I32Enum<"RnnDirection",
    "RNN direction (cudnnDirectionMode_t)", [
      I32EnumAttrCase<"unidirectional", 0>, I32EnumAttrCase<"bidirectional", 1>]>;

def Cudnn_RnnDataLayout : Cudnn_I32Enum<"RnnDataLayout",
    "RNN data layout (cudnnRNNDataLayout_t)", [
      I32EnumAttrCase<"seq_major_unpacked", 0>,
      I32EnumAttrCase<"seq_major_packed", 1>,
      I32EnumAttrCase<"batch_major_unpacked", 2>]>;

def Cudnn_MathType : Cudnn_I32Enum<"MathType",
    "math type (cudnnMathType_t)", [
      // `default` is a C++ keyword.
      I32EnumAttrCase<"default_math", 0, "default">,
      I32EnumAttrCase<"tensor_op", 1>,
      I32EnumAttrCase<"tensor_op_allow_conversion", 2>,
      I32EnumAttrCase<"fma", 3>]>;

def Cudnn_ChannelsLastAttr : AttrDef<Cudnn_Dialect, "ChannelsLast"> {
  let mnemonic = "channels_last";
  let summary = "Tensor encoding: stored channels-last (NHWC, NDHWC)";
  let description = [{
    As the encoding of a ranked tensor of rank 3 to 8, says that the tensor,
    whose type keeps the logical order N, C, spatial..., is stored with the
    channels innermost: strides `[C*prod(spatial), 1, ..., C]`, what cuDNN's
    fused fp16/bf16 engines want. A tensor with no encoding is stored packed
    in its logical order (PyTorch's contiguous layout). Values cross between
    the two only through `cudnn.convert_layout`; bufferization gives an
    encoded tensor a strided memref.

    Example:

    ```mlir
    tensor<8x64x56x56xf16, #cudnn.channels_last>
    ```
  }];
}

def Cudnn_RnnConfigAttr : AttrDef<Cudnn_Dialect, "RnnConfig"> {
  let mnemonic = "rnn_config";
  let summary = "An RNN descriptor (cudnnRNNDescriptor_t, cudnnSetRNNDescriptor_v8)";
  let description = [{
    Everything cudnnSetRNNDescriptor_v8 needs except the data type, which the
    RNN ops take from their tensors: the cell, the sizes (`proj_size = 0`
    means no projection; projection is LSTM-only and smaller than
    `hidden_size`), the number of stacked layers, the direction, the bias
    vectors, the layout of x and y (cudnnSetRNNDataDescriptor), the math type
    and the dropout probability between layers, in [0, 1).

    Example:

    ```mlir
    #cudnn.rnn_config<cell = lstm, input_size = 32, hidden_size = 64,
        proj_size = 0, num_layers = 2, direction = bidirectional,
        bias = double, layout = seq_major_unpacked, math = default,
        dropout = 0.000000e+00 : f32>
    ```
  }];
  let parameters = (ins
    EnumParameter<Cudnn_RnnCellMode>:$cell,
    "int64_t":$input_size,
    "int64_t":$hidden_size,
    "int64_t":$proj_size,
    "int64_t":$num_layers,
    EnumParameter<Cudnn_RnnDirection>:$direction,
    EnumParameter<Cudnn_RnnBiasMode>:$bias,
    EnumParameter<Cudnn_RnnDataLayout>:$layout,
    EnumParameter<Cudnn_MathType>:$math,
    "::mlir::FloatAttr":$dropout);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getNumDirections() const {
      return getDirection() == RnnDirection::bidirectional ? 2 : 1;
    }
    /// The size of h (and of each direction's slice of y).
    int64_t getOutputSize() const {
      return getProjSize() > 0 ? getProjSize() : getHiddenSize();
    }
  }];
}

#endif // CUDNN_MLIR_CUDNN_ATTRS
