// tcp.cast between f32, f16 and bf16 in every direction, and float <-> i32
// (signed; float -> int truncates toward zero, as torch's .to(int32) does),
// on odd 19x263 tensors. Floats in [-300, 300], integers in [-1000, 1000]
// (exact in f16; bf16 rounds them). Per-output tolerances in cases.py:
// exact where the conversion is exact.
func.func @forward(%x: tensor<19x263xf32>,
                   %h: tensor<19x263xf16>,
                   %b: tensor<19x263xbf16>,
                   %i: tensor<19x263xi32>)
    -> (tensor<19x263xf16>, tensor<19x263xbf16>, tensor<19x263xf32>,
        tensor<19x263xf32>, tensor<19x263xbf16>, tensor<19x263xf16>,
        tensor<19x263xi32>, tensor<19x263xi32>, tensor<19x263xi32>,
        tensor<19x263xf32>, tensor<19x263xf16>, tensor<19x263xbf16>) {
  %0 = tcp.cast %x : tensor<19x263xf32> -> tensor<19x263xf16>
  %1 = tcp.cast %x : tensor<19x263xf32> -> tensor<19x263xbf16>
  %2 = tcp.cast %h : tensor<19x263xf16> -> tensor<19x263xf32>
  %3 = tcp.cast %b : tensor<19x263xbf16> -> tensor<19x263xf32>
  %4 = tcp.cast %h : tensor<19x263xf16> -> tensor<19x263xbf16>
  %5 = tcp.cast %b : tensor<19x263xbf16> -> tensor<19x263xf16>
  %6 = tcp.cast %x {out_int_signedness = #tcp<signedness Signed>} : tensor<19x263xf32> -> tensor<19x263xi32>
  %7 = tcp.cast %h {out_int_signedness = #tcp<signedness Signed>} : tensor<19x263xf16> -> tensor<19x263xi32>
  %8 = tcp.cast %b {out_int_signedness = #tcp<signedness Signed>} : tensor<19x263xbf16> -> tensor<19x263xi32>
  %9 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<19x263xi32> -> tensor<19x263xf32>
  %10 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<19x263xi32> -> tensor<19x263xf16>
  %11 = tcp.cast %i {in_int_signedness = #tcp<signedness Signed>} : tensor<19x263xi32> -> tensor<19x263xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
      : tensor<19x263xf16>, tensor<19x263xbf16>, tensor<19x263xf32>,
        tensor<19x263xf32>, tensor<19x263xbf16>, tensor<19x263xf16>,
        tensor<19x263xi32>, tensor<19x263xi32>, tensor<19x263xi32>,
        tensor<19x263xf32>, tensor<19x263xf16>, tensor<19x263xbf16>
}
