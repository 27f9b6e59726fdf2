"""Times every cuDNN RNN algorithm (cudnnRNNAlgo_t 0 standard, 1 persistent
static, 2 persistent dynamic, 3 persistent static for small hidden sizes)
through the runtime for the RNN benchmark's grid (seq 128; LSTM and GRU;
f32 and f16; batch 1, 32, 256; hidden 256, 1024; 1 and 4 layers),
inference and a training step (forward + both backward passes). A line per
shape: "a<algo> <ms>", "ERR" if the output differs from torch.nn's by more
than 2e-2, "--" with the reason if cuDNN refuses the algorithm. What the
CMRT_RNN_AUTOTUNE candidate rules (RnnConfig.cpp) are based on.

    CUDNN_MLIR_RUNTIME_LIB=... python3 benchmarks/probe_rnn_algorithms.py
"""
import itertools
import statistics
import sys
sys.path.insert(0, "python"); sys.path.insert(0, "benchmarks")
from cudnn_mlir.runtime import loader
RUNTIME = loader.load_runtime_before_torch()
import torch
from cudnn_mlir.runtime import rnn_runtime
from cuda_timing import ms_per_call
torch.backends.cudnn.allow_tf32 = False
SEQ = 128
def t(fn):
    for _ in range(2): fn()
    return statistics.median(ms_per_call(torch, fn, 3) for _ in range(5))
for cell, dt, batch, hidden, layers, trainable in itertools.product(["lstm","gru"], ["f32","f16"], [1,32,256], [256,1024], [1,4], [False, True]):
    tdt = {"f32": torch.float32, "f16": torch.float16}[dt]
    cls = torch.nn.LSTM if cell == "lstm" else torch.nn.GRU
    m = cls(hidden, hidden, num_layers=layers).cuda().to(tdt)
    x = torch.randn(SEQ, batch, hidden, device="cuda", dtype=tdt)
    res = []
    for algo in (0, 1, 2, 3):
        try:
            r = rnn_runtime.RuntimeRnn(RUNTIME, cell, hidden, hidden, SEQ, batch, num_layers=layers, dtype=dt, trainable=trainable, algo=algo)
            w = r.pack(list(m._flat_weights))
            h = torch.zeros(layers, batch, hidden, device="cuda", dtype=tdt)
            c = h if cell == "lstm" else None
            y, hy, cy, res_ = r.forward(x, h, c, w, (SEQ, batch, hidden), trainable)
            with torch.no_grad():
                m.eval(); ref, _ = m(x)
            err = (y.float() - ref.float()).abs().max().item()
            if trainable:
                dy = torch.randn_like(y)
                fn = lambda: (r.forward(x, h, c, w, (SEQ, batch, hidden), True), r.backward_data((SEQ, batch, hidden), y, dy, h, None, c, None, w, res_), r.backward_weights(x, h, y, res_))
            else:
                fn = lambda: r.forward(x, h, c, w, (SEQ, batch, hidden), False)
            res.append("a%d %.3f%s" % (algo, t(fn), "" if err < 2e-2 else " ERR%.2g" % err))
        except Exception as e:
            res.append("a%d -- (%s)" % (algo, str(e)[:60]))
    print(cell, dt, batch, hidden, layers, "train" if trainable else "inf", " | ".join(res), flush=True)
