// A corpus input: read like any other.
func.func @kept(%a: tensor<?xf16>) -> tensor<?xf16> {
  return %a : tensor<?xf16>
}
