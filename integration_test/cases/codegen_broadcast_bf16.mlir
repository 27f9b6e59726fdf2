// Broadcast patterns folded into the elementwise kernel that reads them, bf16
// (no cuDNN graph): a row vector (a rank-1 bias, expanded to 1x96 as
// TorchToTcp does, broadcast along axis 0), a column vector (64x1 along axis
// 1), a scalar-like 1x1 (both axes) and the middle axis of a 3-D tensor
// (8x1x40 -> 8x24x40).
func.func @forward(%x: tensor<64x96xbf16>,
                   %row: tensor<96xbf16>,
                   %col: tensor<64x1xbf16>,
                   %s: tensor<1x1xbf16>,
                   %x3: tensor<8x24x40xbf16>,
                   %mid: tensor<8x1x40xbf16>)
    -> (tensor<64x96xbf16>, tensor<64x96xbf16>, tensor<64x96xbf16>,
        tensor<8x24x40xbf16>) {
  %c8 = arith.constant 8 : index
  %c24 = arith.constant 24 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %r = tensor.expand_shape %row [[0, 1]] output_shape [1, 96] : tensor<96xbf16> into tensor<1x96xbf16>
  %rb = tcp.broadcast %r, %c64 {axes = [0]} : tensor<1x96xbf16>, index -> tensor<64x96xbf16>
  %y0 = tcp.add %x, %rb : tensor<64x96xbf16>, tensor<64x96xbf16> -> tensor<64x96xbf16>
  %cb = tcp.broadcast %col, %c96 {axes = [1]} : tensor<64x1xbf16>, index -> tensor<64x96xbf16>
  %y1 = tcp.mul %x, %cb : tensor<64x96xbf16>, tensor<64x96xbf16> -> tensor<64x96xbf16>
  %sb = tcp.broadcast %s, %c64, %c96 {axes = [0, 1]} : tensor<1x1xbf16>, index, index -> tensor<64x96xbf16>
  %y2 = tcp.sub %x, %sb : tensor<64x96xbf16>, tensor<64x96xbf16> -> tensor<64x96xbf16>
  %mb = tcp.broadcast %mid, %c24 {axes = [1]} : tensor<8x1x40xbf16>, index -> tensor<8x24x40xbf16>
  %y3 = tcp.add %x3, %mb : tensor<8x24x40xbf16>, tensor<8x24x40xbf16> -> tensor<8x24x40xbf16>
  return %y0, %y1, %y2, %y3 : tensor<64x96xbf16>, tensor<64x96xbf16>, tensor<64x96xbf16>, tensor<8x24x40xbf16>
}
