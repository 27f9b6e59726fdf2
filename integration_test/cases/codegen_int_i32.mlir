// i32 elementwise ops: add, mul, divsi with each rounding mode (Trunc, Floor,
// Ceil: they differ for negative quotients), clamp to [-100, 100] and abs.
// %a in [-1000, 1000], %b in [-50, 50] without 0. Exact (tolerance 0).
func.func @forward(%a: tensor<45x77xi32>,
                   %b: tensor<45x77xi32>)
    -> (tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>,
        tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>,
        tensor<45x77xi32>) {
  %0 = tcp.add %a, %b : tensor<45x77xi32>, tensor<45x77xi32> -> tensor<45x77xi32>
  %1 = tcp.mul %a, %b : tensor<45x77xi32>, tensor<45x77xi32> -> tensor<45x77xi32>
  %2 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Trunc>} : tensor<45x77xi32>, tensor<45x77xi32> -> tensor<45x77xi32>
  %3 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Floor>} : tensor<45x77xi32>, tensor<45x77xi32> -> tensor<45x77xi32>
  %4 = tcp.divsi %a, %b {rounding_mode = #tcp<roundingMode Ceil>} : tensor<45x77xi32>, tensor<45x77xi32> -> tensor<45x77xi32>
  %5 = tcp.clamp %a {max_int = 100 : i64, min_int = -100 : i64} : tensor<45x77xi32> -> tensor<45x77xi32>
  %6 = tcp.abs %a : tensor<45x77xi32> -> tensor<45x77xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>, tensor<45x77xi32>
}
