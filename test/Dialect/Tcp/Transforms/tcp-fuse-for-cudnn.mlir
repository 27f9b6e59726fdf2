// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=report -verify-diagnostics -o /dev/null
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=max-ops=2 | FileCheck %s --check-prefix=MAX2
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn="max-ops=2 report" 2>&1 >/dev/null | FileCheck %s --check-prefix=MAX2-REMARK
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=fuse-fp32=false | FileCheck %s --check-prefix=NOFP32
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=allow-tf32-matmul=true | FileCheck %s --check-prefix=TF32
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=prologues=false | FileCheck %s --check-prefix=NOPRO
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn="prologues=false report" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOPRO-REMARK
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn | FileCheck %s --check-prefix=GPCODE
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=global-pool=cudnn | FileCheck %s --check-prefix=GPCUDNN
// RUN: not cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=global-pool=gpu 2>&1 >/dev/null | FileCheck %s --check-prefix=GPBAD
// GPBAD: tcp-fuse-for-cudnn expects global-pool=cudnn or codegen, but got 'gpu'

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>
!b = tensor<1x4x1x1xf16>

// The seed: a ReLU on the input is the conv's prologue.
// CHECK-LABEL: func.func @relu_conv_prologue
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK-NEXT:      %[[R:.*]] = tcp.clamp
// CHECK-NEXT:      %[[C:.*]] = tcp.conv2d %[[R]]
// CHECK-NEXT:      tcp.yield %[[C]]
// CHECK:         return %[[G]]
// With prologues=false the ReLU stays out, and the report says why.
// NOPRO-LABEL: func.func @relu_conv_prologue
// NOPRO:         %[[R:.*]] = tcp.clamp
// NOPRO:         tcp.group attributes {group_type = "cudnn"} {
// NOPRO-NEXT:      tcp.conv2d %[[R]]
// NOPRO-REMARK:  remark: left out of cuDNN graphs: prologues=false keeps pointwise ops out of the graph of the conv/matmul they feed
func.func @relu_conv_prologue(%x: !x, %w: !w) -> !x {
  %0 = tcp.clamp %x {min_float = 0.0 : f32} : !x -> !x
  %1 = tcp.conv2d %0, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  return %1 : !x
}

// -----

!x = tensor<2x4x8x8xf16>
!w = tensor<4x4x3x3xf16>
!s = tensor<1x4x1x1xf16>

// A per-channel scale, a bias and a ReLU on the input (a batch norm folded
// into the next conv) are the conv's prologue.
// CHECK-LABEL: func.func @scale_bias_relu_conv_prologue
// CHECK-NOT:     tcp.broadcast
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.mul
// CHECK:           tcp.add
// CHECK-NEXT:      %[[R:.*]] = tcp.clamp
// CHECK-NEXT:      %[[C:.*]] = tcp.conv2d %[[R]]
// CHECK-NEXT:      tcp.yield %[[C]]
// CHECK:         return %[[G]]
func.func @scale_bias_relu_conv_prologue(%x: !x, %w: !w, %s: !s, %b: !s) -> !x {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.broadcast %s, %c2, %c8, %c8 {axes = [0, 2, 3]} : !s, index, index, index -> !x
  %1 = tcp.mul %x, %0 : !x, !x -> !x
  %2 = tcp.broadcast %b, %c2, %c8, %c8 {axes = [0, 2, 3]} : !s, index, index, index -> !x
  %3 = tcp.add %1, %2 : !x, !x -> !x
  %4 = tcp.clamp %3 {min_float = 0.0 : f32} : !x -> !x
  %5 = tcp.conv2d %4, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  return %5 : !x
}

// -----

!x = tensor<2x4x8x8xf16>
!w = tensor<4x4x1x1xf16>
!n = tensor<2x4x1x1xf16>

// A squeeze-and-excitation block's scale has one value per sample and
// channel: cuDNN's prologue takes only per-channel operands (it finds no
// engine for this graph, and no standalone pointwise graph runs on sm_90),
// so the multiply stays outside and the conv is a graph of its own.
// CHECK-LABEL: func.func @per_sample_scale_not_a_prologue
// CHECK:         %[[B:.*]] = tcp.broadcast
// CHECK:         %[[M:.*]] = tcp.mul %{{.*}}, %[[B]]
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK-NEXT:      %[[C:.*]] = tcp.conv2d %[[M]]
// CHECK-NEXT:      tcp.yield %[[C]]
func.func @per_sample_scale_not_a_prologue(%x: !x, %w: !w, %s: !n) -> !x {
  %c8 = arith.constant 8 : index
  // expected-remark @+1 {{left out of cuDNN graphs: feeds no grouped pointwise op}}
  %0 = tcp.broadcast %s, %c8, %c8 {axes = [2, 3]} : !n, index, index -> !x
  // expected-remark @+1 {{left out of cuDNN graphs: a binary prologue op needs a per-channel operand (1 except in dim 1), but its broadcast is of tensor<2x4x1x1xf16>}}
  %1 = tcp.mul %x, %0 : !x, !x -> !x
  %2 = tcp.conv2d %1, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : !x, !w -> !x
  return %2 : !x
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>
!b = tensor<1x4x1x1xf16>

// conv + bias + ReLU: the bias broadcast is absorbed (cloned into the group;
// the original, now unused, is gone).
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-NOT:     tcp.broadcast
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK-NEXT:      %[[B:.*]] = tcp.broadcast
// CHECK-NEXT:      %[[C:.*]] = tcp.conv2d
// CHECK-NEXT:      %[[A:.*]] = tcp.add %[[C]], %[[B]]
// CHECK-NEXT:      %[[R:.*]] = tcp.clamp %[[A]]
// CHECK-NEXT:      tcp.yield %[[R]]
// CHECK:         return %[[G]]
// MAX2-LABEL:  func.func @conv_bias_relu
// MAX2:          tcp.group
// MAX2:            tcp.conv2d
// MAX2-NEXT:       tcp.add
// MAX2-NEXT:       tcp.yield
// MAX2:          tcp.clamp
// MAX2-REMARK:   :[[@LINE+7]]:8: remark: left out of cuDNN graphs: the graph already has max-ops = 2 ops
func.func @conv_bias_relu(%x: !x, %w: !w, %b: !b) -> !x {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %1 = tcp.broadcast %b, %c1, %c8, %c8 {axes = [0, 2, 3]} : !b, index, index, index -> !x
  %2 = tcp.add %0, %1 : !x, !x -> !x
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : !x -> !x
  return %3 : !x
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>

// Swish, x * sigmoid(x), on the conv output: the conv's result is used twice
// inside the group; nothing is duplicated.
// CHECK-LABEL: func.func @swish_epilogue
// CHECK:         tcp.group
// CHECK-NEXT:      %[[C:.*]] = tcp.conv2d
// CHECK-NEXT:      %[[S:.*]] = tcp.sigmoid %[[C]]
// CHECK-NEXT:      %[[M:.*]] = tcp.mul %[[C]], %[[S]]
// CHECK-NEXT:      tcp.yield %[[M]]
// CHECK-NOT:     tcp.conv2d
func.func @swish_epilogue(%x: !x, %w: !w) -> !x {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %1 = tcp.sigmoid %0 : !x -> !x
  %2 = tcp.mul %0, %1 : !x, !x -> !x
  return %2 : !x
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>

// An intermediate also returned from the function becomes a second result
// (cuDNN writes it as a non-virtual tensor).
// CHECK-LABEL: func.func @intermediate_returned
// CHECK:         %[[G:.*]]:2 = tcp.group
// CHECK:           %[[C:.*]] = tcp.conv2d
// CHECK:           %[[R:.*]] = tcp.clamp %[[C]]
// CHECK:           %[[T:.*]] = tcp.tanh %[[R]]
// CHECK:           tcp.yield %[[R]], %[[T]]
// CHECK:         return %[[G]]#1, %[[G]]#0
func.func @intermediate_returned(%x: !x, %w: !w) -> (!x, !x) {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %1 = tcp.clamp %0 {min_float = 0.0 : f32} : !x -> !x
  %2 = tcp.tanh %1 : !x -> !x
  return %2, %1 : !x, !x
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>

// Upstream mlir-tcp's reverted multi-use bug: %1 is in the group, %2 (not
// groupable: no cuDNN op) uses %1, and %3 uses both. Pulling %3 into the
// group would need %2 before the group and %2 needs the group: the epilogue
// must stop at %2, and %1 becomes a group result.
// CHECK-LABEL: func.func @interleaved_outside_use
// CHECK:         %[[G:.*]] = tcp.group
// CHECK:           tcp.conv2d
// CHECK:           %[[R:.*]] = tcp.clamp
// CHECK:           tcp.yield %[[R]]
// CHECK:         %[[T:.*]] = tcp.transpose %[[G]]
// CHECK:         %[[A:.*]] = tcp.add %[[G]], %[[T]]
// CHECK:         return %[[A]]
func.func @interleaved_outside_use(%x: !x, %w: !w) -> !x {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %1 = tcp.clamp %0 {min_float = 0.0 : f32} : !x -> !x
  // expected-remark @+1 {{left out of cuDNN graphs: not an op cuDNN graphs run (see the support table)}}
  %2 = tcp.transpose %1 {permutation = array<i64: 0, 1, 3, 2>} : !x -> !x
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %3 = tcp.add %1, %2 : !x, !x -> !x
  return %3 : !x
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>

// An unrelated op between group members that does not touch the group is
// no obstacle, and its result may feed the group (residual from elsewhere).
// CHECK-LABEL: func.func @independent_op_between
// CHECK:         %[[N:.*]] = tcp.neg %{{.*}}
// CHECK:         %[[G:.*]] = tcp.group
// CHECK:           %[[C:.*]] = tcp.conv2d
// CHECK:           %[[A:.*]] = tcp.add %[[C]], %[[N]]
// CHECK:           tcp.yield %[[A]]
func.func @independent_op_between(%x: !x, %w: !w, %y: !x) -> !x {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %1 = tcp.neg %y : !x -> !x
  %2 = tcp.add %0, %1 : !x, !x -> !x
  return %2 : !x
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>
!b = tensor<1x4x1x1xf16>

// ResNet basic block: two graphs; the second takes the first's output and
// the residual from outside.
// CHECK-LABEL: func.func @basic_block
// CHECK:         %[[G0:.*]] = tcp.group
// CHECK:           tcp.conv2d
// CHECK:           tcp.add
// CHECK:           tcp.clamp
// CHECK:         %[[G1:.*]] = tcp.group
// CHECK:           %[[C:.*]] = tcp.conv2d %[[G0]]
// CHECK:           %[[B:.*]] = tcp.add %[[C]]
// CHECK:           %[[R:.*]] = tcp.add %[[B]], %arg0
// CHECK:           tcp.clamp %[[R]]
// CHECK:         return %[[G1]]
func.func @basic_block(%x: !x, %w1: !w, %b1: !b, %w2: !w, %b2: !b) -> !x {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.conv2d %x, %w1 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %1 = tcp.broadcast %b1, %c1, %c8, %c8 {axes = [0, 2, 3]} : !b, index, index, index -> !x
  %2 = tcp.add %0, %1 : !x, !x -> !x
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : !x -> !x
  %4 = tcp.conv2d %3, %w2 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %5 = tcp.broadcast %b2, %c1, %c8, %c8 {axes = [0, 2, 3]} : !b, index, index, index -> !x
  %6 = tcp.add %4, %5 : !x, !x -> !x
  %7 = tcp.add %6, %x : !x, !x -> !x
  %8 = tcp.clamp %7 {min_float = 0.0 : f32} : !x -> !x
  return %8 : !x
}

// -----

// matmul + bias + GELU (sigmoid approximation x * sigmoid(1.702 x)), f16.
// CHECK-LABEL: func.func @matmul_bias_gelu
// CHECK:         tcp.group
// CHECK:           tcp.matmul
// CHECK:           tcp.add
// CHECK:           tcp.mul
// CHECK:           tcp.sigmoid
// CHECK:           tcp.mul
// CHECK:           tcp.yield
// CHECK-NOT:     tcp.mul
func.func @matmul_bias_gelu(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %bias: tensor<1x8xf16>, %k: tensor<1x1xf16>) -> tensor<16x8xf16> {
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.matmul %a, %b : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
  %1 = tcp.broadcast %bias, %c16 {axes = [0]} : tensor<1x8xf16>, index -> tensor<16x8xf16>
  %2 = tcp.add %0, %1 : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  %3 = tcp.broadcast %k, %c16, %c8 {axes = [0, 1]} : tensor<1x1xf16>, index, index -> tensor<16x8xf16>
  %4 = tcp.mul %2, %3 : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  %5 = tcp.sigmoid %4 : tensor<16x8xf16> -> tensor<16x8xf16>
  %6 = tcp.mul %2, %5 : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  return %6 : tensor<16x8xf16>
}

// -----

// matmul + bias + tcp.gelu in both forms (cuDNN's GELU_APPROX_TANH_FWD and
// GELU_FWD), f16: one group.
// CHECK-LABEL: func.func @matmul_bias_tcp_gelu
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.matmul
// CHECK:           %[[Z:.*]] = tcp.add
// CHECK-NEXT:      %[[T:.*]] = tcp.gelu %[[Z]] {approximate = "tanh"}
// CHECK-NEXT:      %[[E:.*]] = tcp.gelu %[[T]] :
// CHECK-NEXT:      tcp.yield %[[E]]
// CHECK:         return %[[G]]
func.func @matmul_bias_tcp_gelu(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %bias: tensor<1x8xf16>) -> tensor<16x8xf16> {
  %c16 = arith.constant 16 : index
  %0 = tcp.matmul %a, %b : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
  %1 = tcp.broadcast %bias, %c16 {axes = [0]} : tensor<1x8xf16>, index -> tensor<16x8xf16>
  %2 = tcp.add %0, %1 : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  %3 = tcp.gelu %2 {approximate = "tanh"} : tensor<16x8xf16> -> tensor<16x8xf16>
  %4 = tcp.gelu %3 : tensor<16x8xf16> -> tensor<16x8xf16>
  return %4 : tensor<16x8xf16>
}

// -----

// A linear layer's activation on the (N, H, W, C) view of its 2-D matmul
// (ConvNeXt's GELU) moves before the reshape and fuses as the epilogue; an
// add of two views of one shape moves too (and stays outside, with no
// anchor); an add of views of different shapes stays after them.
// CHECK-LABEL: func.func @gelu_after_expand
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"} {
// CHECK:           tcp.matmul
// CHECK:           %[[Z:.*]] = tcp.add
// CHECK-NEXT:      %[[E:.*]] = tcp.gelu %[[Z]] :
// CHECK-NEXT:      tcp.yield %[[E]]
// CHECK:         %[[S:.*]] = tcp.add %{{.*}}, %{{.*}} : tensor<32x8xf16>, tensor<32x8xf16> -> tensor<32x8xf16>
// CHECK-NEXT:    %[[X:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2], [3]] output_shape [2, 4, 4, 8] : tensor<32x8xf16> into tensor<2x4x4x8xf16>
// CHECK:         %[[D:.*]] = tcp.add %{{.*}}, %{{.*}} : tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
// CHECK-NEXT:    return %[[X]], %[[D]]
func.func @gelu_after_expand(%a: tensor<32x16xf16>, %b: tensor<16x8xf16>, %bias: tensor<1x8xf16>, %r: tensor<32x8xf16>, %q: tensor<2x16x8xf16>) -> (tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16>) {
  %c32 = arith.constant 32 : index
  %0 = tcp.matmul %a, %b : tensor<32x16xf16>, tensor<16x8xf16> -> tensor<32x8xf16>
  %1 = tcp.broadcast %bias, %c32 {axes = [0]} : tensor<1x8xf16>, index -> tensor<32x8xf16>
  %2 = tcp.add %0, %1 : tensor<32x8xf16>, tensor<32x8xf16> -> tensor<32x8xf16>
  %3 = tensor.expand_shape %2 [[0, 1, 2], [3]] output_shape [2, 4, 4, 8] : tensor<32x8xf16> into tensor<2x4x4x8xf16>
  %4 = tcp.gelu %3 : tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
  %5 = tensor.collapse_shape %4 [[0, 1, 2], [3]] : tensor<2x4x4x8xf16> into tensor<32x8xf16>
  %6 = tensor.expand_shape %5 [[0, 1, 2], [3]] output_shape [2, 4, 4, 8] : tensor<32x8xf16> into tensor<2x4x4x8xf16>
  %7 = tensor.expand_shape %r [[0, 1, 2], [3]] output_shape [2, 4, 4, 8] : tensor<32x8xf16> into tensor<2x4x4x8xf16>
  // expected-remark @+1 {{left out of cuDNN graphs, 2 ops (the first here): no conv/matmul anchor it could join}}
  %8 = tcp.add %6, %7 : tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
  %9 = tensor.expand_shape %q [[0], [1, 2], [3]] output_shape [2, 4, 4, 8] : tensor<2x16x8xf16> into tensor<2x4x4x8xf16>
  %10 = tcp.add %7, %9 : tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
  return %8, %10 : tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16>
}

// -----

// A GELU with no anchor stays outside: a generated kernel.
// CHECK-LABEL: func.func @gelu_alone
// CHECK-NEXT:    tcp.gelu
// CHECK-NEXT:    return
func.func @gelu_alone(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %0 = tcp.gelu %x : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

// Layer norm is a norm graph of its own; the following pointwise op has no
// anchor and stays outside.
// CHECK-LABEL: func.func @layer_norm_alone
// CHECK:         %[[G:.*]] = tcp.group
// CHECK-NEXT:      %[[N:.*]] = tcp.layer_norm
// CHECK-NEXT:      tcp.yield %[[N]]
// CHECK:         tcp.tanh %[[G]]
func.func @layer_norm_alone(%x: tensor<4x16xf16>, %g: tensor<16xf16>, %b: tensor<16xf16>) -> tensor<4x16xf16> {
  %0 = tcp.layer_norm %x scale(%g : tensor<16xf16>) bias(%b : tensor<16xf16>) {epsilon = 1.0e-5 : f64, normalized_rank = 1 : i64} : tensor<4x16xf16> -> tensor<4x16xf16>
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %1 = tcp.tanh %0 : tensor<4x16xf16> -> tensor<4x16xf16>
  return %1 : tensor<4x16xf16>
}

// -----

// fp32 anchors are grouped by default; fuse-fp32=false leaves them out.
// CHECK-LABEL: func.func @fp32_policy
// CHECK:         tcp.group
// NOFP32-LABEL: func.func @fp32_policy
// NOFP32-NEXT:   tcp.conv2d
// NOFP32-NEXT:   return
func.func @fp32_policy(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// f64 has no fused cuDNN engine: left out, with the reason.
// CHECK-LABEL: func.func @f64_left_out
// CHECK-NOT:     tcp.group
func.func @f64_left_out(%x: tensor<1x4x8x8xf64>, %w: tensor<4x4x3x3xf64>) -> tensor<1x4x8x8xf64> {
  // expected-remark @+1 {{left out of cuDNN graphs: unsupported element type 'f64' (cuDNN graphs here take f16, bf16, f32)}}
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf64>, tensor<4x4x3x3xf64> -> tensor<1x4x8x8xf64>
  return %0 : tensor<1x4x8x8xf64>
}

// -----

!x = tensor<1x4x8x8xf16>
!w = tensor<4x4x3x3xf16>

// A ReLU feeding two convs is no prologue of either (it would be computed
// twice); it stays outside and each conv is its own graph.
// CHECK-LABEL: func.func @shared_prologue_not_duplicated
// CHECK:         %[[R:.*]] = tcp.clamp
// CHECK:         tcp.group
// CHECK:           tcp.conv2d %[[R]]
// CHECK:         tcp.group
// CHECK:           tcp.conv2d %[[R]]
func.func @shared_prologue_not_duplicated(%x: !x, %w: !w) -> (!x, !x) {
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %0 = tcp.clamp %x {min_float = 0.0 : f32} : !x -> !x
  %1 = tcp.conv2d %0, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  %2 = tcp.conv2d %0, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : !x, !w -> !x
  return %1, %2 : !x, !x
}

// -----

// One reduction ends the epilogue; a second one is left out.
// CHECK-LABEL: func.func @one_reduction
// CHECK:         tcp.group
// CHECK:           tcp.conv2d
// CHECK:           tcp.reduce_sum
// CHECK:           tcp.yield
// CHECK:         tcp.reduce_max
func.func @one_reduction(%x: tensor<1x8x4x4xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32> -> tensor<1x8x4x4xf32>
  %1 = tcp.reduce_sum %0 {axes = array<i64: 1>, keep_dims} : tensor<1x8x4x4xf32> -> tensor<1x1x4x4xf32>
  // expected-remark @+1 {{left out of cuDNN graphs: follows the graph's reduction, which ends its epilogue}}
  %2 = tcp.reduce_max %1 {axes = array<i64: 2, 3>, keep_dims} : tensor<1x1x4x4xf32> -> tensor<1x1x1x1xf32>
  return %2 : tensor<1x1x1x1xf32>
}

// -----

// allow-tf32-matmul=false (the default, PyTorch's "highest"): cuDNN computes
// every fp32 matmul in TF32, so an fp32 matmul stays out of graphs (it runs
// on cuBLAS, convert-tcp-to-cublas) and so does its epilogue; with allow-tf32-matmul=true it
// is an anchor like an fp16 one.
// CHECK-LABEL: func.func @fp32_matmul
// CHECK-NOT:     tcp.group
// TF32-LABEL:  func.func @fp32_matmul
// TF32:          tcp.group
// TF32:            tcp.matmul
// TF32:            tcp.add
// TF32:            tcp.yield
func.func @fp32_matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-remark @+1 {{left out of cuDNN graphs: fp32 matmul and allow-tf32-matmul=false: cuDNN's fp32 matmul engines compute in TF32 (cuDNN 9.14, H100); it runs on cuBLAS}}
  %0 = tcp.matmul %a, %b : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
  // expected-remark @+1 {{left out of cuDNN graphs: no conv/matmul anchor it could join}}
  %1 = tcp.add %0, %c : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// The same for a batched matmul.
// CHECK-LABEL: func.func @fp32_batch_matmul
// CHECK-NOT:     tcp.group
// TF32-LABEL:  func.func @fp32_batch_matmul
// TF32:          tcp.group
// TF32:            tcp.batch_matmul
func.func @fp32_batch_matmul(%a: tensor<2x16x32xf32>, %b: tensor<2x32x8xf32>) -> tensor<2x16x8xf32> {
  // expected-remark @+1 {{left out of cuDNN graphs: fp32 matmul and allow-tf32-matmul=false}}
  %0 = tcp.batch_matmul %a, %b : tensor<2x16x32xf32>, tensor<2x32x8xf32> -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}

// -----

// The matmul switch leaves fp32 convolutions alone: they are graphs either
// way (exact ones run on cuDNN's non-TF32 engines, which
// convert-cudnn-to-llvm's allow-tf32-conv asks for).
// CHECK-LABEL: func.func @fp32_conv_any_matmul_precision
// CHECK:         tcp.group
// CHECK:           tcp.conv2d
// TF32-LABEL:  func.func @fp32_conv_any_matmul_precision
// TF32:          tcp.group
// TF32:            tcp.conv2d
func.func @fp32_conv_any_matmul_precision(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// A reduction writing fp16 stays out of the epilogue (no cuDNN 9.14 engine
// runs it on the H100): the matmul is a graph alone, the sum a generated
// kernel.
// CHECK-LABEL: func.func @f16_reduction_left_out
// CHECK:         tcp.group
// CHECK:           tcp.matmul
// CHECK-NEXT:      tcp.yield
// CHECK:         tcp.reduce_sum
func.func @f16_reduction_left_out(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>) -> tensor<16x1xf16> {
  %0 = tcp.matmul %a, %b : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
  // expected-remark @+1 {{left out of cuDNN graphs: no cuDNN engine runs a reduction epilogue writing f16 (cuDNN 9.14, H100); it is a generated kernel}}
  %1 = tcp.reduce_sum %0 {axes = array<i64: 1>, keep_dims} : tensor<16x8xf16> -> tensor<16x1xf16>
  return %1 : tensor<16x1xf16>
}

// -----

// Running the pass twice changes nothing: ops inside groups are not regrouped.
// CHECK-LABEL: func.func @already_grouped
// CHECK:         tcp.group
// CHECK-NOT:     tcp.group
func.func @already_grouped(%x: tensor<1x4x8x8xf16>, %w: tensor<4x4x3x3xf16>) -> tensor<1x4x8x8xf16> {
  %0 = tcp.group attributes {group_type = "cudnn"} {
    %1 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16> -> tensor<1x4x8x8xf16>
    tcp.yield %1 : tensor<1x4x8x8xf16>
  } : tensor<1x4x8x8xf16>
  return %0 : tensor<1x4x8x8xf16>
}

// -----

// A layer norm over only the last dim of a rank-3 tensor (the transformer
// case) is no cuDNN layer norm: left out, so the conversion never sees it.
// CHECK-LABEL: func.func @layer_norm_last_dim_only
// CHECK-NOT:     tcp.group
// CHECK:         tcp.layer_norm
func.func @layer_norm_last_dim_only(%x: tensor<2x4x16xf16>) -> tensor<2x4x16xf16> {
  // expected-remark @+1 {{left out of cuDNN graphs: cuDNN's layer norm covers all dims but the first (normalized_rank = 2), but this one has normalized_rank = 1}}
  %0 = tcp.layer_norm %x {epsilon = 1.0e-5 : f64, normalized_rank = 1 : i64} : tensor<2x4x16xf16> -> tensor<2x4x16xf16>
  return %0 : tensor<2x4x16xf16>
}

// -----

// ResNet-50 bottleneck with a projection shortcut: four graphs, one per
// conv. Anchors are taken in block order, so the projection conv (%8, before
// the last main-path conv %11) grows first and its epilogue takes the
// residual add and the final ReLU, with the main path's conv3+bias graph as
// the add's other operand: four graphs either way, and deterministic.
// CHECK-LABEL: func.func @bottleneck
// CHECK:         %[[A:.*]] = tcp.group
// CHECK:           tcp.conv2d %arg0, %arg1
// CHECK:           tcp.clamp
// CHECK:         %[[B:.*]] = tcp.group
// CHECK:           tcp.conv2d %[[A]], %arg3
// CHECK:           tcp.clamp
// CHECK:         %[[C:.*]] = tcp.group
// CHECK:           %[[X:.*]] = tcp.conv2d %[[B]], %arg5
// CHECK-NEXT:      %[[XB:.*]] = tcp.add %[[X]]
// CHECK-NEXT:      tcp.yield %[[XB]]
// CHECK:         %[[P:.*]] = tcp.group
// CHECK:           %[[Y:.*]] = tcp.conv2d %arg0, %arg7
// CHECK-NEXT:      %[[YB:.*]] = tcp.add %[[Y]]
// CHECK-NEXT:      %[[S:.*]] = tcp.add %[[C]], %[[YB]]
// CHECK-NEXT:      %[[R:.*]] = tcp.clamp %[[S]]
// CHECK-NEXT:      tcp.yield %[[R]]
// CHECK:         return %[[P]]
func.func @bottleneck(%x: tensor<1x64x8x8xf16>,
    %w1: tensor<16x64x1x1xf16>, %b1: tensor<1x16x1x1xf16>,
    %w2: tensor<16x16x3x3xf16>, %b2: tensor<1x16x1x1xf16>,
    %w3: tensor<128x16x1x1xf16>, %b3: tensor<1x128x1x1xf16>,
    %wp: tensor<128x64x1x1xf16>, %bp: tensor<1x128x1x1xf16>) -> tensor<1x128x8x8xf16> {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %0 = tcp.conv2d %x, %w1 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x64x8x8xf16>, tensor<16x64x1x1xf16> -> tensor<1x16x8x8xf16>
  %1 = tcp.broadcast %b1, %c1, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x16x1x1xf16>, index, index, index -> tensor<1x16x8x8xf16>
  %2 = tcp.add %0, %1 : tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %4 = tcp.conv2d %3, %w2 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x8x8xf16>
  %5 = tcp.broadcast %b2, %c1, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x16x1x1xf16>, index, index, index -> tensor<1x16x8x8xf16>
  %6 = tcp.add %4, %5 : tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %7 = tcp.clamp %6 {min_float = 0.0 : f32} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %8 = tcp.conv2d %x, %wp {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x64x8x8xf16>, tensor<128x64x1x1xf16> -> tensor<1x128x8x8xf16>
  %9 = tcp.broadcast %bp, %c1, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x128x1x1xf16>, index, index, index -> tensor<1x128x8x8xf16>
  %10 = tcp.add %8, %9 : tensor<1x128x8x8xf16>, tensor<1x128x8x8xf16> -> tensor<1x128x8x8xf16>
  %11 = tcp.conv2d %7, %w3 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : tensor<1x16x8x8xf16>, tensor<128x16x1x1xf16> -> tensor<1x128x8x8xf16>
  %12 = tcp.broadcast %b3, %c1, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x128x1x1xf16>, index, index, index -> tensor<1x128x8x8xf16>
  %13 = tcp.add %11, %12 : tensor<1x128x8x8xf16>, tensor<1x128x8x8xf16> -> tensor<1x128x8x8xf16>
  %14 = tcp.add %13, %10 : tensor<1x128x8x8xf16>, tensor<1x128x8x8xf16> -> tensor<1x128x8x8xf16>
  %15 = tcp.clamp %14 {min_float = 0.0 : f32} : tensor<1x128x8x8xf16> -> tensor<1x128x8x8xf16>
  return %15 : tensor<1x128x8x8xf16>
}

// -----

!t = tensor<16x8xf16>

// A long epilogue (12 pointwise ops after the matmul) stays one graph.
// CHECK-LABEL: func.func @long_epilogue
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.matmul
// CHECK-COUNT-12:  tcp.{{sigmoid|tanh|mul|add|sub|clamp|neg|abs}}
// CHECK-NEXT:      tcp.yield
func.func @long_epilogue(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %r: !t) -> !t {
  %0 = tcp.matmul %a, %b : tensor<16x32xf16>, tensor<32x8xf16> -> !t
  %1 = tcp.sigmoid %0 : !t -> !t
  %2 = tcp.mul %0, %1 : !t, !t -> !t
  %3 = tcp.tanh %2 : !t -> !t
  %4 = tcp.add %3, %r : !t, !t -> !t
  %5 = tcp.sub %4, %0 : !t, !t -> !t
  %6 = tcp.clamp %5 {min_float = -1.0 : f32, max_float = 6.0 : f32} : !t -> !t
  %7 = tcp.neg %6 : !t -> !t
  %8 = tcp.abs %7 : !t -> !t
  %9 = tcp.mul %8, %2 : !t, !t -> !t
  %10 = tcp.add %9, %4 : !t, !t -> !t
  %11 = tcp.sigmoid %10 : !t -> !t
  %12 = tcp.mul %11, %10 : !t, !t -> !t
  return %12 : !t
}

// -----

// Pooling is a resample graph of its own. An fp16 mean over H and W (global
// average pooling) stays a mean by default, outside every graph (a
// generated reduction kernel reads the pool's channels-last bytes).
// GPCODE-LABEL: func.func @pooling_graphs
// GPCODE:         %[[P:.*]] = tcp.group
// GPCODE-NEXT:      tcp.max_pool2d
// GPCODE-NEXT:      tcp.yield
// GPCODE-NEXT:    } : tensor<2x8x4x4xf16>
// GPCODE-NEXT:    %[[M:.*]] = tcp.reduce_mean %[[P]] {axes = array<i64: 2, 3>, keep_dims}
// GPCODE-NEXT:    return %[[M]]
// With global-pool=cudnn it becomes an avg_pool2d over the whole plane, a
// resample graph.
// GPCUDNN-LABEL: func.func @pooling_graphs
// GPCUDNN:         %[[P:.*]] = tcp.group
// GPCUDNN-NEXT:      tcp.max_pool2d
// GPCUDNN-NEXT:      tcp.yield
// GPCUDNN:         tcp.group
// GPCUDNN-NEXT:      tcp.avg_pool2d %[[P]] {count_include_pad, kernel_size = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
// GPCUDNN-NOT:     tcp.reduce_mean
func.func @pooling_graphs(%x: tensor<2x8x8x8xf16>) -> tensor<2x8x1x1xf16> {
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : tensor<2x8x8x8xf16> -> tensor<2x8x4x4xf16>
  // expected-remark @+1 {{left out of cuDNN graphs: a reduction with no conv/matmul epilogue to end (cuDNN graphs reduce only there); a generated reduction kernel runs it}}
  %1 = tcp.reduce_mean %0 {axes = array<i64: 2, 3>, keep_dims} : tensor<2x8x4x4xf16> -> tensor<2x8x1x1xf16>
  return %1 : tensor<2x8x1x1xf16>
}

// -----

// A whole-plane f16 avg_pool2d (torch's adaptive_avg_pool2d(x, 1)) becomes a
// reduce_mean left out of graphs by default; with global-pool=cudnn it is a
// resample graph. An fp32 one, or one with a smaller window, is not touched.
// GPCUDNN-LABEL: func.func @whole_plane_avg_pool
// GPCUDNN:         tcp.group
// GPCUDNN-NEXT:      tcp.avg_pool2d %{{.*}} {count_include_pad, kernel_size = array<i64: 4, 4>
// GPCUDNN:         tcp.group
// GPCUDNN-NEXT:      tcp.avg_pool2d %{{.*}} {count_include_pad, kernel_size = array<i64: 2, 2>
// GPCUDNN:         tcp.group
// GPCUDNN-NEXT:      tcp.avg_pool2d %{{.*}} {count_include_pad, kernel_size = array<i64: 4, 4>
// GPCODE-LABEL: func.func @whole_plane_avg_pool
// GPCODE:         %[[M:.*]] = tcp.reduce_mean %{{.*}} {axes = array<i64: 2, 3>, keep_dims} : tensor<2x8x4x4xf16> -> tensor<2x8x1x1xf16>
// GPCODE:         tcp.group
// GPCODE-NEXT:      tcp.avg_pool2d %{{.*}} {count_include_pad, kernel_size = array<i64: 2, 2>
// GPCODE:         tcp.group
// GPCODE-NEXT:      tcp.avg_pool2d %{{.*}} : tensor<2x8x4x4xf32>
// GPCODE:         return %[[M]]
func.func @whole_plane_avg_pool(%x: tensor<2x8x4x4xf16>, %y: tensor<2x8x4x4xf32>) -> (tensor<2x8x1x1xf16>, tensor<2x8x2x2xf16>, tensor<2x8x1x1xf32>) {
  // expected-remark @+1 {{left out of cuDNN graphs: a reduction with no conv/matmul epilogue to end (cuDNN graphs reduce only there); a generated reduction kernel runs it}}
  %0 = tcp.avg_pool2d %x {kernel_size = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>, count_include_pad} : tensor<2x8x4x4xf16> -> tensor<2x8x1x1xf16>
  %1 = tcp.avg_pool2d %x {kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, count_include_pad} : tensor<2x8x4x4xf16> -> tensor<2x8x2x2xf16>
  %2 = tcp.avg_pool2d %y {kernel_size = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>, count_include_pad} : tensor<2x8x4x4xf32> -> tensor<2x8x1x1xf32>
  return %0, %1, %2 : tensor<2x8x1x1xf16>, tensor<2x8x2x2xf16>, tensor<2x8x1x1xf32>
}

// -----

// cuDNN's resample has no dilation, and no mode counts a ceil-mode average
// window as PyTorch does: both stay out, with the reason.
// CHECK-LABEL: func.func @pooling_left_out
// CHECK-NOT:     tcp.group
func.func @pooling_left_out(%x: tensor<1x4x9x9xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x4x5x5xf32>) {
  // expected-remark @+1 {{left out of cuDNN graphs: cuDNN's resample has no dilation, but this max pool has dilation [2, 2]}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x3x3xf32>
  // expected-remark @+1 {{left out of cuDNN graphs: ceil_mode average pooling counts its window like no cuDNN resample mode}}
  %1 = tcp.avg_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  return %0, %1 : tensor<1x4x3x3xf32>, tensor<1x4x5x5xf32>
}

// -----

// Where ceil_mode adds no window (2x2, stride 2 over an even plane: timm's
// ResNet-D shortcut), the average pool is floor's and goes to a resample
// graph like any other.
// CHECK-LABEL: func.func @ceil_mode_without_overhang
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.avg_pool2d
func.func @ceil_mode_without_overhang(%x: tensor<1x4x8x8xf16>) -> tensor<1x4x4x4xf16> {
  %0 = tcp.avg_pool2d %x {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf16> -> tensor<1x4x4x4xf16>
  return %0 : tensor<1x4x4x4xf16>
}

// -----

// bf16 pools are left to generated kernels: cuDNN 9.14's bf16 resample gave
// wrong results on an H100.
// CHECK-LABEL: func.func @pooling_bf16_left_out
// CHECK-NOT:     tcp.group
func.func @pooling_bf16_left_out(%x: tensor<1x4x9x9xbf16>) -> tensor<1x4x4x4xbf16> {
  // expected-remark @+1 {{left out of cuDNN graphs: cuDNN's bf16 resample returns wrong results (cuDNN 9.14, H100); bf16 pools are generated kernels}}
  %0 = tcp.max_pool2d %x {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x4x9x9xbf16> -> tensor<1x4x4x4xbf16>
  return %0 : tensor<1x4x4x4xbf16>
}

// -----

// A bf16 grouped (depthwise) conv runs in cuDNN alone: cuDNN 9.14 on the
// H100 runs it (eng5), but no engine fuses a pointwise op with it
// (MobileNetV2 in bf16); its ReLU is left out with the reason. An f16 one
// takes its ReLU.
// CHECK-LABEL: func.func @bf16_depthwise_conv
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.yield
// CHECK:         tcp.clamp
// CHECK-LABEL: func.func @f16_depthwise_conv
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.clamp
// MAX2-LABEL: func.func @bf16_depthwise_conv
// NOFP32-LABEL: func.func @bf16_depthwise_conv
func.func @bf16_depthwise_conv(%x: tensor<2x32x12x12xbf16>, %w: tensor<32x1x3x3xbf16>) -> tensor<2x32x12x12xbf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 32 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x32x12x12xbf16>, tensor<32x1x3x3xbf16> -> tensor<2x32x12x12xbf16>
  // expected-remark @+1 {{left out of cuDNN graphs: cuDNN runs a bf16 grouped conv (groups = 32) only alone, with no pointwise op fused (cuDNN 9.14, H100); the conv runs alone}}
  %1 = tcp.clamp %0 {min_float = 0.0 : f32} : tensor<2x32x12x12xbf16> -> tensor<2x32x12x12xbf16>
  return %1 : tensor<2x32x12x12xbf16>
}
func.func @f16_depthwise_conv(%x: tensor<2x32x12x12xf16>, %w: tensor<32x1x3x3xf16>) -> tensor<2x32x12x12xf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 32 : i64, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<2x32x12x12xf16>, tensor<32x1x3x3xf16> -> tensor<2x32x12x12xf16>
  %1 = tcp.clamp %0 {min_float = 0.0 : f32} : tensor<2x32x12x12xf16> -> tensor<2x32x12x12xf16>
  return %1 : tensor<2x32x12x12xf16>
}

// -----

// An image's first layer (an f16/bf16 conv with at most 4 input channels and
// at least 2^18 output elements) runs alone: cuDNN's fused engines take
// 1.6 ms for ResNet-50's at batch 128 on the H100, the conv alone 0.2 ms.
// Its epilogue becomes a generated kernel; its ops are reported with the
// reason once, on the first, with their count.
// CHECK-LABEL: func.func @first_layer_alone
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.yield
// CHECK:         tcp.mul
// CHECK:         tcp.clamp
func.func @first_layer_alone(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>, %s: tensor<1x64x1x1xf16>) -> tensor<1x64x112x112xf16> {
  %c1 = arith.constant 1 : index
  %c112 = arith.constant 112 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 3, 3, 3, 3>, stride = array<i64: 2, 2>} : tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16> -> tensor<1x64x112x112xf16>
  // expected-remark @+1 {{left out of cuDNN graphs: feeds no grouped pointwise op}}
  %1 = tcp.broadcast %s, %c1, %c112, %c112 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<1x64x112x112xf16>
  // expected-remark @+1 {{left out of cuDNN graphs, 2 ops (the first here): the conv it would join has 3 input channels per group (at most 4) and 802816 output elements, which cuDNN's fused engines run slowly (cuDNN 9.14, H100); the conv runs alone}}
  %2 = tcp.mul %0, %1 : tensor<1x64x112x112xf16>, tensor<1x64x112x112xf16> -> tensor<1x64x112x112xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<1x64x112x112xf16> -> tensor<1x64x112x112xf16>
  return %3 : tensor<1x64x112x112xf16>
}

// -----

// VGG: a first layer that runs alone, then its bias and ReLU, then the next
// conv. The bias and ReLU stay a generated kernel rather than become that
// conv's prologue (cuDNN's prologue engine ran VGG-16's second conv in 851
// us, the conv alone in about 100 us); the next conv keeps its epilogue.
// CHECK-LABEL: func.func @first_layer_epilogue_not_a_prologue
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.yield
// CHECK:         tcp.add
// CHECK:         %[[R:.*]] = tcp.clamp
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.conv2d %[[R]]
// CHECK-NEXT:      tcp.clamp
// CHECK-NEXT:      tcp.yield
func.func @first_layer_epilogue_not_a_prologue(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x3x3xf16>, %b: tensor<1x64x1x1xf16>, %w2: tensor<64x64x3x3xf16>) -> tensor<1x64x224x224xf16> {
  %c1 = arith.constant 1 : index
  %c224 = arith.constant 224 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x3x224x224xf16>, tensor<64x3x3x3xf16> -> tensor<1x64x224x224xf16>
  // expected-remark @+1 {{left out of cuDNN graphs: feeds no grouped pointwise op}}
  %1 = tcp.broadcast %b, %c1, %c224, %c224 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<1x64x224x224xf16>
  // expected-remark @+1 {{left out of cuDNN graphs, 2 ops (the first here): the conv it would join has 3 input channels per group (at most 4) and 3211264 output elements, which cuDNN's fused engines run slowly (cuDNN 9.14, H100); the conv runs alone}}
  %2 = tcp.add %0, %1 : tensor<1x64x224x224xf16>, tensor<1x64x224x224xf16> -> tensor<1x64x224x224xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<1x64x224x224xf16> -> tensor<1x64x224x224xf16>
  %4 = tcp.conv2d %3, %w2 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x64x224x224xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x224x224xf16>
  %5 = tcp.clamp %4 {min_float = 0.0 : f32} : tensor<1x64x224x224xf16> -> tensor<1x64x224x224xf16>
  return %5 : tensor<1x64x224x224xf16>
}

// -----

// Small enough that launches dominate: the same 3-channel conv keeps its
// epilogue.
// CHECK-LABEL: func.func @small_first_layer_fuses
// CHECK:         tcp.group
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.clamp
// CHECK-NEXT:      tcp.yield
func.func @small_first_layer_fuses(%x: tensor<1x3x32x32xf16>, %w: tensor<16x3x3x3xf16>) -> tensor<1x16x32x32xf16> {
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x3x32x32xf16>, tensor<16x3x3x3xf16> -> tensor<1x16x32x32xf16>
  %1 = tcp.clamp %0 {min_float = 0.0 : f32} : tensor<1x16x32x32xf16> -> tensor<1x16x32x32xf16>
  return %1 : tensor<1x16x32x32xf16>
}

// -----

// A linear on a batch as torch.export's decomposition writes it (the weight
// expanded to the batch, then bmm): the matmul takes the broadcast tensor,
// so that broadcast stays outside the group; the bias broadcast feeding the
// add is absorbed as usual. The weight broadcast also feeds the add (square
// shapes): that use takes the clone.
// CHECK-LABEL: func.func @batch_matmul_of_broadcast
// CHECK:         %[[W:.*]] = tcp.broadcast %arg1
// CHECK:         tcp.group attributes {group_type = "cudnn"} {
// CHECK-DAG:       %[[WC:.*]] = tcp.broadcast %arg1
// CHECK-DAG:       %[[BC:.*]] = tcp.broadcast %arg2
// CHECK:           %[[M:.*]] = tcp.batch_matmul %arg0, %[[W]]
// CHECK-NEXT:      %[[A:.*]] = tcp.add %[[M]], %[[BC]]
// CHECK-NEXT:      %[[B:.*]] = tcp.add %[[A]], %[[WC]]
// CHECK-NEXT:      tcp.yield %[[B]]
func.func @batch_matmul_of_broadcast(%a: tensor<3x4x4xf16>, %w: tensor<1x4x4xf16>, %bias: tensor<1x1x4xf16>) -> tensor<3x4x4xf16> {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-remark @+1 {{left out of cuDNN graphs: feeds 'tcp.batch_matmul', which takes the broadcast tensor (only pointwise ops broadcast in cuDNN graphs)}}
  %0 = tcp.broadcast %w, %c3 {axes = [0]} : tensor<1x4x4xf16>, index -> tensor<3x4x4xf16>
  %1 = tcp.batch_matmul %a, %0 : tensor<3x4x4xf16>, tensor<3x4x4xf16> -> tensor<3x4x4xf16>
  %2 = tcp.broadcast %bias, %c3, %c4 {axes = [0, 1]} : tensor<1x1x4xf16>, index, index -> tensor<3x4x4xf16>
  %3 = tcp.add %1, %2 : tensor<3x4x4xf16>, tensor<3x4x4xf16> -> tensor<3x4x4xf16>
  %4 = tcp.add %3, %0 : tensor<3x4x4xf16>, tensor<3x4x4xf16> -> tensor<3x4x4xf16>
  return %4 : tensor<3x4x4xf16>
}
