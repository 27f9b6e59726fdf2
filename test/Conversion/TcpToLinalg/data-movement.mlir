// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>

// src = start + i * stride in every dim; starts/strides are captured.
// CHECK-LABEL: func.func @slice
// CHECK-SAME:    (%[[X:.*]]: tensor<40x40xf32>, %[[S0:.*]]: index, %[[S1:.*]]: index, %[[T0:.*]]: index, %[[T1:.*]]: index)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<8x4xf32>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f32):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[OI:.*]] = arith.muli %[[I]], %[[T0]] : index
// CHECK-NEXT:      %[[SI:.*]] = arith.addi %[[S0]], %[[OI]] : index
// CHECK-NEXT:      %[[OJ:.*]] = arith.muli %[[J]], %[[T1]] : index
// CHECK-NEXT:      %[[SJ:.*]] = arith.addi %[[S1]], %[[OJ]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[X]][%[[SI]], %[[SJ]]] : tensor<40x40xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK:         return %[[R]]
func.func @slice(%x: tensor<40x40xf32>, %s0: index, %s1: index, %t0: index, %t1: index) -> tensor<8x4xf32> {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %0 = tcp.slice %x starts(%s0, %s1) sizes(%c8, %c4) strides(%t0, %t1) : tensor<40x40xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// A dynamic result size is the op's size operand.
// CHECK-LABEL: func.func @slice_dynamic
// CHECK-SAME:    (%[[X:.*]]: tensor<?xf32>, %[[N:.*]]: index)
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
func.func @slice_dynamic(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tcp.slice %x starts(%c0) sizes(%n) strides(%c1) : tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// `qkv[1]` (unbind): a slice of size 1 whose unit dim a collapse_shape
// drops next is one generic of the collapsed shape, reading the dropped dim
// at its start; no reshape is left between it and its readers, so
// elementwise fusion joins them. A collapse that merges two sliced dims
// keeps the slice and the reshape.
// CHECK-LABEL: func.func @slice_unit_dim_dropped
// CHECK-SAME:    (%[[X:.*]]: tensor<3x4x5xf32>)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4x5xf32>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f32):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 1 : index
// CHECK:           tensor.extract %[[X]][%[[C1]], %{{.*}}, %{{.*}}] : tensor<3x4x5xf32>
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return %[[R]] : tensor<4x5xf32>
func.func @slice_unit_dim_dropped(%x: tensor<3x4x5xf32>) -> tensor<4x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %0 = tcp.slice %x starts(%c1, %c0, %c0) sizes(%c1, %c4, %c5) strides(%c1, %c1, %c1) : tensor<3x4x5xf32> -> tensor<1x4x5xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<1x4x5xf32> into tensor<4x5xf32>
  return %1 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @slice_dims_merged
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x5xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x4x5xf32> into tensor<8x5xf32>
func.func @slice_dims_merged(%x: tensor<3x4x5xf32>) -> tensor<8x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %0 = tcp.slice %x starts(%c1, %c0, %c0) sizes(%c2, %c4, %c5) strides(%c1, %c1, %c1) : tensor<3x4x5xf32> -> tensor<2x4x5xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<2x4x5xf32> into tensor<8x5xf32>
  return %1 : tensor<8x5xf32>
}

// Each input is read at its local index clamped into range; the last input
// whose offset is <= the index along the axis is selected.
// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>, %[[C:.*]]: tensor<2x1xf32>)
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x9xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x9xf32>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           %[[J:.*]] = linalg.index 1 : index
// CHECK:           %[[LA:.*]] = arith.minsi %[[J]], %{{.*}} : index
// CHECK:           %[[KA:.*]] = arith.maxsi %[[LA]], %{{.*}} : index
// CHECK:           %[[VA:.*]] = tensor.extract %[[A]][%[[I]], %[[KA]]] : tensor<2x3xf32>
// CHECK:           %[[JB:.*]] = arith.subi %[[J]], %[[C3]] : index
// CHECK:           %[[LB:.*]] = arith.minsi %[[JB]], %{{.*}} : index
// CHECK:           %[[KB:.*]] = arith.maxsi %[[LB]], %{{.*}} : index
// CHECK:           %[[VB:.*]] = tensor.extract %[[B]][%[[I]], %[[KB]]] : tensor<2x5xf32>
// CHECK:           %[[INB:.*]] = arith.cmpi sge, %[[J]], %[[C3]] : index
// CHECK:           %[[SB:.*]] = arith.select %[[INB]], %[[VB]], %[[VA]] : f32
// CHECK:           %[[JC:.*]] = arith.subi %[[J]], %[[C8]] : index
// CHECK:           %[[VC:.*]] = tensor.extract %[[C]][%[[I]], %{{.*}}] : tensor<2x1xf32>
// CHECK:           %[[INC:.*]] = arith.cmpi sge, %[[J]], %[[C8]] : index
// CHECK:           %[[SC:.*]] = arith.select %[[INC]], %[[VC]], %[[SB]] : f32
// CHECK:           linalg.yield %[[SC]] : f32
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x1xf32>) -> tensor<2x9xf32> {
  %0 = tcp.concat %a, %b, %c attributes {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32> -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// torch.roll as the importer writes it, two slices of one tensor
// concatenated: the concat reads each slice's elements from the slice's
// source (start + index * stride), one generic and no copies.
// CHECK-LABEL: func.func @concat_of_slices
// CHECK-SAME:    (%[[X:.*]]: tensor<2x6xf32>)
// CHECK:         linalg.generic
// CHECK:           tensor.extract %[[X]]
// CHECK:           tensor.extract %[[X]]
// CHECK:           linalg.yield
// CHECK-NOT:     linalg.generic
func.func @concat_of_slices(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = tcp.slice %x starts(%c0, %c4) sizes(%c2, %c2) strides(%c1, %c1) : tensor<2x6xf32> -> tensor<2x2xf32>
  %1 = tcp.slice %x starts(%c0, %c0) sizes(%c2, %c4) strides(%c1, %c1) : tensor<2x6xf32> -> tensor<2x4xf32>
  %2 = tcp.concat %0, %1 attributes {axis = 1 : i64} : tensor<2x2xf32>, tensor<2x4xf32> -> tensor<2x6xf32>
  return %2 : tensor<2x6xf32>
}

// torch.gather: the index tensor is the generic's input; its value, cast to
// index, replaces the coordinate along `dim`. An index outside the
// gathered dimension (negative ones too: compared unsigned) fails a
// cf.assert, which generated kernels turn into a device-side assertion
// (__assertfail), as PyTorch's gather does, instead of reading outside x.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x3xf32>, %[[IDX:.*]]: tensor<1x4x2xi64>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x4x2xf32>
// CHECK:         linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[IDX]] : tensor<1x4x2xi64>) outs(%[[E]] : tensor<1x4x2xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK:           %[[J:.*]] = linalg.index 1 : index
// CHECK:           %[[K:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[K]], %{{.*}} : index
// CHECK-NEXT:      cf.assert %[[OK]], "tcp.gather: index out of range of the gathered dimension"
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[X]][%{{.*}}, %[[J]], %[[K]]] : tensor<1x4x3xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
func.func @gather(%x: tensor<1x4x3xf32>, %idx: tensor<1x4x2xi64>) -> tensor<1x4x2xf32> {
  %0 = tcp.gather %x, %idx {dim = 2 : index} : tensor<1x4x3xf32>, tensor<1x4x2xi64> -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// CHECK-LABEL: func.func @gather_dim0_i32
// CHECK:         ^bb0(%[[IN:.*]]: i32, %{{.*}}: f16):
// CHECK-NEXT:      %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[K:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK:           cf.assert
// CHECK-NEXT:      tensor.extract %{{.*}}[%[[K]], %[[J]]] : tensor<5x3xf16>
func.func @gather_dim0_i32(%x: tensor<5x3xf16>, %idx: tensor<2x3xi32>) -> tensor<2x3xf16> {
  %0 = tcp.gather %x, %idx {dim = 0 : index} : tensor<5x3xf16>, tensor<2x3xi32> -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// The last index dim (2) indexes the first two input dims; the rest of the
// result walks input.shape[2:]. Each index component is asserted inside its
// input dimension, as for tcp.gather.
// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME:    (%[[X:.*]]: tensor<5x7x3xf32>, %[[IDX:.*]]: tensor<4x2xi64>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<4x3xf32>)
// CHECK:           %[[B:.*]] = linalg.index 0 : index
// CHECK:           %[[T:.*]] = linalg.index 1 : index
// CHECK:           %[[C0:.*]] = arith.constant 0 : index
// CHECK:           %[[I0:.*]] = tensor.extract %[[IDX]][%[[B]], %[[C0]]] : tensor<4x2xi64>
// CHECK:           %[[X0:.*]] = arith.index_cast %[[I0]] : i64 to index
// CHECK:           cf.assert %{{.*}}, "tcp.gather_nd: index out of range of the input"
// CHECK:           %[[C1:.*]] = arith.constant 1 : index
// CHECK:           %[[I1:.*]] = tensor.extract %[[IDX]][%[[B]], %[[C1]]] : tensor<4x2xi64>
// CHECK:           %[[X1:.*]] = arith.index_cast %[[I1]] : i64 to index
// CHECK:           cf.assert %{{.*}}, "tcp.gather_nd: index out of range of the input"
// CHECK:           %[[V:.*]] = tensor.extract %[[X]][%[[X0]], %[[X1]], %[[T]]] : tensor<5x7x3xf32>
// CHECK:           linalg.yield %[[V]] : f32
func.func @gather_nd(%x: tensor<5x7x3xf32>, %idx: tensor<4x2xi64>) -> tensor<4x3xf32> {
  %0 = tcp.gather_nd %x, %idx : tensor<5x7x3xf32>, tensor<4x2xi64> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
