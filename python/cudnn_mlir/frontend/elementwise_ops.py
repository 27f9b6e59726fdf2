"""Shorthands for writing a lowering as elementwise TCP ops on Values of
one shape and type (activation_lowerings.py, math_lowerings.py): the
binary and unary ops by name, constants shaped like a Value, the
positive and negative parts, comparisons with a select, trunc."""

from .lowering_arguments import UnsupportedOperation
from .tcp_writer import FLOAT_TYPES

_BINARY = {"add": "tcp.add", "sub": "tcp.sub", "mul": "tcp.mul",
           "div": "tcp.divf", "atan2": "tcp.atan2"}
_UNARY = {"exp": "tcp.exp", "log": "tcp.log", "sqrt": "tcp.sqrt",
          "abs": "tcp.abs", "neg": "tcp.neg", "sin": "tcp.sin",
          "cos": "tcp.cos", "floor": "tcp.floor", "ceil": "tcp.ceil",
          "tanh": "tcp.tanh", "sigmoid": "tcp.sigmoid"}


class Elementwise:
    """`o.add(a, b)`, `o.exp(a)`, ... on the node's Values (`ctx.w`, at
    `ctx.loc`)."""

    def __init__(self, ctx):
        self.ctx, self.w, self.loc = ctx, ctx.w, ctx.loc

    def __getattr__(self, name):
        if name in _BINARY:
            return lambda a, b: self.w.binary(_BINARY[name], a, b, self.loc)
        if name in _UNARY:
            return lambda a: self.w.unary(_UNARY[name], a, loc=self.loc)
        raise AttributeError(name)

    def operand(self, v, dtype=None):
        """A tensor or number as a Value of the node's result shape, in the
        result's float type (or `dtype`)."""
        from .logic_lowerings import as_operand
        out = self.ctx.result
        dtype = dtype or out.dtype
        if dtype not in FLOAT_TYPES:
            raise UnsupportedOperation("expects a float result (the integer "
                                       "form is not lowered), but got %s"
                                       % dtype)
        return as_operand(self.ctx, v, out.shape, dtype)

    def const(self, value, like):
        return self.w.scalar_like(value, like, self.loc)

    def scale(self, a, factor):
        return a if factor == 1 else self.mul(a, self.const(factor, a))

    def positive_part(self, a):
        return self.w.clamp(a, 0.0, None, self.loc)

    def negative_part(self, a):
        return self.w.clamp(a, None, 0.0, self.loc)

    def select(self, predicate, a, b, on_true, on_false):
        """on_true where `a <predicate> b`, else on_false."""
        return self.w.select(self.w.compare(predicate, a, b, self.loc),
                             on_true, on_false, self.loc)

    def trunc(self, a):
        zero = self.const(0.0, a)
        return self.select("lt", a, zero, self.ceil(a), self.floor(a))
