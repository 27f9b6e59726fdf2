// RUN: cudnn-opt %s | cudnn-opt | FileCheck %s
// RUN: cudnn-opt %s --mlir-print-op-generic | cudnn-opt | FileCheck %s
//
// Round trip of every tcp op that upstream mlir-tcp has, in upstream's syntax.

// CHECK-LABEL: func.func @unary
func.func @unary(%f: tensor<4x?xf32>, %i: tensor<4xi32>, %h: tensor<8xbf16>) {
  // CHECK: tcp.tanh %{{.*}} : tensor<4x?xf32> -> tensor<4x?xf32>
  %0 = tcp.tanh %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.sigmoid
  %1 = tcp.sigmoid %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.sqrt %{{.*}} : tensor<4x?xf32> -> tensor<4x?xf32>
  %2 = tcp.sqrt %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.sqrt %{{.*}} : tensor<4xi32> -> tensor<4xf32>
  %3 = tcp.sqrt %i : tensor<4xi32> -> tensor<4xf32>
  // CHECK: tcp.ceil
  %4 = tcp.ceil %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.floor
  %5 = tcp.floor %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.round %{{.*}} : tensor<8xbf16> -> tensor<8xbf16>
  %6 = tcp.round %h : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK: tcp.round_even
  %7 = tcp.round_even %h : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK: tcp.cos
  %8 = tcp.cos %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.sin
  %9 = tcp.sin %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.log
  %10 = tcp.log %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.neg
  %11 = tcp.neg %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.atan
  %12 = tcp.atan %f : tensor<4x?xf32> -> tensor<4x?xf32>
  // CHECK: tcp.abs %{{.*}} : tensor<4xi32> -> tensor<4xi32>
  %13 = tcp.abs %i : tensor<4xi32> -> tensor<4xi32>
  // CHECK: tcp.abs %{{.*}} : tensor<4x?xf32> -> tensor<4x?xf32>
  %14 = tcp.abs %f : tensor<4x?xf32> -> tensor<4x?xf32>
  return
}

// CHECK-LABEL: func.func @clamp
func.func @clamp(%f: tensor<2x3xf16>, %i: tensor<5xi64>) {
  // CHECK: tcp.clamp %{{.*}} {min_float = 0.000000e+00 : f32} : tensor<2x3xf16> -> tensor<2x3xf16>
  %0 = tcp.clamp %f {min_float = 0.0 : f32} : tensor<2x3xf16> -> tensor<2x3xf16>
  // CHECK: tcp.clamp %{{.*}} {max_float = 6.000000e+00 : f32, min_float = 0.000000e+00 : f32}
  %1 = tcp.clamp %f {min_float = 0.0 : f32, max_float = 6.0 : f32} : tensor<2x3xf16> -> tensor<2x3xf16>
  // CHECK: tcp.clamp %{{.*}} {max_int = 10 : i64, min_int = -3 : i64} : tensor<5xi64> -> tensor<5xi64>
  %2 = tcp.clamp %i {min_int = -3 : i64, max_int = 10 : i64} : tensor<5xi64> -> tensor<5xi64>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>,
                  %x: tensor<?xi32>, %y: tensor<?xi32>) {
  // CHECK: tcp.add %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %0 = tcp.add %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: tcp.add %{{.*}}, %{{.*}} : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  %1 = tcp.add %x, %y : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  // CHECK: tcp.sub
  %2 = tcp.sub %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: tcp.mul
  %3 = tcp.mul %x, %y : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  // CHECK: tcp.divf
  %4 = tcp.divf %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: tcp.atan2
  %5 = tcp.atan2 %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: tcp.divsi %{{.*}}, %{{.*}} {rounding_mode = #tcp<roundingMode Trunc>} : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  %6 = tcp.divsi %x, %y {rounding_mode = #tcp<roundingMode Trunc>} : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  // CHECK: tcp.divui %{{.*}}, %{{.*}} {rounding_mode = #tcp<roundingMode Ceil>}
  %7 = tcp.divui %x, %y {rounding_mode = #tcp<roundingMode Ceil>} : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  // CHECK: tcp.divsi %{{.*}}, %{{.*}} {rounding_mode = #tcp<roundingMode Floor>}
  %8 = tcp.divsi %x, %y {rounding_mode = #tcp<roundingMode Floor>} : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  return
}

// CHECK-LABEL: func.func @const_broadcast_cast
func.func @const_broadcast_cast(%a: tensor<1x4x1xf32>, %n: index, %i: tensor<4xi32>) {
  // CHECK: tcp.const {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : tensor<2xf32>
  %0 = tcp.const {value = dense<[1.0, 2.0]> : tensor<2xf32>} : tensor<2xf32>
  // CHECK: %[[C5:.*]] = arith.constant 5 : index
  %c5 = arith.constant 5 : index
  // CHECK: tcp.broadcast %{{.*}}, %[[C5]], %{{.*}} {axes = [0, 2]} : tensor<1x4x1xf32>, index, index -> tensor<5x4x?xf32>
  %1 = tcp.broadcast %a, %c5, %n {axes = [0, 2]} : tensor<1x4x1xf32>, index, index -> tensor<5x4x?xf32>
  // CHECK: tcp.cast %{{.*}} {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
  %2 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf32>
  // CHECK: tcp.cast %{{.*}} {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi32> -> tensor<4xi8>
  %3 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi32> -> tensor<4xi8>
  // CHECK: tcp.cast %{{.*}} : tensor<4xf32> -> tensor<4xbf16>
  %4 = tcp.cast %2 : tensor<4xf32> -> tensor<4xbf16>
  // CHECK: tcp.cast %{{.*}} {out_int_signedness = #tcp<signedness Signless>} : tensor<4xf32> -> tensor<4xi1>
  %5 = tcp.cast %2 {out_int_signedness = #tcp<signedness Signless>} : tensor<4xf32> -> tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%t: tensor<40x40xf32>, %in: tensor<1x4x3xf32>,
                         %idx: tensor<1x4x2xi64>, %p: tensor<5x7x3xf32>,
                         %ind: tensor<4x2xi64>, %u: tensor<2x5xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  // CHECK: tcp.slice %{{.*}} starts(%{{.*}}, %{{.*}}) sizes(%{{.*}}, %{{.*}}) strides(%{{.*}}, %{{.*}}) : tensor<40x40xf32> -> tensor<32x32xf32>
  %0 = tcp.slice %t starts(%c3, %c5) sizes(%c32, %c32) strides(%c1, %c1) : tensor<40x40xf32> -> tensor<32x32xf32>
  // CHECK: tcp.gather %{{.*}}, %{{.*}} {dim = 2 : index} : tensor<1x4x3xf32>, tensor<1x4x2xi64> -> tensor<1x4x2xf32>
  %1 = tcp.gather %in, %idx {dim = 2 : index} : tensor<1x4x3xf32>, tensor<1x4x2xi64> -> tensor<1x4x2xf32>
  // CHECK: tcp.gather_nd %{{.*}}, %{{.*}} : tensor<5x7x3xf32>, tensor<4x2xi64> -> tensor<4x3xf32>
  %2 = tcp.gather_nd %p, %ind : tensor<5x7x3xf32>, tensor<4x2xi64> -> tensor<4x3xf32>
  // CHECK: tcp.concat %{{.*}}, %{{.*}} attributes {axis = 1 : i64} : tensor<2x5xf32>, tensor<2x5xf32> -> tensor<2x10xf32>
  %3 = tcp.concat %u, %u attributes {axis = 1 : i64} : tensor<2x5xf32>, tensor<2x5xf32> -> tensor<2x10xf32>
  return
}

// CHECK-LABEL: func.func @custom_op
func.func @custom_op(%x: tensor<5x3x10xf32>, %h: tensor<1x3x20xf32>) -> tensor<5x3x20xf32> {
  // CHECK: tcp.custom_op("torch.aten.rnn_tanh") %{{.*}}, %{{.*}} {num_layers = 1 : i64} : tensor<5x3x10xf32>, tensor<1x3x20xf32> -> tensor<5x3x20xf32>, tensor<1x3x20xf32>
  %0:2 = tcp.custom_op("torch.aten.rnn_tanh") %x, %h {num_layers = 1 : i64}
      : tensor<5x3x10xf32>, tensor<1x3x20xf32> -> tensor<5x3x20xf32>, tensor<1x3x20xf32>
  return %0#0 : tensor<5x3x20xf32>
}

// CHECK-LABEL: func.func @groups
func.func @groups(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK: %[[G:.*]]:2 = tcp.group attributes {group_type = "cudnn"} {
  // CHECK:   %[[T:.*]] = tcp.tanh
  // CHECK:   %[[S:.*]] = tcp.add %[[T]], %{{.*}}
  // CHECK:   tcp.yield %[[T]], %[[S]] : tensor<2xf32>, tensor<2xf32>
  // CHECK: } : tensor<2xf32>, tensor<2xf32>
  %0:2 = tcp.group attributes {group_type = "cudnn"} {
    %t = tcp.tanh %a : tensor<2xf32> -> tensor<2xf32>
    %s = tcp.add %t, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    tcp.yield %t, %s : tensor<2xf32>, tensor<2xf32>
  } : tensor<2xf32>, tensor<2xf32>
  // CHECK: tcp.isolated_group %{{.*}}, %{{.*}} attributes {group_type = "cudnn"} {
  // CHECK: ^bb0(%[[X:.*]]: tensor<2xf32>, %[[Y:.*]]: tensor<2xf32>):
  // CHECK:   %[[M:.*]] = tcp.mul %[[X]], %[[Y]]
  // CHECK:   tcp.yield %[[M]] : tensor<2xf32>
  // CHECK: } : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %1 = tcp.isolated_group %0#0, %0#1 attributes {group_type = "cudnn"} {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %m = tcp.mul %x, %y : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    tcp.yield %m : tensor<2xf32>
  } : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0#1, %1 : tensor<2xf32>, tensor<2xf32>
}
