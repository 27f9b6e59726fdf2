// RUN: cudnn-opt %s --convert-tcp-to-linalg | FileCheck %s

// f16 clamps in f32 (its compute type): the bounds are f32 constants, the
// comparison is NaN-propagating, and the result is rounded once.
// CHECK-LABEL: func.func @clamp_f16
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[A:.*]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK-NEXT:      %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:      %[[B:.*]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[B]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
func.func @clamp_f16(%x: tensor<2x4xf16>) -> tensor<2x4xf16> {
  %0 = tcp.clamp %x {min_float = 0.0 : f32, max_float = 6.0 : f32} : tensor<2x4xf16> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// CHECK-LABEL: func.func @clamp_bf16_max_only
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.minimumf %[[X]], %[[HI]] : f32
// CHECK-NEXT:    arith.truncf %[[B]] : f32 to bf16
// CHECK-NOT:     arith.maximumf
func.func @clamp_bf16_max_only(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tcp.clamp %x {max_float = 1.0 : f32} : tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// f64 clamps natively, with f64 bounds.
// CHECK-LABEL: func.func @clamp_f64
// CHECK:         ^bb0(%[[IN:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT:      %[[LO:.*]] = arith.constant -2.500000e-01 : f64
// CHECK-NEXT:      %[[A:.*]] = arith.maximumf %[[IN]], %[[LO]] : f64
// CHECK-NEXT:      linalg.yield %[[A]] : f64
func.func @clamp_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tcp.clamp %x {min_float = -0.25 : f32} : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// Integer bounds have the element width; signed min/max.
// CHECK-LABEL: func.func @clamp_i32
// CHECK:         ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[LO:.*]] = arith.constant -3 : i32
// CHECK-NEXT:      %[[A:.*]] = arith.maxsi %[[IN]], %[[LO]] : i32
// CHECK-NEXT:      %[[HI:.*]] = arith.constant 7 : i32
// CHECK-NEXT:      %[[B:.*]] = arith.minsi %[[A]], %[[HI]] : i32
// CHECK-NEXT:      linalg.yield %[[B]] : i32
func.func @clamp_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcp.clamp %x {min_int = -3 : i64, max_int = 7 : i64} : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// A bound beyond the element range saturates to the range's end (here the
// lower bound -1000 becomes -128, and max(x, -128) folds away; truncating it
// to i8 would clamp at 24).
// CHECK-LABEL: func.func @clamp_i8_saturates
// CHECK:         ^bb0(%[[IN:.*]]: i8, %{{.*}}: i8):
// CHECK-NOT:       arith.maxsi
// CHECK-NEXT:      %[[HI:.*]] = arith.constant 100 : i8
// CHECK-NEXT:      %[[B:.*]] = arith.minsi %[[IN]], %[[HI]] : i8
// CHECK-NEXT:      linalg.yield %[[B]] : i8
func.func @clamp_i8_saturates(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = tcp.clamp %x {min_int = -1000 : i64, max_int = 100 : i64} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func.func @cast_float_float
// CHECK:         ^bb0(%[[A:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:      %[[E:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:      linalg.yield %[[E]] : f32
// CHECK:         ^bb0(%[[B:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[B]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[T]] : bf16
// Between the two 16-bit formats, through f32.
// CHECK:         ^bb0(%[[C:.*]]: bf16, %{{.*}}: f16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[C]] : bf16 to f32
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[W]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[N]] : f16
func.func @cast_float_float(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tcp.cast %x : tensor<4xf16> -> tensor<4xf32>
  %1 = tcp.cast %0 : tensor<4xf32> -> tensor<4xbf16>
  %2 = tcp.cast %1 : tensor<4xbf16> -> tensor<4xf16>
  return %2 : tensor<4xf16>
}

// CHECK-LABEL: func.func @cast_int_float
// CHECK:         arith.sitofp %{{.*}} : i32 to f16
// CHECK:         arith.uitofp %{{.*}} : i8 to f32
// CHECK:         arith.uitofp %{{.*}} : i1 to f32
func.func @cast_int_float(%s: tensor<4xi32>, %u: tensor<4xi8>, %b: tensor<4xi1>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf32>) {
  %0 = tcp.cast %s {in_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xf16>
  %1 = tcp.cast %u {in_int_signedness = #tcp<signedness Unsigned>} : tensor<4xi8> -> tensor<4xf32>
  %2 = tcp.cast %b {in_int_signedness = #tcp<signedness Signless>} : tensor<4xi1> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @cast_float_int
// CHECK:         arith.fptosi %{{.*}} : f16 to i64
// CHECK:         arith.fptoui %{{.*}} : f32 to i8
// CHECK:         ^bb0(%[[F:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[NZ:.*]] = arith.cmpf une, %[[F]], %[[Z]] : f32
// CHECK-NEXT:      linalg.yield %[[NZ]] : i1
func.func @cast_float_int(%h: tensor<4xf16>, %f: tensor<4xf32>) -> (tensor<4xi64>, tensor<4xi8>, tensor<4xi1>) {
  %0 = tcp.cast %h {out_int_signedness = #tcp<signedness Signed>} : tensor<4xf16> -> tensor<4xi64>
  %1 = tcp.cast %f {out_int_signedness = #tcp<signedness Unsigned>} : tensor<4xf32> -> tensor<4xi8>
  %2 = tcp.cast %f {out_int_signedness = #tcp<signedness Signless>} : tensor<4xf32> -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi64>, tensor<4xi8>, tensor<4xi1>
}

// CHECK-LABEL: func.func @cast_int_int
// CHECK:         arith.extsi %{{.*}} : i32 to i64
// CHECK:         arith.extui %{{.*}} : i8 to i32
// CHECK:         arith.trunci %{{.*}} : i64 to i16
// CHECK:         ^bb0(%[[I:.*]]: i32, %{{.*}}: i1):
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[NZ:.*]] = arith.cmpi ne, %[[I]], %[[Z]] : i32
// CHECK-NEXT:      linalg.yield %[[NZ]] : i1
// A bool widens as 0/1.
// CHECK:         arith.extui %{{.*}} : i1 to i32
func.func @cast_int_int(%s: tensor<4xi32>, %u: tensor<4xi8>, %l: tensor<4xi64>, %b: tensor<4xi1>)
    -> (tensor<4xi64>, tensor<4xi32>, tensor<4xi16>, tensor<4xi1>, tensor<4xi32>) {
  %0 = tcp.cast %s {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi32> -> tensor<4xi64>
  %1 = tcp.cast %u {in_int_signedness = #tcp<signedness Unsigned>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi8> -> tensor<4xi32>
  %2 = tcp.cast %l {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi64> -> tensor<4xi16>
  %3 = tcp.cast %s {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Signless>} : tensor<4xi32> -> tensor<4xi1>
  %4 = tcp.cast %b {in_int_signedness = #tcp<signedness Signless>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi1> -> tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xi64>, tensor<4xi32>, tensor<4xi16>, tensor<4xi1>, tensor<4xi32>
}
