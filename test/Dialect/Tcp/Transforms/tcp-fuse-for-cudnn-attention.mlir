// The chains here are short (10 to 50 keys), below attention-min-keys'
// default, where cuDNN's flash attention is slower than the matmuls and a
// softmax: they are fused with the option at 0, and left unfused, with the
// reason, by default.
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn="attention-min-keys=0" | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn="report=true attention-min-keys=0" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn="report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=SHORT
// SHORT: remark: left out of cuDNN graphs, {{[0-9]+}} ops (the first here): not fused as attention: 12 keys: cuDNN's flash attention is slower than the matmuls and a softmax below 64 (attention-min-keys)

// Attention as the front end writes F.scaled_dot_product_attention: heads
// folded into the batch of two batch matmuls, the softmax over the 4-d
// scores between them. The whole chain is one cuDNN group (cudnn.sdpa after
// convert-tcp-to-cudnn); the k transpose and the reshapes of q, k^T and v
// stay outside.

// CHECK-LABEL: func.func @split_heads
// CHECK:         %[[KT:.*]] = tcp.transpose %arg1
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.broadcast
// CHECK:           tcp.batch_matmul
// CHECK:           tensor.expand_shape
// CHECK:           tcp.mul
// CHECK:           tcp.reduce_max
// CHECK:           tcp.exp
// CHECK:           tcp.reduce_sum
// CHECK:           tcp.divf
// CHECK:           tensor.collapse_shape
// CHECK:           %[[O:.*]] = tcp.batch_matmul
// CHECK:           tcp.yield %[[O]] : tensor<8x10x64xf16>
// CHECK:         } : tensor<8x10x64xf16>
// CHECK:         tensor.expand_shape %[[G]]
func.func @split_heads(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x12x64xf16>) -> tensor<2x4x10x64xf16> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x4x12x64xf16> -> tensor<2x4x64x12xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x10x64xf16> into tensor<8x10x64xf16>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x64x12xf16> into tensor<8x64x12xf16>
  %s3 = tcp.batch_matmul %q3, %kt3 : tensor<8x10x64xf16>, tensor<8x64x12xf16> -> tensor<8x10x12xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 12] : tensor<8x10x12xf16> into tensor<2x4x10x12xf16>
  %c = tcp.const {value = dense<0.125> : tensor<1x1x1x1xf16>} : tensor<1x1x1x1xf16>
  %cb = tcp.broadcast %c, %c2, %c4, %c10, %c12 {axes = [0, 1, 2, 3]} : tensor<1x1x1x1xf16>, index, index, index, index -> tensor<2x4x10x12xf16>
  %x = tcp.mul %s, %cb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %mb = tcp.broadcast %m, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %d = tcp.sub %x, %mb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %e = tcp.exp %d : tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %zb = tcp.broadcast %z, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %p = tcp.divf %e, %zb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x10x12xf16> into tensor<8x10x12xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x4x12x64xf16> into tensor<8x12x64xf16>
  %o3 = tcp.batch_matmul %p3, %v3 : tensor<8x10x12xf16>, tensor<8x12x64xf16> -> tensor<8x10x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 64] : tensor<8x10x64xf16> into tensor<2x4x10x64xf16>
  return %o : tensor<2x4x10x64xf16>
}

// -----

// Written by hand: 3-d throughout, k^T a transpose of k, the scores divided
// by sqrt(d) (Hugging Face's spelling of the scale).

// CHECK-LABEL: func.func @divided_scores_bf16
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.batch_matmul
// CHECK:           tcp.divf
// CHECK:           tcp.reduce_max
// CHECK:           tcp.batch_matmul
// CHECK:           tcp.yield
// CHECK-NOT:     tcp.group
func.func @divided_scores_bf16(%q: tensor<6x50x64xbf16>, %k: tensor<6x50x64xbf16>, %v: tensor<6x50x32xbf16>) -> tensor<6x50x32xbf16> {
  %c6 = arith.constant 6 : index
  %c50 = arith.constant 50 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 2, 1>} : tensor<6x50x64xbf16> -> tensor<6x64x50xbf16>
  %s = tcp.batch_matmul %q, %kt : tensor<6x50x64xbf16>, tensor<6x64x50xbf16> -> tensor<6x50x50xbf16>
  %c = tcp.const {value = dense<8.0> : tensor<1x1x1xbf16>} : tensor<1x1x1xbf16>
  %cb = tcp.broadcast %c, %c6, %c50, %c50 {axes = [0, 1, 2]} : tensor<1x1x1xbf16>, index, index, index -> tensor<6x50x50xbf16>
  %x = tcp.divf %s, %cb : tensor<6x50x50xbf16>, tensor<6x50x50xbf16> -> tensor<6x50x50xbf16>
  %m = tcp.reduce_max %x {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xbf16> -> tensor<6x50x1xbf16>
  %mb = tcp.broadcast %m, %c50 {axes = [2]} : tensor<6x50x1xbf16>, index -> tensor<6x50x50xbf16>
  %d = tcp.sub %x, %mb : tensor<6x50x50xbf16>, tensor<6x50x50xbf16> -> tensor<6x50x50xbf16>
  %e = tcp.exp %d : tensor<6x50x50xbf16> -> tensor<6x50x50xbf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xbf16> -> tensor<6x50x1xbf16>
  %zb = tcp.broadcast %z, %c50 {axes = [2]} : tensor<6x50x1xbf16>, index -> tensor<6x50x50xbf16>
  %p = tcp.divf %e, %zb : tensor<6x50x50xbf16>, tensor<6x50x50xbf16> -> tensor<6x50x50xbf16>
  %o = tcp.batch_matmul %p, %v : tensor<6x50x50xbf16>, tensor<6x50x32xbf16> -> tensor<6x50x32xbf16>
  return %o : tensor<6x50x32xbf16>
}

// -----

// Chains cuDNN's attention cannot run: the matmuls anchor graphs of their
// own and the softmax stays generated code, with the reason in the report.

// CHECK-LABEL: func.func @not_attention
// CHECK-COUNT-2: tcp.group attributes {group_type = "cudnn"} {
// CHECK-NOT:     tcp.group
// REPORT: remark: left out of cuDNN graphs, 7 ops (the first here): not fused as attention: cuDNN's attention takes head dims that are multiples of 8 up to 128, but q/k's is 12
func.func @not_attention(%q: tensor<6x50x12xf16>, %k: tensor<6x50x12xf16>, %v: tensor<6x50x32xf16>) -> tensor<6x50x32xf16> {
  %c50 = arith.constant 50 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 2, 1>} : tensor<6x50x12xf16> -> tensor<6x12x50xf16>
  %s = tcp.batch_matmul %q, %kt : tensor<6x50x12xf16>, tensor<6x12x50xf16> -> tensor<6x50x50xf16>
  %m = tcp.reduce_max %s {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf16> -> tensor<6x50x1xf16>
  %mb = tcp.broadcast %m, %c50 {axes = [2]} : tensor<6x50x1xf16>, index -> tensor<6x50x50xf16>
  %d = tcp.sub %s, %mb : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %e = tcp.exp %d : tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf16> -> tensor<6x50x1xf16>
  %zb = tcp.broadcast %z, %c50 {axes = [2]} : tensor<6x50x1xf16>, index -> tensor<6x50x50xf16>
  %p = tcp.divf %e, %zb : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %o = tcp.batch_matmul %p, %v : tensor<6x50x50xf16>, tensor<6x50x32xf16> -> tensor<6x50x32xf16>
  return %o : tensor<6x50x32xf16>
}

// -----

// The attention weights leave the chain (need_weights=True): not fused.

// CHECK-LABEL: func.func @weights_escape
// CHECK-COUNT-2: tcp.group attributes {group_type = "cudnn"} {
// CHECK-NOT:     tcp.group
func.func @weights_escape(%q: tensor<6x50x64xf16>, %k: tensor<6x50x64xf16>, %v: tensor<6x50x32xf16>) -> (tensor<6x50x32xf16>, tensor<6x50x50xf16>) {
  %c50 = arith.constant 50 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 2, 1>} : tensor<6x50x64xf16> -> tensor<6x64x50xf16>
  %s = tcp.batch_matmul %q, %kt : tensor<6x50x64xf16>, tensor<6x64x50xf16> -> tensor<6x50x50xf16>
  %m = tcp.reduce_max %s {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf16> -> tensor<6x50x1xf16>
  %mb = tcp.broadcast %m, %c50 {axes = [2]} : tensor<6x50x1xf16>, index -> tensor<6x50x50xf16>
  %d = tcp.sub %s, %mb : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %e = tcp.exp %d : tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf16> -> tensor<6x50x1xf16>
  %zb = tcp.broadcast %z, %c50 {axes = [2]} : tensor<6x50x1xf16>, index -> tensor<6x50x50xf16>
  %p = tcp.divf %e, %zb : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %o = tcp.batch_matmul %p, %v : tensor<6x50x50xf16>, tensor<6x50x32xf16> -> tensor<6x50x32xf16>
  return %o, %p : tensor<6x50x32xf16>, tensor<6x50x50xf16>
}

// -----

// fp32 attention stays as it was (cuDNN's attention engines take f16/bf16).

// CHECK-LABEL: func.func @fp32
// REPORT: remark: left out of cuDNN graphs, 7 ops (the first here): not fused as attention: cuDNN's attention takes f16 or bf16, but the chain is f32
func.func @fp32(%q: tensor<6x50x64xf32>, %k: tensor<6x50x64xf32>, %v: tensor<6x50x32xf32>) -> tensor<6x50x32xf32> {
  %c50 = arith.constant 50 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 2, 1>} : tensor<6x50x64xf32> -> tensor<6x64x50xf32>
  %s = tcp.batch_matmul %q, %kt : tensor<6x50x64xf32>, tensor<6x64x50xf32> -> tensor<6x50x50xf32>
  %m = tcp.reduce_max %s {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf32> -> tensor<6x50x1xf32>
  %mb = tcp.broadcast %m, %c50 {axes = [2]} : tensor<6x50x1xf32>, index -> tensor<6x50x50xf32>
  %d = tcp.sub %s, %mb : tensor<6x50x50xf32>, tensor<6x50x50xf32> -> tensor<6x50x50xf32>
  %e = tcp.exp %d : tensor<6x50x50xf32> -> tensor<6x50x50xf32>
  %z = tcp.reduce_sum %e {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf32> -> tensor<6x50x1xf32>
  %zb = tcp.broadcast %z, %c50 {axes = [2]} : tensor<6x50x1xf32>, index -> tensor<6x50x50xf32>
  %p = tcp.divf %e, %zb : tensor<6x50x50xf32>, tensor<6x50x50xf32> -> tensor<6x50x50xf32>
  %o = tcp.batch_matmul %p, %v : tensor<6x50x50xf32>, tensor<6x50x32xf32> -> tensor<6x50x32xf32>
  return %o : tensor<6x50x32xf32>
}

// -----

// An additive mask between the scale and the softmax (F.scaled_dot_product_
// attention's attn_mask, nn.MultiheadAttention's): part of the group, and
// its broadcast over batch and heads absorbed (cuDNN broadcasts the bias).

// CHECK-LABEL: func.func @masked_split_heads
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           %[[MB:.*]] = tcp.broadcast %{{.*}}, %{{.*}}, %{{.*}} {axes = [0, 1]} : tensor<1x1x10x12xf16>
// CHECK:           tcp.mul
// CHECK:           tcp.add %{{.*}}, %[[MB]]
// CHECK:           tcp.reduce_max
// CHECK:           tcp.yield
func.func @masked_split_heads(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x12x64xf16>, %mask: tensor<10x12xf16>) -> tensor<2x4x10x64xf16> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x4x12x64xf16> -> tensor<2x4x64x12xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x10x64xf16> into tensor<8x10x64xf16>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x64x12xf16> into tensor<8x64x12xf16>
  %s3 = tcp.batch_matmul %q3, %kt3 : tensor<8x10x64xf16>, tensor<8x64x12xf16> -> tensor<8x10x12xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 12] : tensor<8x10x12xf16> into tensor<2x4x10x12xf16>
  %c = tcp.const {value = dense<0.125> : tensor<1x1x1x1xf16>} : tensor<1x1x1x1xf16>
  %cb = tcp.broadcast %c, %c2, %c4, %c10, %c12 {axes = [0, 1, 2, 3]} : tensor<1x1x1x1xf16>, index, index, index, index -> tensor<2x4x10x12xf16>
  %sc = tcp.mul %s, %cb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %m4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 10, 12] : tensor<10x12xf16> into tensor<1x1x10x12xf16>
  %mb4 = tcp.broadcast %m4, %c2, %c4 {axes = [0, 1]} : tensor<1x1x10x12xf16>, index, index -> tensor<2x4x10x12xf16>
  %x = tcp.add %sc, %mb4 : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %mb = tcp.broadcast %m, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %d = tcp.sub %x, %mb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %e = tcp.exp %d : tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %zb = tcp.broadcast %z, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %p = tcp.divf %e, %zb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x10x12xf16> into tensor<8x10x12xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x4x12x64xf16> into tensor<8x12x64xf16>
  %o3 = tcp.batch_matmul %p3, %v3 : tensor<8x10x12xf16>, tensor<8x12x64xf16> -> tensor<8x10x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 64] : tensor<8x10x64xf16> into tensor<2x4x10x64xf16>
  return %o : tensor<2x4x10x64xf16>
}

// -----

// A key-padding mask broadcast over the queries: cuDNN's bias does not
// broadcast there, so the broadcast stays outside (a generated kernel) and
// the group reads the full bias; the bias is on the left of the add.

// CHECK-LABEL: func.func @padding_mask_3d
// CHECK:         %[[FULL:.*]] = tcp.broadcast %arg3
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.add %[[FULL]], %{{.*}}
// CHECK:           tcp.yield
func.func @padding_mask_3d(%q: tensor<6x50x64xf16>, %k: tensor<6x50x64xf16>, %v: tensor<6x50x32xf16>, %pad: tensor<6x1x50xf16>) -> tensor<6x50x32xf16> {
  %c50 = arith.constant 50 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 2, 1>} : tensor<6x50x64xf16> -> tensor<6x64x50xf16>
  %s = tcp.batch_matmul %q, %kt : tensor<6x50x64xf16>, tensor<6x64x50xf16> -> tensor<6x50x50xf16>
  %pb = tcp.broadcast %pad, %c50 {axes = [1]} : tensor<6x1x50xf16>, index -> tensor<6x50x50xf16>
  %x = tcp.add %pb, %s : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf16> -> tensor<6x50x1xf16>
  %mb = tcp.broadcast %m, %c50 {axes = [2]} : tensor<6x50x1xf16>, index -> tensor<6x50x50xf16>
  %d = tcp.sub %x, %mb : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %e = tcp.exp %d : tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 2>, keep_dims} : tensor<6x50x50xf16> -> tensor<6x50x1xf16>
  %zb = tcp.broadcast %z, %c50 {axes = [2]} : tensor<6x50x1xf16>, index -> tensor<6x50x50xf16>
  %p = tcp.divf %e, %zb : tensor<6x50x50xf16>, tensor<6x50x50xf16> -> tensor<6x50x50xf16>
  %o = tcp.batch_matmul %p, %v : tensor<6x50x50xf16>, tensor<6x50x32xf16> -> tensor<6x50x32xf16>
  return %o : tensor<6x50x32xf16>
}

// -----

// Swin's shifted windows: the scores [G*W, H, S, S] get the relative
// position bias ([1, H, S, S]), are viewed as [G, W, H, S, S] for the window
// mask ([1, W, 1, S, S]) and viewed back. The two biases become one
// [1, W*H, S, S] (computed outside the group), added to the scores viewed as
// [G, W*H, S, S]: one attention group, its q, k and v regrouped the same
// way by convert-tcp-to-cudnn.

// CHECK-LABEL: func.func @window_bias
// CHECK:         %[[SUM:.*]] = tcp.add {{.*}} : tensor<1x4x2x16x16xf16>, tensor<1x4x2x16x16xf16> -> tensor<1x4x2x16x16xf16>
// CHECK:         %[[MERGED:.*]] = tensor.collapse_shape %[[SUM]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x4x2x16x16xf16> into tensor<1x8x16x16xf16>
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.broadcast %[[MERGED]], %{{.*}} {axes = [0]} : tensor<1x8x16x16xf16>, index -> tensor<2x8x16x16xf16>
// CHECK:           tcp.batch_matmul
// CHECK:           tcp.add {{.*}} : tensor<2x8x16x16xf16>
// CHECK:           tcp.reduce_max
// CHECK:           tcp.batch_matmul
// CHECK:           tcp.yield
// CHECK-NOT:     tcp.batch_matmul
func.func @window_bias(%q: tensor<8x2x16x16xf16>, %k: tensor<8x2x16x16xf16>, %v: tensor<8x2x16x16xf16>, %rel: tensor<1x2x16x16xf16>, %mask: tensor<1x4x1x16x16xf16>) -> tensor<16x16x16xf16> {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %s3 = tcp.batch_matmul %q3, %kt3 : tensor<16x16x16xf16>, tensor<16x16x16xf16> -> tensor<16x16x16xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [8, 2, 16, 16] : tensor<16x16x16xf16> into tensor<8x2x16x16xf16>
  %relb = tcp.broadcast %rel, %c8 {axes = [0]} : tensor<1x2x16x16xf16>, index -> tensor<8x2x16x16xf16>
  %x1 = tcp.add %s, %relb : tensor<8x2x16x16xf16>, tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %x5 = tensor.expand_shape %x1 [[0, 1], [2], [3], [4]] output_shape [2, 4, 2, 16, 16] : tensor<8x2x16x16xf16> into tensor<2x4x2x16x16xf16>
  %maskb = tcp.broadcast %mask, %c2, %c2 {axes = [0, 2]} : tensor<1x4x1x16x16xf16>, index, index -> tensor<2x4x2x16x16xf16>
  %x2 = tcp.add %x5, %maskb : tensor<2x4x2x16x16xf16>, tensor<2x4x2x16x16xf16> -> tensor<2x4x2x16x16xf16>
  %x = tensor.collapse_shape %x2 [[0, 1], [2], [3], [4]] : tensor<2x4x2x16x16xf16> into tensor<8x2x16x16xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 3>, keep_dims} : tensor<8x2x16x16xf16> -> tensor<8x2x16x1xf16>
  %mb = tcp.broadcast %m, %c16 {axes = [3]} : tensor<8x2x16x1xf16>, index -> tensor<8x2x16x16xf16>
  %d = tcp.sub %x, %mb : tensor<8x2x16x16xf16>, tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %e = tcp.exp %d : tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<8x2x16x16xf16> -> tensor<8x2x16x1xf16>
  %zb = tcp.broadcast %z, %c16 {axes = [3]} : tensor<8x2x16x1xf16>, index -> tensor<8x2x16x16xf16>
  %p = tcp.divf %e, %zb : tensor<8x2x16x16xf16>, tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %o = tcp.batch_matmul %p3, %v3 : tensor<16x16x16xf16>, tensor<16x16x16xf16> -> tensor<16x16x16xf16>
  return %o : tensor<16x16x16xf16>
}

// -----

// v with no [B, H, S, D] form of its own (canonicalize folded its two
// collapses into one from a rank-5 slice), and a [1, H, S, S] bias: the
// graph reads q, k and v in their [B*H, S, D] forms regrouped by the bias's
// heads.

// CHECK-LABEL: func.func @regrouped_by_bias
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.batch_matmul
// CHECK:           tcp.batch_matmul
// CHECK:           tcp.yield
func.func @regrouped_by_bias(%q: tensor<8x2x16x16xf16>, %k: tensor<8x2x16x16xf16>, %qkv: tensor<3x8x2x16x16xf16>, %rel: tensor<1x2x16x16xf16>) -> tensor<16x16x16xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %kt = tcp.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %s3 = tcp.batch_matmul %q3, %kt3 : tensor<16x16x16xf16>, tensor<16x16x16xf16> -> tensor<16x16x16xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [8, 2, 16, 16] : tensor<16x16x16xf16> into tensor<8x2x16x16xf16>
  %relb = tcp.broadcast %rel, %c8 {axes = [0]} : tensor<1x2x16x16xf16>, index -> tensor<8x2x16x16xf16>
  %x = tcp.add %s, %relb : tensor<8x2x16x16xf16>, tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 3>, keep_dims} : tensor<8x2x16x16xf16> -> tensor<8x2x16x1xf16>
  %mb = tcp.broadcast %m, %c16 {axes = [3]} : tensor<8x2x16x1xf16>, index -> tensor<8x2x16x16xf16>
  %d = tcp.sub %x, %mb : tensor<8x2x16x16xf16>, tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %e = tcp.exp %d : tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<8x2x16x16xf16> -> tensor<8x2x16x1xf16>
  %zb = tcp.broadcast %z, %c16 {axes = [3]} : tensor<8x2x16x1xf16>, index -> tensor<8x2x16x16xf16>
  %p = tcp.divf %e, %zb : tensor<8x2x16x16xf16>, tensor<8x2x16x16xf16> -> tensor<8x2x16x16xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<8x2x16x16xf16> into tensor<16x16x16xf16>
  %vs = tcp.slice %qkv starts(%c2, %c0, %c0, %c0, %c0) sizes(%c1, %c8, %c2, %c16, %c16) strides(%c1, %c1, %c1, %c1, %c1) : tensor<3x8x2x16x16xf16> -> tensor<1x8x2x16x16xf16>
  %v3 = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x8x2x16x16xf16> into tensor<16x16x16xf16>
  %o = tcp.batch_matmul %p3, %v3 : tensor<16x16x16xf16>, tensor<16x16x16xf16> -> tensor<16x16x16xf16>
  return %o : tensor<16x16x16xf16>
}

// -----

// q, k and v as projections split into heads ([B, S, H*D] -> [B, S, H, D]
// -> transposed to [B, H, S, D]), as Hugging Face's models and
// nn.MultiheadAttention write them: the transposes stay outside the group
// (convert-tcp-to-cudnn reads the projections through them by strides).

// CHECK-LABEL: func.func @projected_heads
// CHECK-COUNT-4: tcp.transpose
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
func.func @projected_heads(%q: tensor<2x10x256xf16>, %k: tensor<2x12x256xf16>, %v: tensor<2x12x256xf16>) -> tensor<2x4x10x64xf16> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 10, 4, 64] : tensor<2x10x256xf16> into tensor<2x10x4x64xf16>
  %k4 = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 12, 4, 64] : tensor<2x12x256xf16> into tensor<2x12x4x64xf16>
  %v4 = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [2, 12, 4, 64] : tensor<2x12x256xf16> into tensor<2x12x4x64xf16>
  %qh = tcp.transpose %q4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x10x4x64xf16> -> tensor<2x4x10x64xf16>
  %kh = tcp.transpose %k4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x12x4x64xf16> -> tensor<2x4x12x64xf16>
  %vh = tcp.transpose %v4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x12x4x64xf16> -> tensor<2x4x12x64xf16>
  %kt = tcp.transpose %kh {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x4x12x64xf16> -> tensor<2x4x64x12xf16>
  %q3 = tensor.collapse_shape %qh [[0, 1], [2], [3]] : tensor<2x4x10x64xf16> into tensor<8x10x64xf16>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x64x12xf16> into tensor<8x64x12xf16>
  %s3 = tcp.batch_matmul %q3, %kt3 : tensor<8x10x64xf16>, tensor<8x64x12xf16> -> tensor<8x10x12xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 12] : tensor<8x10x12xf16> into tensor<2x4x10x12xf16>
  %c = tcp.const {value = dense<0.125> : tensor<1x1x1x1xf16>} : tensor<1x1x1x1xf16>
  %cb = tcp.broadcast %c, %c2, %c4, %c10, %c12 {axes = [0, 1, 2, 3]} : tensor<1x1x1x1xf16>, index, index, index, index -> tensor<2x4x10x12xf16>
  %x = tcp.mul %s, %cb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %mb = tcp.broadcast %m, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %d = tcp.sub %x, %mb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %e = tcp.exp %d : tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %zb = tcp.broadcast %z, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %p = tcp.divf %e, %zb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x10x12xf16> into tensor<8x10x12xf16>
  %v3 = tensor.collapse_shape %vh [[0, 1], [2], [3]] : tensor<2x4x12x64xf16> into tensor<8x12x64xf16>
  %o3 = tcp.batch_matmul %p3, %v3 : tensor<8x10x12xf16>, tensor<8x12x64xf16> -> tensor<8x10x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 64] : tensor<8x10x64xf16> into tensor<2x4x10x64xf16>
  return %o : tensor<2x4x10x64xf16>
}

// -----

// q, k and v sliced out of one packed qkv projection (GPT-2's split, timm's
// unbind): the slices stay outside the group with the transposes
// (convert-tcp-to-cudnn reads the projection at an offset). The q slice
// starts at token 2 to check offsets along more than one dim.

// CHECK-LABEL: func.func @packed_qkv
// CHECK-COUNT-3: tcp.slice
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
func.func @packed_qkv(%qkv: tensor<2x12x768xf16>) -> tensor<2x4x10x64xf16> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %q = tcp.slice %qkv starts(%c0, %c2, %c0) sizes(%c2, %c10, %c256) strides(%c1, %c1, %c1) : tensor<2x12x768xf16> -> tensor<2x10x256xf16>
  %k = tcp.slice %qkv starts(%c0, %c0, %c256) sizes(%c2, %c12, %c256) strides(%c1, %c1, %c1) : tensor<2x12x768xf16> -> tensor<2x12x256xf16>
  %v = tcp.slice %qkv starts(%c0, %c0, %c512) sizes(%c2, %c12, %c256) strides(%c1, %c1, %c1) : tensor<2x12x768xf16> -> tensor<2x12x256xf16>
  %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 10, 4, 64] : tensor<2x10x256xf16> into tensor<2x10x4x64xf16>
  %k4 = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 12, 4, 64] : tensor<2x12x256xf16> into tensor<2x12x4x64xf16>
  %v4 = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [2, 12, 4, 64] : tensor<2x12x256xf16> into tensor<2x12x4x64xf16>
  %qh = tcp.transpose %q4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x10x4x64xf16> -> tensor<2x4x10x64xf16>
  %kh = tcp.transpose %k4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x12x4x64xf16> -> tensor<2x4x12x64xf16>
  %vh = tcp.transpose %v4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x12x4x64xf16> -> tensor<2x4x12x64xf16>
  %kt = tcp.transpose %kh {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x4x12x64xf16> -> tensor<2x4x64x12xf16>
  %q3 = tensor.collapse_shape %qh [[0, 1], [2], [3]] : tensor<2x4x10x64xf16> into tensor<8x10x64xf16>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x64x12xf16> into tensor<8x64x12xf16>
  %s3 = tcp.batch_matmul %q3, %kt3 : tensor<8x10x64xf16>, tensor<8x64x12xf16> -> tensor<8x10x12xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 12] : tensor<8x10x12xf16> into tensor<2x4x10x12xf16>
  %c = tcp.const {value = dense<0.125> : tensor<1x1x1x1xf16>} : tensor<1x1x1x1xf16>
  %cb = tcp.broadcast %c, %c2, %c4, %c10, %c12 {axes = [0, 1, 2, 3]} : tensor<1x1x1x1xf16>, index, index, index, index -> tensor<2x4x10x12xf16>
  %x = tcp.mul %s, %cb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %m = tcp.reduce_max %x {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %mb = tcp.broadcast %m, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %d = tcp.sub %x, %mb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %e = tcp.exp %d : tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %z = tcp.reduce_sum %e {axes = array<i64: 3>, keep_dims} : tensor<2x4x10x12xf16> -> tensor<2x4x10x1xf16>
  %zb = tcp.broadcast %z, %c12 {axes = [3]} : tensor<2x4x10x1xf16>, index -> tensor<2x4x10x12xf16>
  %p = tcp.divf %e, %zb : tensor<2x4x10x12xf16>, tensor<2x4x10x12xf16> -> tensor<2x4x10x12xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x10x12xf16> into tensor<8x10x12xf16>
  %v3 = tensor.collapse_shape %vh [[0, 1], [2], [3]] : tensor<2x4x12x64xf16> into tensor<8x12x64xf16>
  %o3 = tcp.batch_matmul %p3, %v3 : tensor<8x10x12xf16>, tensor<8x12x64xf16> -> tensor<8x10x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 10, 64] : tensor<8x10x64xf16> into tensor<2x4x10x64xf16>
  return %o : tensor<2x4x10x64xf16>
}
