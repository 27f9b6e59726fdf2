// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>

// f32 computes natively: no extension, no truncation.
// CHECK-LABEL: func.func @tanh_f32
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[IN]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK:         return %[[R]]
func.func @tanh_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tcp.tanh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// f16 is extended to f32 once, computed in f32, rounded once.
// CHECK-LABEL: func.func @sigmoid_f16
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT:      %[[DEN:.*]] = arith.addf %[[EXP]], %[[ONE]] : f32
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
func.func @sigmoid_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = tcp.sigmoid %x : tensor<8xf16> -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// exp (softmax's) is the same: math.exp in f32 for bf16.
// CHECK-LABEL: func.func @exp_bf16
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[T]] : bf16
func.func @exp_bf16(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = tcp.exp %x : tensor<8xbf16> -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// Exact GELU, x * 0.5 * (1 + erf(x / sqrt(2))), in f32 for f16.
// CHECK-LABEL: func.func @gelu_f16
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[X]], %[[RSQRT2]] : f32
// CHECK-NEXT:      %[[ERF:.*]] = math.erf %[[S]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[P:.*]] = arith.addf %[[ERF]], %[[ONE]] : f32
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[H:.*]] = arith.mulf %[[X]], %[[HALF]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[H]], %[[P]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
func.func @gelu_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = tcp.gelu %x : tensor<8xf16> -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// The tanh approximation, 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715
// x^3))); f32 computes natively.
// CHECK-LABEL: func.func @gelu_tanh_f32
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[CUBE:.*]] = arith.mulf %[[SQ]], %[[X]] : f32
// CHECK-NEXT:      %[[K:.*]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:      %[[KC:.*]] = arith.mulf %[[CUBE]], %[[K]] : f32
// CHECK-NEXT:      %[[IN:.*]] = arith.addf %[[X]], %[[KC]] : f32
// CHECK-NEXT:      %[[BETA:.*]] = arith.constant 0.797884583 : f32
// CHECK-NEXT:      %[[A:.*]] = arith.mulf %[[IN]], %[[BETA]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = math.tanh %[[A]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[P:.*]] = arith.addf %[[TANH]], %[[ONE]] : f32
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[H:.*]] = arith.mulf %[[X]], %[[HALF]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[H]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @gelu_tanh_f32(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcp.gelu %x {approximate = "tanh"} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// f64 computes in f64, with f64 constants.
// CHECK-LABEL: func.func @gelu_f64
// CHECK:         ^bb0(%[[X:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT:      %[[RSQRT2:.*]] = arith.constant 0.70710678118654757 : f64
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[X]], %[[RSQRT2]] : f64
// CHECK-NEXT:      math.erf %[[S]] : f64
// CHECK-NOT:       arith.truncf
// CHECK:           linalg.yield %{{.*}} : f64
func.func @gelu_f64(%x: tensor<8xf64>) -> tensor<8xf64> {
  %0 = tcp.gelu %x : tensor<8xf64> -> tensor<8xf64>
  return %0 : tensor<8xf64>
}

// CHECK-LABEL: func.func @float_unary_f32
// CHECK:         math.ceil %{{.*}} : f32
// CHECK:         math.floor %{{.*}} : f32
// CHECK:         math.round %{{.*}} : f32
// CHECK:         math.roundeven %{{.*}} : f32
// CHECK:         math.cos %{{.*}} : f32
// CHECK:         math.sin %{{.*}} : f32
// CHECK:         math.log %{{.*}} : f32
// CHECK:         arith.negf %{{.*}} : f32
// CHECK:         math.atan %{{.*}} : f32
// CHECK-NOT:     arith.extf
func.func @float_unary_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.ceil %x : tensor<4xf32> -> tensor<4xf32>
  %1 = tcp.floor %0 : tensor<4xf32> -> tensor<4xf32>
  %2 = tcp.round %1 : tensor<4xf32> -> tensor<4xf32>
  %3 = tcp.round_even %2 : tensor<4xf32> -> tensor<4xf32>
  %4 = tcp.cos %3 : tensor<4xf32> -> tensor<4xf32>
  %5 = tcp.sin %4 : tensor<4xf32> -> tensor<4xf32>
  %6 = tcp.log %5 : tensor<4xf32> -> tensor<4xf32>
  %7 = tcp.neg %6 : tensor<4xf32> -> tensor<4xf32>
  %8 = tcp.atan %7 : tensor<4xf32> -> tensor<4xf32>
  return %8 : tensor<4xf32>
}

// CHECK-LABEL: func.func @log_bf16
// CHECK:         ^bb0(%[[IN:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT:      %[[L:.*]] = math.log %[[X]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[L]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[T]] : bf16
func.func @log_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tcp.log %x : tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// An integer input is converted to the float result type first.
// CHECK-LABEL: func.func @sqrt_i32
// CHECK:         ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[IN]] : i32 to f32
// CHECK-NEXT:      %[[S:.*]] = math.sqrt %[[F]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @sqrt_i32(%x: tensor<4xi32>) -> tensor<4xf32> {
  %0 = tcp.sqrt %x : tensor<4xi32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sqrt_f16
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[S:.*]] = math.sqrt %[[X]] : f32
// CHECK-NEXT:    arith.truncf %[[S]] : f32 to f16
func.func @sqrt_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tcp.sqrt %x : tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @abs
// CHECK:         ^bb0(%[[I:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[A:.*]] = math.absi %[[I]] : i32
// CHECK-NEXT:      linalg.yield %[[A]] : i32
// CHECK:         ^bb0(%[[F:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT:      %[[B:.*]] = math.absf %[[F]] : f64
// CHECK-NEXT:      linalg.yield %[[B]] : f64
func.func @abs(%i: tensor<4xi32>, %f: tensor<4xf64>) -> (tensor<4xi32>, tensor<4xf64>) {
  %0 = tcp.abs %i : tensor<4xi32> -> tensor<4xi32>
  %1 = tcp.abs %f : tensor<4xf64> -> tensor<4xf64>
  return %0, %1 : tensor<4xi32>, tensor<4xf64>
}

// CHECK-LABEL: func.func @binary_int
// CHECK:         ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:      linalg.yield %[[R]]
// CHECK:         arith.subi
// CHECK:         arith.muli
func.func @binary_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.add %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = tcp.sub %0, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = tcp.mul %1, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %2 : tensor<4xi32>
}

// Both operands are extended; the identity map is used for each.
// CHECK-LABEL: func.func @mul_f16
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf16>, %[[B:.*]]: tensor<2x3xf16>)
// CHECK:         linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[A]], %[[B]] : tensor<2x3xf16>, tensor<2x3xf16>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[YF:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[XF]], %[[YF]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
func.func @mul_f16(%a: tensor<2x3xf16>, %b: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %0 = tcp.mul %a, %b : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// CHECK-LABEL: func.func @float_binary
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.subf %[[A]], %[[B]] : f32
// CHECK:         ^bb0(%[[C:.*]]: f32, %[[D:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.divf %[[C]], %[[D]] : f32
// CHECK:         ^bb0(%[[E:.*]]: f32, %[[F:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      math.atan2 %[[E]], %[[F]] : f32
func.func @float_binary(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.sub %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = tcp.divf %0, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = tcp.atan2 %1, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @int_division
// CHECK:         arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.floordivsi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.ceildivsi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.divui %{{.*}}, %{{.*}} : i32
// CHECK:         arith.divui %{{.*}}, %{{.*}} : i32
// CHECK:         arith.ceildivui %{{.*}}, %{{.*}} : i32
func.func @int_division(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = tcp.divsi %0, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = tcp.divsi %1, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %3 = tcp.divui %2, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %4 = tcp.divui %3, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %5 = tcp.divui %4, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %5 : tensor<4xi32>
}

// A dynamic dimension is sized from the first operand.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[A:.*]]: tensor<4x?xf32>, %[[B:.*]]: tensor<4x?xf32>)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[A]], %[[C1]] : tensor<4x?xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[D]]) : tensor<4x?xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%[[E]] : tensor<4x?xf32>)
// CHECK:           arith.addf
func.func @dynamic(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = tcp.add %a, %b : tensor<4x?xf32>, tensor<4x?xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// CHECK-LABEL: func.func @const
// CHECK:         %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    return %[[C]]
func.func @const() -> tensor<2xf32> {
  %0 = tcp.const {value = dense<[1.0, 2.0]> : tensor<2xf32>} : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Comparisons: floats as PyTorch compares them (ordered, but ne unordered:
// NaN != x is true), f16 widened exactly to f32 first; integers signed
// unless the op says Unsigned.
// CHECK-LABEL: func.func @compare_f16
// CHECK:         linalg.generic
// CHECK:           %[[A:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[B:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[C:.*]] = arith.cmpf une, %[[A]], %[[B]] : f32
// CHECK:           linalg.yield %[[C]] : i1
func.func @compare_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xi1> {
  %0 = tcp.compare %a, %b {predicate = #tcp<predicate ne>} : tensor<4xf16>, tensor<4xf16> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_f32_lt
// CHECK:           arith.cmpf olt, %{{.*}}, %{{.*}} : f32
func.func @compare_f32_lt(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = tcp.compare %a, %b {predicate = #tcp<predicate lt>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_unsigned
// CHECK:           arith.cmpi ult, %{{.*}}, %{{.*}} : i8
func.func @compare_unsigned(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi1> {
  %0 = tcp.compare %a, %b {predicate = #tcp<predicate lt>, in_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi8>, tensor<4xi8> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_i64
// CHECK:           arith.cmpi sge, %{{.*}}, %{{.*}} : i64
func.func @compare_i64(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi1> {
  %0 = tcp.compare %a, %b {predicate = #tcp<predicate ge>} : tensor<4xi64>, tensor<4xi64> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_bool
// CHECK:           arith.cmpi ugt, %{{.*}}, %{{.*}} : i1
func.func @compare_bool(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = tcp.compare %a, %b {predicate = #tcp<predicate gt>} : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @select_xor
// CHECK:         %[[X:.*]] = linalg.generic
// CHECK:           arith.xori %{{.*}}, %{{.*}} : i1
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[X]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @select_xor(%m: tensor<4xi1>, %n: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcp.bitwise_xor %m, %n : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %1 = tcp.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @bitwise_int
// CHECK:           arith.andi %{{.*}}, %{{.*}} : i64
// CHECK:           arith.ori %{{.*}}, %{{.*}} : i64
func.func @bitwise_int(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = tcp.bitwise_and %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %1 = tcp.bitwise_or %0, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %1 : tensor<4xi64>
}
