"""The end-to-end test registry, in the style of torch-mlir's e2e suite: each
test is an nn.Module factory registered by name with its example inputs and
the tolerance its outputs are compared to eager PyTorch with. Expected
failures live in xfail.py, a side table, and are reported as such.

    @register("conv2d_bias", inputs=lambda: [rand(2, 3, 8, 8)])
    def conv2d_bias():
        return nn.Conv2d(3, 8, 3, padding=1)
"""

import torch

# name -> Test
TESTS = {}

# Tolerances against eager PyTorch on the same GPU (max |ours - eager| <=
# atol + rtol * |eager|, elementwise). fp32 runs with TF32 off on both sides;
# fp16 accumulates in fp32 on both, but the two libraries pick different
# engines and fusions, so the bound is a few fp16 ulps of the output scale.
TOLERANCES = {"f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2), "bf16": (5e-2, 5e-2)}


class Test:
    def __init__(self, name, factory, inputs, dtypes, train, tolerance,
                 cpu_inputs=(), partitioned=False):
        self.name, self.factory, self.inputs = name, factory, inputs
        # Has ops the importer does not take on purpose: compiles in
        # partitions, those ops in PyTorch (cudnn_mlir/partition.py); every
        # other test must compile whole.
        self.partitioned = partitioned
        self.dtypes, self.train = dtypes, train
        self.tolerance = tolerance or {}
        # Inputs that stay on the CPU (pack_padded_sequence's lengths).
        self.cpu_inputs = tuple(cpu_inputs)

    def tolerance_for(self, dtype):
        if dtype == "bf16" and "bf16" not in self.tolerance:
            # bf16 keeps 8 bits of mantissa to fp16's 11: 8x fp16's bound,
            # at least the default.
            f16 = self.tolerance.get("f16")
            if f16:
                return tuple(max(8 * t, d) for t, d in
                             zip(f16, TOLERANCES["bf16"]))
        return self.tolerance.get(dtype, TOLERANCES[dtype])

    def build(self, dtype, device="cpu"):
        """(model, inputs) in `dtype` on `device`, with weights and inputs
        from a fixed seed."""
        torch.manual_seed(0)
        model = self.factory()
        model.train(self.train)
        inputs = self.inputs()
        torch_dtype = {"f32": torch.float32, "f16": torch.float16,
                       "bf16": torch.bfloat16}[dtype]
        model = model.to(device=device, dtype=torch_dtype)
        inputs = [i if n in self.cpu_inputs else
                  i.to(device=device, dtype=torch_dtype)
                  if i.is_floating_point() else i.to(device)
                  for n, i in enumerate(inputs)]
        return model, inputs


def register(name, inputs, dtypes=("f32", "f16", "bf16"), train=False,
             tolerance=None, cpu_inputs=(), partitioned=False):
    def add(factory):
        if name in TESTS:
            raise ValueError("e2e test '%s' is registered twice" % name)
        TESTS[name] = Test(name, factory, inputs, dtypes, train, tolerance,
                           cpu_inputs, partitioned)
        return factory
    return add


def rand(*shape, low=-1.0, high=1.0):
    return torch.rand(*shape) * (high - low) + low


def causal_mask(length):
    """0 on and below the diagonal, -inf above: a causal mask as an
    additive float attn_mask."""
    return torch.full((length, length), float("-inf")).triu(1)
