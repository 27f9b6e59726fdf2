// The chains are short (attention-min-keys=0 fuses them; the pipelines'
// own fusion finds them grouped already).
// RUN: cudnn-opt %S/../../Dialect/Tcp/Transforms/tcp-fuse-for-cudnn-attention.mlir -split-input-file -tcp-fuse-for-cudnn="attention-min-keys=0" | cudnn-opt -split-input-file -tcp-to-cudnn-pipeline | FileCheck %s
// The serialized graphs pass the runtime's validator (convert-cudnn-to-llvm
// refuses one it would not accept):
// RUN: cudnn-opt %S/../../Dialect/Tcp/Transforms/tcp-fuse-for-cudnn-attention.mlir -split-input-file -tcp-fuse-for-cudnn="attention-min-keys=0" | cudnn-opt -split-input-file -tcp-to-llvm-pipeline | FileCheck %s --check-prefix=LLVM

// An attention group becomes one cudnn.sdpa. Heads split out of the batch
// when q, k^T and v are collapses of [B, H, S, D] tensors: the graph reads
// them (k packed, not the transpose) and writes [B, H, S, Dv]. The split
// form (two matmul graphs and the generated softmax) runs when cuDNN has no
// engine for the graph.

// CHECK-LABEL: func.func @split_heads
// CHECK:         %[[OUT:.*]], %[[RAN:.*]] = cudnn.build_and_exec_graph %{{.*}} %arg0, %arg1, %arg2 {
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) scale = 1.250000e-01 type = f32 : !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x4x12x64xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x4x12x64xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = []>
// CHECK:         } : tensor<2x4x10x64xf16>, tensor<2x4x12x64xf16>, tensor<2x4x12x64xf16> -> tensor<2x4x10x64xf16> tries i1
// CHECK:         scf.if %[[RAN]]
// CHECK:         } else {
// CHECK-COUNT-2:   cudnn.matmul
// CHECK:         }
// LLVM-LABEL: llvm.func @split_heads

// Folded heads (3-d operands): each enters the graph as [B*H, 1, S, D].

// CHECK-LABEL: func.func @divided_scores_bf16
// CHECK-DAG:     %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [6, 1, 50, 64]
// CHECK-DAG:     %[[K:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3]] output_shape [6, 1, 50, 64]
// CHECK-DAG:     %[[V:.*]] = tensor.expand_shape %arg2 {{\[\[}}0, 1], [2], [3]] output_shape [6, 1, 50, 32]
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %[[Q]], %[[K]], %[[V]] {
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) scale = 1.250000e-01 type = f32 : {{.*}} -> !cudnn.tensor_desc<6x1x50x32xbf16, alignment = 16, stride = []>
// LLVM-LABEL: llvm.func @divided_scores_bf16

// CHECK-LABEL: func.func @not_attention
// CHECK-NOT:     cudnn.sdpa
// CHECK-LABEL: func.func @weights_escape
// CHECK-NOT:     cudnn.sdpa
// CHECK-LABEL: func.func @fp32
// CHECK-NOT:     cudnn.sdpa

// The mask enters as the bias, as its broadcast read ([1, 1, S, Skv]).
// CHECK-LABEL: func.func @masked_split_heads
// CHECK:         cudnn.build_and_exec_graph %{{.*}} %arg0, %arg1, %arg2, %{{.*}} {
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) bias(%{{.*}} : !cudnn.tensor_desc<1x1x10x12xf16, alignment = 16, stride = []>) scale = 1.250000e-01
// LLVM-LABEL: llvm.func @masked_split_heads

// Folded heads: the full bias enters as [B*H, 1, S, Skv].
// CHECK-LABEL: func.func @padding_mask_3d
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) bias(%{{.*}} : !cudnn.tensor_desc<6x1x50x50xf16, alignment = 16, stride = []>) scale = 1.000000e+00
// LLVM-LABEL: llvm.func @padding_mask_3d

// Swin's window biases merged into one [1, W*H, S, S]: q, k and v enter in
// their [G*W*H, S, D] forms regrouped as [G, W*H, S, D] (k collapsed from
// its packed [B, H, S, D] first).
// CHECK-LABEL: func.func @window_bias
// CHECK-DAG:     tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [2, 8, 16, 16] : tensor<16x16x16xf16> into tensor<2x8x16x16xf16>
// CHECK-DAG:     %[[K3:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
// CHECK-DAG:     tensor.expand_shape %[[K3]] {{\[\[}}0, 1], [2], [3]] output_shape [2, 8, 16, 16]
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) bias(%{{.*}} : !cudnn.tensor_desc<1x8x16x16xf16, alignment = 16, stride = []>) scale = 1.000000e+00 type = f32 : !cudnn.tensor_desc<2x8x16x16xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x16xf16, alignment = 16, stride = []>, !cudnn.tensor_desc<2x8x16x16xf16, alignment = 16, stride = []> -> !cudnn.tensor_desc<2x8x16x16xf16, alignment = 16, stride = []>
// LLVM-LABEL: llvm.func @window_bias

// CHECK-LABEL: func.func @regrouped_by_bias
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) bias(%{{.*}} : !cudnn.tensor_desc<1x2x16x16xf16, alignment = 16, stride = []>) scale = 1.000000e+00 type = f32 : !cudnn.tensor_desc<8x2x16x16xf16, alignment = 16, stride = []>
// LLVM-LABEL: llvm.func @regrouped_by_bias

// q, k and v split into heads by transposes of [B, S, H*D] projections:
// the graph reads the projections through [B, H, S, D] strides, and the
// transposes run only in the split form.

// CHECK-LABEL: func.func @projected_heads
// CHECK:         %{{.*}}, %[[RAN:.*]] = cudnn.build_and_exec_graph %{{.*}} %arg0, %arg1, %arg2 {
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) scale = 1.250000e-01 type = f32 : !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [2560, 64, 256, 1]>, !cudnn.tensor_desc<2x4x12x64xf16, alignment = 16, stride = [3072, 64, 256, 1]>, !cudnn.tensor_desc<2x4x12x64xf16, alignment = 16, stride = [3072, 64, 256, 1]> -> !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = []>
// CHECK:         } : tensor<2x10x256xf16>, tensor<2x12x256xf16>, tensor<2x12x256xf16> -> tensor<2x4x10x64xf16> tries i1
// CHECK-NOT:     tcp.transpose
// CHECK:         scf.if %[[RAN]]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK:           tcp.transpose
// LLVM-LABEL: llvm.func @projected_heads

// q, k and v sliced out of one packed qkv projection: the graph reads the
// projection three times, each at its offset (q from token 2: 2 x 768
// elements), and the runtime gets the pointers moved by them.

// CHECK-LABEL: func.func @packed_qkv
// CHECK:         %{{.*}}, %[[RAN:.*]] = cudnn.build_and_exec_graph %{{.*}} %arg0, %arg0, %arg0 {
// CHECK:           cudnn.sdpa(%{{.*}}, %{{.*}}, %{{.*}}) scale = 1.250000e-01 type = f32 : !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = [9216, 64, 768, 1], offset = 1536>, !cudnn.tensor_desc<2x4x12x64xf16, alignment = 16, stride = [9216, 64, 768, 1], offset = 256>, !cudnn.tensor_desc<2x4x12x64xf16, alignment = 16, stride = [9216, 64, 768, 1], offset = 512> -> !cudnn.tensor_desc<2x4x10x64xf16, alignment = 16, stride = []>
// CHECK:         } : tensor<2x12x768xf16>, tensor<2x12x768xf16>, tensor<2x12x768xf16> -> tensor<2x4x10x64xf16> tries i1
// CHECK-NOT:     tcp.slice
// CHECK:         scf.if %[[RAN]]
// CHECK:         } else {
// CHECK-COUNT-3:   tcp.slice
// LLVM-LABEL: llvm.func @packed_qkv
// LLVM:         %[[Q:.*]] = llvm.getelementptr %{{.*}}[1536] : (!llvm.ptr) -> !llvm.ptr, f16
// LLVM:         %[[K:.*]] = llvm.getelementptr %{{.*}}[256] : (!llvm.ptr) -> !llvm.ptr, f16
// LLVM:         %[[V:.*]] = llvm.getelementptr %{{.*}}[512] : (!llvm.ptr) -> !llvm.ptr, f16
// LLVM:         llvm.store %[[Q]]
// LLVM:         llvm.store %[[K]]
// LLVM:         llvm.store %[[V]]
// LLVM:         llvm.call @cmrtInvocationGraphTry
