// Broadcast patterns folded into the elementwise kernel that reads them, f32
// (no cuDNN graph): a row vector (a rank-1 bias, expanded to 1x96 as
// TorchToTcp does, broadcast along axis 0), a column vector (64x1 along axis
// 1), a scalar-like 1x1 (both axes) and the middle axis of a 3-D tensor
// (8x1x40 -> 8x24x40).
func.func @forward(%x: tensor<64x96xf32>,
                   %row: tensor<96xf32>,
                   %col: tensor<64x1xf32>,
                   %s: tensor<1x1xf32>,
                   %x3: tensor<8x24x40xf32>,
                   %mid: tensor<8x1x40xf32>)
    -> (tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>,
        tensor<8x24x40xf32>) {
  %c8 = arith.constant 8 : index
  %c24 = arith.constant 24 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %r = tensor.expand_shape %row [[0, 1]] output_shape [1, 96] : tensor<96xf32> into tensor<1x96xf32>
  %rb = tcp.broadcast %r, %c64 {axes = [0]} : tensor<1x96xf32>, index -> tensor<64x96xf32>
  %y0 = tcp.add %x, %rb : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  %cb = tcp.broadcast %col, %c96 {axes = [1]} : tensor<64x1xf32>, index -> tensor<64x96xf32>
  %y1 = tcp.mul %x, %cb : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  %sb = tcp.broadcast %s, %c64, %c96 {axes = [0, 1]} : tensor<1x1xf32>, index, index -> tensor<64x96xf32>
  %y2 = tcp.sub %x, %sb : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  %mb = tcp.broadcast %mid, %c24 {axes = [1]} : tensor<8x1x40xf32>, index -> tensor<8x24x40xf32>
  %y3 = tcp.add %x3, %mb : tensor<8x24x40xf32>, tensor<8x24x40xf32> -> tensor<8x24x40xf32>
  return %y0, %y1, %y2, %y3 : tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<8x24x40xf32>
}
