// Every float elementwise tcp op, f16, each a generated kernel (no cuDNN
// graph: an elementwise op without a conv or matmul anchor stays outside).
// Unary on %x (uniform in [-4, 4], a quarter of it exact halves so that
// round, halfway away from zero, and round_even differ), log and sqrt on %p
// (in [0.1, 10]), clamp to [-1.5, 2]; binary (add sub mul divf atan2) on
// %a, %b (|b| in [0.5, 2]). 32x1000 rows are a multiple of 16 bytes (the
// vector path); 45x77 is odd (a tail, or scalar code).
func.func @forward(%x: tensor<32x1000xf16>,
                   %p: tensor<32x1000xf16>,
                   %a: tensor<45x77xf16>,
                   %b: tensor<45x77xf16>)
    -> (tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<45x77xf16>,
        tensor<45x77xf16>, tensor<45x77xf16>, tensor<45x77xf16>,
        tensor<45x77xf16>) {
  %tanh = tcp.tanh %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %sigmoid = tcp.sigmoid %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %ceil = tcp.ceil %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %floor = tcp.floor %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %round = tcp.round %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %round_even = tcp.round_even %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %cos = tcp.cos %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %sin = tcp.sin %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %neg = tcp.neg %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %atan = tcp.atan %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %abs = tcp.abs %x : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %log = tcp.log %p : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %sqrt = tcp.sqrt %p : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %clamp = tcp.clamp %x {max_float = 2.000000e+00 : f32, min_float = -1.500000e+00 : f32} : tensor<32x1000xf16> -> tensor<32x1000xf16>
  %add = tcp.add %a, %b : tensor<45x77xf16>, tensor<45x77xf16> -> tensor<45x77xf16>
  %sub = tcp.sub %a, %b : tensor<45x77xf16>, tensor<45x77xf16> -> tensor<45x77xf16>
  %mul = tcp.mul %a, %b : tensor<45x77xf16>, tensor<45x77xf16> -> tensor<45x77xf16>
  %divf = tcp.divf %a, %b : tensor<45x77xf16>, tensor<45x77xf16> -> tensor<45x77xf16>
  %atan2 = tcp.atan2 %a, %b : tensor<45x77xf16>, tensor<45x77xf16> -> tensor<45x77xf16>
  return %tanh, %sigmoid, %ceil, %floor, %round, %round_even, %cos, %sin, %neg,
         %atan, %abs, %log, %sqrt, %clamp, %add, %sub, %mul, %divf, %atan2
      : tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<32x1000xf16>,
        tensor<32x1000xf16>, tensor<32x1000xf16>, tensor<45x77xf16>,
        tensor<45x77xf16>, tensor<45x77xf16>, tensor<45x77xf16>,
        tensor<45x77xf16>
}
