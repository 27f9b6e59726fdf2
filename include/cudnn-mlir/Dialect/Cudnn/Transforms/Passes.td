//===- Passes.td - cudnn dialect passes --------------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES
#define CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CudnnAssignLayoutsPass : Pass<"cudnn-assign-layouts", "func::FuncOp"> {
  let summary = "Chooses the physical layout of cuDNN graph tensors";
  let description = [{
    Decides which `cudnn.build_and_exec_graph`s run channels-last: with
    `layout=auto` (the default), graphs holding a convolution, a pooling
    (`cudnn.resample`) or a batch norm in training or backward whose input
    is f16 or bf16, which is what cuDNN's engines run fastest; with
    `channels-last`, every graph holding one; with `packed`, none.
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

def CudnnBufferizePass : Pass<"cudnn-bufferize", "ModuleOp"> {
  let summary = "Bufferizes a module of cuDNN graphs into device buffers";
  let description = [{
    One-shot bufferization of the whole module, function boundaries
    included. Every tensor becomes a memref in device memory laid out as its
    type says: packed row-major without an encoding, channels-last strides
    with `#cudnn.channels_last`. A `cudnn.build_and_exec_graph` reads its
    operands and writes freshly allocated buffers, so it becomes a
    `cudnn.execute_graph` with `outs` buffers; a `cudnn.convert_layout`
    becomes a `memref.copy` between the two layouts (one cudnnTransformTensor
    at run time); constants become memref globals (uploaded to the device on
    first use), reshapes become views.

    First it checks that everything has a way to run: static tensor
    arguments and results; outside graphs only constants (`tcp.const` becomes
    `arith.constant`), reshapes and the graphs themselves. Anything else is
    an error that names the op.

    Example:

    ```mlir
    // before
    func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
      %h = cudnn.get_current_handle !cudnn.handle
      %0 = cudnn.build_and_exec_graph %h %x { ... } : tensor<8xf32> -> tensor<8xf32>
      return %0 : tensor<8xf32>
    }
    // after
    func.func @f(%x: memref<8xf32>) -> memref<8xf32> {
      %h = cudnn.get_current_handle !cudnn.handle
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
      cudnn.execute_graph %h ins(%x : memref<8xf32>) outs(%alloc : memref<8xf32>) { ... }
      return %alloc : memref<8xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::cudnn::CudnnDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def CudnnResultsToOutParamsPass : Pass<"cudnn-results-to-out-params",
                                       "ModuleOp"> {
  let summary = "Turns memref results into caller-provided output buffers";
  let description = [{
    Destination passing at function boundaries, after `cudnn-bufferize`:
    every memref result of every function becomes a trailing argument with
    the attribute `bufferize.result`, which the caller allocates. When the
    function allocated the returned buffer itself, the allocation is
    replaced by the new argument, so the graph that filled it writes straight
    into the caller's buffer; otherwise the value is copied into it. Calls
    are rewritten to allocate the outputs and pass them.

    Unlike upstream's `buffer-results-to-out-params` it accepts any static
    strided layout, so a `#cudnn.channels_last` result stays a channels-last
    output. Results of dynamic shape or strides are an error.

    Example:

    ```mlir
    // before
    func.func @f(%x: memref<8xf32>) -> memref<8xf32> {
      %alloc = memref.alloc() : memref<8xf32>
      cudnn.execute_graph %h ins(%x : memref<8xf32>) outs(%alloc : memref<8xf32>) { ... }
      return %alloc : memref<8xf32>
    }
    // after
    func.func @f(%x: memref<8xf32>, %out: memref<8xf32> {bufferize.result}) {
      cudnn.execute_graph %h ins(%x : memref<8xf32>) outs(%out : memref<8xf32>) { ... }
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES
