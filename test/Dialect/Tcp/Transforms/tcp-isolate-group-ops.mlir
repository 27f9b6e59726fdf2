// RUN: cudnn-opt %s -split-input-file -tcp-isolate-group-ops | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-isolate-group-ops=max-inline-constant-elements=0 | FileCheck %s --check-prefix=NOINLINE

// Captured values become operands in first-use order; attributes are kept;
// a small constant and index scalars are cloned inside, a large constant
// (weights) stays an operand.
// CHECK-LABEL: func.func @isolate
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x8x8xf16>, %[[B:.*]]: tensor<1x4x1x1xf16>)
// CHECK:         %[[W:.*]] = tcp.const {{.*}} : tensor<4x4x3x3xf16>
// CHECK:         %[[G:.*]]:2 = tcp.isolated_group %[[X]], %[[W]], %[[B]] attributes {group_type = "cudnn", tag = 7 : i64} {
// CHECK-NEXT:    ^bb0(%[[AX:.*]]: tensor<1x4x8x8xf16>, %[[AW:.*]]: tensor<4x4x3x3xf16>, %[[AB:.*]]: tensor<1x4x1x1xf16>):
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:       %[[S:.*]] = tcp.const {value = dense<2.000000e+00> : tensor<1x4x1x1xf16>}
// CHECK:           %[[C:.*]] = tcp.conv2d %[[AX]], %[[AW]]
// CHECK:           %[[BB:.*]] = tcp.broadcast %[[AB]], %[[C1]], %[[C8]], %[[C8]]
// CHECK:           %[[A:.*]] = tcp.add %[[C]], %[[BB]]
// CHECK:           %[[SB:.*]] = tcp.broadcast %[[S]], %[[C1]], %[[C8]], %[[C8]]
// CHECK:           %[[M:.*]] = tcp.mul %[[A]], %[[SB]]
// CHECK:           tcp.yield %[[M]], %[[A]]
// CHECK:         } : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16>, tensor<1x4x1x1xf16> -> tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16>
// CHECK:         return %[[G]]#0, %[[G]]#1
// NOINLINE-LABEL: func.func @isolate
// NOINLINE:        tcp.isolated_group %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}} attributes
func.func @isolate(%x: tensor<1x4x8x8xf16>, %b: tensor<1x4x1x1xf16>) -> (tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = tcp.const {value = dense<1.0> : tensor<4x4x3x3xf16>} : tensor<4x4x3x3xf16>
  %s = tcp.const {value = dense<2.0> : tensor<1x4x1x1xf16>} : tensor<1x4x1x1xf16>
  %0:2 = tcp.group attributes {group_type = "cudnn", tag = 7 : i64} {
    %1 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16> -> tensor<1x4x8x8xf16>
    %2 = tcp.broadcast %b, %c1, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x4x1x1xf16>, index, index, index -> tensor<1x4x8x8xf16>
    %3 = tcp.add %1, %2 : tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16> -> tensor<1x4x8x8xf16>
    %4 = tcp.broadcast %s, %c1, %c8, %c8 {axes = [0, 2, 3]} : tensor<1x4x1x1xf16>, index, index, index -> tensor<1x4x8x8xf16>
    %5 = tcp.mul %3, %4 : tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16> -> tensor<1x4x8x8xf16>
    tcp.yield %5, %3 : tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16>
  } : tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16>
  return %0#0, %0#1 : tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16>
}

// -----

// A group inside another: the inner one is isolated first, and the outer one
// then captures what the inner one needs.
// CHECK-LABEL: func.func @nested
// CHECK:         tcp.isolated_group %[[X:.*]] attributes {group_type = "outer"} {
// CHECK-NEXT:    ^bb0(%[[OX:.*]]: tensor<2xf32>):
// CHECK-NEXT:      %[[I:.*]] = tcp.isolated_group %[[OX]] attributes {group_type = "inner"} {
// CHECK-NEXT:      ^bb0(%[[IX:.*]]: tensor<2xf32>):
// CHECK-NEXT:        tcp.tanh %[[IX]]
func.func @nested(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tcp.group attributes {group_type = "outer"} {
    %1 = tcp.group attributes {group_type = "inner"} {
      %2 = tcp.tanh %x : tensor<2xf32> -> tensor<2xf32>
      tcp.yield %2 : tensor<2xf32>
    } : tensor<2xf32>
    tcp.yield %1 : tensor<2xf32>
  } : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A group that captures nothing gets no operands.
// CHECK-LABEL: func.func @no_captures
// CHECK:         tcp.isolated_group  attributes
// CHECK-NEXT:      tcp.const
func.func @no_captures() -> tensor<2xf32> {
  %0 = tcp.group attributes {group_type = "cudnn"} {
    %c = tcp.const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
    tcp.yield %c : tensor<2xf32>
  } : tensor<2xf32>
  return %0 : tensor<2xf32>
}
