"""The convolution fuzzer's configurations: one seeded, deterministic draw
per seed (Python's `random.Random(seed)`, no torch), so that a seed names
the same case on every machine (docs/testing.md, "Convolution fuzzer").

    from conv_configs import make_config
    c = make_config(17)      # ConvConfig: shapes, dtype, layout, epilogue
    c.describe()             # one line, what --list prints

Sizes are drawn sqrt-uniformly (small values often, large ones sometimes)
and then shrunk until the case fits the budget below, so a GPU run of 500
seeds stays within minutes and a float64 CPU reference within memory.
"""

import math
import random
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

# The four precisions: dtype, and whether fp32 convolutions may use TF32
# (torch.backends.cudnn.allow_tf32, set per case on both machines).
PRECISIONS = [("f32", False), ("f32", True), ("f16", True), ("bf16", True)]
LAYOUTS = ["nchw", "nhwc"]
ACTIVATIONS = ["none", "relu", "gelu", "gelu_tanh", "silu"]
PROLOGUES = ["none", "relu", "gelu", "silu", "bn", "bn_relu"]
RESIDUALS = ["none", "before_act", "after_act"]
PADDINGS = ["symmetric", "f_pad", "same"]

# The budget per case: elements of any activation tensor and multiply-adds
# of the convolution.
MAX_ELEMENTS = 4 << 20
MAX_MACS = 600 << 20

_PRIMES = [p for p in range(2, 260)
           if all(p % d for d in range(2, int(p ** 0.5) + 1))]


@dataclass
class ConvConfig:
    seed: int
    dtype: str
    tf32: bool
    layout: str
    batch: int
    in_channels: int
    out_channels: int
    groups: int
    height: int
    width: int
    kernel: Tuple[int, int]
    stride: Tuple[int, int]
    dilation: Tuple[int, int]
    padding_mode: str
    # conv padding (h, w) for "symmetric"; F.pad's (left, right, top,
    # bottom) for "f_pad"; unused for "same".
    padding: Tuple[int, int] = (0, 0)
    f_pad: Tuple[int, int, int, int] = (0, 0, 0, 0)
    bias: bool = True
    prologue: str = "none"
    bn: bool = False
    activation: str = "none"
    residual: str = "none"
    bn_eps: float = 1e-5

    @property
    def precision(self) -> str:
        """f32, tf32, f16 or bf16: the dtype, fp32 split by TF32."""
        if self.dtype == "f32":
            return "tf32" if self.tf32 else "f32"
        return self.dtype

    @property
    def depthwise(self) -> bool:
        return self.groups > 1 and self.groups == self.in_channels

    def padded_size(self) -> Tuple[int, int]:
        """The input's H and W after F.pad (the conv's own padding apart)."""
        left, right, top, bottom = self.f_pad
        return self.height + top + bottom, self.width + left + right

    def conv_padding(self) -> Tuple[int, int, int, int]:
        """The conv's (top, bottom, left, right) padding, as PyTorch's
        padding="same" splits it (the odd one after)."""
        if self.padding_mode == "same":
            th, tw = [d * (k - 1) for k, d in zip(self.kernel, self.dilation)]
            return th // 2, th - th // 2, tw // 2, tw - tw // 2
        ph, pw = self.padding
        return ph, ph, pw, pw

    def output_size(self) -> Tuple[int, int]:
        h, w = self.padded_size()
        top, bottom, left, right = self.conv_padding()
        sizes = []
        for size, lo, hi, k, s, d in ((h, top, bottom, self.kernel[0],
                                       self.stride[0], self.dilation[0]),
                                      (w, left, right, self.kernel[1],
                                       self.stride[1], self.dilation[1])):
            sizes.append((size + lo + hi - d * (k - 1) - 1) // s + 1)
        return tuple(sizes)

    def elements(self) -> int:
        """The largest activation tensor (input, padded input or output)."""
        h, w = self.padded_size()
        oh, ow = self.output_size()
        return self.batch * max(self.in_channels * h * w,
                                self.out_channels * max(oh, 0) * max(ow, 0))

    def macs(self) -> int:
        oh, ow = self.output_size()
        return (self.batch * self.out_channels * max(oh, 0) * max(ow, 0) *
                (self.in_channels // self.groups) * self.kernel[0] *
                self.kernel[1])

    def epilogue(self) -> str:
        """The epilogue as one word: bn, the activation and where the
        residual add sits (bn+add+relu is ResNet's)."""
        parts = ["bn"] if self.bn else []
        if self.residual == "before_act":
            parts.append("add")
        if self.activation != "none":
            parts.append(self.activation)
        if self.residual == "after_act":
            parts.append("add")
        return "+".join(parts) or "none"

    def describe(self) -> str:
        """One line: every field a case depends on."""
        pad = {"symmetric": "pad=%d,%d" % self.padding,
               "f_pad": "fpad=%d,%d,%d,%d" % self.f_pad,
               "same": "pad=same"}[self.padding_mode]
        return ("seed=%d %s %s N=%d C=%d K=%d g=%d%s HxW=%dx%d k=%dx%d "
                "s=%d,%d d=%d,%d %s bias=%d pro=%s epi=%s out=%dx%d "
                "MMAC=%.1f" % (
                    self.seed, self.precision, self.layout, self.batch,
                    self.in_channels, self.out_channels, self.groups,
                    "(dw)" if self.depthwise else "", self.height, self.width,
                    self.kernel[0], self.kernel[1], self.stride[0],
                    self.stride[1], self.dilation[0], self.dilation[1], pad,
                    int(self.bias), self.prologue, self.epilogue(),
                    *self.output_size(), self.macs() / 1e6))


def _sqrt_uniform(rng, low, high):
    """An integer in [low, high], small ones more likely (the square of a
    uniform draw between the roots)."""
    return min(high, max(low, int(round(
        rng.uniform(math.sqrt(low), math.sqrt(high)) ** 2))))


def _channels(rng, high=256):
    """A channel count from one of the shapes that trip kernels up: odd,
    prime, even but not a multiple of 8, or aligned (a multiple of 8)."""
    kind = rng.choice(["odd", "prime", "unaligned", "aligned", "any"])
    if kind == "prime":
        return rng.choice([p for p in _PRIMES if p <= high])
    if kind == "aligned":
        return 8 * _sqrt_uniform(rng, 1, high // 8)
    if kind == "unaligned":
        value = 2 * _sqrt_uniform(rng, 1, high // 2)
        return value + 2 if value % 8 == 0 else value
    value = _sqrt_uniform(rng, 1, high)
    return value | 1 if kind == "odd" else value


def _groups(rng, config):
    """Sets groups and the channel counts: plain (groups 1), grouped (a
    divisor of both counts), or depthwise (groups = input channels, output
    channels a multiple of them)."""
    kind = rng.choices(["plain", "grouped", "depthwise"], [55, 20, 25])[0]
    if kind == "depthwise":
        channels = _channels(rng, 512)
        config.groups = config.in_channels = channels
        config.out_channels = channels * rng.choice([1, 1, 1, 2])
    elif kind == "grouped":
        config.groups = rng.choice([2, 3, 4, 5, 8, 16, 32])
        config.in_channels = config.groups * _sqrt_uniform(rng, 1, 24)
        config.out_channels = config.groups * _sqrt_uniform(rng, 1, 24)
    else:
        config.groups = 1
        config.in_channels = _channels(rng)
        config.out_channels = _channels(rng)


def _window(rng, config):
    """Kernel, stride, dilation and padding, non-square ones sometimes."""
    square = rng.random() < 0.75
    k = rng.choice([1, 1, 2, 3, 3, 3, 4, 5, 7])
    config.kernel = (k, k) if square else tuple(
        rng.choice([1, 2, 3, 5, 7]) for _ in range(2))
    s = rng.choices([1, 2, 3], [60, 30, 10])[0]
    config.stride = (s, s) if rng.random() < 0.85 else tuple(
        rng.choice([1, 2, 3]) for _ in range(2))
    d = rng.choices([1, 2, 3], [75, 18, 7])[0]
    config.dilation = (d, d) if rng.random() < 0.85 else tuple(
        rng.choice([1, 2, 3]) for _ in range(2))
    modes = ["symmetric", "f_pad"] + (["same"] if config.stride == (1, 1)
                                      else [])
    config.padding_mode = rng.choices(modes, [55, 30, 15][:len(modes)])[0]
    reach = [d * (k - 1) for k, d in zip(config.kernel, config.dilation)]
    if config.padding_mode == "symmetric":
        config.padding = tuple(rng.randint(0, r // 2 + 1) for r in reach)
    elif config.padding_mode == "f_pad":
        # (left, right, top, bottom): unequal on purpose, zero sometimes.
        config.f_pad = tuple(rng.choice([0, 1, 1, 2, 3]) for _ in range(4))


def _fit(rng, config):
    """Shrinks the case until the output has at least one element and it
    fits the budget: first a kernel larger than its (padded) input, then
    batch or spatial size, whichever a coin picks."""
    for _ in range(200):
        oh, ow = config.output_size()
        if oh < 1 or ow < 1:
            # The window does not fit: grow the input to fit it.
            config.height += max(0, 1 - oh) * config.stride[0]
            config.width += max(0, 1 - ow) * config.stride[1]
            continue
        if config.elements() <= MAX_ELEMENTS and config.macs() <= MAX_MACS:
            return
        if config.batch > 1 and (rng.random() < 0.5 or max(
                config.height, config.width) <= 8):
            config.batch = (config.batch + 1) // 2
        elif max(config.height, config.width) > 8:
            config.height = max(1, config.height * 3 // 4)
            config.width = max(1, config.width * 3 // 4)
        else:  # channels: keep the group structure
            g = config.groups
            config.in_channels = g * max(1, config.in_channels // g // 2)
            config.out_channels = g * max(1, config.out_channels // g // 2)
    raise AssertionError("seed %d: no fitting case" % config.seed)


def make_config(seed: int) -> ConvConfig:
    """The case of `seed`: the same on every machine and Python 3."""
    rng = random.Random(seed)
    dtype, tf32 = PRECISIONS[seed % len(PRECISIONS)]
    layout = LAYOUTS[(seed // len(PRECISIONS)) % len(LAYOUTS)]
    config = ConvConfig(seed=seed, dtype=dtype, tf32=tf32, layout=layout,
                        batch=1, in_channels=1, out_channels=1, groups=1,
                        height=1, width=1, kernel=(1, 1), stride=(1, 1),
                        dilation=(1, 1), padding_mode="symmetric")
    config.batch = rng.choice([1, 1, 2, 3, 4, 7, 8, 16, 32, 64])
    _groups(rng, config)
    config.height = _sqrt_uniform(rng, 1, 224)
    config.width = config.height if rng.random() < 0.6 else \
        _sqrt_uniform(rng, 1, 224)
    _window(rng, config)
    config.bias = rng.random() < 0.6
    config.prologue = rng.choices(PROLOGUES, [50, 12, 8, 8, 10, 12])[0]
    config.bn = rng.random() < 0.4
    config.activation = rng.choices(ACTIVATIONS, [30, 30, 15, 5, 20])[0]
    config.residual = rng.choices(RESIDUALS, [60, 25, 15])[0]
    config.bn_eps = rng.choice([1e-5, 1e-5, 1e-3])
    _fit(rng, config)
    return config


def parse_seeds(text: str) -> List[int]:
    """'A:B' (B excluded), 'N', or a comma-separated list of either."""
    seeds = []
    for part in text.split(","):
        if ":" in part:
            low, high = part.split(":")
            seeds.extend(range(int(low), int(high)))
        elif part:
            seeds.append(int(part))
    return seeds


def _channel_kinds(c: int) -> List[str]:
    kinds = ["odd"] if c % 2 else []
    if c in _PRIMES:
        kinds.append("prime")
    kinds.append("aligned8" if c % 8 == 0 else "unaligned8")
    return kinds


def coverage(configs) -> Dict[str, Dict[str, int]]:
    """axis -> value -> how many configs have it, for every axis the
    fuzzer promises to cover (REQUIRED lists the values)."""
    table: Dict[str, Dict[str, int]] = {}

    def count(axis, value):
        table.setdefault(axis, {}).setdefault(str(value), 0)
        table[axis][str(value)] += 1
    for c in configs:
        count("precision", c.precision)
        count("layout", c.layout)
        count("groups", table_key_groups(c))
        count("stride", "1" if c.stride == (1, 1) else
              "uneven" if c.stride[0] != c.stride[1] else ">1")
        count("dilation", "1" if c.dilation == (1, 1) else
              "uneven" if c.dilation[0] != c.dilation[1] else ">1")
        top, bottom, left, right = c.conv_padding()
        l, r, t, b = c.f_pad
        count("padding", c.padding_mode)
        count("asymmetric", "yes" if (top + t, left + l) != (bottom + b,
                                                             right + r)
              else "no")
        count("padding_hw_differ", "yes" if top + t != left + l else "no")
        count("kernel", "square" if c.kernel[0] == c.kernel[1]
              else "nonsquare")
        for ch in {c.in_channels, c.out_channels}:
            for kind in _channel_kinds(ch):
                count("channels", kind)
        count("batch", "1" if c.batch == 1 else
              "2-16" if c.batch <= 16 else "17-64")
        spatial = max(c.height, c.width)
        count("spatial", "1" if min(c.height, c.width) == 1 else
              "<=16" if spatial <= 16 else "<=64" if spatial <= 64 else
              ">64")
        count("bias", "yes" if c.bias else "no")
        count("prologue", c.prologue)
        count("bn", "yes" if c.bn else "no")
        count("activation", c.activation)
        count("residual", c.residual)
        # Each precision in each layout, with each kind of grouping and
        # padding, and with both a prologue and an epilogue batch norm.
        group_kind = table_key_groups(c)
        count("precision*layout", c.precision + "/" + c.layout)
        count("precision*groups", c.precision + "/" + group_kind)
        count("precision*padding", c.precision + "/" + c.padding_mode)
        if c.prologue.startswith("bn"):
            count("precision*prologue_bn", c.precision)
        if c.bn:
            count("precision*epilogue_bn", c.precision)
        if c.residual != "none":
            count("layout*residual", c.layout)
    return table


def table_key_groups(c) -> str:
    return "depthwise" if c.depthwise else "grouped" if c.groups > 1 \
        else "1"


_PRECISION_NAMES = ["f32", "tf32", "f16", "bf16"]

# What 500 seeds must cover (the lit test checks it).
REQUIRED = {
    "precision": _PRECISION_NAMES,
    "layout": LAYOUTS,
    "groups": ["1", "grouped", "depthwise"],
    "stride": ["1", ">1", "uneven"],
    "dilation": ["1", ">1", "uneven"],
    "padding": PADDINGS,
    "asymmetric": ["yes", "no"],
    "padding_hw_differ": ["yes", "no"],
    "kernel": ["square", "nonsquare"],
    "channels": ["odd", "prime", "aligned8", "unaligned8"],
    "batch": ["1", "2-16", "17-64"],
    "spatial": ["1", "<=16", "<=64", ">64"],
    "bias": ["yes", "no"],
    "prologue": PROLOGUES,
    "bn": ["yes", "no"],
    "activation": ACTIVATIONS,
    "residual": RESIDUALS,
    "precision*layout": ["%s/%s" % (p, l) for p in _PRECISION_NAMES
                         for l in LAYOUTS],
    "precision*groups": ["%s/%s" % (p, g) for p in _PRECISION_NAMES
                         for g in ("1", "grouped", "depthwise")],
    "precision*padding": ["%s/%s" % (p, m) for p in _PRECISION_NAMES
                          for m in PADDINGS],
    "precision*prologue_bn": _PRECISION_NAMES,
    "precision*epilogue_bn": _PRECISION_NAMES,
    "layout*residual": LAYOUTS,
}


def missing(table) -> List[str]:
    """'axis=value' for each REQUIRED value no config has."""
    return ["%s=%s" % (axis, v) for axis, values in REQUIRED.items()
            for v in values if not table.get(axis, {}).get(v)]
