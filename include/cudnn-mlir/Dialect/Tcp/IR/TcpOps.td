//===- TcpOps.td - tcp ops that upstream mlir-tcp also has -*- tablegen -*-===//
//
// Same mnemonics, operand/attribute names and assembly formats as upstream
// mlir-tcp, so that IR from torch-mlir's TorchToTcp parses unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_TCP_OPS
#define CUDNN_MLIR_TCP_OPS

include "cudnn-mlir/Dialect/Tcp/IR/TcpBase.td"
include "cudnn-mlir/Dialect/Tcp/IR/TcpEnums.td"
include "mlir/IR/BuiltinAttributes.td"

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

class Tcp_FloatUnaryOp<string mnemonic, string what>
    : Tcp_UnaryElementwiseOp<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "Computes " # what # " of the input, elementwise";
  let description = "Computes " # what # " of each element of a float tensor.\n\n"
    # "Example:\n\n```mlir\n%1 = tcp." # mnemonic
    # " %0 : tensor<4x?xf32> -> tensor<4x?xf32>\n```";
  let arguments = (ins Tcp_FloatTensor:$in);
  let results = (outs Tcp_FloatTensor:$out);
}

def Tcp_TanhOp : Tcp_FloatUnaryOp<"tanh", "the hyperbolic tangent">;
def Tcp_SigmoidOp : Tcp_FloatUnaryOp<"sigmoid", "the logistic sigmoid 1/(1+e^-x)">;
def Tcp_CeilOp : Tcp_FloatUnaryOp<"ceil", "the ceiling">;
def Tcp_FloorOp : Tcp_FloatUnaryOp<"floor", "the floor">;
def Tcp_RoundOp : Tcp_FloatUnaryOp<"round",
    "the nearest integer, halfway cases away from zero,">;
def Tcp_RoundEvenOp : Tcp_FloatUnaryOp<"round_even",
    "the nearest integer, halfway cases to even,">;
def Tcp_CosOp : Tcp_FloatUnaryOp<"cos", "the cosine">;
def Tcp_SinOp : Tcp_FloatUnaryOp<"sin", "the sine">;
def Tcp_LogOp : Tcp_FloatUnaryOp<"log", "the natural logarithm">;
def Tcp_NegOp : Tcp_FloatUnaryOp<"neg", "the negation">;
def Tcp_AtanOp : Tcp_FloatUnaryOp<"atan", "the arc tangent">;
// An extension (softmax needs it): cudnn-mlir's own, with the same form as
// the unary ops above.
def Tcp_ExpOp : Tcp_FloatUnaryOp<"exp", "the natural exponential e^x">;

def Tcp_SqrtOp : Tcp_UnaryElementwiseOp<"sqrt"> {
  let summary = "Computes the square root of the input, elementwise";
  let description = [{
    Computes the square root of each element. An integer input is converted
    to the float result type first, so the result is always a float tensor.

    Example:

    ```mlir
    %1 = tcp.sqrt %0 : tensor<8xf16> -> tensor<8xf16>
    ```
  }];
  let arguments = (ins Tcp_FloatOrIntTensor:$in);
  let results = (outs Tcp_FloatTensor:$out);
}

def Tcp_AbsOp : Tcp_UnaryElementwiseOp<"abs", [SameOperandsAndResultElementType]> {
  let summary = "Computes the absolute value of the input, elementwise";
  let description = [{
    Computes the absolute value of each element of a float or integer tensor.

    Example:

    ```mlir
    %1 = tcp.abs %0 : tensor<8xi32> -> tensor<8xi32>
    ```
  }];
  let arguments = (ins Tcp_FloatOrIntTensor:$in);
  let results = (outs Tcp_FloatOrIntTensor:$out);
}

def Tcp_ClampOp : Tcp_UnaryElementwiseOp<"clamp", [SameOperandsAndResultElementType]> {
  let summary = "Clamps the input to a minimum and/or maximum, elementwise";
  let description = [{
    Clamps each element to `[min, max]`. A float tensor takes `min_float`
    and/or `max_float`; an integer tensor takes `min_int` and/or `max_int`.
    At least one bound must be given, and none of the other kind. A ReLU is
    `tcp.clamp` with `min_float = 0.0`.

    Example:

    ```mlir
    %1 = tcp.clamp %0 {min_float = 0.000000e+00 : f32, max_float = 6.000000e+00 : f32}
        : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins
    Tcp_FloatOrIntTensor:$in,
    OptionalAttr<F32Attr>:$min_float,
    OptionalAttr<F32Attr>:$max_float,
    OptionalAttr<I64Attr>:$min_int,
    OptionalAttr<I64Attr>:$max_int);
  let results = (outs Tcp_FloatOrIntTensor:$out);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

class Tcp_SameTypeBinaryOp<string mnemonic, string what, Type tensorType>
    : Tcp_BinaryElementwiseOp<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "Computes " # what # ", elementwise";
  let description = "Computes " # what # " of `in1` and `in2`, elementwise. "
    # "Both operands have the result's shape: broadcasting is explicit, "
    # "through `tcp.broadcast`.\n\n"
    # "Example:\n\n```mlir\n%2 = tcp." # mnemonic
    # " %0, %1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>\n```";
  let arguments = (ins tensorType:$in1, tensorType:$in2);
  let results = (outs tensorType:$out);
}

def Tcp_AddOp : Tcp_SameTypeBinaryOp<"add", "the sum", Tcp_Tensor>;
def Tcp_SubOp : Tcp_SameTypeBinaryOp<"sub", "the difference in1 - in2", Tcp_Tensor>;
def Tcp_MulOp : Tcp_SameTypeBinaryOp<"mul", "the product", Tcp_FloatOrIntTensor>;
def Tcp_DivFOp : Tcp_SameTypeBinaryOp<"divf", "the float quotient in1 / in2",
                                      Tcp_FloatTensor>;
def Tcp_Atan2Op : Tcp_SameTypeBinaryOp<"atan2",
    "the two-argument arc tangent atan(in1 / in2) with the quadrant of (in2, in1)",
    Tcp_FloatTensor>;

class Tcp_IntDivOp<string mnemonic, string signedness>
    : Tcp_BinaryElementwiseOp<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "Computes the " # signedness # " integer quotient, elementwise";
  let description = "Divides `in1` by `in2`, reading both as " # signedness
    # " integers, and rounds the quotient as `rounding_mode` says "
    # "(Trunc, Floor or Ceil).\n\n"
    # "Example:\n\n```mlir\n%2 = tcp." # mnemonic
    # " %0, %1 {rounding_mode = #tcp<roundingMode Trunc>} "
    # ": tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>\n```";
  let arguments = (ins
    Tcp_IntTensor:$in1,
    Tcp_IntTensor:$in2,
    Tcp_RoundingModeAttr:$rounding_mode);
  let results = (outs Tcp_IntTensor:$out);
}

def Tcp_DivSIOp : Tcp_IntDivOp<"divsi", "signed">;
def Tcp_DivUIOp : Tcp_IntDivOp<"divui", "unsigned">;

//===----------------------------------------------------------------------===//
// Constants, broadcast, cast
//===----------------------------------------------------------------------===//

def Tcp_ConstOp : Tcp_Op<"const", [ConstantLike, Pure]> {
  let summary = "A constant tensor";
  let description = [{
    Produces a constant tensor of float or signless integer elements. The
    attribute's type is the result type.

    Example:

    ```mlir
    %0 = tcp.const {value = dense<[1.0, 2.0]> : tensor<2xf32>} : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = "attr-dict `:` type($out)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Tcp_BroadcastOp : Tcp_Op<"broadcast", [Pure,
    AllRanksMatch<["in", "out"]>, AllElementTypesMatch<["in", "out"]>]> {
  let summary = "Broadcasts size-1 dimensions of the input to new sizes";
  let description = [{
    Replicates dimension `axes[i]` of `in`, which must have static size 1,
    `new_dim_sizes[i]` times. The rank does not change (rank changes go
    through `tensor.expand_shape`). `axes` is sorted, has no duplicates and
    has as many entries as `new_dim_sizes`.

    Example:

    ```mlir
    %2 = tcp.broadcast %0, %c5, %c20 {axes = [1, 2]}
        : tensor<1x1x1xf32>, index, index -> tensor<1x5x20xf32>
    ```
  }];
  let arguments = (ins
    Tcp_Tensor:$in,
    Variadic<Index>:$new_dim_sizes,
    I64ArrayAttr:$axes);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = [{
    $in `,` $new_dim_sizes attr-dict `:` type($in) `,` type($new_dim_sizes)
    `->` type($out)
  }];
  let hasVerifier = 1;
}

def Tcp_CastOp : Tcp_Op<"cast", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Converts the element type, elementwise";
  let description = [{
    Converts each element between float types (f16, bf16, f32, f64) and
    integer types (i1, i8, i16, i32, i64) in any direction. An integer side
    must say how its bits are read (`in_int_signedness` /
    `out_int_signedness`, Signless for i1); a float side must not.

    Example:

    ```mlir
    %1 = tcp.cast %0 {in_int_signedness = #tcp<signedness Signed>}
        : tensor<4xi32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins
    Tcp_Tensor:$in,
    OptionalAttr<Tcp_SignednessAttr>:$in_int_signedness,
    OptionalAttr<Tcp_SignednessAttr>:$out_int_signedness);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Tcp_SliceOp : Tcp_Op<"slice", [Pure, AllElementTypesMatch<["in", "out"]>,
                                   AttrSizedOperandSegments]> {
  let summary = "Extracts a strided slice";
  let description = [{
    Takes `sizes[d]` elements along each dimension `d`, starting at
    `starts[d]` and stepping by `strides[d]`. There is one start, size and
    stride per dimension of `in`, and the result has shape `sizes` (where
    those are constants).

    Example:

    ```mlir
    %1 = tcp.slice %0 starts(%c3, %c5) sizes(%c32, %c32) strides(%c1, %c1)
        : tensor<40x40xf32> -> tensor<32x32xf32>
    ```
  }];
  let arguments = (ins
    Tcp_Tensor:$in,
    Variadic<Index>:$starts,
    Variadic<Index>:$sizes,
    Variadic<Index>:$strides);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = [{
    $in `starts` `(` $starts `)` `sizes` `(` $sizes `)` `strides` `(` $strides `)`
    attr-dict `:` type($in) `->` type($out)
  }];
  let hasVerifier = 1;
}

def Tcp_ConcatOp : Tcp_Op<"concat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Concatenates tensors along one axis";
  let description = [{
    Concatenates tensors of equal rank along `axis`. All other dimensions
    agree; the result's `axis` dimension is the sum of the inputs'.

    Example:

    ```mlir
    %2 = tcp.concat %0, %1 attributes {axis = 1 : i64}
        : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Tcp_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Tcp_Tensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict-with-keyword `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tcp_GatherOp : Tcp_Op<"gather", [Pure]> {
  let summary = "Gathers elements along one dimension (torch.gather)";
  let description = [{
    `out[i0, ..., i(n-1)] = input[i0, ..., indices[i0, ..., i(n-1)], ...]`
    where the index replaces dimension `dim`. `indices` has the rank of
    `input`, the result has the shape of `indices` and the element type of
    `input`, and outside `dim` `indices` is no larger than `input`.

    Example:

    ```mlir
    %2 = tcp.gather %0, %1 {dim = 2 : index}
        : tensor<1x4x3xf32>, tensor<1x4x2xi64> -> tensor<1x4x2xf32>
    ```
  }];
  let arguments = (ins Tcp_Tensor:$input, Tcp_IntTensor:$indices, IndexAttr:$dim);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` type($input) `,` type($indices) `->` type($out)
  }];
  let hasVerifier = 1;
}

def Tcp_GatherNDOp : Tcp_Op<"gather_nd", [Pure]> {
  let summary = "Gathers slices by N-dimensional indices (tf.gather_nd)";
  let description = [{
    The last dimension `k` of `indices` (static, at most the rank of
    `input`) indexes the first `k` dimensions of `input`. The result shape is
    `indices.shape[:-1] ++ input.shape[k:]`.

    Example:

    ```mlir
    %2 = tcp.gather_nd %0, %1
        : tensor<5x7x3xf32>, tensor<4x2xi64> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Tcp_Tensor:$input, Tcp_IntTensor:$indices);
  let results = (outs Tcp_Tensor:$out);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` type($input) `,` type($indices) `->` type($out)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Opaque ops and grouping
//===----------------------------------------------------------------------===//

def Tcp_CustomOp : Tcp_Op<"custom_op"> {
  let summary = "An operation TCP does not define, carried by name";
  let description = [{
    Carries an operation with tensor operands and results whose semantics
    TCP does not define, named by `op_name` (by convention the torch op,
    e.g. `torch.aten.lstm`), with its parameters as attributes. Backends that
    know the name lower it (cudnn-mlir lowers the RNN ops to cuDNN's RNN API).

    Example:

    ```mlir
    %0 = tcp.custom_op("torch.aten.foo") %arg0 {alpha = 1.0 : f32}
        : tensor<2xf32> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$op_name);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    `(` $op_name `)` $inputs attr-dict `:` type($inputs) `->` type($outputs)
  }];
  let hasVerifier = 1;
}

def Tcp_YieldOp : Tcp_Op<"yield", [Pure, Terminator,
                                   ParentOneOf<["GroupOp", "IsolatedGroupOp"]>]> {
  let summary = "Returns values from a tcp group";
  let description = [{
    Terminates the body of `tcp.group` / `tcp.isolated_group`; its operands
    become the group's results, in order and with the same types.

    Example:

    ```mlir
    tcp.yield %0, %1 : tensor<2xf32>, tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$ins);
  let builders = [OpBuilder<(ins), [{ }]>];
  let assemblyFormat = "$ins attr-dict `:` type($ins)";
}

def Tcp_GroupOp : Tcp_Op<"group", [SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Groups ops into a region that may use outer values";
  let description = [{
    Marks a set of ops that a later stage treats as one unit (a cuDNN graph
    when `group_type = "cudnn"`). The region is not isolated: it uses values
    from the enclosing scope directly. It has one block, no control flow, and
    ends in `tcp.yield`, whose operands are the group's results.

    Example:

    ```mlir
    %0 = tcp.group attributes {group_type = "cudnn"} {
      %1 = tcp.tanh %arg0 : tensor<2xf32> -> tensor<2xf32>
      tcp.yield %1 : tensor<2xf32>
    } : tensor<2xf32>
    ```
  }];
  let results = (outs Variadic<AnyType>:$outs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body `:` type($outs)";
  let hasVerifier = 1;
}

def Tcp_IsolatedGroupOp : Tcp_Op<"isolated_group", [
    IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Groups ops into a region isolated from above";
  let description = [{
    Like `tcp.group`, but every outer value the body uses is passed as an
    operand and appears as the matching block argument.

    Example:

    ```mlir
    %0 = tcp.isolated_group %arg0 {
    ^bb0(%a: tensor<2xf32>):
      %1 = tcp.tanh %a : tensor<2xf32> -> tensor<2xf32>
      tcp.yield %1 : tensor<2xf32>
    } : tensor<2xf32> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$ins);
  let results = (outs Variadic<AnyType>:$outs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $ins attr-dict-with-keyword $body `:` type($ins) `->` type($outs)
  }];
  let hasVerifier = 1;
}

#endif // CUDNN_MLIR_TCP_OPS
