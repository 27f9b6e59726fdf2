"""How lowerings read their arguments: the error for what the importer
cannot express, sizes given once or per spatial dim, dimensions, float
tensors and plain numbers. A leaf module: lowerings.py and the lowering
modules beside it all import it, and it imports none of them."""

from .tcp_writer import FLOAT_TYPES, Value


class UnsupportedOperation(Exception):
    """A torch operation (or a form of one) the importer cannot express."""


def pair(v):
    """A 2-D size, stride or padding given once or per dim."""
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return (int(v[0]), int(v[0]))
        return tuple(int(x) for x in v)
    return (int(v), int(v))


def single(v):
    if isinstance(v, (tuple, list)):
        if len(v) != 1:
            raise UnsupportedOperation("expects one size, but got %s"
                                       % list(v))
        return (int(v[0]),)
    return (int(v),)


def triple(v):
    """A 3-D size, stride or padding given once or per dim."""
    if isinstance(v, (tuple, list)):
        return tuple(int(x) for x in v) * (3 if len(v) == 1 else 1)
    return (int(v),) * 3


def dim(d, rank):
    """`d` (negative from the end) as a dimension of a rank-`rank`
    tensor."""
    d = int(d)
    if not -max(rank, 1) <= d < max(rank, 1):
        raise UnsupportedOperation("expects a dimension in [%d, %d), but got "
                                   "%d" % (-rank, rank, d))
    return d % max(rank, 1)


def float_tensor(x):
    """`x`, a float tensor Value."""
    if not isinstance(x, Value) or x.dtype not in FLOAT_TYPES:
        raise UnsupportedOperation("expects a float tensor, but got %s" % (
            x.type if isinstance(x, Value) else type(x).__name__))
    return x


def number(name, value):
    """`value`, a plain number (not a tensor), as a float."""
    if isinstance(value, Value):
        raise UnsupportedOperation("expects %s to be a number, but got a "
                                   "tensor" % name)
    return float(value)
