//===- CudnnNormOps.td - cudnn normalization graph ops -----*- tablegen -*-===//

#ifndef CUDNN_MLIR_CUDNN_NORM_OPS
#define CUDNN_MLIR_CUDNN_NORM_OPS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.td"

def Cudnn_NormForwardOp : Cudnn_GraphOp<"norm_forward", [Pure,
    AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "Normalization forward (CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR)";
  let description = [{
    `y = scale * (x - mean) * inv_variance + bias`, with
    `inv_variance = 1 / sqrt(variance + epsilon)` and the statistics taken
    over the dimensions `mode` normalizes (CUDNN_ATTR_OPERATION_NORM_FWD_MODE):
    batch (N and spatial, per channel), instance (spatial, per sample and
    channel), layer (everything but N, per sample) or rms (as layer, without
    mean subtraction, bias optional).

    Shapes, for x = [N, C, d...]: batch: scale, bias, mean, inv_variance and
    running stats are [1, C, 1...]; instance: scale and bias [1, C, 1...],
    statistics [N, C, 1...]; layer and rms: scale and bias [1, C, d...],
    statistics [N, 1, 1...].

    `phase` (CUDNN_ATTR_OPERATION_NORM_FWD_PHASE): in inference, batch norm
    takes `mean` and `inv_variance` as inputs and the op yields only `y`; in
    training the op yields `y`, `saved_mean` (not for rms) and
    `saved_inv_variance`. Batch norm in training may also update running
    statistics: with `momentum`, it takes `running_mean` / `running_var` and
    yields `next_running_mean` / `next_running_var`. `epsilon` and `momentum`
    become by-value scalar tensors.

    Example:

    ```mlir
    %y, %m, %v = cudnn.norm_forward(%x) mode = layer phase = training type = f32
        epsilon = 9.99999974E-6 scale = %s bias = %b
        : !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x16xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<4x8x16xf32, alignment = 16, stride = []>
        saved_mean !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
        saved_inv_variance !cudnn.tensor_desc<4x1x1xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins
    Cudnn_TensorDescType:$x,
    Cudnn_TensorDescType:$scale,
    Optional<Cudnn_TensorDescType>:$bias,
    Optional<Cudnn_TensorDescType>:$mean,
    Optional<Cudnn_TensorDescType>:$inv_variance,
    Optional<Cudnn_TensorDescType>:$running_mean,
    Optional<Cudnn_TensorDescType>:$running_var,
    Cudnn_NormModeAttr:$mode,
    Cudnn_FwdPhaseAttr:$phase,
    TypeAttr:$type,
    F32Attr:$epsilon,
    OptionalAttr<F32Attr>:$momentum);
  let results = (outs
    Cudnn_TensorDescType:$y,
    Optional<Cudnn_TensorDescType>:$saved_mean,
    Optional<Cudnn_TensorDescType>:$saved_inv_variance,
    Optional<Cudnn_TensorDescType>:$next_running_mean,
    Optional<Cudnn_TensorDescType>:$next_running_var);
  let assemblyFormat = [{
    `(` $x `)` `mode` `=` $mode `phase` `=` $phase `type` `=` $type
    `epsilon` `=` $epsilon (`momentum` `=` $momentum^)?
    `scale` `=` $scale (`bias` `=` $bias^)? (`mean` `=` $mean^)?
    (`inv_variance` `=` $inv_variance^)? (`running_mean` `=` $running_mean^)?
    (`running_var` `=` $running_var^)? attr-dict
    `:` type(operands) `->` qualified(type($y))
    (`saved_mean` qualified(type($saved_mean))^)?
    (`saved_inv_variance` qualified(type($saved_inv_variance))^)?
    (`next_running_mean` qualified(type($next_running_mean))^)?
    (`next_running_var` qualified(type($next_running_var))^)?
  }];
  let hasVerifier = 1;
}

def Cudnn_NormBackwardOp : Cudnn_GraphOp<"norm_backward", [Pure]> {
  let summary = "Normalization backward (CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR)";
  let description = [{
    The gradients of `cudnn.norm_forward` in training: from `dy`, the forward
    input `x`, `scale` and the saved `mean` (absent for rms) and
    `inv_variance`, computes `dx` (x's shape), `dscale` and `dbias` (scale's
    shape; `dbias` optional for rms). Parameter and statistic shapes follow
    `mode` as in `cudnn.norm_forward`.

    Example:

    ```mlir
    %dx, %ds, %db = cudnn.norm_backward(%dy, %x) mode = batch type = f32
        scale = %s mean = %m inv_variance = %v
        : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>,
          !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>,
           !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>,
           !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins
    Cudnn_TensorDescType:$dy,
    Cudnn_TensorDescType:$x,
    Cudnn_TensorDescType:$scale,
    Optional<Cudnn_TensorDescType>:$mean,
    Cudnn_TensorDescType:$inv_variance,
    Cudnn_NormModeAttr:$mode,
    TypeAttr:$type);
  let results = (outs
    Cudnn_TensorDescType:$dx,
    Cudnn_TensorDescType:$dscale,
    Optional<Cudnn_TensorDescType>:$dbias);
  let assemblyFormat = [{
    `(` $dy `,` $x `)` `mode` `=` $mode `type` `=` $type `scale` `=` $scale
    (`mean` `=` $mean^)? `inv_variance` `=` $inv_variance attr-dict
    `:` type(operands) `->` qualified(type($dx)) `,` qualified(type($dscale))
    (`,` qualified(type($dbias))^)?
  }];
  let hasVerifier = 1;
}

def Cudnn_GenStatsOp : Cudnn_GraphOp<"genstats", [Pure]> {
  let summary = "Per-channel sum and sum of squares (CUDNN_BACKEND_OPERATION_GEN_STATS_DESCRIPTOR)";
  let description = [{
    For x = [N, C, d...], `sum[c] = sum(x[:, c, ...])` and
    `sq_sum[c] = sum(x[:, c, ...]^2)`, both [1, C, 1...], computed in `type`
    (CUDNN_GENSTATS_SUM_SQSUM). With `cudnn.bn_finalize` it forms batch norm
    training split across graphs.

    Example:

    ```mlir
    %sum, %sq = cudnn.genstats(%x) type = f32
        : !cudnn.tensor_desc<2x8x4x4xf32, alignment = 16, stride = []>
        -> !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>,
           !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins Cudnn_TensorDescType:$x, TypeAttr:$type);
  let results = (outs Cudnn_TensorDescType:$sum, Cudnn_TensorDescType:$sq_sum);
  let assemblyFormat = [{
    `(` $x `)` `type` `=` $type attr-dict `:` qualified(type($x)) `->`
    qualified(type($sum)) `,` qualified(type($sq_sum))
  }];
  let hasVerifier = 1;
}

def Cudnn_BnFinalizeOp : Cudnn_GraphOp<"bn_finalize", [Pure]> {
  let summary = "Batch norm statistics finalization (CUDNN_BACKEND_OPERATION_BN_FINALIZE_STATISTICS_DESCRIPTOR)";
  let description = [{
    From the per-channel `sum` and `sq_sum` of `accumulation_count` elements
    (as made by `cudnn.genstats`), computes mean and variance, and yields the
    equivalent affine transform `eq_scale = scale * inv_std`,
    `eq_bias = bias - mean * eq_scale`, the saved `mean` and `inv_std =
    1 / sqrt(variance + epsilon)`, and the running statistics updated with
    `momentum`. Every tensor is [1, C, 1...].

    Example:

    ```mlir
    %es, %eb, %m, %is, %rm, %rv = cudnn.bn_finalize(%sum, %sq) type = f32
        epsilon = 9.99999974E-6 momentum = 1.000000e-01 accumulation_count = 32
        scale = %s bias = %b running_mean = %rm0 running_var = %rv0
        : !c, !c, !c, !c, !c, !c -> !c, !c, !c, !c, !c, !c
    ```

    where `!c = !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>`
    is a type alias declared at the top of the file:

    ```mlir
    !c = !cudnn.tensor_desc<1x8x1x1xf32, alignment = 16, stride = []>
    ```
  }];
  let arguments = (ins
    Cudnn_TensorDescType:$sum,
    Cudnn_TensorDescType:$sq_sum,
    Cudnn_TensorDescType:$scale,
    Cudnn_TensorDescType:$bias,
    Cudnn_TensorDescType:$running_mean,
    Cudnn_TensorDescType:$running_var,
    TypeAttr:$type,
    F32Attr:$epsilon,
    F32Attr:$momentum,
    I64Attr:$accumulation_count);
  let results = (outs
    Cudnn_TensorDescType:$eq_scale,
    Cudnn_TensorDescType:$eq_bias,
    Cudnn_TensorDescType:$saved_mean,
    Cudnn_TensorDescType:$saved_inv_std,
    Cudnn_TensorDescType:$next_running_mean,
    Cudnn_TensorDescType:$next_running_var);
  let assemblyFormat = [{
    `(` $sum `,` $sq_sum `)` `type` `=` $type `epsilon` `=` $epsilon
    `momentum` `=` $momentum `accumulation_count` `=` $accumulation_count
    `scale` `=` $scale `bias` `=` $bias `running_mean` `=` $running_mean
    `running_var` `=` $running_var attr-dict `:` type(operands) `->` type(results)
  }];
  let hasVerifier = 1;
}

#endif // CUDNN_MLIR_CUDNN_NORM_OPS
