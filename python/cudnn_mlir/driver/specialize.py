"""One compiled module per input signature, for models called with more
than one input shape: `cudnn_mlir.compile(model, inputs, dynamic=True)` and
TorchDynamo subgraphs with symbolic shapes (docs/frontend.md, "Dynamic
shapes").

The compiler works on static shapes (cuDNN plans and generated kernels are
built for them), so a new shape is a new compile: the model is imported
again on the call's inputs, compiled (or found in the artifact cache by the
hash of its IR) and kept for the next call of the same signature, as
TorchDynamo does with `dynamic=False`. A call beyond `limit` signatures is
an error naming them, never a silent fallback.
"""

from typing import Callable, Dict, List, Optional, Tuple

# As TorchDynamo's default recompile limit (torch._dynamo.config
# .recompile_limit): a model called with more shapes than this is better
# padded to a few of them.
DEFAULT_LIMIT = 8


def signature(inputs, scalars_as_values: bool = False) -> Tuple:
    """What a compiled module is specialized on: each tensor's shape, dtype
    and whether it is stored channels-last (the IR records the layout of
    4-D inputs), each other value (a TorchDynamo size argument) itself, and
    with `scalars_as_values` each 0-d CPU tensor's value (TorchDynamo's
    float attributes under dynamic shapes, which import_graph's option of
    that name writes into the IR)."""
    import torch
    from ..frontend.importer import is_channels_last
    from ..frontend.recording import is_cpu_scalar
    parts = []
    for value in inputs:
        if scalars_as_values and is_cpu_scalar(value):
            parts.append(("value", value.item()))
        elif isinstance(value, torch.Tensor):
            parts.append(("tensor", tuple(value.shape), str(value.dtype),
                          is_channels_last(value)))
        else:
            parts.append(("value", value))
    return tuple(parts)


def describe(key: Tuple) -> str:
    """A signature as the error messages write it: [2, 3] f16, 7."""
    parts = []
    for part in key:
        if part[0] == "tensor":
            dtype = part[2].replace("torch.", "")
            parts.append("%s %s%s" % (list(part[1]), dtype,
                                      " channels-last" if part[3] else ""))
        else:
            parts.append(repr(part[1]))
    return "(%s)" % ", ".join(parts)


class ShapeSpecialized:
    """Calls `build(inputs)` once per input signature and the callable it
    returned on every call of that signature.

    `build` may raise; the error then reaches the caller (and the next call
    of the same signature tries again). Past `limit` signatures a call is
    an error, or, with `past_limit`, runs what `past_limit(inputs)` returns
    (not kept). `scalars_as_values`: see signature(). `compiled` lists the
    signatures built so far, oldest first."""

    def __init__(self, build: Callable, limit: int = DEFAULT_LIMIT,
                 what: str = "the model",
                 past_limit: Optional[Callable] = None,
                 scalars_as_values: bool = False):
        if limit < 1:
            raise ValueError("expects a limit of at least 1 signature, but "
                             "got %d" % limit)
        self._build, self.limit, self._what = build, limit, what
        self._past_limit = past_limit
        self._scalars_as_values = scalars_as_values
        self._by_key: Dict[Tuple, Callable] = {}

    @property
    def compiled(self) -> List[Tuple]:
        return list(self._by_key)

    def get(self, inputs) -> Callable:
        """The callable for `inputs`' signature, built if it is new."""
        key = signature(inputs, self._scalars_as_values)
        found = self._by_key.get(key)
        if found is not None:
            return found
        if len(self._by_key) >= self.limit:
            if self._past_limit is not None:
                return self._past_limit(list(inputs))
            raise RuntimeError(
                "expects %s to be called with at most %d input signatures "
                "(the limit), but got a new one, %s, after %s; pad the "
                "inputs to fewer shapes or raise the limit"
                % (self._what, self.limit, describe(key),
                   ", ".join(describe(k) for k in self._by_key)))
        built = self._build(list(inputs))
        self._by_key[key] = built
        return built

    def __call__(self, *inputs):
        return self.get(inputs)(*inputs)
