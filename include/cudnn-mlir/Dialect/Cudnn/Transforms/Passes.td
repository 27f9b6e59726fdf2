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

def CudnnChannelsLastKernelsPass : Pass<"cudnn-channels-last-kernels",
                                         "func::FuncOp"> {
  let summary = "Runs the tcp ops between channels-last graphs on their bytes";
  let description = [{
    After `cudnn-assign-layouts`, the tcp ops left between channels-last
    graphs (a split form's epilogue, a batch norm and ReLU no graph took, a
    concat, a squeeze-excite's pooling and scaling) work on packed tensors
    behind a `cudnn.convert_layout` each way: two transposes of the whole
    activation. Elementwise ops, `tcp.broadcast`, `tcp.concat`, `tcp.slice`
    and reductions with `keep_dims` compute the same values on any order of
    dimensions, so each connected set of them moves onto the storage order of
    the channels-last tensors it reads, (N, spatial..., C): inputs become
    `cudnn.layout_view`s (free), size-1-padded inputs such as a 1xCx1x1 bias
    become reshapes (free), splat constants are rebuilt, dimension attributes
    (broadcast axes, concat axis, slice bounds, reduction axes) are permuted,
    and results are viewed back. A user that needs the packed value gets a
    reshape where the two orders share their bytes, else one
    `cudnn.convert_layout`. An inference `tcp.batch_norm` (DenseNet's, after
    a concat) moves as its arithmetic on storage order, in f32 for f16/bf16,
    its per-channel parameters broadcast along the last dimension. A
    `tcp.transpose` between logical and storage order (a model's own permute
    to (N, H, W, C) and back, as in ConvNeXt's blocks around the layer norm
    and linears) joins a set and disappears: to storage order, its users get
    the set's storage-order tensor itself; from storage order, its input is
    the result in storage order. A set moves only where that leaves fewer
    conversions and transposes than before; one with an input that has no
    free route stays.

    Example:

    ```mlir
    // before
    %p = cudnn.convert_layout %g : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x64x56x56xf16>
    %r = tcp.clamp %p {min_float = 0.0 : f32} : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
    %c = cudnn.convert_layout %r : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
    // after
    %v = cudnn.layout_view %g : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x56x56x64xf16>
    %r = tcp.clamp %v {min_float = 0.0 : f32} : tensor<8x56x56x64xf16> -> tensor<8x56x56x64xf16>
    %c = cudnn.layout_view %r : tensor<8x56x56x64xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cudnn::CudnnDialect",
                           "::mlir::tcp::TcpDialect",
                           "::mlir::tensor::TensorDialect"];
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

def CudnnPackTemporariesPass : Pass<"cudnn-pack-temporaries",
                                     "func::FuncOp"> {
  let summary = "Gives a function's small device temporaries one allocation";
  let description = [{
    Every `memref.alloc` a compiled entry makes is a stream-ordered device
    allocation at run time, and every `memref.dealloc` a free: about a
    microsecond of host time each, on every call. Generated kernels keep
    several small temporaries (a batch norm's per-channel statistics and the
    partial states of split reductions: seven per training batch norm). This
    pass, run after deallocations are explicit, replaces the small ones of a
    single-block function with `memref.view`s into one allocation made at
    the function's start and freed before it returns.

    A temporary is packed when its shape is static with the identity layout,
    it holds at most `max-bytes` bytes, it is not returned, and its only
    deallocations are `memref.dealloc`s in the function's block. Views start
    at multiples of 256 bytes (the alignment vector accesses and cuDNN
    expect). Packed temporaries live for the whole call, so the allocation
    is capped at `max-total-bytes`; large activations keep their own
    allocations, which the runtime's pool reuses across layers.

    Example:

    ```mlir
    // before
    %a = memref.alloc() : memref<64xf32>
    %b = memref.alloc() : memref<9x64xi64>
    ...
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %b : memref<9x64xi64>
    // after
    %arena = memref.alloc() {alignment = 256 : i64} : memref<4864xi8>
    %a = memref.view %arena[%c0][] : memref<4864xi8> to memref<64xf32>
    %b = memref.view %arena[%c256][] : memref<4864xi8> to memref<9x64xi64>
    ...
    memref.dealloc %arena : memref<4864xi8>
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"4 << 20",
           "Largest temporary (bytes) that is packed">,
    Option<"maxTotalBytes", "max-total-bytes", "int64_t",
           /*default=*/"64 << 20",
           "Largest allocation (bytes) the packed temporaries share">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def CudnnPackRnnWeightsOncePass : Pass<"cudnn-pack-rnn-weights-once",
                                        "func::FuncOp"> {
  let summary = "Lets the runtime keep an RNN's weight space across calls";
  let description = [{
    A bufferized RNN packs PyTorch's parameters into a weight space the
    function allocates: one copy per parameter on every call, although the
    parameters rarely change between calls. This pass, run after
    deallocations are explicit, replaces such a call-local weight space with
    `cudnn.rnn_weight_space`, a buffer the runtime keeps per call site,
    thread and stream and repacks only when the caller's parameter version
    or the parameter pointers change (`cmrtSetParameterVersion`; without a
    version it packs every call, as before).

    A weight space is rewritten when it is a `memref.alloc` written only by
    its `cudnn.rnn_execute pack_weights`, read only as the `weights` of
    forward and backward-data calls after it in the same block, and
    otherwise only freed by `memref.dealloc`: a weight space that is
    returned, copied, viewed or read by anything else keeps its allocation.
    With `report`, every weight space gets a remark: taken over, or why
    not.

    Example:

    ```mlir
    // before
    %w = memref.alloc() : memref<6144xf32>
    cudnn.rnn_execute %h pack_weights #cudnn.rnn_config<...>
        weights(%w : memref<6144xf32>) params(%w_ih, %w_hh : ...)
    cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<...> ...
        weights(%w : memref<6144xf32>)
    memref.dealloc %w : memref<6144xf32>
    // after
    %w = cudnn.rnn_weight_space %h config = #cudnn.rnn_config<...>
        params(%w_ih, %w_hh : ...) : memref<6144xf32>
    cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<...> ...
        weights(%w : memref<6144xf32>)
    ```
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Remark on every RNN weight space: kept by the runtime, or why "
           "it is packed on every call">,
  ];
}

#endif // CUDNN_MLIR_CUDNN_TRANSFORMS_PASSES
