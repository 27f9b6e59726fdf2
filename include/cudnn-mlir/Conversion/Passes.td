//===- Passes.td - conversion passes of cudnn-mlir ---------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CONVERSION_PASSES
#define CUDNN_MLIR_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTcpToCudnnPass : Pass<"convert-tcp-to-cudnn", "func::FuncOp"> {
  let summary = "Lowers cuDNN-bound tcp.isolated_group ops to cuDNN graphs, and PyTorch RNN custom ops to cuDNN RNN ops";
  let description = [{
    Rewrites each `tcp.isolated_group {group_type = "cudnn"}` into a
    `cudnn.build_and_exec_graph` on `cudnn.get_current_handle`, translating
    the body one op for one: `tcp.conv2d` to `cudnn.convolution`
    (spatial_dim_count = 2, pre/post padding from the tcp pad), `tcp.clamp`
    to `cudnn.pointwise_relu` with clips, elementwise tcp ops to the matching
    pointwise modes, `tcp.matmul` to `cudnn.matmul`, a `tcp.broadcast` that
    feeds a pointwise op to cuDNN's own broadcasting (the smaller tensor's
    descriptor), `tcp.reduce_*` to `cudnn.reduction` (reduced dims kept as 1;
    a `tensor.collapse_shape` after the graph drops them when tcp does), and
    inference `tcp.batch_norm` / `tcp.layer_norm` to `cudnn.norm_forward`
    (their parameters reshaped to x's rank by `tensor.expand_shape` outside
    the graph; batch norm's inverse deviation is computed in the graph from
    the variance and an epsilon constant; absent layer-norm parameters become
    constants of ones and zeros). `tcp.batch_norm_training` becomes
    `cudnn.norm_forward` in the training phase with the running statistics
    and momentum (its five results), `tcp.batch_norm_backward` (training
    form) `cudnn.norm_backward`; their [C] tensors are [1, C, 1, ...]
    descriptors, x of rank 2 or 3 is padded with 1s to rank 4 (a reshape on
    each side of the graph), and results tcp drops are still written (cuDNN
    writes every result of a norm). Group operands, and tensor constants of the
    body, become block arguments described by packed `!cudnn.tensor_desc`s
    with the promised `alignment`; the yielded values become the graph's
    outputs. A group without `group_type` (the seed's stage 2, or IR
    written by hand) is a cuDNN group too when the fusion support table
    takes it as `tcp-fuse-for-cudnn` would: every op but constants has a
    row whose checks pass under the policy of the `target-sm`, `fuse-fp32`,
    `allow-tf32-matmul` and `batch-norm` options (those of `tcp-fuse-for-cudnn`,
    which the pipelines set alike), and exactly one op is a conv, matmul,
    norm or pool for the graph to be built around; otherwise the first op
    that fails is an error with the table's reason ("expects an op the
    cuDNN support table accepts ..., but got 'tcp.round': not an op cuDNN
    graphs run"). Groups with another `group_type` ("codegen") and
    everything outside groups are left as they are. A group holding an op
    with no cuDNN translation is an error naming that op, and the pass
    fails.

    With `split-fallback` (the default), a group that has a split form (an
    op cuDNN runs alone, conv, matmul, norm or pooling, beside ops it does
    not: pointwise ops, reductions, broadcasts) gets it beside the fused
    graph: the fused graph `tries i1`, and an `scf.if` on its `ran` result
    yields its results or else runs the split form, the group's ops cloned
    with each conv/matmul/norm/pooling in a cuDNN graph of its own and the
    rest left as tcp ops (generated kernels later), written into the fused
    graph's result tensors (`bufferization.materialize_in_destination`, so
    both branches share their buffers). The runtime runs the fused graph when
    cuDNN has an engine for it on the device and the split form otherwise,
    decided once per device. For the example below (the seed's ReLU before a
    conv) the split form is the ReLU as `tcp.clamp` and the conv's own graph.

    PyTorch's RNNs, `tcp.custom_op("torch.aten.lstm")` (`gru`, `rnn_tanh`,
    `rnn_relu`) in the form of the aten `.input` overloads, become
    `cudnn.rnn_pack_weights` of the flat parameters and one
    `cudnn.rnn_forward` (docs/rnn.md): the config from the attributes and
    the shapes, layout `batch_major_unpacked` for `batch_first`, the training
    phase only for `train` with dropout, an optional trailing `lengths`
    operand (padded sequences) as i32 `seq_lengths`, unbatched inputs as a
    batch of 1. A malformed RNN op is one error naming it; other custom ops
    are left alone.

    Example (the seed's stage 2 to stage 3; the seed's group has no
    `group_type`, and the table takes a clamp before a conv):

    ```mlir
    // before
    %0 = tcp.isolated_group %x, %w {
    ^bb0(%a: tensor<1x64x56x56xf32>, %b: tensor<64x64x3x3xf32>):
      %1 = tcp.clamp %a {min_float = 0.0 : f32} : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
      %2 = tcp.conv2d %1, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
          : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
      tcp.yield %2 : tensor<1x64x56x56xf32>
    } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
    // after
    %h = cudnn.get_current_handle !cudnn.handle
    %0 = cudnn.build_and_exec_graph %h %x, %w {
    ^bb0(%a: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>,
         %b: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>):
      %1 = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.000000e+00 : ...
      %2 = cudnn.convolution(%1, %b) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00
          spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1]
          post_padding = [1, 1] dilation = [1, 1] : ...
      cudnn.build_graph(%2) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
    ```

    Example (a GRU):

    ```mlir
    // before
    %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %w_ih, %w_hh
        {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64,
         train = false, bidirectional = false, batch_first = false}
        : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
        -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
    // after
    %h = cudnn.get_current_handle !cudnn.handle
    %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru,
        input_size = 16, hidden_size = 8, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = no_bias, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32> params(%w_ih, %w_hh)
        : !cudnn.handle, tensor<24x16xf32>, tensor<24x8xf32> -> tensor<576xf32>
    %y, %hy = cudnn.rnn_forward %h config = #cudnn.rnn_config<...>
        phase = inference x = %x hx = %hx weights = %w
        : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<576xf32>
        -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Byte alignment promised for every graph tensor's data pointer "
           "(the runtime's buffers are 256-byte aligned)">,
    Option<"splitFallback", "split-fallback", "bool", /*default=*/"true",
           "Beside each fused graph that has one, compile its split form "
           "(anchors alone in cuDNN, the rest generated) and run it when "
           "cuDNN has no engine for the fused graph">,
    // The fusion policy a group without group_type is judged by: the
    // options of tcp-fuse-for-cudnn, which the pipelines set alike.
    Option<"targetSm", "target-sm", "unsigned", /*default=*/"90",
           "Compute capability the graphs are for, as for tcp-fuse-for-cudnn "
           "(judges groups without group_type)">,
    Option<"fuseFp32", "fuse-fp32", "bool", /*default=*/"true",
           "As for tcp-fuse-for-cudnn: fp32 anchors may be graphs (judges "
           "groups without group_type)">,
    Option<"allowTf32Matmul", "allow-tf32-matmul", "bool", /*default=*/"false",
           "As for tcp-fuse-for-cudnn: fp32 matmuls may be graphs, on TF32 "
           "(judges groups without group_type)">,
    Option<"batchNorm", "batch-norm", "std::string", /*default=*/"\"auto\"",
           "As for tcp-fuse-for-cudnn: which batch norms may be graphs "
           "(judges groups without group_type)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cudnn::CudnnDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::tcp::TcpDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertTcpToCublasPass : Pass<"convert-tcp-to-cublas", "func::FuncOp"> {
  let summary = "Runs the fp32 matmuls no cuDNN graph took on cuBLAS";
  let description = [{
    Rewrites every fp32 `tcp.matmul` / `tcp.batch_matmul` outside cuDNN
    groups (an exact fp32 matmul, which `tcp-fuse-for-cudnn` keeps out of
    graphs unless `allow-tf32-matmul`, or one `fuse-fp32=false` left out)
    into `cudnn.gemm`: one cublasGemmStridedBatchedEx in exact fp32 at run
    time, as PyTorch eager runs it, instead of a naive generated kernel. An
    operand that is a `tcp.transpose` swapping its last two dims is read
    through cuBLAS's transpose flag instead (`transpose_a`/`transpose_b`);
    any other transpose stays a copy (a generated transpose kernel). f64
    matmuls, and matmuls with dynamic shapes, stay for the generated-kernel
    road.

    With `report`, each function where a convolution or a matmul is still
    left for a naive generated kernel gets one warning, one line per op kind
    and reason with its count: a last resort, slow on large shapes.

    Example:

    ```mlir
    // before
    %t = tcp.transpose %w {permutation = array<i64: 1, 0>} : tensor<8x32xf32> -> tensor<32x8xf32>
    %0 = tcp.matmul %a, %t : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
    // after
    %h = cudnn.get_current_handle !cudnn.handle
    %0 = cudnn.gemm %h(%a, %w) {transpose_b} : tensor<16x32xf32>, tensor<8x32xf32> -> tensor<16x8xf32>
    ```
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Warn, per function, about every convolution and matmul left for "
           "a naive generated kernel, grouped by reason">,
  ];
  let dependentDialects = ["::mlir::cudnn::CudnnDialect"];
}

def ConvertCudnnToLLVMPass : Pass<"convert-cudnn-to-llvm", "ModuleOp"> {
  let summary = "Lowers a bufferized cuDNN module to LLVM code that calls the runtime";
  let description = [{
    Takes a module after `cudnn-bufferize`, `buffer-results-to-out-params`
    and deallocation (see `cudnn-to-llvm-pipeline`) and produces the LLVM
    dialect:

    - each `cudnn.execute_graph` becomes module constants (its graph
      description, in the runtime's format; the UIDs its buffers bind to; a
      plan slot) and one `cmrtInvocationGraph` call, which builds and plans
      the graph on its first use per device and afterwards only executes it;
    - `cudnn.get_current_handle` becomes `cmrtInvocationCurrent()`, the
      invocation (stream, device, sticky status) of the running entry;
    - `memref.alloc` / `dealloc` become pooled, stream-ordered device memory
      (`cmrtInvocationAlloc` / `Free`), `memref.get_global` the device copy of
      the constant (uploaded once per device), `memref.copy` a device memcpy;
      one-element constants that graphs read are passed by value instead;
    - every public function `@f` is exported as
      `int32_t cmrt_entry_f(void *stream, void *const *buffers)`, and the
      global `cmrt_module_manifest` describes each entry's buffers
      (docs/abi.md).

    Generated kernels arrive as `gpu.binary` (see the pipeline);
    `gpu.launch_func` is lowered by upstream's gpu-to-llvm patterns to the
    mgpu* calls the runtime implements, which inside an entry run on the
    invocation's stream with no host synchronisation. Host code that would
    read or write device buffers element by element (`memref.load`, ...) is
    an error naming the op. Runtime functions are declared from the
    runtime's one list of entry points.

    Example:

    ```mlir
    // before
    func.func @f(%x: memref<8xf32>, %y: memref<8xf32> {bufferize.result}) {
      %h = cudnn.get_current_handle !cudnn.handle
      cudnn.execute_graph %h ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) { ... }
      return
    }
    // after (abridged)
    llvm.mlir.global internal constant @__cmrt_graph0_words(dense<[...]> : tensor<49xi64>) : !llvm.array<49 x i64>
    llvm.func @f(...) {
      %inv = llvm.call @cmrtInvocationCurrent() : () -> !llvm.ptr
      ...
      llvm.call @cmrtInvocationGraph(%inv, %slot, %words, %c49, %options, %uids, %ptrs, %c2, %where) : ...
    }
    llvm.func @cmrt_entry_f(%stream: !llvm.ptr, %buffers: !llvm.ptr) -> i32 { ... }
    llvm.mlir.global external constant @cmrt_module_manifest("cudnn-mlir-module 1\0Aentry f\0A...")
    ```
  }];
  let options = [
    Option<"allowTf32Conv", "allow-tf32-conv", "bool", /*default=*/"false",
           "fp32 convolutions (fprop, dgrad, wgrad) may compute in TF32; off, "
           "a graph with one is built only with engines that keep fp32 exact "
           "(CMRT_GRAPH_EXACT_FP32)">,
    Option<"allowTf32Matmul", "allow-tf32-matmul", "bool", /*default=*/"false",
           "fp32 matmuls may compute in TF32; off, a graph with one gets "
           "CMRT_GRAPH_EXACT_FP32. fp16/bf16 graphs always use tensor cores">,
    Option<"deterministic", "deterministic", "bool", /*default=*/"false",
           "Only deterministic engines (CMRT_GRAPH_DETERMINISTIC)">,
    Option<"autotune", "autotune", "bool", /*default=*/"false",
           "Time every candidate plan on first use and keep the fastest "
           "(CMRT_GRAPH_AUTOTUNE)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Remark once per reason the runtime's fusion-by-cost rules will "
           "run graphs with a split form split, with their count">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
}


def ConvertTcpToLinalgPass : Pass<"convert-tcp-to-linalg", "func::FuncOp"> {
  let summary = "Lowers the tcp ops that no cuDNN graph took to linalg on tensors";
  let description = [{
    The general codegen road: every tcp op left outside a cuDNN graph (after
    `tcp-to-cudnn-pipeline`) that has a generic GPU path becomes linalg on
    tensors, with PyTorch's semantics. Each result is written into a
    `tensor.empty` (dynamic sizes from `tensor.dim` or the op's size
    operands):

    - elementwise ops (unary, binary, clamp, cast) become one
      `linalg.generic` each, all iterators parallel, identity maps;
    - `tcp.broadcast` becomes a `linalg.generic` whose input map sends the
      broadcast axes to the constant 0, so that elementwise fusion folds it
      into its consumers' indexing maps;
    - `tcp.transpose` is a `linalg.generic` with a permuted input map;
    - `tcp.reduce_{sum,mean,max,min}` are `linalg.generic` reductions
      (reduction iterators on `axes`; the output map drops the reduced dims,
      or maps them to the constant 0 with `keep_dims`) into a
      `linalg.fill`ed init holding the neutral value (0, -inf/+inf, or the
      signed integer extremes); mean divides by the element count in a
      parallel epilogue generic;
    - `tcp.slice`, `tcp.concat`, `tcp.gather` and `tcp.gather_nd` are
      all-parallel generics over the result that read their sources with
      `tensor.extract` at indices computed from `linalg.index` (concat reads
      every input at a clamped, in-bounds index and picks with
      `arith.select`);
    - `tcp.max_pool2d` / `tcp.avg_pool2d` are all-parallel generics over the
      output whose body walks the window with `scf.for`, reading clamped
      indices and replacing taps outside the input by -inf / 0 with
      `arith.select`; the average divides by torch's divisor (the window
      clipped to the padded input with `count_include_pad`, else the taps
      inside the input), `ceil_mode` windows included. Pooling needs static
      H and W;
    - `tcp.matmul` / `tcp.batch_matmul` are one `linalg.generic` over
      (batch..., k, m, n) with a reduction iterator on k (outside the
      innermost loop, so code generation maps it as a column reduction) into
      a zero `linalg.fill`;
    - `tcp.conv2d` is an all-parallel generic over the output (n, k, oh, ow)
      whose body loops with `scf.for` over kh, kw and the group's input
      channels, reading input and weight with `tensor.extract` (padding: a
      clamped index and `arith.select` to 0; stride, dilation and groups as
      `torch.nn.functional.conv2d`). It needs static shapes but for N;
    - `tcp.layer_norm` / `tcp.layer_norm_training` are two reductions over
      the trailing `normalized_rank` dims (the sum, then the sum of
      `(x - mean)^2`: two passes) and a parallel generic computing
      `(x - mean) * rsqrt(var + epsilon) * scale + bias` that reads the
      per-row sums through maps without the trailing loops (one row-reduction
      kernel after codegen); the training form adds per-row generics for
      `mean` and `rstd` in their result type;
    - `tcp.const` becomes `arith.constant`.

    Element types: f16 and bf16 arithmetic is done in f32 and rounded once
    per tcp op (as PyTorch's kernels do); f16/bf16 sums, means, average
    pools, matmuls, convolutions and layer-norm statistics accumulate in
    f32, and max/min stay exact in the element type.
    Clamp bounds are built in the type the clamp computes in (f32 for
    f16/bf16 tensors, the element type otherwise; upstream's lowering builds
    f32 bounds for f16 tensors), and integer bounds in the integer element
    type, saturated to its range. Integer ops use the signedness the op
    states (`rounding_mode` of divsi/divui, the signedness attributes of
    cast; i1 converts as a bool).

    Ops inside a `group_type = "cudnn"` group are left for
    `convert-tcp-to-cudnn`. Outside one, conv2d, matmul, batch_matmul and
    the layer norms (those `tcp-fuse-for-cudnn` did not group: f64, fp32
    anchors with `fuse-fp32=false`, a layer norm cuDNN's graph does not
    take) are lowered as above; the batch norms and custom ops are left
    alone, and a later pass reports them.

    Example:

    ```mlir
    // before
    %1 = tcp.add %a, %b : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
    // after
    %0 = tensor.empty() : tensor<8xf16>
    %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%a, %b : tensor<8xf16>, tensor<8xf16>) outs(%0 : tensor<8xf16>) {
    ^bb0(%x: f16, %y: f16, %out: f16):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %s = arith.addf %xf, %yf : f32
      %r = arith.truncf %s : f32 to f16
      linalg.yield %r : f16
    } -> tensor<8xf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertTcpBatchNormToLinalgPass
    : Pass<"convert-tcp-batch-norm-to-linalg", "func::FuncOp"> {
  let summary = "Lowers the batch norms no cuDNN graph took to linalg for generated kernels";
  let description = [{
    Rewrites `tcp.batch_norm` and `tcp.batch_norm_training` left outside
    cuDNN graphs (`tcp-fuse-for-cudnn`'s `batch-norm` policy decides which)
    into linalg on tensors that `codegen-map-to-gpu` maps to kernels:

    - inference: one elementwise generic,
      `y = (x - mean) * rsqrt(var + eps) * scale + bias`, computed in f32;
    - training: the per-channel statistics as one reduction into Welford
      states (64-bit count, mean, M2 in f32, accumulated in f32 for f16 and
      bf16 inputs), marked `codegen.combiner = "welford"` so that partial
      states are merged with Chan's formula (never a sum of squares); a
      per-channel generic for `saved_mean`, `saved_invstd = rsqrt(biased
      var + eps)` and the running statistics (momentum; the running
      variance from the unbiased variance); and the normalisation, one
      elementwise generic in f32 (a following ReLU fuses into it).

    A training batch norm with one value per channel (N x spatial size = 1)
    is an error: its unbiased variance is undefined.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // CUDNN_MLIR_CONVERSION_PASSES
