"""Writes through views, made functional.

`y[:, 0] = 0`, `y[2:4].zero_()` and `qkv_bias[n:2 * n].zero_()` (torchvision's
Swin V2) change a box of a computed tensor in place. TCP has no mutation, so
the importer gives the tensor a new value: the old one with the box replaced,
built from tcp.slice and tcp.concat along each dimension the box restricts.

A box is what basic indexing selects: ints, slices, None and Ellipsis.
"""

from .tcp_writer import Value


class ViewWriteError(ValueError):
    """An index or value this module cannot write through."""


def basic_box(shape, index):
    """The box `x[index]` selects in a tensor of `shape`, for basic indexing,
    as (starts, sizes, strides, view_shape): one start, size and stride per
    dimension of `shape` (an int selects size 1 there), and the shape of
    `x[index]` itself (ints drop their dimension, None adds one)."""
    index = index if isinstance(index, tuple) else (index,)
    explicit = sum(1 for i in index if i is not None and i is not Ellipsis)
    if explicit > len(shape):
        raise ViewWriteError("expects at most %d indices, but got %d"
                             % (len(shape), explicit))
    expanded = []
    for i in index:
        if i is Ellipsis:
            expanded.extend([slice(None)] * (len(shape) - explicit))
        else:
            expanded.append(i)
    expanded.extend([slice(None)] * (
        len(shape) - sum(1 for i in expanded if i is not None)))
    starts, sizes, strides, view_shape = [], [], [], []
    dims = iter(shape)
    for i in expanded:
        if i is None:
            view_shape.append(1)
            continue
        size = next(dims)
        if isinstance(i, bool) or not isinstance(i, (int, slice)):
            raise ViewWriteError("expects basic indexing (ints, slices, None, "
                                 "...), but got %s" % type(i).__name__)
        if isinstance(i, int):
            if not -size <= i < size:
                raise ViewWriteError("expects an index in [%d, %d), but got "
                                     "%d" % (-size, size, i))
            starts.append(i % size)
            sizes.append(1)
            strides.append(1)
            continue
        start, stop, step = i.indices(size)
        if step <= 0:
            raise ViewWriteError("expects a positive slice step, but got %d"
                                 % step)
        n = max(0, (stop - start + step - 1) // step)
        starts.append(start)
        sizes.append(n)
        strides.append(step)
        view_shape.append(n)
    return starts, sizes, strides, view_shape


def write_box(w, base: Value, index, value, loc=None) -> Value:
    """`base` with the box `base[index]` replaced by `value` (a Value that
    broadcasts to the shape of `base[index]`, as setitem broadcasts, or a
    Python number)."""
    starts, sizes, strides, view_shape = basic_box(base.shape, index)
    if any(st != 1 and n > 1 for st, n in zip(strides, sizes)):
        raise ViewWriteError("expects slices with step 1 to write into, but "
                             "got steps %s" % list(strides))
    if isinstance(value, Value):
        box = _broadcast(w, w.cast(value, base.dtype, loc), view_shape, loc)
        box = w.reshape(box, sizes, loc)
    elif isinstance(value, (bool, int, float)):
        box = w.splat(float(value), sizes, base.dtype, loc)
    else:
        raise ViewWriteError("expects a tensor or a number to write, but got "
                             "%s" % type(value).__name__)
    if 0 in sizes:
        return base
    return _replace(w, base, starts, sizes, box, 0, loc)


def _broadcast(w, value: Value, shape, loc) -> Value:
    """`value` broadcast to `shape` by PyTorch's rules, where setitem also
    drops leading size-1 dims the value has beyond the shape's rank."""
    have = list(value.shape)
    while len(have) > len(shape) and have[0] == 1:
        have.pop(0)
    padded = [1] * (len(shape) - len(have)) + have
    if len(have) > len(shape) or any(
            v not in (1, t) for v, t in zip(padded, shape)):
        raise ViewWriteError("expects a value that broadcasts to %s, but got "
                             "shape %s" % (list(shape), list(value.shape)))
    return w.broadcast_to(w.reshape(value, padded, loc), shape, loc)


def _replace(w, region: Value, starts, sizes, box: Value, dim, loc) -> Value:
    """`region` (already cut to the box along dims < `dim`) with the box
    written in, one dimension at a time."""
    if dim == region.rank:
        return box
    start, size, full = starts[dim], sizes[dim], region.shape[dim]
    if start == 0 and size == full:
        return _replace(w, region, starts, sizes, box, dim + 1, loc)
    parts = []
    if start > 0:
        parts.append(_cut(w, region, dim, 0, start, loc))
    if all(starts[d] == 0 and sizes[d] == region.shape[d]
           for d in range(dim + 1, region.rank)):
        parts.append(box)  # the box spans the rest: nothing of it to keep
    else:
        inner = _cut(w, region, dim, start, size, loc)
        parts.append(_replace(w, inner, starts, sizes, box, dim + 1, loc))
    if start + size < full:
        parts.append(_cut(w, region, dim, start + size,
                          full - start - size, loc))
    return w.concat(parts, dim, loc)


def _cut(w, x: Value, dim, start, size, loc) -> Value:
    starts = [0] * x.rank
    sizes = list(x.shape)
    starts[dim], sizes[dim] = start, size
    return w.slice(x, starts, sizes, [1] * x.rank, loc)
