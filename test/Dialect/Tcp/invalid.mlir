// RUN: cudnn-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of the upstream-compatible tcp ops.

func.func @binary_implicit_broadcast(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tcp.add %a, %b : tensor<2x3xf32>, tensor<1x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @binary_mixed_types(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tcp.sub %a, %b : tensor<2xf32>, tensor<2xf16> -> tensor<2xf32>
  return
}

// -----

func.func @divf_on_ints(%a: tensor<2xi32>) {
  // expected-error @+1 {{must be ranked tensor of floating-point values}}
  %0 = tcp.divf %a, %a : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  return
}

// -----

func.func @divsi_without_rounding(%a: tensor<2xi32>) {
  // expected-error @+1 {{requires attribute 'rounding_mode'}}
  %0 = tcp.divsi %a, %a : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  return
}

// -----

func.func @tanh_on_ints(%a: tensor<2xi32>) {
  // expected-error @+1 {{must be ranked tensor of floating-point values}}
  %0 = tcp.tanh %a : tensor<2xi32> -> tensor<2xi32>
  return
}

// -----

func.func @unary_shape_change(%a: tensor<2xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tcp.sigmoid %a : tensor<2xf32> -> tensor<3xf32>
  return
}

// -----

func.func @clamp_int_bound_on_float(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects min_float/max_float for a float tensor, but got min_int/max_int with element type 'f32'}}
  %0 = tcp.clamp %a {min_int = 0 : i64} : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @clamp_no_float_bound(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects at least one of min_float/max_float, but got neither}}
  %0 = tcp.clamp %a : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @clamp_float_bounds_reversed(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects min_float <= max_float, but got 6.000000e+00 > 0.000000e+00}}
  %0 = tcp.clamp %a {min_float = 6.0 : f32, max_float = 0.0 : f32} : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @clamp_float_bound_on_int(%a: tensor<2xi32>) {
  // expected-error @+1 {{expects min_int/max_int for an integer tensor, but got min_float/max_float with element type 'i32'}}
  %0 = tcp.clamp %a {min_float = 0.0 : f32} : tensor<2xi32> -> tensor<2xi32>
  return
}

// -----

func.func @clamp_no_int_bound(%a: tensor<2xi32>) {
  // expected-error @+1 {{expects at least one of min_int/max_int, but got neither}}
  %0 = tcp.clamp %a : tensor<2xi32> -> tensor<2xi32>
  return
}

// -----

func.func @clamp_int_bounds_reversed(%a: tensor<2xi32>) {
  // expected-error @+1 {{expects min_int <= max_int, but got 5 > -5}}
  %0 = tcp.clamp %a {min_int = 5 : i64, max_int = -5 : i64} : tensor<2xi32> -> tensor<2xi32>
  return
}

// -----

func.func @const_type_mismatch() {
  // expected-error @+1 {{expects the value's type to be the result type 'tensor<3xf32>', but got 'tensor<2xf32>'}}
  %0 = tcp.const {value = dense<[1.0, 2.0]> : tensor<2xf32>} : tensor<3xf32>
  return
}

// -----

func.func @broadcast_count(%a: tensor<1x4xf32>, %n: index) {
  // expected-error @+1 {{expects one new_dim_sizes operand per axis, but got 2 sizes for 1 axes}}
  %0 = tcp.broadcast %a, %n, %n {axes = [0]} : tensor<1x4xf32>, index, index -> tensor<?x4xf32>
  return
}

// -----

func.func @broadcast_axis_out_of_range(%a: tensor<1x4xf32>, %n: index) {
  // expected-error @+1 {{expects axes in [0, 2), but got 2}}
  %0 = tcp.broadcast %a, %n {axes = [2]} : tensor<1x4xf32>, index -> tensor<1x4xf32>
  return
}

// -----

func.func @broadcast_non_unit(%a: tensor<1x4xf32>, %n: index) {
  // expected-error @+1 {{expects the input to have static size 1 on axis 1, but got [1, 4]}}
  %0 = tcp.broadcast %a, %n {axes = [1]} : tensor<1x4xf32>, index -> tensor<1x?xf32>
  return
}

// -----

func.func @broadcast_unsorted(%a: tensor<1x1xf32>, %n: index) {
  // expected-error @+1 {{expects axes sorted without duplicates, but got [1, 0]}}
  %0 = tcp.broadcast %a, %n, %n {axes = [1, 0]} : tensor<1x1xf32>, index, index -> tensor<?x?xf32>
  return
}

// -----

func.func @broadcast_wrong_new_size(%a: tensor<1x4xf32>) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{expects result dimension 0 to be the new size 3, but got [5, 4]}}
  %0 = tcp.broadcast %a, %c3 {axes = [0]} : tensor<1x4xf32>, index -> tensor<5x4xf32>
  return
}

// -----

func.func @broadcast_changes_other_dim(%a: tensor<1x4xf32>, %n: index) {
  // expected-error @+1 {{expects dimensions not in axes to keep their size, but got input [1, 4] and result [?, 5]}}
  %0 = tcp.broadcast %a, %n {axes = [0]} : tensor<1x4xf32>, index -> tensor<?x5xf32>
  return
}

// -----

func.func @broadcast_integer_axes(%a: tensor<1x4xf32>, %n: index) {
  // expected-error @+1 {{attribute 'axes' failed to satisfy constraint: 64-bit integer array attribute}}
  %0 = tcp.broadcast %a, %n {axes = ["x"]} : tensor<1x4xf32>, index -> tensor<?x4xf32>
  return
}

// -----

func.func @cast_float_with_signedness(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects no in_int_signedness for float element type 'f32', but got Signed}}
  %0 = tcp.cast %a {in_int_signedness = #tcp<signedness Signed>} : tensor<2xf32> -> tensor<2xf16>
  return
}

// -----

func.func @cast_int_without_signedness(%a: tensor<2xi32>) {
  // expected-error @+1 {{expects in_int_signedness for integer element type 'i32', but got none}}
  %0 = tcp.cast %a : tensor<2xi32> -> tensor<2xf32>
  return
}

// -----

func.func @cast_signed_i1(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects out_int_signedness Signless for i1, but got Signed}}
  %0 = tcp.cast %a {out_int_signedness = #tcp<signedness Signed>} : tensor<2xf32> -> tensor<2xi1>
  return
}

// -----

func.func @slice_rank_change(%a: tensor<4x4xf32>, %i: index) {
  // expected-error @+1 {{expects the result rank to be the input rank 2, but got 1}}
  %0 = tcp.slice %a starts(%i, %i) sizes(%i, %i) strides(%i, %i) : tensor<4x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @slice_operand_count(%a: tensor<4x4xf32>, %i: index) {
  // expected-error @+1 {{expects one sizes value per input dimension (2), but got 1}}
  %0 = tcp.slice %a starts(%i, %i) sizes(%i) strides(%i, %i) : tensor<4x4xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @slice_size_mismatch(%a: tensor<4x4xf32>, %i: index) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{expects result dimension 1 to be its size 2, but got [?, 3]}}
  %0 = tcp.slice %a starts(%i, %i) sizes(%i, %c2) strides(%i, %i) : tensor<4x4xf32> -> tensor<?x3xf32>
  return
}

// -----

func.func @slice_zero_stride(%a: tensor<4x4xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expects strides >= 1, but got 0 in dimension 0}}
  %0 = tcp.slice %a starts(%i, %i) sizes(%i, %i) strides(%c0, %i) : tensor<4x4xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %0 = "tcp.concat"() {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{expects axis in [0, 2), but got 2}}
  %0 = tcp.concat %a attributes {axis = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>) {
  // expected-error @+1 {{expects every input to have the result rank 2, but got 'tensor<6xf32>'}}
  %0 = tcp.concat %a, %b attributes {axis = 0 : i64} : tensor<2x3xf32>, tensor<6xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_other_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{expects inputs to match the result outside axis 0, but got [2, 4] for result [4, 3]}}
  %0 = tcp.concat %a, %b attributes {axis = 0 : i64} : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_sum(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{expects the result's axis dimension to be the sum of the inputs' 4, but got 5}}
  %0 = tcp.concat %a, %a attributes {axis = 0 : i64} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<5x3xf32>
  return
}

// -----

func.func @gather_dim(%a: tensor<4x3xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{expects dim in [0, 2), but got 2}}
  %0 = tcp.gather %a, %i {dim = 2 : index} : tensor<4x3xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_rank(%a: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{expects indices of the input's rank 2, but got 1}}
  %0 = tcp.gather %a, %i {dim = 1 : index} : tensor<4x3xf32>, tensor<2xi64> -> tensor<2xf32>
  return
}

// -----

func.func @gather_indices_too_large(%a: tensor<4x3xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{expects indices no larger than the input outside dim, but got indices [5, 2] for input [4, 3]}}
  %0 = tcp.gather %a, %i {dim = 1 : index} : tensor<4x3xf32>, tensor<5x2xi64> -> tensor<5x2xf32>
  return
}

// -----

func.func @gather_result_shape(%a: tensor<4x3xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{expects the result shape to be the indices' shape [4, 2], but got [4, 3]}}
  %0 = tcp.gather %a, %i {dim = 1 : index} : tensor<4x3xf32>, tensor<4x2xi64> -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_result_type(%a: tensor<4x3xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{expects the result element type to be the input's 'f32', but got 'f16'}}
  %0 = tcp.gather %a, %i {dim = 1 : index} : tensor<4x3xf32>, tensor<4x2xi64> -> tensor<4x2xf16>
  return
}

// -----

func.func @gather_nd_rank0(%a: tensor<4x3xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{expects indices of rank >= 1, but got rank 0}}
  %0 = tcp.gather_nd %a, %i : tensor<4x3xf32>, tensor<i64> -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_nd_dynamic_depth(%a: tensor<4x3xf32>, %i: tensor<2x?xi64>) {
  // expected-error @+1 {{expects a static last dimension of indices, but got [2, ?]}}
  %0 = tcp.gather_nd %a, %i : tensor<4x3xf32>, tensor<2x?xi64> -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_depth(%a: tensor<4x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{expects the last dimension of indices to be at most the input rank 2, but got 3}}
  %0 = tcp.gather_nd %a, %i : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_result(%a: tensor<5x7x3xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{expects result type 'tensor<4x3xf32>', but got 'tensor<4x7xf32>'}}
  %0 = tcp.gather_nd %a, %i : tensor<5x7x3xf32>, tensor<4x2xi64> -> tensor<4x7xf32>
  return
}

// -----

func.func @custom_op_empty_name(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects a non-empty op_name, but got ""}}
  %0 = tcp.custom_op("") %a : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @group_yield_count(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects tcp.yield to produce 1 values (one per result), but got 2}}
  %0 = tcp.group {
    tcp.yield %a, %a : tensor<2xf32>, tensor<2xf32>
  } : tensor<2xf32>
  return
}

// -----

func.func @group_yield_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects yielded value #0 to have the result type 'tensor<3xf32>', but got 'tensor<2xf32>'}}
  %0 = tcp.group {
    tcp.yield %a : tensor<2xf32>
  } : tensor<3xf32>
  return
}

// -----

func.func @isolated_group_arg_count(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects one block argument per operand (1), but got 0}}
  %0 = tcp.isolated_group %a {
    %c = tcp.const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
    tcp.yield %c : tensor<2xf32>
  } : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @isolated_group_arg_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects block argument #0 to have the operand type 'tensor<2xf32>', but got 'tensor<3xf32>'}}
  %0 = tcp.isolated_group %a {
  ^bb0(%x: tensor<3xf32>):
    %c = tcp.const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
    tcp.yield %c : tensor<2xf32>
  } : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @isolated_group_captures(%a: tensor<2xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = "tcp.isolated_group"() ({
    // expected-error @+1 {{using value defined outside the region}}
    %t = tcp.tanh %a : tensor<2xf32> -> tensor<2xf32>
    tcp.yield %t : tensor<2xf32>
  }) : () -> tensor<2xf32>
  return
}

// -----

func.func @yield_outside_group(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects parent op to be one of 'tcp.group, tcp.isolated_group'}}
  tcp.yield %a : tensor<2xf32>
}

// -----

func.func @group_without_yield() {
  // expected-error @+1 {{expects the body to end in tcp.yield, but it does not}}
  %0 = "tcp.group"() ({
    %c = tcp.const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
  }) : () -> tensor<2xf32>
  return
}
