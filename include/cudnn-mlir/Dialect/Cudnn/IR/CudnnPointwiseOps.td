//===- CudnnPointwiseOps.td - cudnn pointwise graph ops ----*- tablegen -*-===//
//
// One op per cuDNN 9 pointwise mode (cudnnPointwiseMode_t), each one
// CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR. `cudnn.pointwise_relu` is in
// CudnnOps.td. All of them follow cuDNN's broadcast rule (every input has
// the output's rank, each input dimension equals the output's or is 1) and
// compute in `type` (CUDNN_ATTR_POINTWISE_MATH_PREC).
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_CUDNN_POINTWISE_OPS
#define CUDNN_MLIR_CUDNN_POINTWISE_OPS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.td"

defvar Cudnn_ExampleDesc = "!cudnn.tensor_desc<8x16xf32, alignment = 16, stride = []>";
defvar Cudnn_ExampleRowDesc = "!cudnn.tensor_desc<1x16xf32, alignment = 16, stride = []>";

class Cudnn_PointwiseOpBase<string mode, string cudnnMode, string formula,
                            string exampleText>
    : Cudnn_GraphOp<"pointwise_" # mode, [Pure, Cudnn_PointwiseBroadcast]> {
  let summary = "Pointwise `" # formula # "` (CUDNN_POINTWISE_" # cudnnMode # ")";
  let description = "Computes `" # formula # "` elementwise in `type`, as one "
      # "CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR with mode "
      # "CUDNN_POINTWISE_" # cudnnMode # ". Inputs broadcast to the result "
      # "(each input dimension equals the result's or is 1).\n\n"
      # "Example:\n\n```mlir\n" # exampleText # "\n```\n";
}

/// y = f(x).
class Cudnn_PointwiseUnaryOp<string mode, string cudnnMode, string formula,
                             dag params = (ins), string paramFormat = "",
                             string exampleAttrs = "">
    : Cudnn_PointwiseOpBase<mode, cudnnMode, formula,
        "%y = cudnn.pointwise_" # mode # "(%x) type = f32" # exampleAttrs
        # "\n    : " # Cudnn_ExampleDesc # "\n    -> " # Cudnn_ExampleDesc> {
  let arguments = !con((ins Cudnn_TensorDescType:$x, TypeAttr:$type), params);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = "`(` $x `)` `type` `=` $type " # paramFormat
      # " attr-dict `:` qualified(type($x)) `->` qualified(type($y))";
}

/// y = f(x, b); `resultElem` is the example's result element type (i1 for
/// comparisons and logical ops).
class Cudnn_PointwiseBinaryOp<string mode, string cudnnMode, string formula,
                              string resultElem = "f32">
    : Cudnn_PointwiseOpBase<mode, cudnnMode, formula,
        "%y = cudnn.pointwise_" # mode # "(%x, %b) type = f32\n    : "
        # Cudnn_ExampleDesc # ",\n      " # Cudnn_ExampleRowDesc
        # "\n    -> !cudnn.tensor_desc<8x16x" # resultElem
        # ", alignment = 16, stride = []>"> {
  let arguments = (ins Cudnn_TensorDescType:$x, Cudnn_TensorDescType:$b,
                       TypeAttr:$type);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `,` $b `)` `type` `=` $type attr-dict `:` qualified(type($x)) `,`
    qualified(type($b)) `->` qualified(type($y))
  }];
}

/// dx = f'(x) * dy, the gradient of activation `mode` at its input x.
class Cudnn_PointwiseBackwardOp<string mode, string cudnnMode, string formula,
                                dag params = (ins), string paramFormat = "">
    : Cudnn_PointwiseOpBase<mode # "_bwd", cudnnMode, formula,
        "%dx = cudnn.pointwise_" # mode # "_bwd(%dy, %x) type = f32\n    : "
        # Cudnn_ExampleDesc # ",\n      " # Cudnn_ExampleDesc
        # "\n    -> " # Cudnn_ExampleDesc> {
  let arguments = !con((ins Cudnn_TensorDescType:$dy, Cudnn_TensorDescType:$x,
                            TypeAttr:$type), params);
  let results = (outs Cudnn_TensorDescType:$dx);
  let assemblyFormat = "`(` $dy `,` $x `)` `type` `=` $type " # paramFormat
      # " attr-dict `:` qualified(type($dy)) `,` qualified(type($x)) `->` "
      # "qualified(type($dx))";
}

defvar Cudnn_EluParams = (ins OptionalAttr<F32Attr>:$elu_alpha);
defvar Cudnn_EluFormat = "(`elu_alpha` `=` $elu_alpha^)?";
defvar Cudnn_SoftplusParams = (ins OptionalAttr<F32Attr>:$softplus_beta);
defvar Cudnn_SoftplusFormat = "(`softplus_beta` `=` $softplus_beta^)?";
defvar Cudnn_SwishParams = (ins OptionalAttr<F32Attr>:$swish_beta);
defvar Cudnn_SwishFormat = "(`swish_beta` `=` $swish_beta^)?";

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

def Cudnn_PointwiseAbsOp : Cudnn_PointwiseUnaryOp<"abs", "ABS", "|x|">;
def Cudnn_PointwiseNegOp : Cudnn_PointwiseUnaryOp<"neg", "NEG", "-x">;
def Cudnn_PointwiseExpOp : Cudnn_PointwiseUnaryOp<"exp", "EXP", "exp(x)">;
def Cudnn_PointwiseLogOp : Cudnn_PointwiseUnaryOp<"log", "LOG", "log(x)">;
def Cudnn_PointwiseSqrtOp : Cudnn_PointwiseUnaryOp<"sqrt", "SQRT", "sqrt(x)">;
def Cudnn_PointwiseRsqrtOp : Cudnn_PointwiseUnaryOp<"rsqrt", "RSQRT", "1 / sqrt(x)">;
def Cudnn_PointwiseReciprocalOp : Cudnn_PointwiseUnaryOp<"reciprocal", "RECIPROCAL", "1 / x">;
def Cudnn_PointwiseCeilOp : Cudnn_PointwiseUnaryOp<"ceil", "CEIL", "ceil(x)">;
def Cudnn_PointwiseFloorOp : Cudnn_PointwiseUnaryOp<"floor", "FLOOR", "floor(x)">;
def Cudnn_PointwiseSinOp : Cudnn_PointwiseUnaryOp<"sin", "SIN", "sin(x)">;
def Cudnn_PointwiseCosOp : Cudnn_PointwiseUnaryOp<"cos", "COS", "cos(x)">;
def Cudnn_PointwiseTanOp : Cudnn_PointwiseUnaryOp<"tan", "TAN", "tan(x)">;
def Cudnn_PointwiseErfOp : Cudnn_PointwiseUnaryOp<"erf", "ERF", "erf(x)">;
def Cudnn_PointwiseIdentityOp : Cudnn_PointwiseUnaryOp<"identity", "IDENTITY", "x">;
def Cudnn_PointwiseLogicalNotOp : Cudnn_PointwiseUnaryOp<"logical_not", "LOGICAL_NOT", "!x">;
def Cudnn_PointwiseTanhOp : Cudnn_PointwiseUnaryOp<"tanh", "TANH_FWD", "tanh(x)">;
def Cudnn_PointwiseSigmoidOp : Cudnn_PointwiseUnaryOp<"sigmoid", "SIGMOID_FWD", "1 / (1 + exp(-x))">;
def Cudnn_PointwiseGeluOp : Cudnn_PointwiseUnaryOp<"gelu", "GELU_FWD", "x * (1 + erf(x / sqrt(2))) / 2">;
def Cudnn_PointwiseGeluApproxTanhOp : Cudnn_PointwiseUnaryOp<"gelu_approx_tanh", "GELU_APPROX_TANH_FWD",
    "x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))) / 2">;
def Cudnn_PointwiseSwishOp : Cudnn_PointwiseUnaryOp<"swish", "SWISH_FWD",
    "x / (1 + exp(-swish_beta * x))", Cudnn_SwishParams, Cudnn_SwishFormat,
    " swish_beta = 1.000000e+00">;
def Cudnn_PointwiseEluOp : Cudnn_PointwiseUnaryOp<"elu", "ELU_FWD",
    "x > 0 ? x : elu_alpha * (exp(x) - 1)", Cudnn_EluParams, Cudnn_EluFormat>;
def Cudnn_PointwiseSoftplusOp : Cudnn_PointwiseUnaryOp<"softplus", "SOFTPLUS_FWD",
    "log(1 + exp(softplus_beta * x)) / softplus_beta", Cudnn_SoftplusParams,
    Cudnn_SoftplusFormat>;
def Cudnn_PointwiseGenIndexOp : Cudnn_PointwiseUnaryOp<"gen_index", "GEN_INDEX",
    "the index of each element along `axis`", (ins I64Attr:$axis),
    "`axis` `=` $axis", " axis = 1"> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary and ternary
//===----------------------------------------------------------------------===//

def Cudnn_PointwiseAddOp : Cudnn_PointwiseBinaryOp<"add", "ADD", "x + b">;
def Cudnn_PointwiseSubOp : Cudnn_PointwiseBinaryOp<"sub", "SUB", "x - b">;
def Cudnn_PointwiseMulOp : Cudnn_PointwiseBinaryOp<"mul", "MUL", "x * b">;
def Cudnn_PointwiseDivOp : Cudnn_PointwiseBinaryOp<"div", "DIV", "x / b">;
def Cudnn_PointwiseMaxOp : Cudnn_PointwiseBinaryOp<"max", "MAX", "max(x, b)">;
def Cudnn_PointwiseMinOp : Cudnn_PointwiseBinaryOp<"min", "MIN", "min(x, b)">;
def Cudnn_PointwisePowOp : Cudnn_PointwiseBinaryOp<"pow", "POW", "pow(x, b)">;
def Cudnn_PointwiseModOp : Cudnn_PointwiseBinaryOp<"mod", "MOD", "fmod(x, b)">;
def Cudnn_PointwiseAddSquareOp : Cudnn_PointwiseBinaryOp<"add_square", "ADD_SQUARE", "x + b * b">;
def Cudnn_PointwiseCmpEqOp : Cudnn_PointwiseBinaryOp<"cmp_eq", "CMP_EQ", "x == b", "i1">;
def Cudnn_PointwiseCmpNeqOp : Cudnn_PointwiseBinaryOp<"cmp_neq", "CMP_NEQ", "x != b", "i1">;
def Cudnn_PointwiseCmpGtOp : Cudnn_PointwiseBinaryOp<"cmp_gt", "CMP_GT", "x > b", "i1">;
def Cudnn_PointwiseCmpGeOp : Cudnn_PointwiseBinaryOp<"cmp_ge", "CMP_GE", "x >= b", "i1">;
def Cudnn_PointwiseCmpLtOp : Cudnn_PointwiseBinaryOp<"cmp_lt", "CMP_LT", "x < b", "i1">;
def Cudnn_PointwiseCmpLeOp : Cudnn_PointwiseBinaryOp<"cmp_le", "CMP_LE", "x <= b", "i1">;
def Cudnn_PointwiseLogicalAndOp : Cudnn_PointwiseBinaryOp<"logical_and", "LOGICAL_AND", "x && b", "i1">;
def Cudnn_PointwiseLogicalOrOp : Cudnn_PointwiseBinaryOp<"logical_or", "LOGICAL_OR", "x || b", "i1">;

def Cudnn_PointwiseBinarySelectOp : Cudnn_PointwiseOpBase<"binary_select",
    "BINARY_SELECT", "t ? x : b",
    "%y = cudnn.pointwise_binary_select(%x, %b, %t) type = f32\n    : "
    # Cudnn_ExampleDesc # ",\n      " # Cudnn_ExampleRowDesc
    # ",\n      !cudnn.tensor_desc<8x16xi1, alignment = 16, stride = []>\n    -> "
    # Cudnn_ExampleDesc> {
  let arguments = (ins Cudnn_TensorDescType:$x, Cudnn_TensorDescType:$b,
                       Cudnn_TensorDescType:$t, TypeAttr:$type);
  let results = (outs Cudnn_TensorDescType:$y);
  let assemblyFormat = [{
    `(` $x `,` $b `,` $t `)` `type` `=` $type attr-dict `:` qualified(type($x))
    `,` qualified(type($b)) `,` qualified(type($t)) `->` qualified(type($y))
  }];
}

//===----------------------------------------------------------------------===//
// Activation gradients
//===----------------------------------------------------------------------===//

def Cudnn_PointwiseReluBwdOp : Cudnn_PointwiseBackwardOp<"relu", "RELU_BWD",
    "dy * relu'(x)",
    (ins OptionalAttr<F32Attr>:$lower_clip, OptionalAttr<F32Attr>:$upper_clip,
         OptionalAttr<F32Attr>:$lower_clip_slope),
    "(`lower_clip` `=` $lower_clip^)? (`upper_clip` `=` $upper_clip^)? "
    # "(`lower_clip_slope` `=` $lower_clip_slope^)?">;
def Cudnn_PointwiseTanhBwdOp : Cudnn_PointwiseBackwardOp<"tanh", "TANH_BWD",
    "dy * (1 - tanh(x)^2)">;
def Cudnn_PointwiseSigmoidBwdOp : Cudnn_PointwiseBackwardOp<"sigmoid", "SIGMOID_BWD",
    "dy * sigmoid(x) * (1 - sigmoid(x))">;
def Cudnn_PointwiseEluBwdOp : Cudnn_PointwiseBackwardOp<"elu", "ELU_BWD",
    "dy * elu'(x)", Cudnn_EluParams, Cudnn_EluFormat>;
def Cudnn_PointwiseGeluBwdOp : Cudnn_PointwiseBackwardOp<"gelu", "GELU_BWD",
    "dy * gelu'(x)">;
def Cudnn_PointwiseGeluApproxTanhBwdOp : Cudnn_PointwiseBackwardOp<
    "gelu_approx_tanh", "GELU_APPROX_TANH_BWD", "dy * gelu_approx_tanh'(x)">;
def Cudnn_PointwiseSoftplusBwdOp : Cudnn_PointwiseBackwardOp<"softplus",
    "SOFTPLUS_BWD", "dy * softplus'(x)", Cudnn_SoftplusParams,
    Cudnn_SoftplusFormat>;
def Cudnn_PointwiseSwishBwdOp : Cudnn_PointwiseBackwardOp<"swish", "SWISH_BWD",
    "dy * swish'(x)", Cudnn_SwishParams, Cudnn_SwishFormat>;

#endif // CUDNN_MLIR_CUDNN_POINTWISE_OPS
