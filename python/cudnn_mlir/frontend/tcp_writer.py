"""Writes one TCP function as MLIR text, in the form torch-mlir's TorchToTcp
emits: elementwise ops on equal shapes (broadcasting is explicit, through
`tcp.broadcast` of size-1 dimensions), rank changes through
`tensor.expand_shape` / `tensor.collapse_shape`, index sizes as
`arith.constant`, and `tcp.custom_op` for what TCP lacks.

The writer knows nothing about torch: values are `Value`s (an SSA name, a
static shape and an MLIR element type) and every method checks the shapes it
is given, so a wrong lowering fails here with a message instead of producing
IR the verifier rejects later.
"""

import math
import struct
from typing import List, Optional, Sequence, Tuple


class Value:
    """An SSA value of ranked tensor type."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name: str, shape: Sequence[int], dtype: str):
        self.name = name
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.dtype)

    def __repr__(self):
        return "Value(%s: %s)" % (self.name, self.type)


FLOAT_TYPES = ("f16", "bf16", "f32", "f64")


def tensor_type(shape: Sequence[int], dtype: str) -> str:
    dims = "".join("%dx" % d for d in shape)
    return "tensor<%s%s>" % (dims, dtype)


def float_literal(value: float, dtype: str = "f64") -> str:
    """`value` as an MLIR float literal of `dtype` (f16, bf16, f32 or f64):
    decimal with a '.', or, for inf and nan, which have no decimal form, the
    hex bit pattern of that type's width."""
    value = float(value)
    if math.isfinite(value):
        text = repr(value)
        mantissa, _, exponent = text.partition("e")
        if "." not in mantissa:
            mantissa += ".0"
        return mantissa + ("e" + exponent if exponent else "")
    if dtype == "f16":
        return "0x%04X" % struct.unpack("<H", struct.pack("<e", value))[0]
    if dtype in ("f32", "bf16"):
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        # bf16 is the top half of f32 (exact for inf and nan).
        return "0x%04X" % (bits >> 16) if dtype == "bf16" else "0x%08X" % bits
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def string_literal(text: str) -> str:
    escaped = "".join(
        c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else "\\%02X" % ord(c)
        for c in text)
    return '"%s"' % escaped


def i64_array(values: Sequence[int]) -> str:
    return "array<i64: %s>" % ", ".join(str(int(v)) for v in values)


def reassociation(big: Sequence[int], small: Sequence[int]):
    """The groups of `big`'s dimensions whose products are `small`'s
    dimensions, in order (what tensor.collapse_shape / expand_shape take), or
    None when `small` is not such a merge of `big`."""
    if len(small) == 0:
        return [] if all(d == 1 for d in big) else None
    groups: List[List[int]] = []
    i = 0
    for j, target in enumerate(small):
        group, product = [], 1
        while i < len(big):
            group.append(i)
            product *= big[i]
            i += 1
            if product == target:
                break
            if product > target and target != 0:
                return None
        if product != target or not group:  # no dimension left for it
            return None
        groups.append(group)
    while i < len(big):  # trailing 1s join the last group
        if big[i] != 1:
            return None
        groups[-1].append(i)
        i += 1
    return groups


def _groups_text(groups) -> str:
    return "[%s]" % ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups)


class TcpWriter:
    """Collects the body of one `func.func` and prints it."""

    def __init__(self):
        self._lines: List[str] = []
        self._count = 0
        self._index_constants = {}

    # -- values ---------------------------------------------------------------

    def fresh(self) -> str:
        self._count += 1
        return "%%%d" % (self._count - 1)

    def index(self, value: int) -> str:
        """The SSA name of an `index` constant, emitted once at the top."""
        name = self._index_constants.get(value)
        if name is None:
            name = "%%c%d" % value
            self._index_constants[value] = name
        return name

    def emit(self, text: str, loc: Optional[str] = None):
        self._lines.append("    " + text + (" loc(%s)" % loc if loc else ""))

    def _op(self, text: str, shape, dtype, loc=None) -> Value:
        result = Value(self.fresh(), shape, dtype)
        self.emit("%s = %s" % (result.name, text), loc)
        return result

    def body(self) -> List[str]:
        constants = ["    %s = arith.constant %d : index" % (name, value)
                     for value, name in sorted(self._index_constants.items())]
        return constants + self._lines

    # -- generic op forms -----------------------------------------------------

    def unary(self, op: str, x: Value, attrs: str = "", loc=None,
              dtype: Optional[str] = None) -> Value:
        dtype = dtype or x.dtype
        attrs = " {%s}" % attrs if attrs else ""
        return self._op("%s %s%s : %s -> %s"
                        % (op, x.name, attrs, x.type,
                           tensor_type(x.shape, dtype)), x.shape, dtype, loc)

    def binary(self, op: str, a: Value, b: Value, loc=None) -> Value:
        if a.shape != b.shape or a.dtype != b.dtype:
            raise ValueError("%s expects operands of one type, but got %s "
                             "and %s" % (op, a.type, b.type))
        return self._op("%s %s, %s : %s, %s -> %s"
                        % (op, a.name, b.name, a.type, b.type, a.type),
                        a.shape, a.dtype, loc)

    def divide_integers(self, a: Value, b: Value, rounding: str,
                        loc=None) -> Value:
        """a / b of signed integers, rounded as `rounding` says (Trunc,
        Floor or Ceil)."""
        if a.shape != b.shape or a.dtype != b.dtype or a.dtype in FLOAT_TYPES:
            raise ValueError("tcp.divsi expects integer operands of one "
                             "type, but got %s and %s" % (a.type, b.type))
        return self._op("tcp.divsi %s, %s {rounding_mode = #tcp<roundingMode "
                        "%s>} : %s, %s -> %s"
                        % (a.name, b.name, rounding, a.type, b.type, a.type),
                        a.shape, a.dtype, loc)

    def compare(self, predicate: str, a: Value, b: Value, loc=None) -> Value:
        """`a <predicate> b` (eq ne lt le gt ge) as an i1 tensor; integers
        other than i1 compare as signed (torch's integer dtypes)."""
        if a.shape != b.shape or a.dtype != b.dtype:
            raise ValueError("tcp.compare expects operands of one type, but "
                             "got %s and %s" % (a.type, b.type))
        attrs = "predicate = #tcp<predicate %s>" % predicate
        if a.dtype not in FLOAT_TYPES and a.dtype != "i1":
            attrs += ", in_int_signedness = #tcp<signedness Signed>"
        return self._op("tcp.compare %s, %s {%s} : %s, %s -> %s"
                        % (a.name, b.name, attrs, a.type, b.type,
                           tensor_type(a.shape, "i1")), a.shape, "i1", loc)

    def select(self, condition: Value, on_true: Value, on_false: Value,
               loc=None) -> Value:
        if condition.dtype != "i1" or not (
                condition.shape == on_true.shape == on_false.shape) or \
                on_true.dtype != on_false.dtype:
            raise ValueError("tcp.select expects an i1 condition and two "
                             "values of one type, all of one shape, but got "
                             "%s, %s and %s" % (condition.type, on_true.type,
                                                on_false.type))
        return self._op("tcp.select %s, %s, %s : %s, %s, %s -> %s"
                        % (condition.name, on_true.name, on_false.name,
                           condition.type, on_true.type, on_false.type,
                           on_true.type), on_true.shape, on_true.dtype, loc)

    # -- constants, casts and shapes -----------------------------------------

    def splat(self, value: float, shape: Sequence[int], dtype: str,
              loc=None) -> Value:
        if dtype in FLOAT_TYPES:
            literal = float_literal(value, dtype)
        elif dtype == "i1":
            literal = "true" if value else "false"
        else:
            literal = str(int(value))
        t = tensor_type(shape, dtype)
        return self._op("tcp.const {value = dense<%s> : %s} : %s"
                        % (literal, t, t), shape, dtype, loc)

    def literal(self, raw: bytes, shape: Sequence[int], dtype: str,
                loc=None) -> Value:
        """A constant from its little-endian element bytes, in row-major
        order (MLIR's hex form of a dense attribute). An i1 literal takes a
        byte (0 or 1) per element, as torch.bool stores them; MLIR's hex
        form packs them eight to a byte, the first in the lowest bit."""
        if dtype == "i1":
            import numpy
            raw = numpy.packbits(numpy.frombuffer(raw, dtype=numpy.uint8) != 0,
                                 bitorder="little").tobytes()
        t = tensor_type(shape, dtype)
        return self._op('tcp.const {value = dense<"0x%s"> : %s} : %s'
                        % (raw.hex().upper(), t, t), shape, dtype, loc)

    def scalar_like(self, value: float, like: Value, loc=None) -> Value:
        """`value` broadcast to `like`'s shape and type: a [1, ..., 1]
        constant and a tcp.broadcast, as TorchToTcp writes scalars."""
        one = self.splat(value, (1,) * like.rank, like.dtype, loc)
        return self.broadcast_to(one, like.shape, loc)

    def cast(self, x: Value, dtype: str, loc=None) -> Value:
        if x.dtype == dtype:
            return x
        attrs = []
        if x.dtype not in FLOAT_TYPES:
            attrs.append("in_int_signedness = #tcp<signedness %s>"
                         % ("Signless" if x.dtype == "i1" else "Signed"))
        if dtype not in FLOAT_TYPES:
            attrs.append("out_int_signedness = #tcp<signedness %s>"
                         % ("Signless" if dtype == "i1" else "Signed"))
        return self.unary("tcp.cast", x, ", ".join(attrs), loc, dtype)

    def reshape(self, x: Value, shape: Sequence[int], loc=None) -> Value:
        """`x` with the same elements in `shape`: one collapse_shape or
        expand_shape where the shapes are merges of each other, else a
        collapse to 1-D and an expand."""
        shape = tuple(int(d) for d in shape)
        if math.prod(shape) != math.prod(x.shape):
            raise ValueError("reshape expects as many elements, but got %s "
                             "-> %s" % (x.type, tensor_type(shape, x.dtype)))
        if shape == x.shape:
            return x
        if len(shape) <= x.rank:
            groups = reassociation(x.shape, shape)
            if groups is not None:
                return self._op(
                    "tensor.collapse_shape %s %s : %s into %s"
                    % (x.name, _groups_text(groups), x.type,
                       tensor_type(shape, x.dtype)), shape, x.dtype, loc)
        if len(shape) >= x.rank:
            groups = reassociation(shape, x.shape)
            if groups is not None:
                return self._op(
                    "tensor.expand_shape %s %s output_shape [%s] : %s into %s"
                    % (x.name, _groups_text(groups),
                       ", ".join(map(str, shape)), x.type,
                       tensor_type(shape, x.dtype)), shape, x.dtype, loc)
        flat = self.reshape(x, (math.prod(x.shape),), loc)
        return self.reshape(flat, shape, loc)

    def add_channel_bias(self, y: Value, bias: Value, loc=None) -> Value:
        """y + bias, the [C] `bias` broadcast along dim 1 of `y` (N x C x
        spatial...; a convolution's bias)."""
        b = self.reshape(bias, (1, bias.shape[0]) + (1,) * (y.rank - 2), loc)
        return self.binary("tcp.add", y, self.broadcast_to(b, y.shape, loc),
                           loc)

    def broadcast_to(self, x: Value, shape: Sequence[int], loc=None) -> Value:
        """numpy broadcasting of `x` to `shape`: leading 1s added by
        expand_shape, then one tcp.broadcast of the size-1 dimensions."""
        shape = tuple(int(d) for d in shape)
        if x.rank > len(shape):
            raise ValueError("cannot broadcast %s to rank %d"
                             % (x.type, len(shape)))
        if x.rank < len(shape):
            x = self.reshape(x, (1,) * (len(shape) - x.rank) + x.shape, loc)
        axes = []
        for axis, (have, want) in enumerate(zip(x.shape, shape)):
            if have == want:
                continue
            if have != 1:
                raise ValueError("cannot broadcast %s to %s" % (
                    x.type, tensor_type(shape, x.dtype)))
            axes.append(axis)
        if not axes:
            return x
        sizes = [self.index(shape[a]) for a in axes]
        return self._op(
            "tcp.broadcast %s, %s {axes = [%s]} : %s, %s -> %s"
            % (x.name, ", ".join(sizes), ", ".join(map(str, axes)), x.type,
               ", ".join(["index"] * len(axes)), tensor_type(shape, x.dtype)),
            shape, x.dtype, loc)

    def gather(self, x: Value, indices: Value, dim: int, loc=None) -> Value:
        """torch.gather: `indices` has `x`'s rank, the result its shape."""
        return self._op(
            "tcp.gather %s, %s {dim = %d : index} : %s, %s -> %s"
            % (x.name, indices.name, dim, x.type, indices.type,
               tensor_type(indices.shape, x.dtype)),
            indices.shape, x.dtype, loc)

    def transpose(self, x: Value, permutation: Sequence[int],
                  loc=None) -> Value:
        permutation = [int(p) for p in permutation]
        if permutation == list(range(x.rank)):
            return x
        shape = tuple(x.shape[p] for p in permutation)
        return self._op("tcp.transpose %s {permutation = %s} : %s -> %s"
                        % (x.name, i64_array(permutation), x.type,
                           tensor_type(shape, x.dtype)), shape, x.dtype, loc)

    def concat(self, values: Sequence[Value], axis: int, loc=None) -> Value:
        shape = list(values[0].shape)
        shape[axis] = sum(v.shape[axis] for v in values)
        return self._op(
            "tcp.concat %s attributes {axis = %d : i64} : %s -> %s"
            % (", ".join(v.name for v in values), axis,
               ", ".join(v.type for v in values),
               tensor_type(shape, values[0].dtype)), shape, values[0].dtype,
            loc)

    def slice(self, x: Value, starts, sizes, strides, loc=None) -> Value:
        def names(vs):
            return ", ".join(self.index(v) for v in vs)
        return self._op(
            "tcp.slice %s starts(%s) sizes(%s) strides(%s) : %s -> %s"
            % (x.name, names(starts), names(sizes), names(strides), x.type,
               tensor_type(sizes, x.dtype)), sizes, x.dtype, loc)

    # -- compute ops ----------------------------------------------------------

    def clamp(self, x: Value, low: Optional[float], high: Optional[float],
              loc=None) -> Value:
        attrs = []
        if low is not None:
            attrs.append("min_float = %s : f32" % float_literal(low, "f32"))
        if high is not None:
            attrs.append("max_float = %s : f32" % float_literal(high, "f32"))
        return self.unary("tcp.clamp", x, ", ".join(attrs), loc)

    def reduce(self, op: str, x: Value, axes: Sequence[int], keep_dims: bool,
               loc=None) -> Value:
        axes = sorted(set(int(a) % max(x.rank, 1) for a in axes))
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape)
                      if keep_dims or i not in axes)
        attrs = "axes = %s%s" % (i64_array(axes),
                                 ", keep_dims" if keep_dims else "")
        return self._op("%s %s {%s} : %s -> %s"
                        % (op, x.name, attrs, x.type,
                           tensor_type(shape, x.dtype)), shape, x.dtype, loc)

    def convolution(self, x: Value, w: Value, stride, pad, dilation,
                    groups: int, loc=None) -> Value:
        """tcp.conv2d (NCHW x) or tcp.conv3d (NCDHW x); `pad` holds (before,
        after) per spatial dim, `stride` and `dilation` one value each."""
        spatial = x.rank - 2
        shape = [x.shape[0], w.shape[0]]
        for i in range(spatial):
            extent = x.shape[2 + i] + pad[2 * i] + pad[2 * i + 1]
            shape.append((extent - dilation[i] * (w.shape[2 + i] - 1) - 1)
                         // stride[i] + 1)
        shape = tuple(shape)
        attrs = "dilation = %s, pad = %s, stride = %s" % (
            i64_array(dilation), i64_array(pad), i64_array(stride))
        if groups != 1:
            attrs += ", groups = %d : i64" % groups
        return self._op("tcp.conv%dd %s, %s {%s} : %s, %s -> %s"
                        % (spatial, x.name, w.name, attrs, x.type, w.type,
                           tensor_type(shape, x.dtype)), shape, x.dtype, loc)

    def conv_transpose(self, x: Value, w: Value, stride, pad, dilation,
                       groups: int, out, loc=None) -> Value:
        """tcp.conv_transpose2d (NCHW `x`) or tcp.conv_transpose3d (NCDHW)
        with the [C_in, C_out/g, window...] `w` to spatial size `out`;
        `pad` is the symmetric padding per dim."""
        shape = (x.shape[0], w.shape[1] * groups) + tuple(out)
        attrs = "dilation = %s, pad = %s, stride = %s" % (
            i64_array(dilation), i64_array([p for p in pad for _ in (0, 1)]),
            i64_array(stride))
        if groups != 1:
            attrs += ", groups = %d : i64" % groups
        return self._op("tcp.conv_transpose%dd %s, %s {%s} : %s, %s -> %s"
                        % (x.rank - 2, x.name, w.name, attrs, x.type, w.type,
                           tensor_type(shape, x.dtype)), shape, x.dtype, loc)

    def pool2d(self, op: str, x: Value, kernel, stride, pad, ceil_mode: bool,
               extra: Sequence[str], shape, loc=None) -> Value:
        attrs = ["kernel_size = %s" % i64_array(kernel),
                 "pad = %s" % i64_array(pad), "stride = %s" % i64_array(stride)]
        if ceil_mode:
            attrs.append("ceil_mode")
        attrs.extend(extra)
        return self._op("%s %s {%s} : %s -> %s"
                        % (op, x.name, ", ".join(attrs), x.type,
                           tensor_type(shape, x.dtype)), shape, x.dtype, loc)

    def contraction(self, op: str, a: Value, b: Value, loc=None) -> Value:
        shape = a.shape[:-1] + b.shape[-1:]
        return self._op("%s %s, %s : %s, %s -> %s"
                        % (op, a.name, b.name, a.type, b.type,
                           tensor_type(shape, a.dtype)), shape, a.dtype, loc)

    def batch_norm(self, x: Value, scale: Value, bias: Value, mean: Value,
                   var: Value, eps: float, loc=None) -> Value:
        return self._op(
            "tcp.batch_norm %s, %s, %s, %s, %s {epsilon = %s : f64} : %s, %s"
            " -> %s" % (x.name, scale.name, bias.name, mean.name, var.name,
                        float_literal(eps), x.type, scale.type, x.type),
            x.shape, x.dtype, loc)

    def batch_norm_training(self, x: Value, scale: Value, bias: Value,
                            mean: Value, var: Value, eps: float,
                            momentum: float, loc=None) -> Tuple[Value, ...]:
        base = self.fresh()
        self.emit("%s:5 = tcp.batch_norm_training %s, %s, %s, %s, %s "
                  "{epsilon = %s : f64, momentum = %s : f64} : %s, %s -> %s"
                  % (base, x.name, scale.name, bias.name, mean.name, var.name,
                     float_literal(eps), float_literal(momentum), x.type,
                     scale.type, x.type), loc)
        return (Value(base + "#0", x.shape, x.dtype),) + tuple(
            Value("%s#%d" % (base, i), scale.shape, scale.dtype)
            for i in range(1, 5))

    def layer_norm(self, x: Value, scale: Optional[Value],
                   bias: Optional[Value], normalized_rank: int, eps: float,
                   loc=None) -> Value:
        operands = ""
        if scale is not None:
            operands += " scale(%s : %s)" % (scale.name, scale.type)
        if bias is not None:
            operands += " bias(%s : %s)" % (bias.name, bias.type)
        return self._op(
            "tcp.layer_norm %s%s {epsilon = %s : f64, normalized_rank = %d : "
            "i64} : %s -> %s" % (x.name, operands, float_literal(eps),
                                 normalized_rank, x.type, x.type),
            x.shape, x.dtype, loc)

    def custom_op(self, name: str, operands: Sequence[Value], attrs: str,
                  results: Sequence[Tuple[Sequence[int], str]],
                  loc=None) -> Tuple[Value, ...]:
        base = self.fresh()
        lhs = base if len(results) == 1 else "%s:%d" % (base, len(results))
        self.emit("%s = tcp.custom_op(%s) %s {%s} : %s -> %s"
                  % (lhs, string_literal(name),
                     ", ".join(v.name for v in operands), attrs,
                     ", ".join(v.type for v in operands),
                     ", ".join(tensor_type(s, d) for s, d in results)), loc)
        if len(results) == 1:
            return (Value(base, *results[0]),)
        return tuple(Value("%s#%d" % (base, i), s, d)
                     for i, (s, d) in enumerate(results))
