// A conv3x3 (fp16, channels-last at the boundary) with an epilogue of the
// pointwise modes the fusion pass accepts after an anchor besides
// add / mul / clamp: with z = conv(x, w) and a = z - b (b per channel),
//   y = -(tanh(a) * sigmoid(z)) / (1 + |a|)
// (sub, tanh, sigmoid, mul, abs, add, divf, neg: bounded, no division by
// anything near 0). One fused graph; the 1.0 is passed to cuDNN by value.
func.func @forward(%x: tensor<2x32x16x16xf16> {cudnn.layout = "channels_last"},
                   %w: tensor<32x32x3x3xf16> {cudnn.layout = "channels_last"},
                   %b: tensor<1x32x1x1xf16>)
    -> (tensor<2x32x16x16xf16> {cudnn.layout = "channels_last"}) {
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = tcp.const {value = dense<1.0> : tensor<1x1x1x1xf16>} : tensor<1x1x1x1xf16>
  %z = tcp.conv2d %x, %w
      {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : tensor<2x32x16x16xf16>, tensor<32x32x3x3xf16> -> tensor<2x32x16x16xf16>
  %bb = tcp.broadcast %b, %c2, %c16, %c16 {axes = [0, 2, 3]}
      : tensor<1x32x1x1xf16>, index, index, index -> tensor<2x32x16x16xf16>
  %a = tcp.sub %z, %bb : tensor<2x32x16x16xf16>, tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %t = tcp.tanh %a : tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %s = tcp.sigmoid %z : tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %m = tcp.mul %t, %s : tensor<2x32x16x16xf16>, tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %abs = tcp.abs %a : tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %ones = tcp.broadcast %one, %c2, %c32, %c16, %c16 {axes = [0, 1, 2, 3]}
      : tensor<1x1x1x1xf16>, index, index, index, index -> tensor<2x32x16x16xf16>
  %den = tcp.add %abs, %ones : tensor<2x32x16x16xf16>, tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %q = tcp.divf %m, %den : tensor<2x32x16x16xf16>, tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  %y = tcp.neg %q : tensor<2x32x16x16xf16> -> tensor<2x32x16x16xf16>
  return %y : tensor<2x32x16x16xf16>
}
