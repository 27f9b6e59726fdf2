// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn -verify-diagnostics

func.func @unsupported_op(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8xf32>):
    // expected-error @below {{'tcp.round' op expects an op cuDNN graphs can run (tcp.conv2d, tcp.conv3d, tcp.conv_transpose2d, tcp.conv_transpose3d, tcp.matmul, tcp.batch_matmul, tcp.clamp, tcp.add, tcp.sub, tcp.mul, tcp.divf, tcp.sigmoid, tcp.tanh, tcp.gelu, tcp.exp, tcp.neg, tcp.abs, tcp.sqrt, tcp.log, tcp.ceil, tcp.floor, tcp.sin, tcp.cos, tcp.broadcast, tcp.reduce_sum, tcp.reduce_mean, tcp.reduce_max, tcp.reduce_min, tcp.batch_norm, tcp.batch_norm_training, tcp.batch_norm_backward, tcp.layer_norm, tcp.max_pool2d, tcp.avg_pool2d, tcp.const, arith.constant), but got 'tcp.round'}}
    %1 = tcp.round %a : tensor<8xf32> -> tensor<8xf32>
    tcp.yield %1 : tensor<8xf32>
  } : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @integer_clamp(%x: tensor<8xi32>) -> tensor<8xi32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8xi32>):
    // expected-error @below {{expects float bounds (cuDNN's ReLU clips are floats), but got an integer clamp}}
    %1 = tcp.clamp %a {min_int = 0 : i64} : tensor<8xi32> -> tensor<8xi32>
    tcp.yield %1 : tensor<8xi32>
  } : tensor<8xi32> -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @broadcast_into_matmul(%x: tensor<1x8xf32>, %y: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = tcp.isolated_group %x, %y attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x8xf32>, %b: tensor<8x8xf32>):
    %c4 = arith.constant 4 : index
    // expected-error @below {{expects its result to feed only pointwise ops (cuDNN broadcasts there), but it feeds 'tcp.matmul'}}
    %1 = tcp.broadcast %a, %c4 {axes = [0]} : tensor<1x8xf32>, index -> tensor<4x8xf32>
    %2 = tcp.matmul %1, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
    tcp.yield %2 : tensor<4x8xf32>
  } : tensor<1x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_yielded(%x: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x8xf32>):
    %c4 = arith.constant 4 : index
    // expected-error @below {{expects its result to feed only pointwise ops (cuDNN broadcasts there), but it feeds 'tcp.yield'}}
    %1 = tcp.broadcast %a, %c4 {axes = [0]} : tensor<1x8xf32>, index -> tensor<4x8xf32>
    tcp.yield %1 : tensor<4x8xf32>
  } : tensor<1x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @pass_through(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<8xf32>):
    %1 = tcp.tanh %a : tensor<8xf32> -> tensor<8xf32>
    // expected-error @below {{expects each yielded value to be computed by the cuDNN graph, but operand #1 is a graph input}}
    tcp.yield %1, %a : tensor<8xf32>, tensor<8xf32>
  } : tensor<8xf32> -> tensor<8xf32>, tensor<8xf32>
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

func.func @reduce_without_keep_dims_used(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8xf32>):
    // expected-error @below {{expects a reduction without keep_dims to be only yielded (cuDNN keeps reduced dims), but it feeds another op of the group}}
    %1 = tcp.reduce_sum %a {axes = array<i64: 1>} : tensor<2x8xf32> -> tensor<2xf32>
    %2 = tcp.tanh %1 : tensor<2xf32> -> tensor<2xf32>
    tcp.yield %2 : tensor<2xf32>
  } : tensor<2x8xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @eval_backward(%dy: tensor<2x8x4x4xf32>, %x: tensor<2x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %0 = tcp.isolated_group %dy, %x, %p attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x4x4xf32>, %b: tensor<2x8x4x4xf32>, %q: tensor<8xf32>):
    // expected-error @below {{'tcp.batch_norm_backward' op expects training = true (cuDNN's norm backward has no inference form), but got false}}
    %dx, %ds, %db = tcp.batch_norm_backward %a, %b, %q, %q, %q {training = false}
        : tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
    tcp.yield %dx : tensor<2x8x4x4xf32>
  } : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

func.func @layer_norm_training(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x16xf32>):
    // expected-error @below {{'tcp.layer_norm_training' op expects the inference form of a normalisation; the training form is not translated to cuDNN yet}}
    %y, %m, %r = tcp.layer_norm_training %a {epsilon = 1.000000e-05 : f64, normalized_rank = 2 : i64}
        : tensor<2x8x16xf32> -> tensor<2x8x16xf32>, tensor<2x1x1xf32>
    tcp.yield %y : tensor<2x8x16xf32>
  } : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @layer_norm_partial(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x16xf32>):
    // expected-error @below {{expects normalized_rank = rank(x) - 1 = 2 (cuDNN normalizes every dim but N), but got 1}}
    %y = tcp.layer_norm %a {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64}
        : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    tcp.yield %y : tensor<2x8x16xf32>
  } : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @computed_norm_param(%x: tensor<2x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %0 = tcp.isolated_group %x, %p attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<2x8x4x4xf32>, %q: tensor<8xf32>):
    %s = tcp.tanh %q : tensor<8xf32> -> tensor<8xf32>
    // expected-error @below {{expects its parameters to be group arguments or constants (cuDNN graphs cannot reshape them), but one is computed by 'tcp.tanh'}}
    %y = tcp.batch_norm %a, %s, %q, %q, %q {epsilon = 1.000000e-05 : f64}
        : tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
    tcp.yield %y : tensor<2x8x4x4xf32>
  } : tensor<2x8x4x4xf32>, tensor<8xf32> -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

func.func @bad_element_type(%x: tensor<8xi16>) -> tensor<8xi16> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  // expected-error @above {{'tcp.isolated_group' op expects a cuDNN element type (f16, bf16, f32, f64, f8E4M3FN, f8E5M2, i1, i8, ui8, i32, i64), but got 'i16'}}
  ^bb0(%a: tensor<8xi16>):
    %1 = tcp.abs %a : tensor<8xi16> -> tensor<8xi16>
    tcp.yield %1 : tensor<8xi16>
  } : tensor<8xi16> -> tensor<8xi16>
  return %0 : tensor<8xi16>
}

// -----

func.func @rank_zero(%x: tensor<f32>) -> tensor<f32> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  // expected-error @above {{'tcp.isolated_group' op expects a tensor_desc rank between 1 and 8, but got 0}}
  ^bb0(%a: tensor<f32>):
    %1 = tcp.tanh %a : tensor<f32> -> tensor<f32>
    tcp.yield %1 : tensor<f32>
  } : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Groups without group_type (the seed's stage 2 form) are graphs only when
// the support table accepts them; every rejection names the op and the
// table's reason (convert-tcp-to-cudnn-untyped.mlir has the accepted ones).

func.func @untyped_unsupported_op(%x: tensor<1x8x6x6xf16>, %w: tensor<8x8x3x3xf16>) -> tensor<1x8x6x6xf16> {
  %0 = tcp.isolated_group %x, %w {
  ^bb0(%a: tensor<1x8x6x6xf16>, %k: tensor<8x8x3x3xf16>):
    %1 = tcp.conv2d %a, %k {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : tensor<1x8x6x6xf16>, tensor<8x8x3x3xf16> -> tensor<1x8x6x6xf16>
    // expected-error @below {{'tcp.round' op expects an op the cuDNN support table accepts (its tcp.isolated_group has no group_type, so the table decides), but got 'tcp.round': not an op cuDNN graphs run (see the support table)}}
    %2 = tcp.round %1 : tensor<1x8x6x6xf16> -> tensor<1x8x6x6xf16>
    tcp.yield %2 : tensor<1x8x6x6xf16>
  } : tensor<1x8x6x6xf16>, tensor<8x8x3x3xf16> -> tensor<1x8x6x6xf16>
  return %0 : tensor<1x8x6x6xf16>
}

// -----

func.func @untyped_exact_fp32_matmul(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = tcp.isolated_group %x, %y {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>):
    // expected-error @below {{'tcp.matmul' op expects an op the cuDNN support table accepts (its tcp.isolated_group has no group_type, so the table decides), but got 'tcp.matmul': fp32 matmul and allow-tf32-matmul=false: cuDNN's fp32 matmul engines compute in TF32 (cuDNN 9.14, H100); it runs on cuBLAS}}
    %1 = tcp.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
    tcp.yield %1 : tensor<4x8xf32>
  } : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @untyped_integer_add(%x: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = tcp.isolated_group %x {
  ^bb0(%a: tensor<4x8xi32>):
    // expected-error @below {{'tcp.add' op expects an op the cuDNN support table accepts (its tcp.isolated_group has no group_type, so the table decides), but got 'tcp.add': unsupported element type 'i32' (cuDNN graphs here take f16, bf16, f32)}}
    %1 = tcp.add %a, %a : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
    tcp.yield %1 : tensor<4x8xi32>
  } : tensor<4x8xi32> -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// -----

func.func @untyped_pointwise_only(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @below {{'tcp.isolated_group' op expects a conv, matmul, norm or pool for the cuDNN graph to be built around (cuDNN runs no graph of pointwise ops alone), but got none in a group without group_type}}
  %0 = tcp.isolated_group %x {
  ^bb0(%a: tensor<8xf16>):
    %1 = tcp.tanh %a : tensor<8xf16> -> tensor<8xf16>
    tcp.yield %1 : tensor<8xf16>
  } : tensor<8xf16> -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

func.func @untyped_two_anchors(%x: tensor<4x8xf16>, %y: tensor<8x8xf16>) -> tensor<4x8xf16> {
  %0 = tcp.isolated_group %x, %y {
  ^bb0(%a: tensor<4x8xf16>, %b: tensor<8x8xf16>):
    %1 = tcp.matmul %a, %b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
    // expected-error @below {{'tcp.matmul' op expects one conv, matmul, norm or pool per cuDNN graph, but got 'tcp.matmul' after 'tcp.matmul' in a tcp.isolated_group without group_type}}
    %2 = tcp.matmul %1, %b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
    tcp.yield %2 : tensor<4x8xf16>
  } : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// ceil_mode's extra padding depends on the spatial sizes.
func.func @max_pool_ceil_dynamic(%x: tensor<1x4x?x?xf16>) -> tensor<1x4x?x?xf16> {
  %0 = tcp.isolated_group %x attributes {group_type = "cudnn"} {
  ^bb0(%a: tensor<1x4x?x?xf16>):
    // expected-error @below {{'tcp.max_pool2d' op expects static spatial sizes with ceil_mode (its extra padding depends on them), but got 'tensor<1x4x?x?xf16>'}}
    %1 = tcp.max_pool2d %a {ceil_mode, kernel_size = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<1x4x?x?xf16> -> tensor<1x4x?x?xf16>
    tcp.yield %1 : tensor<1x4x?x?xf16>
  } : tensor<1x4x?x?xf16> -> tensor<1x4x?x?xf16>
  return %0 : tensor<1x4x?x?xf16>
}
