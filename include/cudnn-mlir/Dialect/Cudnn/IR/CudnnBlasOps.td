//===- CudnnBlasOps.td - cudnn ops that run on cuBLAS ------*- tablegen -*-===//
//
// fp32 matmuls that must stay exact cannot run in cuDNN (every fp32 matmul
// engine of cuDNN 9.14 computes in TF32 on the H100), so they run on cuBLAS,
// as PyTorch eager runs them: a tensor-level op and the buffer-level op it
// bufferizes to, which becomes one cmrtInvocationGemm call.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_CUDNN_BLAS_OPS
#define CUDNN_MLIR_CUDNN_BLAS_OPS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.td"

def Cudnn_GemmOp : Cudnn_Op<"gemm", [Pure]> {
  let summary = "Exact fp32 (batched) matrix product on cuBLAS";
  let description = [{
    `c[..., m, n] = sum_k a'[..., m, k] * b'[..., k, n]` in fp32 without
    TF32, where `a'` is `a` with its last two dims swapped when
    `transpose_a` is set (and `a` as is otherwise), `b'` likewise with
    `transpose_b`. a, b and c are f32, static, packed (no layout encoding)
    and of one rank (>= 2), with equal batch dims. Runs as one
    cublasGemmStridedBatchedEx (CUBLAS_COMPUTE_32F, default math mode) on
    the invocation's stream; the transposes become cuBLAS's op flags, so a
    transposed operand is never copied. `convert-tcp-to-cublas` makes it
    from the fp32 `tcp.matmul`/`tcp.batch_matmul` no cuDNN graph took.

    Example:

    ```mlir
    %c = cudnn.gemm %h(%a, %b) {transpose_b}
        : tensor<16x32xf32>, tensor<8x32xf32> -> tensor<16x8xf32>
    ```
  }];
  let arguments = (ins Cudnn_HandleType:$handle, AnyRankedTensor:$a,
                       AnyRankedTensor:$b, UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b);
  let results = (outs AnyRankedTensor:$c);
  let assemblyFormat = [{
    $handle `(` $a `,` $b `)` attr-dict `:` type($a) `,` type($b) `->` type($c)
  }];
  let hasVerifier = 1;
}

def Cudnn_ExecuteGemmOp : Cudnn_Op<"execute_gemm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Exact fp32 (batched) matrix product on buffers, on cuBLAS";
  let description = [{
    The bufferized form of `cudnn.gemm`: reads the row-major (identity
    layout) buffers `a` and `b` and writes `c`, with the same rules.
    `convert-cudnn-to-llvm` turns it into one `cmrtInvocationGemm` call:
    the batch dims flatten into cuBLAS's batch, each buffer's row stride
    becomes its leading dimension and its matrix size its batch stride.

    Example:

    ```mlir
    cudnn.execute_gemm %h(%a, %b) outs(%c) {transpose_b}
        : memref<16x32xf32>, memref<8x32xf32>, memref<16x8xf32>
    ```
  }];
  let arguments = (ins Cudnn_HandleType:$handle, AnyMemRef:$a, AnyMemRef:$b,
                       AnyMemRef:$c, UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b);
  let assemblyFormat = [{
    $handle `(` $a `,` $b `)` `outs` `(` $c `)` attr-dict `:` type($a) `,`
    type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

#endif // CUDNN_MLIR_CUDNN_BLAS_OPS
