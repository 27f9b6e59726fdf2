//===- TcpExtensionOps.td - tcp ops cudnn-mlir adds --------*- tablegen -*-===//
//
// Upstream mlir-tcp has no convolution, matmul, normalisation, pooling,
// reduction or GELU ops. These are cudnn-mlir's extensions: tensors are NCHW
// (the PyTorch logical order); physical layouts are chosen later, in the
// cudnn dialect's tensor descriptors.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_TCP_EXTENSION_OPS
#define CUDNN_MLIR_TCP_EXTENSION_OPS

include "cudnn-mlir/Dialect/Tcp/IR/TcpBase.td"
include "cudnn-mlir/Dialect/Tcp/IR/TcpEnums.td"
include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.td"
include "mlir/IR/BuiltinAttributes.td"

// conv2d and conv3d differ only in their spatial rank, the transposed ones
// in their shape rule; verifyConvolution checks the forward ones,
// verifyTransposedConvolution the transposed ones.
class Tcp_ConvolutionOp<string mnemonic>
    : Tcp_Op<mnemonic, [Pure, AllElementTypesMatch<["input", "weight", "out"]>]> {
  let arguments = (ins
    Tcp_FloatTensor:$input,
    Tcp_FloatTensor:$weight,
    DenseI64ArrayAttr:$dilation,
    DenseI64ArrayAttr:$pad,
    DenseI64ArrayAttr:$stride,
    OptionalAttr<I64Attr>:$groups);
  let results = (outs Tcp_FloatTensor:$out);
  let assemblyFormat = [{
    $input `,` $weight attr-dict `:` type($input) `,` type($weight) `->` type($out)
  }];
  let extraClassDeclaration = [{
    /// The number of groups; 1 when the attribute is absent.
    int64_t getGroupCount() { return getGroups().value_or(1); }
    /// The number of spatial dimensions (2 for conv2d, 3 for conv3d).
    int64_t getSpatialDimCount() { return getStride().size(); }
  }];
  let hasVerifier = 1;
}

def Tcp_Conv2DOp : Tcp_ConvolutionOp<"conv2d"> {
  let summary = "2-D convolution (extension), NCHW input, OIHW weight";
  let description = [{
    Cross-correlates `input` (N x C x H x W) with `weight`
    (K x C/groups x R x S) and returns N x K x P x Q, where for each spatial
    dimension `out = floor((in + pad_lo + pad_hi - dilation*(k-1) - 1) /
    stride) + 1`. `pad` is `[top, bottom, left, right]`; `stride` and
    `dilation` are `[h, w]`. `groups` (default 1) divides both C and K.
    There is no bias operand: a bias is a separate broadcast add, which the
    fusion pass folds into the cuDNN graph.

    Example:

    ```mlir
    %1 = tcp.conv2d %0, %w
        {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
}

def Tcp_Conv3DOp : Tcp_ConvolutionOp<"conv3d"> {
  let summary = "3-D convolution (extension), NCDHW input, OIDHW weight";
  let description = [{
    Cross-correlates `input` (N x C x D x H x W) with `weight`
    (K x C/groups x T x R x S) and returns N x K x OD x P x Q, with the
    output-size rule of `tcp.conv2d` in each of the three spatial
    dimensions (video models' convolutions). `pad` is `[front, back, top,
    bottom, left, right]`; `stride` and `dilation` are `[d, h, w]`.
    `groups` (default 1) divides both C and K. No bias operand, as
    `tcp.conv2d`. Maps to a cuDNN convolution with three spatial
    dimensions.

    Example:

    ```mlir
    %1 = tcp.conv3d %0, %w
        {dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>}
        : tensor<1x64x8x56x56xf16>, tensor<64x64x3x3x3xf16> -> tensor<1x64x8x56x56xf16>
    ```
  }];
}

def Tcp_ConvTranspose2DOp : Tcp_ConvolutionOp<"conv_transpose2d"> {
  let summary = "2-D transposed convolution (extension), NCHW input, IOHW weight";
  let description = [{
    The gradient of `tcp.conv2d` with respect to its input, as
    `torch.nn.functional.conv_transpose2d` computes it: `input`
    (N x Cin x H x W) is scattered through `weight` (Cin x Cout/groups x
    R x S, PyTorch's ConvTranspose2d layout) into N x Cout x P x Q, where
    `P = (H - 1) * stride - pad_top - pad_bottom + dilation * (R - 1) + 1 +
    extra` with `0 <= extra < stride` (PyTorch's output_padding), and Q
    alike. A `tcp.conv2d` of the result with the same weight (read as
    K x C/groups x R x S), stride, pad and dilation gives the input's
    spatial size. `groups` (default 1) divides Cin. No bias operand, as
    `tcp.conv2d`. Maps to cuDNN's convolution data gradient
    (`cudnn.convolution_backward_data`).

    Example:

    ```mlir
    %1 = tcp.conv_transpose2d %0, %w
        {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
        : tensor<8x512x4x4xf16>, tensor<512x256x4x4xf16> -> tensor<8x256x8x8xf16>
    ```
  }];
}

def Tcp_ConvTranspose3DOp : Tcp_ConvolutionOp<"conv_transpose3d"> {
  let summary = "3-D transposed convolution (extension), NCDHW input, IODHW weight";
  let description = [{
    `tcp.conv_transpose2d` with three spatial dimensions (3-D U-Nets, video
    decoders): `input` N x Cin x D x H x W, `weight` Cin x Cout/groups x T x
    R x S, result N x Cout x OD x P x Q by the same size rule per dim. `pad`
    is `[front, back, top, bottom, left, right]`; `stride` and `dilation`
    are `[d, h, w]`. Maps to `cudnn.convolution_backward_data` with three
    spatial dimensions.

    Example:

    ```mlir
    %1 = tcp.conv_transpose3d %0, %w
        {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 2, 2, 2>}
        : tensor<1x64x4x8x8xf16>, tensor<64x32x2x2x2xf16> -> tensor<1x32x8x16x16xf16>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

// matmul and batch_matmul differ only in the rank they accept; one verifier
// (verifyContraction) checks both.
class Tcp_ContractionOp<string mnemonic>
    : Tcp_Op<mnemonic, [Pure, AllElementTypesMatch<["lhs", "rhs", "out"]>]> {
  let arguments = (ins Tcp_FloatTensor:$lhs, Tcp_FloatTensor:$rhs);
  let results = (outs Tcp_FloatTensor:$out);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($out)
  }];
  let hasVerifier = 1;
}

def Tcp_MatmulOp : Tcp_ContractionOp<"matmul"> {
  let summary = "2-D matrix multiplication (extension)";
  let description = [{
    Computes `out[m, n] = sum_k lhs[m, k] * rhs[k, n]` for a rank-2 `lhs`
    (M x K) and `rhs` (K x N). All three tensors have the same element type;
    the accumulation type is chosen at lowering. Maps to a cuDNN graph
    matmul operation (`CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR`) with a
    batch of 1.

    Example:

    ```mlir
    %2 = tcp.matmul %0, %1 : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
    ```
  }];
}

def Tcp_BatchMatmulOp : Tcp_ContractionOp<"batch_matmul"> {
  let summary = "Batched matrix multiplication (extension)";
  let description = [{
    Computes `out[b.., m, n] = sum_k lhs[b.., m, k] * rhs[b.., k, n]`. Both
    operands and the result have the same rank (at least 3), and the leading
    batch dimensions are equal: there is no implicit broadcasting (use
    `tcp.broadcast`). Maps to a cuDNN graph matmul operation
    (`CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR`).

    Example:

    ```mlir
    %2 = tcp.batch_matmul %0, %1 : tensor<2x4x8xf16>, tensor<2x8x16xf16> -> tensor<2x4x16xf16>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Batch normalisation
//===----------------------------------------------------------------------===//

def Tcp_BatchNormOp : Tcp_Op<"batch_norm", [Pure,
    AllTypesMatch<["x", "y"]>,
    AllTypesMatch<["scale", "bias", "running_mean", "running_var"]>]> {
  let summary = "Batch normalisation, inference form (extension)";
  let description = [{
    Computes `y = (x - running_mean) / sqrt(running_var + epsilon) * scale +
    bias`, with the per-channel parameters broadcast along dimension 1 of `x`
    (N x C x ...; rank >= 2). `scale`, `bias`, `running_mean` and
    `running_var` all have one type, a rank-1 tensor of C elements, written
    once; their element type may differ from `x`'s (e.g. f16 data, f32
    statistics). `epsilon >= 0`. Maps to cuDNN's batch-norm inference
    operation (`CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR` with
    `CUDNN_BATCH_NORM`, inference phase).

    The training form, which computes the batch statistics and updates the
    running ones, is the separate op `tcp.batch_norm_training`, since it has
    more results.

    Example:

    ```mlir
    %y = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64}
        : tensor<1x64x56x56xf32>, tensor<64xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins
    Tcp_FloatTensor:$x,
    Tcp_FloatTensor:$scale,
    Tcp_FloatTensor:$bias,
    Tcp_FloatTensor:$running_mean,
    Tcp_FloatTensor:$running_var,
    F64Attr:$epsilon);
  let results = (outs Tcp_FloatTensor:$y);
  let assemblyFormat = [{
    $x `,` $scale `,` $bias `,` $running_mean `,` $running_var attr-dict
    `:` type($x) `,` type($scale) `->` type($y)
  }];
  let hasVerifier = 1;
}

def Tcp_BatchNormTrainingOp : Tcp_Op<"batch_norm_training", [Pure,
    AllTypesMatch<["x", "y"]>,
    AllTypesMatch<["scale", "bias", "running_mean", "running_var",
                   "saved_mean", "saved_invstd", "new_running_mean",
                   "new_running_var"]>]> {
  let summary = "Batch normalisation, training form (extension)";
  let description = [{
    Normalises `x` (N x C x ...; rank >= 2) with the statistics of the batch:
    `saved_mean` is the mean of each channel over all dimensions but 1,
    `saved_invstd = 1 / sqrt(biased_var + epsilon)`, and
    `y = (x - saved_mean) * saved_invstd * scale + bias`. The running
    statistics are updated as PyTorch does:
    `new_running_mean = (1 - momentum) * running_mean + momentum * saved_mean`
    and `new_running_var = (1 - momentum) * running_var + momentum *
    unbiased_var`. `epsilon >= 0` and `momentum` is in [0, 1].

    All per-channel operands and results (`scale`, `bias`, `running_mean`,
    `running_var`, `saved_mean`, `saved_invstd`, `new_running_mean`,
    `new_running_var`) have one type, a rank-1 tensor of C elements, written
    once. `saved_mean` and `saved_invstd` are what `tcp.batch_norm_backward`
    takes. Maps to cuDNN's batch-norm training operation
    (`CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR` with
    `CUDNN_BATCH_NORM`, training phase).

    Example:

    ```mlir
    %y, %saved_mean, %saved_invstd, %new_mean, %new_var = tcp.batch_norm_training
        %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64}
        : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
    ```
  }];
  let arguments = (ins
    Tcp_FloatTensor:$x,
    Tcp_FloatTensor:$scale,
    Tcp_FloatTensor:$bias,
    Tcp_FloatTensor:$running_mean,
    Tcp_FloatTensor:$running_var,
    F64Attr:$epsilon,
    F64Attr:$momentum);
  let results = (outs
    Tcp_FloatTensor:$y,
    Tcp_FloatTensor:$saved_mean,
    Tcp_FloatTensor:$saved_invstd,
    Tcp_FloatTensor:$new_running_mean,
    Tcp_FloatTensor:$new_running_var);
  let assemblyFormat = [{
    $x `,` $scale `,` $bias `,` $running_mean `,` $running_var attr-dict
    `:` type($x) `,` type($scale) `->` type($y)
  }];
  let hasVerifier = 1;
}

def Tcp_BatchNormBackwardOp : Tcp_Op<"batch_norm_backward", [Pure,
    AllTypesMatch<["dy", "x", "dx"]>,
    AllTypesMatch<["scale", "saved_mean", "saved_invstd", "dscale", "dbias"]>]> {
  let summary = "Gradients of training-mode batch normalisation (extension)";
  let description = [{
    Given the gradient `dy` of `y = tcp.batch_norm_training(x, ...)` and the
    `saved_mean` and `saved_invstd` that op returned, computes the gradients
    `dx`, `dscale` and `dbias` (N x C x ...; rank >= 2). `dy`, `x` and `dx`
    have one type; `scale`, `saved_mean`, `saved_invstd`, `dscale` and
    `dbias` have one type, a rank-1 tensor of C elements. Maps to cuDNN's
    batch-norm backward operation
    (`CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR` with
    `CUDNN_BATCH_NORM`).

    With `training = false` it is the backward of the inference form
    (`tcp.batch_norm`, PyTorch's eval mode): `saved_mean` is then the running
    mean and `saved_invstd` is `1 / sqrt(running_var + epsilon)`, the
    statistics do not depend on `x`, and `dx = dy * saved_invstd * scale`.
    `dscale = sum(dy * (x - saved_mean)) * saved_invstd` and
    `dbias = sum(dy)` in both forms. cuDNN's norm backward has no inference
    form, so that one is always a generated kernel.

    Example:

    ```mlir
    %dx, %dscale, %dbias = tcp.batch_norm_backward %dy, %x, %scale, %saved_mean, %saved_invstd
        : tensor<8x64x28x28xf32>, tensor<64xf32> -> tensor<8x64x28x28xf32>
    ```
  }];
  let arguments = (ins
    Tcp_FloatTensor:$dy,
    Tcp_FloatTensor:$x,
    Tcp_FloatTensor:$scale,
    Tcp_FloatTensor:$saved_mean,
    Tcp_FloatTensor:$saved_invstd,
    DefaultValuedAttr<BoolAttr, "true">:$training);
  let results = (outs
    Tcp_FloatTensor:$dx,
    Tcp_FloatTensor:$dscale,
    Tcp_FloatTensor:$dbias);
  let assemblyFormat = [{
    $dy `,` $x `,` $scale `,` $saved_mean `,` $saved_invstd attr-dict
    `:` type($x) `,` type($scale) `->` type($dx)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Layer normalisation
//===----------------------------------------------------------------------===//

// The inference and training forms share operands, attributes and the
// verifier (verifyLayerNorm); the training form adds the statistics results.
class Tcp_LayerNormBase<string mnemonic, list<Trait> traits = []>
    : Tcp_Op<mnemonic, !listconcat(traits, [Pure, AttrSizedOperandSegments,
                                            AllTypesMatch<["x", "y"]>])> {
  let arguments = (ins
    Tcp_FloatTensor:$x,
    Optional<Tcp_FloatTensor>:$scale,
    Optional<Tcp_FloatTensor>:$bias,
    I64Attr:$normalized_rank,
    F64Attr:$epsilon);
  let hasVerifier = 1;
}

def Tcp_LayerNormOp : Tcp_LayerNormBase<"layer_norm"> {
  let summary = "Layer normalisation (extension)";
  let description = [{
    Normalises `x` over its trailing `normalized_rank` dimensions (the
    "normalized shape"; `1 <= normalized_rank <= rank(x)`):
    `y = (x - mean) / sqrt(var + epsilon) * scale + bias`, where mean and
    (biased) variance are taken over the normalized shape. `scale` and `bias`
    are optional and, when present, have exactly the normalized shape
    (PyTorch's `elementwise_affine`; either may be absent). `epsilon >= 0`.
    The form that also returns the statistics is `tcp.layer_norm_training`.
    Maps to cuDNN's layer-norm operation
    (`CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR` with
    `CUDNN_LAYER_NORM`, inference phase).

    Example:

    ```mlir
    %y = tcp.layer_norm %x scale(%g : tensor<16xf32>) bias(%b : tensor<16xf32>)
        {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64}
        : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    ```
  }];
  let results = (outs Tcp_FloatTensor:$y);
  let assemblyFormat = [{
    $x (`scale` `(` $scale^ `:` type($scale) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict
    `:` type($x) `->` type($y)
  }];
}

def Tcp_LayerNormTrainingOp : Tcp_LayerNormBase<"layer_norm_training", [
    AllTypesMatch<["mean", "rstd"]>]> {
  let summary = "Layer normalisation that also returns its statistics (extension)";
  let description = [{
    Computes what `tcp.layer_norm` computes and also returns, for the
    backward pass, `mean` and `rstd = 1 / sqrt(var + epsilon)`. As in
    PyTorch's `native_layer_norm`, these have the shape of `x` with the
    normalized dimensions set to 1, and one type (written once). Maps to
    cuDNN's layer-norm operation
    (`CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR` with
    `CUDNN_LAYER_NORM`, training phase).

    Example:

    ```mlir
    %y, %mean, %rstd = tcp.layer_norm_training %x scale(%g : tensor<8x16xf32>)
        {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
        : tensor<2x8x16xf32> -> tensor<2x8x16xf32>, tensor<2x1x1xf32>
    ```
  }];
  let results = (outs
    Tcp_FloatTensor:$y,
    Tcp_FloatTensor:$mean,
    Tcp_FloatTensor:$rstd);
  let assemblyFormat = [{
    $x (`scale` `(` $scale^ `:` type($scale) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict
    `:` type($x) `->` type($y) `,` type($mean)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// Both pooling ops share the window attributes and verifyPool2D; max pooling
// adds dilation, average pooling adds count_include_pad.
class Tcp_Pool2DOp<string mnemonic, dag extraArgs>
    : Tcp_Op<mnemonic, [Pure, AllElementTypesMatch<["in", "out"]>]> {
  let arguments = !con((ins
    Tcp_FloatTensor:$in,
    DenseI64ArrayAttr:$kernel_size,
    DenseI64ArrayAttr:$stride,
    DenseI64ArrayAttr:$pad,
    UnitAttr:$ceil_mode), extraArgs);
  let results = (outs Tcp_FloatTensor:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
  let hasVerifier = 1;
  // A 1x1 window moved by 1 over an unpadded input is its input (AlexNet's
  // AdaptiveAvgPool2d((6, 6)) of a 6x6 feature map).
  let hasFolder = 1;
}

def Tcp_MaxPool2DOp : Tcp_Pool2DOp<"max_pool2d",
    (ins OptionalAttr<DenseI64ArrayAttr>:$dilation)> {
  let summary = "2-D max pooling (extension), NCHW";
  let description = [{
    Takes the maximum of each `kernel_size` = `[h, w]` window of `in`
    (N x C x H x W), moved by `stride` = `[h, w]` over the input padded by
    `pad` = `[top, bottom, left, right]` (padding never wins), with the
    window's taps `dilation` = `[h, w]` apart (default `[1, 1]`). Each
    output extent is `floor((in + pad_lo + pad_hi - dilation*(k-1) - 1) /
    stride) + 1`; with `ceil_mode` it rounds up instead, except that a
    window starting in the bottom/right padding is dropped (PyTorch's rule).
    Maps to cuDNN's resample operation
    (`CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR`, max mode).

    Example:

    ```mlir
    %1 = tcp.max_pool2d %0
        {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
        : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let extraClassDeclaration = [{
    /// The dilation [h, w]; [1, 1] when the attribute is absent.
    SmallVector<int64_t> getDilationOrDefault() {
      if (auto d = getDilation())
        return SmallVector<int64_t>(*d);
      return {1, 1};
    }
  }];
}

def Tcp_AvgPool2DOp : Tcp_Pool2DOp<"avg_pool2d", (ins UnitAttr:$count_include_pad)> {
  let summary = "2-D average pooling (extension), NCHW";
  let description = [{
    Averages each `kernel_size` = `[h, w]` window of `in` (N x C x H x W),
    moved by `stride` = `[h, w]` over the input padded by `pad` =
    `[top, bottom, left, right]`. With `count_include_pad` the divisor is
    the whole window; without it (the default when the unit attribute is
    absent; note that PyTorch's default is the opposite) only the taps
    inside the input count. Output extents follow the same formula as
    `tcp.max_pool2d` with dilation 1, `ceil_mode` included. Maps to cuDNN's
    resample operation (`CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR`,
    average mode including or excluding padding).

    Example:

    ```mlir
    %1 = tcp.avg_pool2d %0
        {count_include_pad, kernel_size = array<i64: 7, 7>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
        : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// All reductions share the axes/keep_dims attributes and verifyReduction.
class Tcp_ReduceOp<string mnemonic, string what, Type tensorType>
    : Tcp_Op<mnemonic, [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reduces a tensor along axes by " # what # " (extension)";
  let description = "Computes the " # what # " of `in` along each dimension "
    # "listed in `axes` (non-empty, strictly increasing, each in "
    # "[0, rank)). With `keep_dims` the reduced dimensions stay, with size 1; "
    # "without it they are dropped. Maps to cuDNN's reduction operation "
    # "(`CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR`).\n\n"
    # "Example:\n\n```mlir\n%1 = tcp." # mnemonic
    # " %0 {axes = array<i64: 2, 3>, keep_dims} "
    # ": tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>\n```";
  let arguments = (ins
    tensorType:$in,
    DenseI64ArrayAttr:$axes,
    UnitAttr:$keep_dims);
  let results = (outs tensorType:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
  let hasVerifier = 1;
}

def Tcp_ReduceSumOp : Tcp_ReduceOp<"reduce_sum", "sum", Tcp_FloatOrIntTensor>;
def Tcp_ReduceMeanOp : Tcp_ReduceOp<"reduce_mean", "mean", Tcp_FloatTensor>;
def Tcp_ReduceMaxOp : Tcp_ReduceOp<"reduce_max", "maximum", Tcp_FloatOrIntTensor>;
def Tcp_ReduceMinOp : Tcp_ReduceOp<"reduce_min", "minimum", Tcp_FloatOrIntTensor>;

//===----------------------------------------------------------------------===//
// GELU
//===----------------------------------------------------------------------===//

// The float types PyTorch's gelu takes (no f8, no f80/f128).
def Tcp_GeluTensor : RankedTensorOf<[F16, BF16, F32, F64]>;

def Tcp_GeluOp : Tcp_UnaryElementwiseOp<"gelu", [AllTypesMatch<["in", "out"]>]> {
  let summary = "Gaussian error linear unit, elementwise (extension)";
  let description = [{
    Computes PyTorch's `torch.nn.functional.gelu(x, approximate)` of each
    element. With `approximate = "none"` (the default) it is the exact
    `x * 0.5 * (1 + erf(x / sqrt(2)))`; with `approximate = "tanh"` it is
    `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`. No other
    value is accepted. The input and result have one type, a tensor of f16,
    bf16, f32 or f64 (f16 and bf16 are computed in f32 and rounded once).

    An extension because TCP has no `erf`. In a cuDNN graph it is a
    pointwise op (`CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR` with
    `CUDNN_POINTWISE_GELU_FWD`, or `CUDNN_POINTWISE_GELU_APPROX_TANH_FWD`
    for `"tanh"`), fused after a conv or matmul; outside one it is a
    generated kernel (`math.erf`, or the tanh formula).

    Example:

    ```mlir
    %1 = tcp.gelu %0 {approximate = "tanh"} : tensor<8x3072xf16> -> tensor<8x3072xf16>
    ```
  }];
  let arguments = (ins
    Tcp_GeluTensor:$in,
    DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs Tcp_GeluTensor:$out);
  let extraClassDeclaration = [{
    /// True for the tanh approximation, false for the exact (erf) form.
    bool isTanhApproximation() { return getApproximate() == "tanh"; }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

def Tcp_TransposeOp : Tcp_Op<"transpose", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permutes the dimensions of a tensor (extension)";
  let description = [{
    Returns `in` with its dimensions permuted: result dimension `i` is input
    dimension `permutation[i]`, and `permutation` is a permutation of
    `0 .. rank-1`. Logical only: cuDNN has no transpose operation, and the
    lowering folds it into the strides of a tensor descriptor.

    Example:

    ```mlir
    %1 = tcp.transpose %0 {permutation = array<i64: 0, 2, 3, 1>}
        : tensor<1x64x56x56xf32> -> tensor<1x56x56x64xf32>
    ```
  }];
  let arguments = (ins Tcp_Tensor:$in, DenseI64ArrayAttr:$permutation);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Comparisons, selection and bitwise logic
//===----------------------------------------------------------------------===//

def Tcp_BoolTensor : RankedTensorOf<[I1]>;

def Tcp_CompareOp : Tcp_Op<"compare", [Pure, Elementwise,
    SameOperandsAndResultShape, AllTypesMatch<["in1", "in2"]>]> {
  let summary = "Compares two tensors elementwise into a boolean tensor (extension)";
  let description = [{
    `out[i] = in1[i] <predicate> in2[i]` as an i1 tensor, for `eq ne lt le
    gt ge`. Both operands have one type (broadcasting and type promotion
    are explicit). Floats compare as PyTorch's do: a comparison with NaN is
    false, except `ne`, which is true. Integers compare as signed unless
    `in_int_signedness` says Unsigned; i1 (booleans) compare false < true
    and take no attribute, nor do floats.

    Example:

    ```mlir
    %2 = tcp.compare %0, %1 {predicate = #tcp<predicate lt>}
        : tensor<2x16xf16>, tensor<2x16xf16> -> tensor<2x16xi1>
    ```
  }];
  let arguments = (ins
    Tcp_Tensor:$in1,
    Tcp_Tensor:$in2,
    Tcp_ComparisonPredicateAttr:$predicate,
    OptionalAttr<Tcp_SignednessAttr>:$in_int_signedness);
  let results = (outs Tcp_BoolTensor:$out);
  let assemblyFormat = [{
    $in1 `,` $in2 attr-dict `:` type($in1) `,` type($in2) `->` type($out)
  }];
  let hasVerifier = 1;
}

def Tcp_SelectOp : Tcp_Op<"select", [Pure, Elementwise,
    SameOperandsAndResultShape, AllTypesMatch<["on_true", "on_false", "out"]>]> {
  let summary = "Picks between two tensors by a boolean tensor, elementwise (extension)";
  let description = [{
    `out[i] = condition[i] ? on_true[i] : on_false[i]`: `torch.where`, and
    `masked_fill` with a broadcast value. All operands have the result's
    shape; `on_true`, `on_false` and the result have one type.

    Example:

    ```mlir
    %3 = tcp.select %0, %1, %2
        : tensor<2x16xi1>, tensor<2x16xf32>, tensor<2x16xf32> -> tensor<2x16xf32>
    ```
  }];
  let arguments = (ins Tcp_BoolTensor:$condition, Tcp_Tensor:$on_true,
                       Tcp_Tensor:$on_false);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` type($condition) `,`
    type($on_true) `,` type($on_false) `->` type($out)
  }];
}

// PyTorch's `&`, `|`, `^` (and logical_and/or/xor of boolean tensors); `~x`
// is an xor with all ones.
def Tcp_BitwiseAndOp : Tcp_SameTypeBinaryOp<"bitwise_and",
    "the bitwise AND (extension)", Tcp_IntTensor>;
def Tcp_BitwiseOrOp : Tcp_SameTypeBinaryOp<"bitwise_or",
    "the bitwise OR (extension)", Tcp_IntTensor>;
def Tcp_BitwiseXorOp : Tcp_SameTypeBinaryOp<"bitwise_xor",
    "the bitwise exclusive OR (extension)", Tcp_IntTensor>;

#endif // CUDNN_MLIR_TCP_EXTENSION_OPS
