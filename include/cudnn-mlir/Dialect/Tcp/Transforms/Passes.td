//===- Passes.td - tcp transformation passes ---------------*- tablegen -*-===//

#ifndef CUDNN_MLIR_TCP_TRANSFORMS_PASSES
#define CUDNN_MLIR_TCP_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TcpFuseForCudnnPass : Pass<"tcp-fuse-for-cudnn", "func::FuncOp"> {
  let summary = "Groups tcp ops into the fusions cuDNN 9's graph API can run";
  let description = [{
    Wraps each set of tcp ops that one cuDNN graph can run in a
    `tcp.group {group_type = "cudnn"}`, following the support table in
    `lib/Dialect/Tcp/Transforms/CudnnSupportTable.cpp` (documented in
    docs/fusion.md): a prologue of pointwise ops, one anchor (conv2d or
    matmul), and an epilogue of pointwise ops with at most one reduction;
    normalisations form their own graphs. A group has at most `max-ops` ops.
    First, with `fold-batch-norm`, an inference `tcp.batch_norm` after a
    `tcp.conv2d` is folded: into the conv's weight and a bias when its
    parameters (and the weight) are constants, otherwise into a scale+bias
    epilogue (`conv * s + (bias - mean * s)`, `s = scale / sqrt(var + eps)`,
    computed from the C-element parameters by tcp ops outside the graph).
    The `batch-norm` option decides where the other batch norms run; with
    `cudnn`, each training and backward one is a norm graph of its own, and
    one cuDNN's batch norm cannot take (an eval-mode backward, element types
    other than f16/bf16/f32 x with f32 statistics, one value per channel in
    training) is an error.
    Then an elementwise op whose tensor operands are all
    `tensor.expand_shape`s of one shape by one reassociation moves before
    the reshape (a linear's GELU written on the (N, H, W, C) view of its 2-D
    matmul then joins the matmul's epilogue).
    Values used after the group become extra results. Ops left out stay as
    they are; with `report`, each reason gets one remark, on the first op
    left out for it, with how many ops share it.

    Example:

    ```mlir
    // before
    %0 = tcp.clamp %x {min_float = 0.0 : f32} : tensor<1x64x56x56xf16> -> tensor<1x64x56x56xf16>
    %1 = tcp.conv2d %0, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x64x56x56xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x56x56xf16>
    // after
    %1 = tcp.group attributes {group_type = "cudnn"} {
      %0 = tcp.clamp %x {min_float = 0.0 : f32} : tensor<1x64x56x56xf16> -> tensor<1x64x56x56xf16>
      %2 = tcp.conv2d %0, %w {...} : tensor<1x64x56x56xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x56x56xf16>
      tcp.yield %2 : tensor<1x64x56x56xf16>
    } : tensor<1x64x56x56xf16>
    ```
  }];
  let options = [
    Option<"targetSm", "target-sm", "unsigned", /*default=*/"90",
           "Compute capability the graphs are for (80 = A100, 90 = H100/H200)">,
    Option<"fuseFp32", "fuse-fp32", "bool", /*default=*/"true",
           "Also group fp32 anchors (the runtime may split such graphs when no "
           "fused engine takes them)">,
    Option<"allowTf32Matmul", "allow-tf32-matmul", "bool", /*default=*/"false",
           "fp32 matmuls may compute in TF32 (PyTorch's "
           "torch.backends.cuda.matmul.allow_tf32); off, fp32 matmuls stay "
           "out of graphs, as cuDNN computes every one in TF32">,
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"50",
           "Most ops in one cuDNN graph">,
    Option<"prologues", "prologues", "bool", /*default=*/"true",
           "Pointwise ops before a conv or matmul (per-channel scale, bias, "
           "ReLU) may join its graph as a prologue; off, they run as "
           "generated kernels">,
    Option<"globalPool", "global-pool", "std::string", /*default=*/"\"codegen\"",
           "Where f16/bf16 global average pools (a mean over H and W with "
           "keep_dims) run: codegen (a whole-plane avg_pool2d becomes a mean, "
           "a generated reduction kernel) or cudnn (a mean becomes a "
           "whole-plane avg_pool2d, a cuDNN resample graph)">,
    Option<"patchConvAsMatmul", "patch-conv-as-matmul", "bool",
           /*default=*/"true",
           "f16/bf16 convs that cut an input of fewer than 8 channels into "
           "disjoint patches (stride equal to a window of at least 8x8 "
           "elements, no padding: ViT's patch embedding) run as a transpose "
           "and one matmul rather than a conv cuDNN pads to 8 channels">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Remark once per reason ops were left out of every group, with "
           "their count">,
    Option<"attentionMinKeys", "attention-min-keys", "int64_t",
           /*default=*/"64",
           "Attention chains with fewer keys stay unfused: cuDNN's flash "
           "attention pads them to its 64x128 tiles and is slower than the "
           "matmuls and a softmax (Swin-T, batch 32, 49 keys: its 12 layers "
           "took 1.55 ms fused, the model's kernels 0.35 ms more than "
           "unfused; cuDNN 9.14, H100)">,
    Option<"foldBatchNorm", "fold-batch-norm", "bool", /*default=*/"true",
           "Fold inference batch norms that follow a conv2d into it">,
    Option<"batchNormFold", "batch-norm-fold", "std::string",
           /*default=*/"\"scaled\"",
           "How a folded batch norm with run-time parameters becomes the "
           "conv's epilogue: scaled (x * s + shift, two ops, fastest) or "
           "centered ((x - mean) * s + bias, three ops; f16/bf16 as close "
           "to fp64 as PyTorch's batch norm: MobileNetV2 fp16 1.3x eager's "
           "error against 2.1x scaled, and 13% slower at batch 32, H100)">,
    Option<"batchNorm", "batch-norm", "std::string", /*default=*/"\"auto\"",
           "Where batch norms that are not folded into a conv run: auto "
           "(inference ones as generated kernels where no cuDNN engine runs "
           "them alone, sm_90 today; training and backward ones as generated "
           "kernels), codegen (generated kernels), cudnn (cuDNN norm graphs; "
           "a training or backward batch norm cuDNN cannot take is an "
           "error)">,
  ];
  let dependentDialects = ["::mlir::tcp::TcpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TcpIsolateGroupOpsPass : Pass<"tcp-isolate-group-ops", "func::FuncOp"> {
  let summary = "Turns tcp.group into tcp.isolated_group";
  let description = [{
    Makes every `tcp.group` isolated from above: each value the body captures
    from outside becomes an operand and a block argument, in the order of its
    first use in the body. Scalar constants (the `index` sizes of
    `tcp.broadcast`) are always cloned into the body, and tensor constants
    (`tcp.const`, `arith.constant`) with at most `max-inline-constant-elements`
    elements are too, so small scale/bias vectors stay visible to the
    conversion; larger ones, such as weights, stay operands. The group's
    attributes are kept.

    Example:

    ```mlir
    // before
    %0 = tcp.group attributes {group_type = "cudnn"} {
      %1 = tcp.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      tcp.yield %1 : tensor<4xf32>
    } : tensor<4xf32>
    // after
    %0 = tcp.isolated_group %a, %b attributes {group_type = "cudnn"} {
    ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
      %1 = tcp.add %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      tcp.yield %1 : tensor<4xf32>
    } : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let options = [
    Option<"maxInlineConstantElements", "max-inline-constant-elements",
           "int64_t", /*default=*/"64",
           "Constants with at most this many elements are cloned into the group">,
  ];
  let dependentDialects = ["::mlir::tcp::TcpDialect"];
}

#endif // CUDNN_MLIR_TCP_TRANSFORMS_PASSES
