#!/usr/bin/env python3
"""The RNN benchmark (issue 8), run on a GPU machine: the runtime's cuDNN
RNNs (cmrtRnn*, called through ctypes with buffers allocated up front, as
compiled code calls them) against torch.nn.LSTM / torch.nn.GRU (which also
use cuDNN) in one process, for seq 128, batch {1, 32, 256}, hidden {256,
1024} (input = hidden), layers {1, 4}, f32 and f16.

    python3 benchmarks/run_rnn_benchmarks.py [--out FILE] [--quick]
        [--rows cell,dtype,batch,hidden,layers ...] [--repeats N]

Three times per row, each the median over REPEATS of (CALLS back-to-back
calls, CUDA events) / CALLS after WARMUP calls, per-call host cost
included. The nine functions of a row are timed round-robin (one
measurement of each, REPEATS times, the order reversed every other round),
so that clock or load drift during a row affects both sides alike; many
rows are bound by the host launching cuDNN's per-step kernels, where this
matters. Each ratio is given twice: the ratio of the two medians, and
"paired", the median over rounds of the ratio of the two measurements of
the same round (which cancels drift between rounds):
- inference: forward without a reserve space; torch: the module in eval
  mode under no_grad;
- training forward: forward that keeps the reserve space; torch: the module
  in train mode with autograd recording;
- backward: ours = backward data + backward weights + copying the weight
  gradient back into PyTorch's per-parameter layout; torch = `backward()`
  through one recorded training forward (retain_graph, so the same graph
  runs backward each call).
"ours" uses the runtime's default algorithm choice (PyTorch's rules);
"tuned" builds with CMRT_RNN_AUTOTUNE (every algorithm cuDNN accepts timed
once at build). Ratios are torch time / our time (> 1: we are faster). f32 runs exact on
both sides (torch.backends.cudnn.allow_tf32 = False; ours FMA math). Before
timing, our inference output is checked against torch's (max abs error
1e-4 for f32, 1e-2 for f16); a wrong result fails the run.
"""
import argparse
import ctypes
import itertools
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

from cudnn_mlir.runtime import loader  # noqa: E402

RUNTIME = loader.load_runtime_before_torch()

import torch  # noqa: E402
from cudnn_mlir.runtime import rnn_runtime  # noqa: E402
from cuda_timing import ms_per_call  # noqa: E402

SEQ = 128
WARMUP, CALLS, REPEATS = 2, 3, 9


class OurRnn:
    """One configuration with every buffer allocated once."""

    def __init__(self, module, cell, batch, dtype_name, autotune=False):
        self.rnn = rnn_runtime.RuntimeRnn(
            RUNTIME, cell, module.input_size, module.hidden_size, SEQ, batch,
            num_layers=module.num_layers, dtype=dtype_name, trainable=True,
            autotune=autotune)
        lib = self.rnn.lib
        self.lib = lib
        self.params = [p.detach() for p in module._flat_weights]
        self.weights = self.rnn.pack(self.params)
        dev, dt = self.weights.device, self.params[0].dtype
        h = module.hidden_size
        states = module.num_layers
        self.x = torch.randn(SEQ, batch, module.input_size, device=dev,
                             dtype=dt)
        self.y = torch.empty(SEQ, batch, h, device=dev, dtype=dt)
        self.dy = torch.randn_like(self.y)
        self.dx = torch.empty_like(self.x)
        self.hx = torch.zeros(states, batch, h, device=dev, dtype=dt)
        self.hy = torch.empty_like(self.hx)
        self.dhx = torch.empty_like(self.hx)
        lstm = cell == "lstm"
        self.cx = torch.zeros_like(self.hx) if lstm else None
        self.cy = torch.empty_like(self.hx) if lstm else None
        self.dcx = torch.empty_like(self.hx) if lstm else None
        info = self.rnn.info
        self.reserve = torch.empty(max(info["reserveBytes"], 1),
                                   dtype=torch.uint8, device=dev)
        self.dweights = torch.empty_like(self.weights)
        self.grads = [torch.empty_like(p) for p in self.params]
        ptr = rnn_runtime._pointer
        self.buffers = ctypes.byref(rnn_runtime.Buffers(
            x=ptr(self.x), y=ptr(self.y), hx=ptr(self.hx), hy=ptr(self.hy),
            cx=ptr(self.cx), cy=ptr(self.cy), dy=ptr(self.dy),
            dx=ptr(self.dx), dhx=ptr(self.dhx), dcx=ptr(self.dcx),
            weights=ptr(self.weights), dweights=ptr(self.dweights),
            reserve=ptr(self.reserve)))
        self.grad_pointers = (ctypes.c_void_p * len(self.grads))(
            *[g.data_ptr() for g in self.grads])
        self.handle = self.rnn.handle
        self.stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.cmrtGetLastErrorMessage().decode())

    def inference(self):
        self.check(self.lib.cmrtRnnForward(self.handle, self.stream, 0,
                                           self.buffers))

    def training_forward(self):
        self.check(self.lib.cmrtRnnForward(self.handle, self.stream, 1,
                                           self.buffers))

    def backward(self):
        self.check(self.lib.cmrtRnnBackwardData(self.handle, self.stream,
                                                self.buffers))
        self.check(self.lib.cmrtRnnBackwardWeights(self.handle, self.stream,
                                                   self.buffers))
        self.check(self.lib.cmrtRnnUnpackWeights(
            self.handle, self.stream, self.dweights.data_ptr(),
            self.grad_pointers, len(self.grads)))


def time_round_robin(fns, repeats=REPEATS):
    """Per function, its `repeats` measurements (ms per call), taken in
    turns: one of each function per round, the order reversed every other
    round so that no function always follows the same one."""
    for fn in fns:
        for _ in range(WARMUP):
            fn()
    samples = [[] for _ in fns]
    order = list(range(len(fns)))
    for round_ in range(repeats):
        for i in (order if round_ % 2 == 0 else order[::-1]):
            samples[i].append(ms_per_call(torch, fns[i], CALLS))
    return samples


def paired_ratio(reference, ours):
    """Median over rounds of reference / ours measured in the same round:
    drift between rounds (the host's launch rate on launch-bound rows)
    cancels, which it does not in a ratio of the two medians."""
    return statistics.median(r / o for r, o in zip(reference, ours))


def bench_row(cell, batch, hidden, layers, dtype_name, repeats=REPEATS):
    dt = {"f32": torch.float32, "f16": torch.float16}[dtype_name]
    cls = torch.nn.LSTM if cell == "lstm" else torch.nn.GRU
    module = cls(hidden, hidden, num_layers=layers).cuda().to(dt)
    ours = OurRnn(module, cell, batch, dtype_name)
    tuned = OurRnn(module, cell, batch, dtype_name, autotune=True)
    tuned.x.copy_(ours.x)

    x = ours.x
    tol = 1e-4 if dtype_name == "f32" else 1e-2
    with torch.no_grad():
        module.eval()
        ref, _ = module(x)
        for which in (ours, tuned):
            which.inference()
            torch.cuda.synchronize()
            err = (which.y.float() - ref.float()).abs().max().item()
            if not err <= tol:
                raise SystemExit(
                    "%s batch %d hidden %d layers %d %s (algo %d): our "
                    "output differs from torch by %.3g > %.3g" % (
                        cell, batch, hidden, layers, dtype_name,
                        which.rnn.info["algo"], err, tol))

    xg = x.detach().requires_grad_()
    dy = ours.dy

    def torch_inference():
        module.eval()
        with torch.no_grad():
            module(x)

    def torch_train_forward():
        module.train()
        module(xg)

    module.train()
    recorded, _ = module(xg)

    def torch_backward():
        recorded.backward(dy, retain_graph=True)

    ours.training_forward()
    tuned.training_forward()
    samples = time_round_robin(
        [torch_inference, torch_train_forward, torch_backward,
         ours.inference, ours.training_forward, ours.backward,
         tuned.inference, tuned.training_forward, tuned.backward], repeats)
    times = [statistics.median(s) for s in samples]
    return dict(algo=ours.rnn.info["algo"], tuned_algo=tuned.rnn.info["algo"],
                torch=times[0:3], ours=times[3:6], tuned=times[6:9],
                paired_ours=[paired_ratio(samples[i], samples[3 + i])
                             for i in range(3)],
                paired_tuned=[paired_ratio(samples[i], samples[6 + i])
                              for i in range(3)])


def profile_row(spec):
    """Kernels (name, count, total GPU ms) and CUDA calls of torch's and our
    inference, training forward and backward for one row,
    "cell,dtype,batch,hidden,layers": to see where two paths that both run
    cuDNN differ."""
    cell, dtype_name, batch, hidden, layers = spec.split(",")
    batch, hidden, layers = int(batch), int(hidden), int(layers)
    dt = {"f32": torch.float32, "f16": torch.float16}[dtype_name]
    cls = torch.nn.LSTM if cell == "lstm" else torch.nn.GRU
    module = cls(hidden, hidden, num_layers=layers).cuda().to(dt)
    ours = OurRnn(module, cell, batch, dtype_name)
    xg = ours.x.detach().requires_grad_()
    module.train()
    recorded, _ = module(xg)
    ours.training_forward()

    def torch_inference():
        module.eval()
        with torch.no_grad():
            module(ours.x)

    def torch_train_forward():
        module.train()
        module(xg)

    from torch.profiler import ProfilerActivity, profile
    for name, fn in (
            ("torch inference", torch_inference),
            ("ours inference", ours.inference),
            ("torch training forward", torch_train_forward),
            ("ours training forward", ours.training_forward),
            ("torch backward",
             lambda: recorded.backward(ours.dy, retain_graph=True)),
            ("ours backward", ours.backward)):
        fn()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU,
                                 ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        print("== %s %s" % (name, spec))
        print(prof.key_averages().table(sort_by="cuda_time_total",
                                        row_limit=12,
                                        max_name_column_width=70))


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--quick", action="store_true",
                        help="batch 32, hidden 256, 1 layer only")
    parser.add_argument("--rows", action="append", default=[],
                        help="cell,dtype,batch,hidden,layers: time only "
                        "these rows (repeatable)")
    parser.add_argument("--repeats", type=int, default=REPEATS,
                        help="measurements per function and row (median "
                        "taken; default %d)" % REPEATS)
    parser.add_argument("--profile", action="append", default=[],
                        help="cell,dtype,batch,hidden,layers: list the "
                        "kernels and CUDA calls of both paths' inference, "
                        "training forward and backward instead")
    args = parser.parse_args(argv)
    if RUNTIME is None:
        print("expects CUDNN_MLIR_RUNTIME_LIB to name the runtime library")
        return 2
    torch.backends.cudnn.allow_tf32 = False
    if args.profile:
        for spec in args.profile:
            profile_row(spec)
        return 0
    lines = ["device: %s, torch %s, cuDNN %s; seq %d; times in ms (torch / "
             "ours = ratio, > 1: we are faster)" % (
                 torch.cuda.get_device_name(), torch.__version__,
                 torch.backends.cudnn.version(), SEQ),
             "| cell | dtype | batch | hidden | layers | algo (tuned) | "
             "inference torch / ours / tuned | ratios | training fwd torch / "
             "ours / tuned | ratios | backward torch / ours / tuned | ratios |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    grid = itertools.product(["lstm", "gru"], ["f32", "f16"], [1, 32, 256],
                             [256, 1024], [1, 4])
    if args.quick:
        grid = [(c, d, 32, 256, 1) for c in ("lstm", "gru")
                for d in ("f32", "f16")]
    if args.rows:
        grid = [(c, d, int(b), int(h), int(n)) for c, d, b, h, n in
                (row.split(",") for row in args.rows)]
    ratios = {"ours": [], "tuned": [], "ours paired": [], "tuned paired": []}
    for cell, dtype_name, batch, hidden, layers in grid:
        r = bench_row(cell, batch, hidden, layers, dtype_name, args.repeats)
        cells = []
        for t, o, u, po, pu in zip(r["torch"], r["ours"], r["tuned"],
                                   r["paired_ours"], r["paired_tuned"]):
            ratios["ours"].append(t / o)
            ratios["tuned"].append(t / u)
            ratios["ours paired"].append(po)
            ratios["tuned paired"].append(pu)
            cells += ["%.3f / %.3f / %.3f" % (t, o, u),
                      "%.2fx / %.2fx (paired %.2fx / %.2fx)"
                      % (t / o, t / u, po, pu)]
        line = "| %s | %s | %d | %d | %d | %d (%d) | %s |" % (
            cell, dtype_name, batch, hidden, layers, r["algo"],
            r["tuned_algo"], " | ".join(cells))
        lines.append(line)
        print(line, flush=True)
    for which in ("ours", "tuned", "ours paired", "tuned paired"):
        values = ratios[which]
        lines.append("%s: worst %.2fx, median %.2fx, %d of %d times >= 0.95x"
                     % (which, min(values), statistics.median(values),
                        sum(v >= 0.95 for v in values), len(values)))
        print(lines[-1])
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
