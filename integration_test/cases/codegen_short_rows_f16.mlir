// Row reductions over short rows, several rows a block: a layer norm over
// the last dim of 4x14x14x96 f16 (ConvNeXt's, on channels-last bytes: rows
// of 12 vectors, 4 lanes a row, 16 rows a block of 784), a softmax over
// rows of 64 (8 vectors: 4 lanes a row, 4 rows a block of 300), a layer
// norm over 2x3 rows of 40 (5 vectors, which no power of two splits evenly:
// 2 lanes a row, one with a vector more, 2 rows a block; over its last dim
// only, so no cuDNN layer norm takes it), and a softmax over 48 rows of 197
// (attention's 197 tokens: unaligned rows, scalar loads, a warp a row
// looping over 6 or 7 elements a lane, 8 rows a block).
func.func @forward(%x: tensor<4x14x14x96xf16>, %g: tensor<96xf16>, %b: tensor<96xf16>,
                   %s: tensor<300x64xf16>, %z: tensor<2x3x40xf16>,
                   %t: tensor<48x197xf16>)
    -> (tensor<4x14x14x96xf16>, tensor<300x64xf16>, tensor<2x3x40xf16>,
        tensor<48x197xf16>) {
  %c = arith.constant 64 : index
  %0 = tcp.layer_norm %x scale(%g : tensor<96xf16>) bias(%b : tensor<96xf16>) {epsilon = 1.000000e-06 : f64, normalized_rank = 1 : i64}
      : tensor<4x14x14x96xf16> -> tensor<4x14x14x96xf16>
  %max = tcp.reduce_max %s {axes = array<i64: 1>, keep_dims} : tensor<300x64xf16> -> tensor<300x1xf16>
  %maxb = tcp.broadcast %max, %c {axes = [1]} : tensor<300x1xf16>, index -> tensor<300x64xf16>
  %d = tcp.sub %s, %maxb : tensor<300x64xf16>, tensor<300x64xf16> -> tensor<300x64xf16>
  %e = tcp.exp %d : tensor<300x64xf16> -> tensor<300x64xf16>
  %sum = tcp.reduce_sum %e {axes = array<i64: 1>, keep_dims} : tensor<300x64xf16> -> tensor<300x1xf16>
  %sumb = tcp.broadcast %sum, %c {axes = [1]} : tensor<300x1xf16>, index -> tensor<300x64xf16>
  %sm = tcp.divf %e, %sumb : tensor<300x64xf16>, tensor<300x64xf16> -> tensor<300x64xf16>
  %1 = tcp.layer_norm %z {epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64}
      : tensor<2x3x40xf16> -> tensor<2x3x40xf16>
  %c197 = arith.constant 197 : index
  %tmax = tcp.reduce_max %t {axes = array<i64: 1>, keep_dims} : tensor<48x197xf16> -> tensor<48x1xf16>
  %tmaxb = tcp.broadcast %tmax, %c197 {axes = [1]} : tensor<48x1xf16>, index -> tensor<48x197xf16>
  %td = tcp.sub %t, %tmaxb : tensor<48x197xf16>, tensor<48x197xf16> -> tensor<48x197xf16>
  %te = tcp.exp %td : tensor<48x197xf16> -> tensor<48x197xf16>
  %tsum = tcp.reduce_sum %te {axes = array<i64: 1>, keep_dims} : tensor<48x197xf16> -> tensor<48x1xf16>
  %tsumb = tcp.broadcast %tsum, %c197 {axes = [1]} : tensor<48x1xf16>, index -> tensor<48x197xf16>
  %tsm = tcp.divf %te, %tsumb : tensor<48x197xf16>, tensor<48x197xf16> -> tensor<48x197xf16>
  return %0, %sm, %1, %tsm : tensor<4x14x14x96xf16>, tensor<300x64xf16>, tensor<2x3x40xf16>, tensor<48x197xf16>
}
