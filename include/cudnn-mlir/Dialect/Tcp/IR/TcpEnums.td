//===- TcpEnums.td - tcp enums and their attributes --------*- tablegen -*-===//

#ifndef CUDNN_MLIR_TCP_ENUMS
#define CUDNN_MLIR_TCP_ENUMS

include "cudnn-mlir/Dialect/Tcp/IR/TcpBase.td"

// How an integer tensor's bits are to be read: `#tcp<signedness Signed>`.
def Tcp_Signedness : I32EnumAttr<"Signedness", "signedness of an integer tensor", [
    I32EnumAttrCase<"Signless", 0>,
    I32EnumAttrCase<"Signed", 1>,
    I32EnumAttrCase<"Unsigned", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcp";
}
def Tcp_SignednessAttr : EnumAttr<Tcp_Dialect, Tcp_Signedness, "signedness">;

// How an integer division rounds: `#tcp<roundingMode Trunc>`.
def Tcp_RoundingMode : I32EnumAttr<"RoundingMode", "rounding of integer division", [
    I32EnumAttrCase<"Trunc", 0>,
    I32EnumAttrCase<"Floor", 1>,
    I32EnumAttrCase<"Ceil", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcp";
}
def Tcp_RoundingModeAttr : EnumAttr<Tcp_Dialect, Tcp_RoundingMode, "roundingMode">;

// What tcp.compare tests: `#tcp<predicate lt>`. Floats compare as
// PyTorch's do (IEEE ordered: any comparison with NaN is false, but `ne`,
// which is true).
def Tcp_ComparisonPredicate : I32EnumAttr<"ComparisonPredicate",
    "what tcp.compare tests", [
    I32EnumAttrCase<"eq", 0>,
    I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>,
    I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>,
    I32EnumAttrCase<"ge", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcp";
}
def Tcp_ComparisonPredicateAttr
    : EnumAttr<Tcp_Dialect, Tcp_ComparisonPredicate, "predicate">;

#endif // CUDNN_MLIR_TCP_ENUMS
