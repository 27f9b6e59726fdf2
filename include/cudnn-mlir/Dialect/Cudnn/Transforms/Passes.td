//===- Passes.td - cudnn dialect passes --------------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES
#define CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CudnnAssignLayoutsPass : Pass<"cudnn-assign-layouts", "func::FuncOp"> {
  let summary = "Chooses the physical layout of cuDNN graph tensors";
  let description = [{
    Decides which `cudnn.build_and_exec_graph`s run channels-last: with
    `layout=auto` (the default), graphs holding a convolution whose input is
    f16 or bf16, which is what cuDNN's fused engines run fastest; with
    `channels-last`, every graph holding a convolution; with `packed`, none.
    In a chosen graph every descriptor of rank >= 3 gets channels-last strides
    (weights become KRSC), and its tensor operands and results of rank >= 3
    get the `#cudnn.channels_last` encoding.

    Reformatting (`cudnn.convert_layout`) is inserted only where a producer's
    layout and a consumer's disagree; conversions back and forth between two
    graphs that agree fold away in the canonicalizer that follows, so no
    transposes stay between them. At the function boundary every argument and
    result is in PyTorch's contiguous layout unless it has the attribute
    `cudnn.layout = "channels_last"`, which makes its type carry the encoding
    (the caller then passes or receives a channels-last buffer).

    Example:

    ```mlir
    // before: a packed fp16 conv graph
    %0 = cudnn.build_and_exec_graph %h %x, %w { ... } : tensor<8x64x56x56xf16>, tensor<64x64x3x3xf16> -> tensor<8x64x56x56xf16>
    // after
    %a = cudnn.convert_layout %x : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
    %b = cudnn.convert_layout %w : tensor<64x64x3x3xf16> -> tensor<64x64x3x3xf16, #cudnn.channels_last>
    %0 = cudnn.build_and_exec_graph %h %a, %b { ... } : ... -> tensor<8x64x56x56xf16, #cudnn.channels_last>
    %1 = cudnn.convert_layout %0 : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x64x56x56xf16>
    ```
  }];
  let options = [
    Option<"layout", "layout", "std::string", /*default=*/"\"auto\"",
           "Which graphs go channels-last: auto, channels-last or packed">,
  ];
  let dependentDialects = ["::mlir::cudnn::CudnnDialect"];
}

#endif // CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES
