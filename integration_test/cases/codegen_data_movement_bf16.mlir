// Data movement, bf16: a strided slice of 9x40x13 (starts 1, 3, 0; strides
// 2, 3, 1), concat along a middle axis (three inputs) and along the
// innermost one, torch.gather along dim 1 (i64 indices in [0, 40)) and
// gather_nd of (row, col) pairs. Exact: no arithmetic.
func.func @forward(%x: tensor<9x40x13xbf16>,
                   %a: tensor<9x5x13xbf16>,
                   %b: tensor<9x2x13xbf16>,
                   %c: tensor<9x40x3xbf16>,
                   %idx: tensor<9x7x13xi64>,
                   %nd: tensor<6x2xi64>)
    -> (tensor<4x12x13xbf16>, tensor<9x47x13xbf16>, tensor<9x40x16xbf16>,
        tensor<9x7x13xbf16>, tensor<6x13xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %s = tcp.slice %x starts(%c1, %c3, %c0) sizes(%c4, %c12, %c13) strides(%c2, %c3, %c1)
      : tensor<9x40x13xbf16> -> tensor<4x12x13xbf16>
  %cat = tcp.concat %a, %x, %b attributes {axis = 1 : i64}
      : tensor<9x5x13xbf16>, tensor<9x40x13xbf16>, tensor<9x2x13xbf16> -> tensor<9x47x13xbf16>
  %cl = tcp.concat %x, %c attributes {axis = 2 : i64} : tensor<9x40x13xbf16>, tensor<9x40x3xbf16> -> tensor<9x40x16xbf16>
  %g = tcp.gather %x, %idx {dim = 1 : index} : tensor<9x40x13xbf16>, tensor<9x7x13xi64> -> tensor<9x7x13xbf16>
  %gn = tcp.gather_nd %x, %nd : tensor<9x40x13xbf16>, tensor<6x2xi64> -> tensor<6x13xbf16>
  return %s, %cat, %cl, %g, %gn : tensor<4x12x13xbf16>, tensor<9x47x13xbf16>, tensor<9x40x16xbf16>, tensor<9x7x13xbf16>, tensor<6x13xbf16>
}
