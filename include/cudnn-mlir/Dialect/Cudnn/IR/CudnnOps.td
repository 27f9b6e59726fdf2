//===- CudnnOps.td - cudnn dialect ops ---------------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_OPS
#define CUDNN_MLIR_CUDNN_OPS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnBase.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnAttrs.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Handle and graph structure
//===----------------------------------------------------------------------===//

def Cudnn_GetCurrentHandleOp : Cudnn_Op<"get_current_handle", [Pure]> {
  let summary = "The cuDNN handle of the current device and thread";
  let description = [{
    Returns the runtime's `cudnnHandle_t` for the current CUDA device and the
    calling thread, bound to the caller's stream (cudnnCreate once per device
    and thread, cudnnSetStream per call).

    Example:

    ```mlir
    %h = cudnn.get_current_handle !cudnn.handle
    ```
  }];
  let results = (outs Cudnn_HandleType:$handle);
  let assemblyFormat = "attr-dict qualified(type($handle))";
}

def Cudnn_BuildAndExecGraphOp : Cudnn_Op<"build_and_exec_graph", [
    IsolatedFromAbove, AttrSizedResultSegments,
    SingleBlockImplicitTerminator<"BuildGraphOp">]> {
  let summary = "Builds (once per shape) and executes one cuDNN operation graph";
  let description = [{
    The body is one cuDNN operation graph (CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR).
    Each block argument is the tensor descriptor of the matching tensor
    operand; the operands of the terminating `cudnn.build_graph` are the
    graph's outputs and become, in order, this op's tensor results. Tensors
    produced in the body and not passed to `cudnn.build_graph` are virtual.
    At run time the graph is built, an execution plan is chosen and cached
    (engine heuristics, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR), and it is
    executed with cudnnBackendExecute on the handle's stream.

    With `tries i1`, the graph is one the compiler has a split form for
    (`convert-tcp-to-cudnn` makes both): when cuDNN has no engine for it on
    the device, it does not run, its tensor results are undefined, and the
    extra `ran` result is false, so that the `scf.if` after it runs the split
    form instead. The runtime decides once per device and reports the switch
    once.

    Example:

    ```mlir
    %1 = cudnn.build_and_exec_graph %h %0 {
    ^bb0(%a: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>):
      %r = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.000000e+00
          : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
          -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
      cudnn.build_graph(%r) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    } : tensor<8xf32> -> tensor<8xf32>
    ```
  }];
  let arguments = (ins Cudnn_HandleType:$handle, Variadic<AnyRankedTensor>:$ins);
  let results = (outs Variadic<AnyRankedTensor>:$outs, Optional<I1>:$ran);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $handle $ins attr-dict-with-keyword $body `:` type($ins) `->` type($outs)
    (`tries` type($ran)^)?
  }];
  let hasVerifier = 1;
}

// RegionBranchOpInterface: the body describes a graph and never runs as
// code, which buffer deallocation needs to know of an op with a region and a
// result (`ran`).
def Cudnn_ExecuteGraphOp : Cudnn_Op<"execute_graph", [
    IsolatedFromAbove, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<RegionBranchOpInterface, ["getSuccessorRegions"]>,
    SingleBlockImplicitTerminator<"BuildGraphOp">]> {
  let summary = "Executes one cuDNN operation graph on buffers";
  let description = [{
    The bufferized form of `cudnn.build_and_exec_graph`, made by one-shot
    bufferization: the same body (one block argument per `ins` buffer; the
    operands of `cudnn.build_graph` are the graph's outputs), but on memrefs
    in device memory, writing its outputs into the `outs` buffers instead of
    returning tensors. Each buffer's layout must be the strides of its
    descriptor. `convert-cudnn-to-llvm` turns it into a constant graph
    description and a `cmrtInvocationGraph` call that builds the plan on first
    use per device and then only executes (cudnnBackendExecute through
    cudnn-frontend) on the invocation's stream.

    With a `ran` result (`-> i1`, from `cudnn.build_and_exec_graph ... tries
    i1`), the call is `cmrtInvocationGraphTry`: it returns false, writing
    nothing, when cuDNN has no engine for the graph on the device.

    Example:

    ```mlir
    cudnn.execute_graph %h ins(%0 : memref<8xf32>) outs(%1 : memref<8xf32>) {
    ^bb0(%a: !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>):
      %r = cudnn.pointwise_relu(%a) type = f32 lower_clip = 0.000000e+00
          : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
          -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
      cudnn.build_graph(%r) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    }
    ```
  }];
  let arguments = (ins Cudnn_HandleType:$handle,
                       Variadic<AnyStridedMemRef>:$ins,
                       Variadic<AnyStridedMemRef>:$outs);
  let results = (outs Optional<I1>:$ran);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $handle (`ins` `(` $ins^ `:` type($ins) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict-with-keyword $body
    (`->` type($ran)^)?
  }];
  let hasVerifier = 1;
}

def Cudnn_BuildGraphOp : Cudnn_Op<"build_graph", [Pure, Terminator,
    ParentOneOf<["BuildAndExecGraphOp", "ExecuteGraphOp"]>]> {
  let summary = "Ends a cuDNN graph, naming its output tensors";
  let description = [{
    Terminates `cudnn.build_and_exec_graph` (or `cudnn.execute_graph`). Its
    operands are the graph's non-virtual outputs, in the order of the
    enclosing op's results (or `outs` buffers).

    Example:

    ```mlir
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins Variadic<Cudnn_TensorDescType>:$outputs);
  let builders = [OpBuilder<(ins), [{ }]>];
  let assemblyFormat = "`(` $outputs `)` attr-dict `:` qualified(type($outputs))";
}

def Cudnn_ConvertLayoutOp : Cudnn_Op<"convert_layout", [Pure]> {
  let summary = "Copies a tensor into another physical layout";
  let description = [{
    The same tensor (shape, element type, values) stored in another layout:
    from packed logical order to `#cudnn.channels_last` or back. Layout
    assignment inserts these only where a producer and a consumer disagree
    (function boundaries, ops outside cuDNN graphs); back-to-back conversions
    fold away. It bufferizes to a `memref.copy` between the two layouts,
    which runs as one cudnnTransformTensor on the stream.

    Example:

    ```mlir
    %1 = cudnn.convert_layout %0
        : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$in);
  let results = (outs AnyRankedTensor:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cudnn_LayoutViewOp : Cudnn_Op<"layout_view", [Pure]> {
  let summary = "Sees a channels-last tensor as the packed tensor of its bytes";
  let description = [{
    A `#cudnn.channels_last` tensor of shape (N, C, spatial...) stores its
    elements in the order (N, spatial..., C). This op names those same bytes
    as the packed tensor of that order, or goes back: no data moves, and it
    bufferizes to a `memref.reinterpret_cast` of the same buffer. Generated
    kernels work on packed tensors, so elementwise ops, broadcasts, concats
    and reductions between channels-last graphs run on the storage-order view
    (`cudnn-channels-last-kernels`) instead of behind a `cudnn.convert_layout`
    each way.

    Example:

    ```mlir
    %1 = cudnn.layout_view %0
        : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x56x56x64xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$in);
  let results = (outs AnyRankedTensor:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Graph operations
//===----------------------------------------------------------------------===//

/// cuDNN's pointwise broadcast rule: every tensor operand has the result's
/// rank and each of its dimensions equals the result's or is 1.
def Cudnn_PointwiseBroadcast : NativeOpTrait<"PointwiseBroadcast"> {
  let cppNamespace = "::mlir::OpTrait::cudnn";
}

def Cudnn_PointwiseReluOp : Cudnn_GraphOp<"pointwise_relu", [Pure,
    Cudnn_PointwiseBroadcast]> {
  let summary = "Pointwise ReLU with optional clips (CUDNN_POINTWISE_RELU_FWD)";
  let description = [{
    `y = min(max(x, lower_clip), upper_clip)`, computed in `type`; below
    `lower_clip` the slope is `lower_clip_slope` (leaky ReLU) when given. One
    CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR with mode
    CUDNN_POINTWISE_RELU_FWD; the attributes set
    CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP / _UPPER_CLIP / _LOWER_CLIP_SLOPE.
    y has x's rank; each x dimension equals y's or is 1.

    Example:

    ```mlir
    %y = cudnn.pointwise_relu(%x) type = f32 lower_clip = 0.000000e+00
        : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins
    Cudnn_TensorDescType:$x,
    TypeAttr:$type,
    OptionalAttr<F32Attr>:$lower_clip,
    OptionalAttr<F32Attr>:$upper_clip,
    OptionalAttr<F32Attr>:$lower_clip_slope);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `)` `type` `=` $type (`lower_clip` `=` $lower_clip^)?
    (`upper_clip` `=` $upper_clip^)? (`lower_clip_slope` `=` $lower_clip_slope^)?
    attr-dict `:` qualified(type($x)) `->` qualified(type($y))
  }];
}

/// The attributes shared by the three convolutions: they fill one
/// CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR. Groups are not an attribute: as in
/// cuDNN, the group count is the image channel count divided by the filter's
/// dim 1 (channels per group).
defvar Cudnn_ConvAttrs = (ins
    TypeAttr:$type,
    F32Attr:$alpha,
    F32Attr:$beta,
    I64Attr:$spatial_dim_count,
    DenseI64ArrayAttr:$spatial_stride,
    DenseI64ArrayAttr:$pre_padding,
    DenseI64ArrayAttr:$post_padding,
    DenseI64ArrayAttr:$dilation,
    OptionalAttr<Cudnn_ConvModeAttr>:$mode);

class Cudnn_ConvOpBase<string mnemonic, string lhs, string rhs, string res>
    : Cudnn_GraphOp<mnemonic, [Pure]> {
  let arguments = !con(!dag(ins, [Cudnn_TensorDescType, Cudnn_TensorDescType],
                            [lhs, rhs]), Cudnn_ConvAttrs);
  let results = !dag(outs, [Cudnn_TensorDescType], [res]);
  let assemblyFormat = "`(` $" # lhs # " `,` $" # rhs # " `)` "
      # "`type` `=` $type `alpha` `=` $alpha `beta` `=` $beta "
      # "`spatial_dim_count` `=` $spatial_dim_count "
      # "`spatial_stride` `=` $spatial_stride `pre_padding` `=` $pre_padding "
      # "`post_padding` `=` $post_padding `dilation` `=` $dilation "
      # "(`mode` `=` $mode^)? attr-dict"
      # " `:` qualified(type($" # lhs # ")) `,` "
      # "qualified(type($" # rhs # ")) `->` qualified(type($" # res # "))";
  let hasVerifier = 1;
  code extraConvDeclaration = [{
    /// The convolution mode; cross-correlation when `mode` is absent.
    ConvMode getConvMode() {
      return getMode().value_or(ConvMode::cross_correlation);
    }
  }];
  let extraClassDeclaration = extraConvDeclaration;
}

def Cudnn_ConvolutionOp : Cudnn_ConvOpBase<"convolution", "x", "w", "y"> {
  let summary = "Convolution forward (CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)";
  let description = [{
    `y = alpha * conv(x, w) + beta * y`, with x as N x C x spatial..., w as
    K x C/groups x window..., computed in `type`. The attributes fill a
    CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR: `spatial_dim_count` spatial
    dimensions, and one `spatial_stride`, `pre_padding`, `post_padding` and
    `dilation` value per spatial dimension; `mode` is cross_correlation
    (the default, what deep-learning frameworks call convolution) or
    convolution (flipped filter). The group count is C / w dim 1.

    Example:

    ```mlir
    %y = cudnn.convolution(%x, %w)
        type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1]
        dilation = [1, 1]
        : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    ```
  }];
}

def Cudnn_ConvolutionBackwardDataOp
    : Cudnn_ConvOpBase<"convolution_backward_data", "dy", "w", "dx"> {
  let summary = "Convolution data gradient (CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR)";
  let description = [{
    `dx = alpha * conv_bwd_data(dy, w) + beta * dx`: the gradient of a
    forward convolution of `dx`'s shape with `w` that produced `dy`'s shape
    (the transposed convolution). The attributes are those of the forward
    convolution and are verified with the same output-size formula:
    dy = [N, K, out(dx spatial)...], group count = dx channels / w dim 1.

    Example:

    ```mlir
    %dx = cudnn.convolution_backward_data(%dy, %w)
        type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2
        spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1]
        dilation = [1, 1] mode = convolution
        : !cudnn.tensor_desc<1x64x28x28xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<64x32x3x3xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<1x32x56x56xf32, alignment = 16, stride = []>
    ```
  }];
}

def Cudnn_ConvolutionBackwardFilterOp
    : Cudnn_ConvOpBase<"convolution_backward_filter", "x", "dy", "dw"> {
  let summary = "Convolution filter gradient (CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR)";
  let description = [{
    `dw = alpha * conv_bwd_filter(x, dy) + beta * dw`: the gradient of the
    filter of a forward convolution of `x` that produced `dy`. Verified with
    the forward formula: dy = [N, K, out(x spatial)...] where K and the
    window come from `dw`; group count = x channels / dw dim 1.

    Example:

    ```mlir
    %dw = cudnn.convolution_backward_filter(%x, %dy)
        type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2
        spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1]
        dilation = [1, 1]
        : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>
    ```
  }];
}

def Cudnn_MatmulOp : Cudnn_GraphOp<"matmul", [Pure]> {
  let summary = "Batched matrix product (CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR)";
  let description = [{
    `c[..., m, n] = sum_k a[..., m, k] * b[..., k, n]`, computed in `type`
    (CUDNN_ATTR_MATMUL_COMP_TYPE). a, b and c have the same rank (>= 2);
    each batch dimension of a and b equals c's or is 1 (broadcast).

    Example:

    ```mlir
    %c = cudnn.matmul(%a, %b) type = f32
        : !cudnn.tensor_desc<4x16x32xf16, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x32x8xf16, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<4x16x8xf16, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins Cudnn_TensorDescType:$a, Cudnn_TensorDescType:$b,
                       TypeAttr:$type);
  let results = (outs Cudnn_TensorDescType:$c);
  let assemblyFormat = [{
    `(` $a `,` $b `)` `type` `=` $type attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `->` qualified(type($c))
  }];
  let hasVerifier = 1;
}

def Cudnn_ReductionOp : Cudnn_GraphOp<"reduction", [Pure]> {
  let summary = "Reduction over broadcast dimensions (CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR)";
  let description = [{
    Reduces x with `mode` (CUDNN_ATTR_REDUCTION_OPERATOR) over every
    dimension where y has extent 1 and x does not, computed in `type`
    (CUDNN_ATTR_REDUCTION_COMP_TYPE). y has x's rank; each y dimension
    equals x's or is 1.

    Example:

    ```mlir
    %y = cudnn.reduction(%x) mode = amax type = f32
        : !cudnn.tensor_desc<8x64x32xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<8x1x1xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins Cudnn_TensorDescType:$x, Cudnn_ReductionModeAttr:$mode,
                       TypeAttr:$type);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `)` `mode` `=` $mode `type` `=` $type attr-dict `:`
    qualified(type($x)) `->` qualified(type($y))
  }];
  let hasVerifier = 1;
}

def Cudnn_ResampleOp : Cudnn_GraphOp<"resample", [Pure]> {
  let summary = "Pooling (CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR)";
  let description = [{
    Max or average pooling of x (N x C x spatial...) over a `window`, moved
    by `spatial_stride`, with `pre_padding` / `post_padding` (one value per
    spatial dimension, CUDNN_ATTR_RESAMPLE_*). Each output extent is
    floor((in + pre + post - window) / stride) + 1. `avg_include_padding`
    divides by the full window, `avg_exclude_padding` by the in-bounds part.

    Example:

    ```mlir
    %y = cudnn.resample(%x) mode = max type = f32 window = [3, 3]
        spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1]
        : !cudnn.tensor_desc<1x64x112x112xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins
    Cudnn_TensorDescType:$x,
    Cudnn_ResampleModeAttr:$mode,
    TypeAttr:$type,
    DenseI64ArrayAttr:$window,
    DenseI64ArrayAttr:$spatial_stride,
    DenseI64ArrayAttr:$pre_padding,
    DenseI64ArrayAttr:$post_padding);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `)` `mode` `=` $mode `type` `=` $type `window` `=` $window
    `spatial_stride` `=` $spatial_stride `pre_padding` `=` $pre_padding
    `post_padding` `=` $post_padding attr-dict `:` qualified(type($x)) `->`
    qualified(type($y))
  }];
  let hasVerifier = 1;
}

def Cudnn_SdpaOp : Cudnn_GraphOp<"sdpa", [Pure]> {
  let summary = "Scaled dot-product attention, inference (cudnn-frontend's SDPA node)";
  let description = [{
    `o = softmax(scale * q k^T + bias) v`, the softmax over k's sequence,
    computed in `type`, without the softmax statistics training needs. q is
    [B, H, S, D], k [B, Hk, Skv, D], v [B, Hk, Skv, Dv] and o
    [B, H, S, Dv], with H a multiple of Hk (grouped-query attention); the
    optional additive bias has each dim of [B, H, S, Skv] or 1. q, k, v and
    o are all f16 or all bf16 (the inputs cuDNN's fused attention engines
    take). cuDNN runs it on its flash-attention engines, which never write
    the S x Skv scores to memory.

    Example:

    ```mlir
    %o = cudnn.sdpa(%q, %k, %v) scale = 1.250000e-01 type = f32
        : !cudnn.tensor_desc<2x8x128x64xf16, alignment = 16, stride = []>,
          !cudnn.tensor_desc<2x8x128x64xf16, alignment = 16, stride = []>,
          !cudnn.tensor_desc<2x8x128x64xf16, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<2x8x128x64xf16, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins Cudnn_TensorDescType:$q, Cudnn_TensorDescType:$k,
                       Cudnn_TensorDescType:$v,
                       Optional<Cudnn_TensorDescType>:$bias,
                       F64Attr:$scale, TypeAttr:$type);
  let results = (outs Cudnn_TensorDescType:$o);
  let assemblyFormat = [{
    `(` $q `,` $k `,` $v `)` (`bias` `(` $bias^ `:` qualified(type($bias))
    `)`)? `scale` `=` $scale `type` `=` $type attr-dict `:`
    qualified(type($q)) `,` qualified(type($k)) `,` qualified(type($v)) `->`
    qualified(type($o))
  }];
  let hasVerifier = 1;
}

#endif // CUDNN_MLIR_CUDNN_OPS
