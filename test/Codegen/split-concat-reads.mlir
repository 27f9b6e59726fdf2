// RUN: cudnn-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(convert-tcp-to-linalg,codegen-fuse-elementwise,canonicalize,cse,codegen-split-concat-reads))' | FileCheck %s

// A concat of three inputs along the channels (DenseNet's), then a ReLU:
// one generic per input, each reading its input through an identity map
// and writing its channels of the result; no element reads by index.
// CHECK-LABEL: func.func @concat_then_relu
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x4x4x64xf16>, %[[B:[a-z0-9]+]]: tensor<2x4x4x32xf16>, %[[C:[a-z0-9]+]]: tensor<2x4x4x32xf16>
// CHECK-NOT:     tensor.extract %
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x4x4x128xf16>
// CHECK:         %[[EA:.*]] = tensor.empty() : tensor<2x4x4x64xf16>
// CHECK:         %[[RA:.*]] = linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]]], {{.*}} ins(%[[A]] : tensor<2x4x4x64xf16>) outs(%[[EA]] : tensor<2x4x4x64xf16>)
// CHECK:           arith.maximumf
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[RA]] into %[[E]][0, 0, 0, 0] [2, 4, 4, 64] [1, 1, 1, 1]
// CHECK:         %[[RB:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2x4x4x32xf16>)
// CHECK:         %[[I1:.*]] = tensor.insert_slice %[[RB]] into %[[I0]][0, 0, 0, 64] [2, 4, 4, 32] [1, 1, 1, 1]
// CHECK:         %[[RC:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<2x4x4x32xf16>)
// CHECK:         %[[I2:.*]] = tensor.insert_slice %[[RC]] into %[[I1]][0, 0, 0, 96] [2, 4, 4, 32] [1, 1, 1, 1]
// CHECK-NOT:     tensor.extract %
// CHECK:         return %[[I2]]
func.func @concat_then_relu(%a: tensor<2x4x4x64xf16>, %b: tensor<2x4x4x32xf16>, %c: tensor<2x4x4x32xf16>) -> tensor<2x4x4x128xf16> {
  %x = tcp.concat %a, %b, %c attributes {axis = 3 : i64} : tensor<2x4x4x64xf16>, tensor<2x4x4x32xf16>, tensor<2x4x4x32xf16> -> tensor<2x4x4x128xf16>
  %y = tcp.clamp %x {min_float = 0.0 : f32} : tensor<2x4x4x128xf16> -> tensor<2x4x4x128xf16>
  return %y : tensor<2x4x4x128xf16>
}

// -----

// A per-channel operand of the consumer (a batch norm's shift) is sliced
// with the piece; a concat along a middle axis cuts that loop.
// CHECK-LABEL: func.func @concat_middle_axis_with_channel_operand
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3x8xf32>, %[[B:[a-z0-9]+]]: tensor<2x5x8xf32>, %[[S:[a-z0-9]+]]: tensor<8xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[A]] : tensor<1x1x8xf32>, tensor<2x3x8xf32>) outs(%{{.*}} : tensor<2x3x8xf32>)
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0] [2, 3, 8] [1, 1, 1]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[B]] : tensor<1x1x8xf32>, tensor<2x5x8xf32>) outs(%{{.*}} : tensor<2x5x8xf32>)
// CHECK:         tensor.insert_slice %{{.*}}[0, 3, 0] [2, 5, 8] [1, 1, 1]
// CHECK-NOT:     tensor.extract %
func.func @concat_middle_axis_with_channel_operand(%a: tensor<2x3x8xf32>, %b: tensor<2x5x8xf32>, %s: tensor<8xf32>) -> tensor<2x8x8xf32> {
  %x = tcp.concat %a, %b attributes {axis = 1 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32> -> tensor<2x8x8xf32>
  %se = tensor.expand_shape %s [[0, 1, 2]] output_shape [1, 1, 8] : tensor<8xf32> into tensor<1x1x8xf32>
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %sb = tcp.broadcast %se, %c2, %c8 {axes = [0, 1]} : tensor<1x1x8xf32>, index, index -> tensor<2x8x8xf32>
  %y = tcp.add %x, %sb : tensor<2x8x8xf32>, tensor<2x8x8xf32> -> tensor<2x8x8xf32>
  return %y : tensor<2x8x8xf32>
}

// -----

// A slice fused into its consumer: no cut, the read becomes a sliced input.
// CHECK-LABEL: func.func @slice_then_exp
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<40x40xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[T]][3, 5] [32, 32] [1, 1] : tensor<40x40xf32> to tensor<32x32xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<32x32xf32>)
// CHECK:           math.exp
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[R]]
func.func @slice_then_exp(%t: tensor<40x40xf32>) -> tensor<32x32xf32> {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  %s = tcp.slice %t starts(%c3, %c5) sizes(%c32, %c32) strides(%c1, %c1) : tensor<40x40xf32> -> tensor<32x32xf32>
  %y = tcp.exp %s : tensor<32x32xf32> -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}

// -----

// A strided slice reads at 2 * i + 1: not a loop index plus a constant, so
// the generic stays as it was.
// CHECK-LABEL: func.func @strided_slice_stays
// CHECK:         linalg.generic
// CHECK:           tensor.extract %
// CHECK-NOT:     tensor.extract_slice
func.func @strided_slice_stays(%t: tensor<40xf32>) -> tensor<16xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %s = tcp.slice %t starts(%c1) sizes(%c16) strides(%c2) : tensor<40xf32> -> tensor<16xf32>
  %y = tcp.exp %s : tensor<16xf32> -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// A gather reads at indices loaded from a tensor: left alone.
// CHECK-LABEL: func.func @gather_stays
// CHECK:         linalg.generic
// CHECK:           tensor.extract %
// CHECK-NOT:     tensor.insert_slice
func.func @gather_stays(%in: tensor<1x4x3xf32>, %idx: tensor<1x4x2xi64>) -> tensor<1x4x2xf32> {
  %g = tcp.gather %in, %idx {dim = 2 : index} : tensor<1x4x3xf32>, tensor<1x4x2xi64> -> tensor<1x4x2xf32>
  return %g : tensor<1x4x2xf32>
}
