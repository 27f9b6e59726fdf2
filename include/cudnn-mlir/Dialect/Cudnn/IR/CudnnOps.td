//===- CudnnOps.td - cudnn dialect ops ---------------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_OPS
#define CUDNN_MLIR_CUDNN_OPS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnBase.td"
include "cudnn-mlir/Dialect/Cudnn/IR/CudnnTypes.td"
include "mlir/IR/BuiltinAttributes.td"

//===----------------------------------------------------------------------===//
// Handle and graph structure
//===----------------------------------------------------------------------===//

def Cudnn_GetCurrentHandleOp : Cudnn_Op<"get_current_handle"> {
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
    IsolatedFromAbove, SingleBlockImplicitTerminator<"BuildGraphOp">]> {
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
  let results = (outs Variadic<AnyRankedTensor>:$outs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $handle $ins attr-dict-with-keyword $body `:` type($ins) `->` type($outs)
  }];
  let hasVerifier = 1;
}

def Cudnn_BuildGraphOp : Cudnn_Op<"build_graph", [Pure, Terminator,
    HasParent<"BuildAndExecGraphOp">]> {
  let summary = "Ends a cuDNN graph, naming its output tensors";
  let description = [{
    Terminates `cudnn.build_and_exec_graph`. Its operands are the graph's
    non-virtual outputs, in the order of the enclosing op's results.

    Example:

    ```mlir
    cudnn.build_graph(%y) : !cudnn.tensor_desc<8xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins Variadic<Cudnn_TensorDescType>:$outputs);
  let builders = [OpBuilder<(ins), [{ }]>];
  let assemblyFormat = "`(` $outputs `)` attr-dict `:` qualified(type($outputs))";
}

//===----------------------------------------------------------------------===//
// Graph operations
//===----------------------------------------------------------------------===//

def Cudnn_PointwiseReluOp : Cudnn_Op<"pointwise_relu", [Pure]> {
  let summary = "Pointwise ReLU with optional clips (CUDNN_POINTWISE_RELU_FWD)";
  let description = [{
    `y = min(max(x, lower_clip), upper_clip)`, computed in `type`. One
    CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR with mode
    CUDNN_POINTWISE_RELU_FWD; the clips set CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP
    / _UPPER_CLIP.

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
    OptionalAttr<F32Attr>:$upper_clip);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `)` `type` `=` $type (`lower_clip` `=` $lower_clip^)?
    (`upper_clip` `=` $upper_clip^)? attr-dict `:` qualified(type($x)) `->` qualified(type($y))
  }];
}

def Cudnn_ConvolutionOp : Cudnn_Op<"convolution", [Pure]> {
  let summary = "Convolution forward (CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)";
  let description = [{
    `y = alpha * conv(x, w) + beta * y`, with x as N x C x spatial..., w as
    K x C/groups x window..., computed in `type`. The attributes fill a
    CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR: `spatial_dim_count` spatial
    dimensions, and one `spatial_stride`, `pre_padding`, `post_padding` and
    `dilation` value per spatial dimension.

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
  let arguments = (ins
    Cudnn_TensorDescType:$x,
    Cudnn_TensorDescType:$w,
    TypeAttr:$type,
    F32Attr:$alpha,
    F32Attr:$beta,
    I64Attr:$spatial_dim_count,
    DenseI64ArrayAttr:$spatial_stride,
    DenseI64ArrayAttr:$pre_padding,
    DenseI64ArrayAttr:$post_padding,
    DenseI64ArrayAttr:$dilation);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `,` $w `)` `type` `=` $type `alpha` `=` $alpha `beta` `=` $beta
    `spatial_dim_count` `=` $spatial_dim_count
    `spatial_stride` `=` $spatial_stride `pre_padding` `=` $pre_padding
    `post_padding` `=` $post_padding `dilation` `=` $dilation
    attr-dict `:` qualified(type($x)) `,` qualified(type($w)) `->` qualified(type($y))
  }];
  let hasVerifier = 1;
}

#endif // CUDNN_MLIR_CUDNN_OPS
