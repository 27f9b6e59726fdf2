func.func @first(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

// -----

func.func @second(%a: tensor<4xi32>) -> tensor<4xi32> {
  return %a : tensor<4xi32>
}
