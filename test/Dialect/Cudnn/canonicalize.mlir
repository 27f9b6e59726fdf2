// RUN: cudnn-opt %s -canonicalize | FileCheck %s

// Conversions there and back again fold away; an identity conversion folds.
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x4x4xf16>)
// CHECK-NEXT:    return %[[X]], %[[X]]
func.func @round_trip(%x: tensor<2x8x4x4xf16>) -> (tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16>) {
  %0 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  %1 = cudnn.convert_layout %0 : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %2 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  return %1, %2 : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16>
}

// A single conversion stays.
// CHECK-LABEL: func.func @one_way
// CHECK:         cudnn.convert_layout
func.func @one_way(%x: tensor<2x8x4x4xf16>) -> tensor<2x8x4x4xf16, #cudnn.channels_last> {
  %0 = cudnn.convert_layout %x : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %0 : tensor<2x8x4x4xf16, #cudnn.channels_last>
}

// A layout view and its inverse fold away; one view stays.
// CHECK-LABEL: func.func @view_round_trip
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x4x6xf16, #cudnn.channels_last>)
// CHECK-NEXT:    %[[V:.*]] = cudnn.layout_view %[[X]]
// CHECK-NEXT:    return %[[X]], %[[V]]
func.func @view_round_trip(%x: tensor<2x8x4x6xf16, #cudnn.channels_last>) -> (tensor<2x8x4x6xf16, #cudnn.channels_last>, tensor<2x4x6x8xf16>) {
  %0 = cudnn.layout_view %x : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x4x6x8xf16>
  %1 = cudnn.layout_view %0 : tensor<2x4x6x8xf16> -> tensor<2x8x4x6xf16, #cudnn.channels_last>
  return %1, %0 : tensor<2x8x4x6xf16, #cudnn.channels_last>, tensor<2x4x6x8xf16>
}
