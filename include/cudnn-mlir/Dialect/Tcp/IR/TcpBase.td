//===- TcpBase.td - tcp dialect definition and type classes -*- tablegen -*-===//

#ifndef CUDNN_MLIR_TCP_BASE
#define CUDNN_MLIR_TCP_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tcp_Dialect : Dialect {
  let name = "tcp";
  let cppNamespace = "::mlir::tcp";
  let summary = "Tensor Compute Primitives: the tensor-level input of cudnn-mlir";
  let description = [{
    TCP is a mid-level tensor dialect: ranked tensors, no implicit
    broadcasting (a `tcp.broadcast` makes every broadcast explicit), and
    performance-relevant parameters as attributes. torch-mlir's TorchToTcp
    produces it.

    cudnn-mlir implements its own copy of the dialect. Every op that upstream
    mlir-tcp has keeps upstream's mnemonic, operand and attribute names and
    assembly format, so IR written for upstream parses here unchanged. The ops
    our workloads need beyond that (convolution, matmul, normalisation,
    pooling, reductions, transpose, GELU) are extensions, listed as such in
    docs/dialects.md.
  }];
  let useDefaultAttributePrinterParser = 1;
}

class Tcp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tcp_Dialect, mnemonic, traits>;

// Element types. TCP tensors hold floats or signless integers; signedness is
// carried by attributes where it matters (cast, divsi/divui).
def Tcp_Scalar : AnyTypeOf<[AnyFloat, AnySignlessInteger]>;
def Tcp_Tensor : RankedTensorOf<[Tcp_Scalar]>;
def Tcp_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Tcp_IntTensor : RankedTensorOf<[AnySignlessInteger]>;
def Tcp_FloatOrIntTensor : RankedTensorOf<[AnyFloat, AnySignlessInteger]>;

// Elementwise ops never broadcast implicitly: operands and results have the
// same shape (dynamic dimensions must be compatible).
class Tcp_UnaryElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Tcp_Op<mnemonic, !listconcat(traits, [
          Pure, Elementwise, SameOperandsAndResultShape])> {
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
}

class Tcp_BinaryElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Tcp_Op<mnemonic, !listconcat(traits, [
          Pure, Elementwise, SameOperandsAndResultShape])> {
  let assemblyFormat = [{
    $in1 `,` $in2 attr-dict `:` type($in1) `,` type($in2) `->` type($out)
  }];
}

#endif // CUDNN_MLIR_TCP_BASE
