// RUN: cudnn-opt %s -cudnn-channels-last-kernels -canonicalize -split-input-file | FileCheck %s

// A split form's epilogue (scale, shift, ReLU) between two channels-last
// graphs: the 1xCx1x1 operands become reshapes, the broadcast axes move to
// (N, H, W), and no conversion is left.
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME:    (%[[G:.*]]: tensor<8x64x56x56xf16, #cudnn.channels_last>, %[[S:.*]]: tensor<1x64x1x1xf16>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[V:.*]] = cudnn.layout_view %[[G]] : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x56x56x64xf16>
// CHECK:         %[[SB:.*]] = tcp.broadcast %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {axes = [0, 1, 2]} : tensor<1x1x1x64xf16>, index, index, index -> tensor<8x56x56x64xf16>
// CHECK:         %[[M:.*]] = tcp.mul %[[V]], %[[SB]] : tensor<8x56x56x64xf16>
// CHECK:         %[[R:.*]] = tcp.clamp %{{.*}} {min_float = 0.000000e+00 : f32} : tensor<8x56x56x64xf16> -> tensor<8x56x56x64xf16>
// CHECK:         %[[BACK:.*]] = cudnn.layout_view %[[R]] : tensor<8x56x56x64xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return %[[BACK]]
func.func @epilogue(%g: tensor<8x64x56x56xf16, #cudnn.channels_last>, %s: tensor<1x64x1x1xf16>, %t: tensor<1x64x1x1xf16>) -> tensor<8x64x56x56xf16, #cudnn.channels_last> {
  %c8 = arith.constant 8 : index
  %c56 = arith.constant 56 : index
  %p = cudnn.convert_layout %g : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x64x56x56xf16>
  %sb = tcp.broadcast %s, %c8, %c56, %c56 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x56x56xf16>
  %tb = tcp.broadcast %t, %c8, %c56, %c56 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x56x56xf16>
  %m = tcp.mul %p, %sb : tensor<8x64x56x56xf16>, tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %a = tcp.add %m, %tb : tensor<8x64x56x56xf16>, tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %r = tcp.clamp %a {min_float = 0.0 : f32} : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16>
  %c = cudnn.convert_layout %r : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
  return %c : tensor<8x64x56x56xf16, #cudnn.channels_last>
}

// -----

// A concat along channels (DenseNet, Inception) joins along the innermost
// storage dimension; a splat constant is rebuilt in storage order.
// CHECK-LABEL: func.func @concat
// CHECK-NOT:     cudnn.convert_layout
// CHECK-DAG:     %[[K:.*]] = tcp.const {value = dense<2.000000e+00> : tensor<2x4x4x8xf32>} : tensor<2x4x4x8xf32>
// CHECK-DAG:     %[[A:.*]] = cudnn.layout_view %{{.*}} : tensor<2x8x4x4xf32, #cudnn.channels_last> -> tensor<2x4x4x8xf32>
// CHECK-DAG:     %[[B:.*]] = cudnn.layout_view %{{.*}} : tensor<2x16x4x4xf32, #cudnn.channels_last> -> tensor<2x4x4x16xf32>
// CHECK:         %[[AK:.*]] = tcp.mul %[[A]], %[[K]]
// CHECK:         %[[C:.*]] = tcp.concat %[[AK]], %[[B]] attributes {axis = 3 : i64} : tensor<2x4x4x8xf32>, tensor<2x4x4x16xf32> -> tensor<2x4x4x24xf32>
// CHECK:         cudnn.layout_view %[[C]] : tensor<2x4x4x24xf32> -> tensor<2x24x4x4xf32, #cudnn.channels_last>
func.func @concat(%a: tensor<2x8x4x4xf32, #cudnn.channels_last>, %b: tensor<2x16x4x4xf32, #cudnn.channels_last>) -> tensor<2x24x4x4xf32, #cudnn.channels_last> {
  %pa = cudnn.convert_layout %a : tensor<2x8x4x4xf32, #cudnn.channels_last> -> tensor<2x8x4x4xf32>
  %pb = cudnn.convert_layout %b : tensor<2x16x4x4xf32, #cudnn.channels_last> -> tensor<2x16x4x4xf32>
  %k = tcp.const {value = dense<2.0> : tensor<2x8x4x4xf32>} : tensor<2x8x4x4xf32>
  %ak = tcp.mul %pa, %k : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32> -> tensor<2x8x4x4xf32>
  %c = tcp.concat %ak, %pb attributes {axis = 1 : i64} : tensor<2x8x4x4xf32>, tensor<2x16x4x4xf32> -> tensor<2x24x4x4xf32>
  %r = cudnn.convert_layout %c : tensor<2x24x4x4xf32> -> tensor<2x24x4x4xf32, #cudnn.channels_last>
  return %r : tensor<2x24x4x4xf32, #cudnn.channels_last>
}

// -----

// Squeeze-and-excite: the pooling reduces (H, W) in storage order, and its
// Nx1x1xC result reaches a packed user (a flatten) as a reshape, not a
// conversion.
// CHECK-LABEL: func.func @squeeze_excite
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[V:.*]] = cudnn.layout_view %{{.*}} : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16>
// CHECK:         %[[M:.*]] = tcp.reduce_mean %[[V]] {axes = array<i64: 1, 2>, keep_dims} : tensor<2x4x4x8xf16> -> tensor<2x1x1x8xf16>
// CHECK:         %[[P:.*]] = tensor.collapse_shape %[[M]] {{\[\[}}0], [1, 2, 3]] : tensor<2x1x1x8xf16> into tensor<2x8xf16>
// CHECK:         %[[G:.*]] = tcp.sigmoid %[[M]] : tensor<2x1x1x8xf16>
// CHECK:         tcp.broadcast %[[G]], %{{.*}}, %{{.*}} {axes = [1, 2]} : tensor<2x1x1x8xf16>, index, index -> tensor<2x4x4x8xf16>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return %{{.*}}, %[[P]]
func.func @squeeze_excite(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> (tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<2x8xf16>) {
  %c4 = arith.constant 4 : index
  %p = cudnn.convert_layout %x : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %m = tcp.reduce_mean %p {axes = array<i64: 2, 3>, keep_dims} : tensor<2x8x4x4xf16> -> tensor<2x8x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<2x8x1x1xf16> into tensor<2x8xf16>
  %g = tcp.sigmoid %m : tensor<2x8x1x1xf16> -> tensor<2x8x1x1xf16>
  %b = tcp.broadcast %g, %c4, %c4 {axes = [2, 3]} : tensor<2x8x1x1xf16>, index, index -> tensor<2x8x4x4xf16>
  %y = tcp.mul %p, %b : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %r = cudnn.convert_layout %y : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %r, %f : tensor<2x8x4x4xf16, #cudnn.channels_last>, tensor<2x8xf16>
}

// -----

// A channel slice (chunk) takes its bounds in storage order.
// CHECK-LABEL: func.func @channel_slice
// CHECK:         %[[V:.*]] = cudnn.layout_view
// CHECK:         %[[S:.*]] = tcp.slice %[[V]] starts(%c0, %c0, %c0, %c4) sizes(%c2, %c4, %c4, %c4) strides(%c1, %c1, %c1, %c1) : tensor<2x4x4x8xf16> -> tensor<2x4x4x4xf16>
// CHECK:         %[[N:.*]] = tcp.neg %[[S]]
// CHECK:         cudnn.layout_view %[[N]] : tensor<2x4x4x4xf16> -> tensor<2x4x4x4xf16, #cudnn.channels_last>
func.func @channel_slice(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> tensor<2x4x4x4xf16, #cudnn.channels_last> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %p = cudnn.convert_layout %x : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %s = tcp.slice %p starts(%c0, %c4, %c0, %c0) sizes(%c2, %c4, %c4, %c4) strides(%c1, %c1, %c1, %c1) : tensor<2x8x4x4xf16> -> tensor<2x4x4x4xf16>
  %n = tcp.neg %s : tensor<2x4x4x4xf16> -> tensor<2x4x4x4xf16>
  %r = cudnn.convert_layout %n : tensor<2x4x4x4xf16> -> tensor<2x4x4x4xf16, #cudnn.channels_last>
  return %r : tensor<2x4x4x4xf16, #cudnn.channels_last>
}

// -----

// Nothing to gain: one conversion in, a packed user out (a flatten before a
// classifier) would need one conversion out instead. The set stays.
// CHECK-LABEL: func.func @flatten_stays
// CHECK:         cudnn.convert_layout %{{.*}} : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
// CHECK:         tcp.clamp %{{.*}} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
// CHECK-NOT:     cudnn.layout_view
func.func @flatten_stays(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> tensor<2x128xf16> {
  %p = cudnn.convert_layout %x : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %r = tcp.clamp %p {min_float = 0.0 : f32} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %f = tensor.collapse_shape %r [[0], [1, 2, 3]] : tensor<2x8x4x4xf16> into tensor<2x128xf16>
  return %f : tensor<2x128xf16>
}

// -----

// Efficient channel attention (timm's ECA): the pooling `x.mean((2, 3))`
// without keep_dims gives [N, C] in either order, so it ends the set of the
// scaling that reads the same conversion: it reduces (H, W) of the
// channels-last bytes, and no conversion is left.
// CHECK-LABEL: func.func @eca
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[V:.*]] = cudnn.layout_view %[[X]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16>
// CHECK:         %[[W:.*]] = cudnn.layout_view %[[X]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16>
// CHECK:         %[[M:.*]] = tcp.reduce_mean %[[V]] {axes = array<i64: 1, 2>} : tensor<2x4x4x8xf16> -> tensor<2x8xf16>
// CHECK:         tcp.sigmoid %[[M]] : tensor<2x8xf16>
// CHECK:         tcp.mul %[[W]], %{{.*}} : tensor<2x4x4x8xf16>
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return
func.func @eca(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> tensor<2x8x4x4xf16, #cudnn.channels_last> {
  %c4 = arith.constant 4 : index
  %p = cudnn.convert_layout %x : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %m = tcp.reduce_mean %p {axes = array<i64: 2, 3>} : tensor<2x8x4x4xf16> -> tensor<2x8xf16>
  %s = tcp.sigmoid %m : tensor<2x8xf16> -> tensor<2x8xf16>
  %e = tensor.expand_shape %s [[0], [1, 2, 3]] output_shape [2, 8, 1, 1] : tensor<2x8xf16> into tensor<2x8x1x1xf16>
  %b = tcp.broadcast %e, %c4, %c4 {axes = [2, 3]} : tensor<2x8x1x1xf16>, index, index -> tensor<2x8x4x4xf16>
  %y = tcp.mul %p, %b : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %r = cudnn.convert_layout %y : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %r : tensor<2x8x4x4xf16, #cudnn.channels_last>
}

// -----

// A reduction over the channels keeps (N, H, W) in either order: it reads
// the channels-last bytes.
// CHECK-LABEL: func.func @reduce_channels
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[V:.*]] = cudnn.layout_view %{{.*}} : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x4x6x8xf16>
// CHECK:         tcp.reduce_sum %[[V]] {axes = array<i64: 3>} : tensor<2x4x6x8xf16> -> tensor<2x4x6xf16>
func.func @reduce_channels(%x: tensor<2x8x4x6xf16, #cudnn.channels_last>) -> tensor<2x4x6xf16> {
  %p = cudnn.convert_layout %x : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x8x4x6xf16>
  %c = tcp.reduce_sum %p {axes = array<i64: 1>} : tensor<2x8x4x6xf16> -> tensor<2x4x6xf16>
  return %c : tensor<2x4x6xf16>
}

// -----

// One over W alone would give (N, H, C) on storage order instead of
// (N, C, H): it stays on the packed tensor.
// CHECK-LABEL: func.func @reduce_width_stays
// CHECK:         %[[P:.*]] = cudnn.convert_layout %{{.*}} : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x8x4x6xf16>
// CHECK:         tcp.reduce_max %[[P]] {axes = array<i64: 3>} : tensor<2x8x4x6xf16> -> tensor<2x8x4xf16>
func.func @reduce_width_stays(%x: tensor<2x8x4x6xf16, #cudnn.channels_last>) -> tensor<2x8x4xf16> {
  %p = cudnn.convert_layout %x : tensor<2x8x4x6xf16, #cudnn.channels_last> -> tensor<2x8x4x6xf16>
  %w = tcp.reduce_max %p {axes = array<i64: 3>} : tensor<2x8x4x6xf16> -> tensor<2x8x4xf16>
  return %w : tensor<2x8x4xf16>
}

// -----

// A full-size packed input (a function argument in PyTorch's layout) has no
// free route to storage order: the op reading it stays packed, and so does
// the rest of its set, which then gains nothing.
// CHECK-LABEL: func.func @packed_input_stays
// CHECK:         cudnn.convert_layout %{{.*}} : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
// CHECK:         tcp.add %{{.*}}, %{{.*}} : tensor<2x8x4x4xf16>
// CHECK:         cudnn.convert_layout %{{.*}} : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK-NOT:     cudnn.layout_view
func.func @packed_input_stays(%x: tensor<2x8x4x4xf16, #cudnn.channels_last>, %y: tensor<2x8x4x4xf16>) -> tensor<2x8x4x4xf16, #cudnn.channels_last> {
  %p = cudnn.convert_layout %x : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %a = tcp.add %p, %y : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %r = cudnn.convert_layout %a : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %r : tensor<2x8x4x4xf16, #cudnn.channels_last>
}

// -----

// DenseNet: a concat of channels-last graph results, then an inference batch
// norm no graph took. The norm moves as its arithmetic in f32: the factor
// scale / sqrt(var + eps) on the 24 parameters, then each per-channel value
// broadcast along the last (channel) dimension, and the result is viewed
// back for the next graph: no conversion is left.
// CHECK-LABEL: func.func @batch_norm_after_concat
// CHECK-SAME:    %[[VAR:[a-z0-9]+]]: tensor<24xf16>) -> tensor<2x24x4x4xf16, #cudnn.channels_last>
// CHECK-NOT:     cudnn.convert_layout
// CHECK-NOT:     tcp.batch_norm
// CHECK:         %[[C:.*]] = tcp.concat %{{.*}}, %{{.*}} attributes {axis = 3 : i64} : tensor<2x4x4x8xf16>, tensor<2x4x4x16xf16> -> tensor<2x4x4x24xf16>
// CHECK:         %[[VE:.*]] = tensor.expand_shape %[[VAR]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 1, 1, 24] : tensor<24xf16> into tensor<1x1x1x24xf16>
// CHECK:         %[[VF:.*]] = tcp.cast %[[VE]] : tensor<1x1x1x24xf16> -> tensor<1x1x1x24xf32>
// CHECK:         %[[VE2:.*]] = tcp.add %[[VF]], %{{.*}} : tensor<1x1x1x24xf32>
// CHECK:         %[[DEV:.*]] = tcp.sqrt %[[VE2]] : tensor<1x1x1x24xf32>
// CHECK:         %[[FACTOR:.*]] = tcp.divf %{{.*}}, %[[DEV]] : tensor<1x1x1x24xf32>
// CHECK:         %[[XF:.*]] = tcp.cast %[[C]] : tensor<2x4x4x24xf16> -> tensor<2x4x4x24xf32>
// CHECK:         %[[MEAN:.*]] = tcp.broadcast %{{.*}} {axes = [0, 1, 2]} : tensor<1x1x1x24xf32>, index, index, index -> tensor<2x4x4x24xf32>
// CHECK:         %[[CENTERED:.*]] = tcp.sub %[[XF]], %[[MEAN]] : tensor<2x4x4x24xf32>
// CHECK:         %[[FB:.*]] = tcp.broadcast %[[FACTOR]], {{.*}} -> tensor<2x4x4x24xf32>
// CHECK:         tcp.mul %[[CENTERED]], %[[FB]] : tensor<2x4x4x24xf32>
// CHECK:         %[[Y:.*]] = tcp.add %{{.*}}, %{{.*}} : tensor<2x4x4x24xf32>
// CHECK:         %[[YH:.*]] = tcp.cast %[[Y]] : tensor<2x4x4x24xf32> -> tensor<2x4x4x24xf16>
// CHECK:         %[[BACK:.*]] = cudnn.layout_view %[[YH]] : tensor<2x4x4x24xf16> -> tensor<2x24x4x4xf16, #cudnn.channels_last>
// CHECK:         return %[[BACK]]
func.func @batch_norm_after_concat(%a: tensor<2x8x4x4xf16, #cudnn.channels_last>, %b: tensor<2x16x4x4xf16, #cudnn.channels_last>, %scale: tensor<24xf16>, %bias: tensor<24xf16>, %mean: tensor<24xf16>, %var: tensor<24xf16>) -> tensor<2x24x4x4xf16, #cudnn.channels_last> {
  %pa = cudnn.convert_layout %a : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %pb = cudnn.convert_layout %b : tensor<2x16x4x4xf16, #cudnn.channels_last> -> tensor<2x16x4x4xf16>
  %c = tcp.concat %pa, %pb attributes {axis = 1 : i64} : tensor<2x8x4x4xf16>, tensor<2x16x4x4xf16> -> tensor<2x24x4x4xf16>
  %n = tcp.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64} : tensor<2x24x4x4xf16>, tensor<24xf16> -> tensor<2x24x4x4xf16>
  %r = cudnn.convert_layout %n : tensor<2x24x4x4xf16> -> tensor<2x24x4x4xf16, #cudnn.channels_last>
  return %r : tensor<2x24x4x4xf16, #cudnn.channels_last>
}

// -----

// A batch norm whose input has no free route (a packed function argument)
// stays a batch norm.
// CHECK-LABEL: func.func @batch_norm_of_packed_input
// CHECK:         tcp.batch_norm %{{.*}} : tensor<2x24x4x4xf16>, tensor<24xf16> -> tensor<2x24x4x4xf16>
// CHECK:         cudnn.convert_layout
func.func @batch_norm_of_packed_input(%x: tensor<2x24x4x4xf16>, %scale: tensor<24xf16>, %bias: tensor<24xf16>, %mean: tensor<24xf16>, %var: tensor<24xf16>) -> tensor<2x24x4x4xf16, #cudnn.channels_last> {
  %n = tcp.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-05 : f64} : tensor<2x24x4x4xf16>, tensor<24xf16> -> tensor<2x24x4x4xf16>
  %r = cudnn.convert_layout %n : tensor<2x24x4x4xf16> -> tensor<2x24x4x4xf16, #cudnn.channels_last>
  return %r : tensor<2x24x4x4xf16, #cudnn.channels_last>
}

// -----

// ConvNeXt's block: the depthwise conv's graph, its bias, a permute to
// (N, H, W, C) for the layer norm and the linears (a 2-D matmul graph), a
// permute back, the layer scale and the residual add, then the next conv.
// On storage order both transposes are the tensors themselves: the bias add
// reads the graph's bytes and feeds the layer norm directly, the layer scale
// reads the matmul's result, and nothing converts or transposes.
// CHECK-LABEL: func.func @convnext_block
// CHECK-SAME:    (%[[G:.*]]: tensor<2x8x4x4xf16, #cudnn.channels_last>, %[[B:.*]]: tensor<1x8x1x1xf16>, %[[MM:.*]]: tensor<32x8xf16>, %[[LS:.*]]: tensor<1x8x1x1xf16>, %[[RES:.*]]: tensor<2x8x4x4xf16, #cudnn.channels_last>)
// CHECK-NOT:     tcp.transpose
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         %[[V:.*]] = cudnn.layout_view %[[G]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16>
// CHECK:         %[[A:.*]] = tcp.add %[[V]], %{{.*}} : tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
// CHECK:         %[[LN:.*]] = tcp.layer_norm %[[A]]
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[MM]]
// CHECK:         %[[M:.*]] = tcp.mul %{{.*}}, %[[E]] : tensor<2x4x4x8xf16>, tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
// CHECK:         %[[RV:.*]] = cudnn.layout_view %[[RES]] : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16>
// CHECK:         %[[S:.*]] = tcp.add %[[M]], %[[RV]] : tensor<2x4x4x8xf16>
// CHECK:         %[[BACK:.*]] = cudnn.layout_view %[[S]] : tensor<2x4x4x8xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
// CHECK-NOT:     tcp.transpose
// CHECK-NOT:     cudnn.convert_layout
// CHECK:         return %[[LN]], %[[BACK]]
func.func @convnext_block(%g: tensor<2x8x4x4xf16, #cudnn.channels_last>, %b: tensor<1x8x1x1xf16>, %mm: tensor<32x8xf16>, %ls: tensor<1x8x1x1xf16>, %res: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> (tensor<2x4x4x8xf16>, tensor<2x8x4x4xf16, #cudnn.channels_last>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %p = cudnn.convert_layout %g : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %bb = tcp.broadcast %b, %c2, %c4, %c4 {axes = [0, 2, 3]} : tensor<1x8x1x1xf16>, index, index, index -> tensor<2x8x4x4xf16>
  %a = tcp.add %p, %bb : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %t = tcp.transpose %a {permutation = array<i64: 0, 2, 3, 1>} : tensor<2x8x4x4xf16> -> tensor<2x4x4x8xf16>
  %ln = tcp.layer_norm %t {epsilon = 1.0e-6 : f64, normalized_rank = 1 : i64} : tensor<2x4x4x8xf16> -> tensor<2x4x4x8xf16>
  %e = tensor.expand_shape %mm [[0, 1, 2], [3]] output_shape [2, 4, 4, 8] : tensor<32x8xf16> into tensor<2x4x4x8xf16>
  %back = tcp.transpose %e {permutation = array<i64: 0, 3, 1, 2>} : tensor<2x4x4x8xf16> -> tensor<2x8x4x4xf16>
  %lsb = tcp.broadcast %ls, %c2, %c4, %c4 {axes = [0, 2, 3]} : tensor<1x8x1x1xf16>, index, index, index -> tensor<2x8x4x4xf16>
  %m = tcp.mul %lsb, %back : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %rp = cudnn.convert_layout %res : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %s = tcp.add %m, %rp : tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16>
  %c = cudnn.convert_layout %s : tensor<2x8x4x4xf16> -> tensor<2x8x4x4xf16, #cudnn.channels_last>
  return %ln, %c : tensor<2x4x4x8xf16>, tensor<2x8x4x4xf16, #cudnn.channels_last>
}

// -----

// A permute to (N, H, W, C) of a channels-last graph's result alone: a view.
// CHECK-LABEL: func.func @permute_of_graph
// CHECK-NEXT:    %[[V:.*]] = cudnn.layout_view %{{.*}} : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x4x4x8xf16>
// CHECK-NEXT:    return %[[V]]
func.func @permute_of_graph(%g: tensor<2x8x4x4xf16, #cudnn.channels_last>) -> tensor<2x4x4x8xf16> {
  %p = cudnn.convert_layout %g : tensor<2x8x4x4xf16, #cudnn.channels_last> -> tensor<2x8x4x4xf16>
  %t = tcp.transpose %p {permutation = array<i64: 0, 2, 3, 1>} : tensor<2x8x4x4xf16> -> tensor<2x4x4x8xf16>
  return %t : tensor<2x4x4x8xf16>
}

// -----

// Permutes that gain nothing stay: back to (N, C, H, W) for a user that
// needs the packed tensor (its view would need a conversion instead), and
// to (N, H, W, C) of a packed argument (no free route).
// CHECK-LABEL: func.func @permutes_stay
// CHECK:         tcp.transpose %{{.*}} {permutation = array<i64: 0, 3, 1, 2>}
// CHECK:         tcp.transpose %{{.*}} {permutation = array<i64: 0, 2, 3, 1>}
// CHECK-NOT:     cudnn.layout_view
func.func @permutes_stay(%x: tensor<2x4x4x8xf16>, %y: tensor<2x8x4x4xf16>) -> (tensor<2x8x4x4xf16>, tensor<2x4x4x8xf16>) {
  %t = tcp.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : tensor<2x4x4x8xf16> -> tensor<2x8x4x4xf16>
  %u = tcp.transpose %y {permutation = array<i64: 0, 2, 3, 1>} : tensor<2x8x4x4xf16> -> tensor<2x4x4x8xf16>
  return %t, %u : tensor<2x8x4x4xf16>, tensor<2x4x4x8xf16>
}
