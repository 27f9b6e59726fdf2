//===- PatchConv.h - patch-embedding convs as one matmul --------*- C++ -*-===//
//
// A convolution whose stride equals its window and that pads nothing cuts
// its input into disjoint patches (ViT's 16x16 patch embedding). On an RGB
// input cuDNN runs it poorly: its conv engines want at least 8 input
// channels (16 bytes), so C = 3 pads to 8 (ViT-B/16 at batch 32, f16 NHWC
// on an H200: 300 us in PyTorch's own cuDNN conv against 34 us as a
// permute and one matmul). tcp-fuse-for-cudnn's `patch-conv-as-matmul`
// rewrites such a conv into that form: the patches gathered by transposes
// in (R, S, C) order, a [N*P*Q, R*S*C] x [R*S*C, K] matmul against the
// weight read transposed, and the result laid back out as N x K x P x Q.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_PATCHCONV_H
#define CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_PATCHCONV_H

#include "mlir/IR/Operation.h"

namespace mlir::tcp {

/// Rewrites every f16/bf16 `tcp.conv2d` of static shapes with stride equal
/// to its window (of at least 8x8 elements), no padding, dilation 1, one
/// group, an input whose H and W the window divides, and fewer than 8 input
/// channels into transposes, reshapes and one `tcp.matmul`.
void rewritePatchConvsAsMatmuls(Operation *root);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_LIB_DIALECT_TCP_TRANSFORMS_PATCHCONV_H
