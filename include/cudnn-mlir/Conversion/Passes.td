//===- Passes.td - conversion passes of cudnn-mlir ---------*- tablegen -*-===//

#ifndef CUDNN_MLIR_CONVERSION_PASSES
#define CUDNN_MLIR_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTcpToCudnnPass : Pass<"convert-tcp-to-cudnn", "func::FuncOp"> {
  let summary = "Lowers cuDNN-bound tcp.isolated_group ops to cuDNN graphs";
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
    constants of ones and zeros). Group operands, and tensor constants of the
    body, become block arguments described by packed `!cudnn.tensor_desc`s
    with the promised `alignment`; the yielded values become the graph's
    outputs. Everything outside `group_type = "cudnn"` groups is left as it
    is. A group holding an op with no cuDNN translation is an error naming
    that op, and the pass fails.

    Example (the seed's stage 2 to stage 3):

    ```mlir
    // before
    %0 = tcp.isolated_group %x, %w attributes {group_type = "cudnn"} {
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
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Byte alignment promised for every graph tensor's data pointer "
           "(the runtime's buffers are 256-byte aligned)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cudnn::CudnnDialect",
                           "::mlir::tcp::TcpDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // CUDNN_MLIR_CONVERSION_PASSES
