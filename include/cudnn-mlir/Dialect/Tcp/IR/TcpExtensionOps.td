//===- TcpExtensionOps.td - tcp ops cudnn-mlir adds --------*- tablegen -*-===//
//
// Upstream mlir-tcp has no convolution, matmul, normalisation, pooling or
// reduction ops. These are cudnn-mlir's extensions: tensors are NCHW (the
// PyTorch logical order); physical layouts are chosen later, in the cudnn
// dialect's tensor descriptors.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_TCP_EXTENSION_OPS
#define CUDNN_MLIR_TCP_EXTENSION_OPS

include "cudnn-mlir/Dialect/Tcp/IR/TcpBase.td"
include "mlir/IR/BuiltinAttributes.td"

def Tcp_Conv2DOp : Tcp_Op<"conv2d", [Pure, AllElementTypesMatch<["input", "weight", "out"]>]> {
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
  }];
  let hasVerifier = 1;
}

#endif // CUDNN_MLIR_TCP_EXTENSION_OPS
